/* src/leaves/math/ddmath.h: double-double arithmetic (a value as the unevaluated sum hi + lo
 * of two doubles, about 106 significant bits) and the exp and log the float64 corrections of
 * vmath_ops.h compute in it. Written in double operations and fma() alone, each a separate
 * statement (no contraction can change a rounding), so that a correction gives the same bits
 * on every host: long double is x87's 64 bits on x86, binary128 on aarch64, a pair of doubles
 * on ppc64le and double itself on armhf. Relative error about 2^-100 in the ranges used, so
 * a result rounded from it is the correctly rounded one but for inputs within 2^-47 ULP of a
 * tie. Included only from vmath_ops.h. */
#ifndef CKERNEL_DDMATH_H
#define CKERNEL_DDMATH_H

#include <math.h>

typedef struct ck__dd {
    double hi, lo;
} ck__dd;

/* a + b exactly (Knuth's two-sum), and for |a| >= |b| (Dekker's fast two-sum). */
static inline ck__dd ck__dd_two_sum(double a, double b) {
    const double s = a + b;
    const double bb = s - a;
    const double ab = s - bb;
    const double eb = b - bb;
    const double ea = a - ab;
    const ck__dd r = {s, ea + eb};
    return r;
}
static inline ck__dd ck__dd_fast_sum(double a, double b) {
    const double s = a + b;
    const double t = s - a;
    const ck__dd r = {s, b - t};
    return r;
}

static inline ck__dd ck__dd_add(ck__dd a, ck__dd b) {
    ck__dd s = ck__dd_two_sum(a.hi, b.hi);
    const ck__dd t = ck__dd_two_sum(a.lo, b.lo);
    s.lo += t.hi;
    s = ck__dd_fast_sum(s.hi, s.lo);
    s.lo += t.lo;
    return ck__dd_fast_sum(s.hi, s.lo);
}

static inline ck__dd ck__dd_neg(ck__dd a) {
    const ck__dd r = {-a.hi, -a.lo};
    return r;
}

static inline ck__dd ck__dd_mul(ck__dd a, ck__dd b) {
    const double p = a.hi * b.hi;
    double e = fma(a.hi, b.hi, -p);
    const double c1 = a.hi * b.lo;
    const double c2 = a.lo * b.hi;
    e += c1;
    e += c2;
    return ck__dd_fast_sum(p, e);
}

static inline ck__dd ck__dd_mul_d(ck__dd a, double b) {
    const double p = a.hi * b;
    double e = fma(a.hi, b, -p);
    const double c = a.lo * b;
    e += c;
    return ck__dd_fast_sum(p, e);
}

/* a / b: a first quotient, then the remainder's (exact through fma) quotient. */
static inline ck__dd ck__dd_div_d(ck__dd a, double b) {
    const double q1 = a.hi / b;
    const double r = fma(-q1, b, a.hi); /* a.hi - q1 * b, exactly */
    const double q2 = (r + a.lo) / b;
    return ck__dd_fast_sum(q1, q2);
}

static inline ck__dd ck__dd_div(ck__dd a, ck__dd b) {
    const double q1 = a.hi / b.hi;
    ck__dd r = ck__dd_add(a, ck__dd_neg(ck__dd_mul_d(b, q1)));
    const double q2 = r.hi / b.hi;
    r = ck__dd_add(r, ck__dd_neg(ck__dd_mul_d(b, q2)));
    const double q3 = r.hi / b.hi;
    return ck__dd_add(ck__dd_fast_sum(q1, q2), (ck__dd){q3, 0.0});
}

/* ln 2 to 106 bits. */
static const ck__dd ck__dd_ln2 = {0x1.62e42fefa39efp-1, 0x1.abc9e3b39803fp-56};

/* e^r - 1 for |r| <= 0.35: the Taylor series of r / 1024 to degree 10 (its remainder below
 * 2^-116 of the sum), then ten squarings as (1 + m)^2 - 1 = m (2 + m), which keep the
 * relative error of m. */
static inline ck__dd ck__dd_expm1_small(ck__dd r) {
    const ck__dd s = {r.hi * 0x1p-10, r.lo * 0x1p-10};
    ck__dd t = {1.0, 0.0};
    for (int k = 10; k >= 2; k--) { /* 1 + s/2 (1 + s/3 (1 + ... (1 + s/10))) */
        t = ck__dd_add((ck__dd){1.0, 0.0}, ck__dd_div_d(ck__dd_mul(s, t), (double)k));
    }
    ck__dd m = ck__dd_mul(s, t);
    for (int k = 0; k < 10; k++) {
        m = ck__dd_mul(m, ck__dd_add((ck__dd){2.0, 0.0}, m));
    }
    return m;
}

/* e^t / 2^down, rounded once, for t in [-700, 750] (larger t, and results past the largest
 * double, overflow to infinity with the overflow flag; the corrections have no results
 * below the normal range, and t below -700 gives 0). */
static inline double ck__dd_exp_scaled(ck__dd t, int down) {
    if (t.hi > 750.0) {
        return ldexp(0x1p1000, 1000); /* overflows */
    }
    if (!(t.hi >= -700.0)) {
        return 0.0;
    }
    /* t = k ln 2 + r, |r| <= ln 2 / 2 (+ a rounding) */
    const double k = floor(t.hi * 0x1.71547652b82fep0 + 0.5);
    const ck__dd r = ck__dd_add(t, ck__dd_neg(ck__dd_mul_d(ck__dd_ln2, k)));
    const ck__dd e = ck__dd_add((ck__dd){1.0, 0.0}, ck__dd_expm1_small(r));
    return ldexp(e.hi, (int)k - down); /* e.hi is e rounded; the scaling is exact */
}

/* log x for a finite x > 0 (subnormal too): x = m 2^q with m in [sqrt(1/2), sqrt(2)), and
 * log m = 2 atanh(u), u = (m - 1) / (m + 1), |u| < 0.172, by its series to u^43 (remainder
 * below 2^-110 of the sum). */
static inline ck__dd ck__dd_log(double x) {
    int q;
    double m = frexp(x, &q); /* m in [1/2, 1), exact */
    if (m < 0x1.6a09e667f3bcdp-1) {
        m *= 2.0;
        q -= 1;
    }
    const ck__dd u = ck__dd_div((ck__dd){m - 1.0, 0.0}, ck__dd_two_sum(m, 1.0));
    const ck__dd u2 = ck__dd_mul(u, u);
    ck__dd sum = ck__dd_div_d((ck__dd){1.0, 0.0}, 43.0);
    for (int k = 41; k >= 1; k -= 2) { /* 1/k + u^2 (1/(k+2) + u^2 (...)) */
        sum = ck__dd_add(ck__dd_div_d((ck__dd){1.0, 0.0}, (double)k), ck__dd_mul(u2, sum));
    }
    const ck__dd log_m = ck__dd_mul_d(ck__dd_mul(u, sum), 2.0);
    return ck__dd_add(log_m, ck__dd_mul_d(ck__dd_ln2, (double)q));
}

#endif
