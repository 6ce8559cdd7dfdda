/* src/callables/fp_errors.c: CK_EVAL_FP_ERRORS (docs/design.md §10, "Floating-point
 * errors"): the fp_check kernel, which a call's leaf is built under when the flag is set and
 * its signature can fail so. It runs the leaf over its run, then reads each element's
 * arguments and result and reports the first that NumPy's np.errstate(all="raise") would
 * (underflow aside, which NumPy ignores by default):
 *   invalid          a NaN result where no argument is NaN (sqrt(-1), inf - inf, 0 / 0):
 *                    CK_ERR_DOMAIN;
 *   division by zero an infinite result of finite arguments at a pole of the function
 *                    (x / 0, log(0), log1p(-1), arctanh(1), power(0, -1)), and an integer
 *                    floor_divide, remainder or fmod by 0: CK_ERR_ZERO_DIVISION;
 *   overflow         an infinite result of finite arguments elsewhere (exp(1000), 1e300 *
 *                    1e300, a float16 result past 65504), and the integer floor_divide of
 *                    the type's minimum by -1: CK_ERR_OVERFLOW;
 * naming the function, the error and the values: "exp: overflow: exp(1000) = inf at element
 * [3]". The values decide, not the FPU's flags: they are the same on every CPU target and in
 * every vector width, where flags depend on what a vector computes beyond the elements (its
 * padding lanes) and on the library's internal steps; and the caller's flags stay the
 * caller's. NumPy's spacing(inf) is NaN without an error: so is ckernel's. The built-in
 * sums and products of floats, whose folds are no callable's leaf, are the one place the
 * flags decide (the fp_flags kernel, at the end of this file). */
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "callables/callable_internal.h"
#include "common/bfloat16.h"
#include "common/float16.h"
#include "common/internal.h"
#include "common/scalars.h"
#include "core/kinds.h"
#include "leaves/numeric/arith_leaves.h"
#include "values/numtext.h"

/* Where a function's infinite results of finite arguments are divisions by zero. */
typedef enum ck__fp_rule {
    CK__FP_PLAIN,        /* none: they are overflows */
    CK__FP_DIVISOR,      /* the second argument is 0 (reciprocal: the first) */
    CK__FP_ZERO,         /* the first argument is 0 */
    CK__FP_POWER,        /* the first argument is 0, also with an infinite exponent (C's pow) */
    CK__FP_MINUS_ONE,    /* the first argument is -1 */
    CK__FP_UNIT,         /* the first argument is 1 or -1 */
    CK__FP_NO_INVALID,   /* overflows only: a NaN of a non-NaN argument is no error */
    CK__FP_INT_DIVISION, /* integer results: a divisor of 0, and floor_divide's MIN / -1 */
    CK__FP_INT_FLOOR_DIVISION
} ck__fp_rule;

static const struct {
    const char *name;
    ck__fp_rule floats, integers; /* PLAIN integers: no check */
} ck__fp_rules[] = {
    {"divide", CK__FP_DIVISOR, CK__FP_PLAIN},
    {"true_divide", CK__FP_DIVISOR, CK__FP_PLAIN},
    {"floor_divide", CK__FP_DIVISOR, CK__FP_INT_FLOOR_DIVISION},
    {"divmod", CK__FP_DIVISOR, CK__FP_INT_FLOOR_DIVISION}, /* its quotient, the first result */
    {"remainder", CK__FP_PLAIN, CK__FP_INT_DIVISION},
    {"mod", CK__FP_PLAIN, CK__FP_INT_DIVISION},
    {"fmod", CK__FP_PLAIN, CK__FP_INT_DIVISION},
    {"reciprocal", CK__FP_DIVISOR, CK__FP_PLAIN},
    {"log", CK__FP_ZERO, CK__FP_PLAIN},
    {"log2", CK__FP_ZERO, CK__FP_PLAIN},
    {"log10", CK__FP_ZERO, CK__FP_PLAIN},
    {"power", CK__FP_POWER, CK__FP_PLAIN},
    {"float_power", CK__FP_ZERO, CK__FP_PLAIN},
    {"log1p", CK__FP_MINUS_ONE, CK__FP_PLAIN},
    {"arctanh", CK__FP_UNIT, CK__FP_PLAIN},
    {"spacing", CK__FP_NO_INVALID, CK__FP_PLAIN},
};

static int rule_of(const char *name, int integer) {
    for (size_t i = 0; i < CK__ARRAY_SIZE(ck__fp_rules); i++) {
        if (strcmp(name, ck__fp_rules[i].name) == 0) {
            return integer ? (int)ck__fp_rules[i].integers : (int)ck__fp_rules[i].floats;
        }
    }
    return CK__FP_PLAIN;
}

static int is_floating(ck_type_id id) {
    return ck__scalar_is_float(id) || ck__scalar_is(id, CK__SCALAR_KIND_COMPLEX);
}

/* -1 when a leaf of this signature needs no check, else its rule. */
static int check_rule(const char *name, int nargs, const ck_type_id *args, ck_type_id ret) {
    if (nargs < 1 || nargs > 2) {
        return -1;
    }
    if (is_floating(ret)) {
        return rule_of(name, 0);
    }
    const int r = ck__scalar_is_integer(ret) && nargs == 2 && args[1] == ret ? rule_of(name, 1)
                                                                             : CK__FP_PLAIN;
    return r == CK__FP_PLAIN ? -1 : r;
}

typedef struct ck__fp_check {
    ck_prefix base;
    uint8_t nargs, rule;
    uint8_t args[2], ret;
    char name[27]; /* the callable's, cut short: for the message */
} ck__fp_check;

#define CK__FP_CHECK_CHILD CK_ALIGN_OFFSET(sizeof(ck__fp_check))

/* An element's parts (a complex's two), as doubles. */
static int parts_of(ck_type_id id, const char *p, double v[2]) {
    float f[2];
    switch (id) {
    case CK_TYPE_FLOAT16: {
        uint16_t h;
        memcpy(&h, p, sizeof h);
        v[0] = ck__half_to_float(h);
        return 1;
    }
    case CK_TYPE_BFLOAT16: {
        uint16_t h;
        memcpy(&h, p, sizeof h);
        v[0] = ck__bfloat16_to_float(h);
        return 1;
    }
    case CK_TYPE_FLOAT32:
        memcpy(f, p, sizeof f[0]);
        v[0] = f[0];
        return 1;
    case CK_TYPE_FLOAT64: memcpy(v, p, sizeof v[0]); return 1;
    case CK_TYPE_COMPLEX64:
        memcpy(f, p, sizeof f);
        v[0] = f[0], v[1] = f[1];
        return 2;
    case CK_TYPE_COMPLEX128: memcpy(v, p, 2 * sizeof v[0]); return 2;
    default: {
        /* integers and bool: finite, and only their zero matters */
        uint64_t u = 0;
        const size_t n = ck_type_data_size(ck_type_scalar(id));
        memcpy(&u, p, n < sizeof u ? n : sizeof u); /* little- or big-endian: 0 is 0 */
        v[0] = u != 0 ? 1.0 : 0.0;
        return 1;
    }
    }
}

static int any_nan(const double *v, int n) {
    return isnan(v[0]) || (n == 2 && isnan(v[1]));
}

static int any_inf(const double *v, int n) {
    return isinf(v[0]) || (n == 2 && isinf(v[1]));
}

static int is_value(const double *v, int n, double x) {
    return v[0] == x && (n == 1 || v[1] == 0.0);
}

/* The integer at p (any alignment) as int64 (a uint64 as its bits), and in *minimum whether
 * it is its signed type's minimum. */
#define CK__FP_INT_CASE(bits)                                                                      \
  case bits / 8: {                                                                                 \
    int##bits##_t x;                                                                               \
    uint##bits##_t u;                                                                              \
    memcpy(&x, p, sizeof x), memcpy(&u, p, sizeof u);                                              \
    *minimum = sign && x == INT##bits##_MIN;                                                       \
    return sign ? (int64_t)x : (int64_t)u;                                                         \
  }
static int64_t int_value(ck_type_id id, const char *p, int *minimum) {
    const int sign = ck__scalar_is(id, CK__SCALAR_KIND_SIGNED);
    switch (ck_type_data_size(ck_type_scalar(id))) {
        CK__FP_INT_CASE(8)
        CK__FP_INT_CASE(16)
        CK__FP_INT_CASE(32)
        CK__FP_INT_CASE(64)
    default: *minimum = 0; return 0;
    }
}
#undef CK__FP_INT_CASE

/* The status element (a, b) -> r raises, or CK_OK. *what: the error's name. */
static int classify(const ck__fp_check *k, const char *r, const char *a, const char *b,
                    const char **what) {
    if (k->rule == CK__FP_INT_DIVISION || k->rule == CK__FP_INT_FLOOR_DIVISION) {
        int amin, bmin;
        (void)int_value((ck_type_id)k->args[0], a, &amin);
        const int64_t y = int_value((ck_type_id)k->args[1], b, &bmin);
        if (y == 0) {
            *what = "division by zero";
            return CK_ERR_ZERO_DIVISION;
        }
        if (k->rule == CK__FP_INT_FLOOR_DIVISION && amin && y == -1 &&
            ck__scalar_is(k->args[1], CK__SCALAR_KIND_SIGNED)) {
            *what = "overflow";
            return CK_ERR_OVERFLOW;
        }
        return CK_OK;
    }
    double rv[2], av[2], bv[2] = {0, 0};
    const int rn = parts_of((ck_type_id)k->ret, r, rv);
    const int an = parts_of((ck_type_id)k->args[0], a, av);
    const int bn = k->nargs == 2 ? parts_of((ck_type_id)k->args[1], b, bv) : 1;
    const int nan_in = any_nan(av, an) || (k->nargs == 2 && any_nan(bv, bn));
    if (nan_in) {
        return CK_OK; /* a NaN argument's NaN result is no error */
    }
    if (any_nan(rv, rn)) {
        if (k->rule == CK__FP_NO_INVALID) {
            return CK_OK;
        }
        *what = "invalid value";
        return CK_ERR_DOMAIN;
    }
    if (k->rule == CK__FP_POWER && any_inf(rv, rn) && is_value(av, an, 0.0)) {
        *what = "division by zero"; /* power(0, -inf) too, as C's pow signals it */
        return CK_ERR_ZERO_DIVISION;
    }
    if (!any_inf(rv, rn) || any_inf(av, an) || (k->nargs == 2 && any_inf(bv, bn))) {
        return CK_OK;
    }
    int pole = 0;
    switch ((ck__fp_rule)k->rule) {
    case CK__FP_DIVISOR:
        pole = k->nargs == 2 ? is_value(bv, bn, 0.0) : is_value(av, an, 0.0);
        break;
    case CK__FP_ZERO:
    case CK__FP_POWER: pole = is_value(av, an, 0.0); break;
    case CK__FP_MINUS_ONE: pole = is_value(av, an, -1.0); break;
    case CK__FP_UNIT: pole = is_value(av, an, 1.0) || is_value(av, an, -1.0); break;
    default: break;
    }
    *what = pole ? "division by zero" : "overflow";
    return pole ? CK_ERR_ZERO_DIVISION : CK_ERR_OVERFLOW;
}

/* The text of an element (any alignment) into buf (64 bytes). */
static void value_text(ck_type_id id, const char *p, char *buf) {
    if (id == CK_TYPE_BOOL) {
        snprintf(buf, 64, "%s", *(const unsigned char *)p ? "true" : "false");
    } else if (ck__scalar_is(id, CK__SCALAR_KIND_COMPLEX)) {
        double v[2];
        parts_of(id, p, v);
        ck__format_complex_text(v[0], v[1], id == CK_TYPE_COMPLEX64 ? CK__F32 : CK__F64, buf);
    } else if (id == CK_TYPE_BFLOAT16) {
        double v[2];
        parts_of(id, p, v);
        ck__format_float(v[0], CK__BF16, 0, buf);
    } else {
        ck__format_number((int)id, p, 0, buf);
    }
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((cold, noinline))
#endif
static int
report(const ck__fp_check *k, int status, const char *what, const char *r, const char *a,
       const char *b, size_t i) {
    char at[64], bt[64], rt[64];
    value_text((ck_type_id)k->args[0], a, at);
    value_text((ck_type_id)k->ret, r, rt);
    if (k->nargs == 2) {
        value_text((ck_type_id)k->args[1], b, bt);
    }
    const int rc = k->rule == CK__FP_INT_DIVISION || k->rule == CK__FP_INT_FLOOR_DIVISION
                       ? ck__set_located_error(status, NULL, 0, "%s: %s: %s(%s, %s)", k->name, what,
                                               k->name, at, bt)
                   : k->nargs == 2
                       ? ck__set_located_error(status, NULL, 0, "%s: %s: %s(%s, %s) = %s", k->name,
                                               what, k->name, at, bt, rt)
                       : ck__set_located_error(status, NULL, 0, "%s: %s: %s(%s) = %s", k->name,
                                               what, k->name, at, rt);
    ck__error_at(rc, (intptr_t)i);
    return rc;
}

/* The check of a run whose first argument is the destination itself (a reduction's
 * dst = f(dst, x)): the arguments are read before the leaf overwrites them, a chunk at a
 * time. */
#define CK__FP_CHUNK 64
static int fp_check_in_place(ck_prefix *self, char *dst, intptr_t dst_stride, char *const *src,
                             const intptr_t *src_stride, size_t count) {
    const ck__fp_check *k = (const ck__fp_check *)self;
    const size_t es = ck_type_data_size(ck_type_scalar((ck_type_id)k->args[0]));
    _Alignas(16) char saved[CK__FP_CHUNK * 16];
    for (size_t done = 0; done < count;) {
        const size_t m = count - done < CK__FP_CHUNK ? count - done : CK__FP_CHUNK;
        char *d = dst + (intptr_t)done * dst_stride;
        char *s[2] = {src[0] + (intptr_t)done * src_stride[0],
                      k->nargs == 2 ? src[1] + (intptr_t)done * src_stride[1] : NULL};
        for (size_t i = 0; i < m; i++) {
            memcpy(saved + i * es, s[0] + (intptr_t)i * src_stride[0], es);
        }
        CK__RETURN_IF_ERROR_AT(done, ck_call_strided(ck_child(self, CK__FP_CHECK_CHILD), d,
                                                     dst_stride, s, src_stride, m));
        for (size_t i = 0; i < m; i++) {
            const char *r = d + (intptr_t)i * dst_stride, *a = saved + i * es;
            const char *b = k->nargs == 2 ? s[1] + (intptr_t)i * src_stride[1] : a;
            const char *what = NULL;
            const int status = classify(k, r, a, b, &what);
            if (CK__UNLIKELY(status != CK_OK)) {
                return report(k, status, what, r, a, b, done + i);
            }
        }
        done += m;
    }
    return CK_OK;
}

static CK__KERNEL_ALIGN int fp_check_strided(ck_prefix *self, char *dst, intptr_t dst_stride,
                                             char *const *src, const intptr_t *src_stride,
                                             size_t count) {
    const ck__fp_check *k = (const ck__fp_check *)self;
    if (src[0] == dst) { /* a fold's dst = f(dst, x) */
        return fp_check_in_place(self, dst, dst_stride, src, src_stride, count);
    }
    CK__RETURN_IF_ERROR(ck_call_strided(ck_child(self, CK__FP_CHECK_CHILD), dst, dst_stride, src,
                                        src_stride, count));
    const char *a = src[0], *b = k->nargs == 2 ? src[1] : src[0];
    const intptr_t bs = k->nargs == 2 ? src_stride[1] : 0;
    const char *r = dst;
    for (size_t i = 0; i < count; i++, r += dst_stride, a += src_stride[0], b += bs) {
        const char *what = NULL;
        const int status = classify(k, r, a, b, &what);
        if (CK__UNLIKELY(status != CK_OK)) {
            return report(k, status, what, r, a, b, i);
        }
    }
    return CK_OK;
}

static CK__KERNEL_ALIGN int fp_check_single(ck_prefix *self, char *dst, char *const *src) {
    static const intptr_t zero[2] = {0, 0};
    return fp_check_strided(self, dst, 0, src, zero, 1);
}

static void fp_check_destroy(ck_prefix *self) {
    ck_prefix_destroy(ck_child(self, CK__FP_CHECK_CHILD));
}

int ck__fp_check_wrap(ck_builder *ckb, size_t *offset, const ck_leaf_info *info, unsigned flags,
                      ck_request *req) {
    if ((flags & CK_EVAL_FP_ERRORS) == 0) {
        return CK_OK;
    }
    const int rule = check_rule(info->name, info->nargs, info->args, info->ret);
    if (rule < 0 || info->core != NULL) {
        return CK_OK;
    }
    CK__RETURN_IF_ERROR(ck_builder_reserve(ckb, *offset + CK__FP_CHECK_CHILD));
    ck__fp_check *k = (ck__fp_check *)ck_builder_at(ckb, *offset);
    k->base.destructor = fp_check_destroy;
    ck_prefix_set_function(&k->base, *req, fp_check_single, fp_check_strided);
    k->nargs = (uint8_t)info->nargs;
    k->rule = (uint8_t)rule;
    k->args[0] = (uint8_t)info->args[0];
    k->args[1] = (uint8_t)(info->nargs == 2 ? info->args[1] : info->args[0]);
    k->ret = (uint8_t)info->ret;
    snprintf(k->name, sizeof k->name, "%s", info->name != NULL ? info->name : "?");
    *offset += CK__FP_CHECK_CHILD;
    *req = CK_REQUEST_STRIDED;
    return CK_OK;
}

static void fp_check_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                              ck__children *children) {
    const ck__fp_check *k = (const ck__fp_check *)self;
    ck__strbuf_printf(out, "%s: invalid values, divisions by zero and overflows are errors",
                      k->name);
    *size = sizeof(ck__fp_check);
    ck__children_add(children, CK__FP_CHECK_CHILD);
}

const ck__kind ck__fp_check_kind = {"fp_check", fp_check_single, fp_check_strided,
                                    fp_check_describe};

/* ---- built-in sums and products of floats: the FPU's flags ----
 * Their folds (the accumulate leaves, fold_rows, the pairwise trees of every target) are
 * plain IEEE additions and multiplications of the elements and partial results, so the
 * overflow and invalid flags they raise are the errors of that association of the sum,
 * the same on every target (the bits are): the fp_flags kernel above such a reduction saves
 * the caller's flags, clears them, runs the reduction, reads them and gives the caller's
 * back. The element is not known (a partial sum of the tree overflows), so the message
 * names the reduction and the error. min and max are not checked: x86's min and max
 * instructions raise invalid on a NaN operand where NumPy's minimum does not, and they make
 * no value that is an error. */
typedef struct ck__fp_flags {
    ck_prefix base;
    char name[32];
    char type[16];
} ck__fp_flags;

#define CK__FP_FLAGS_CHILD CK_ALIGN_OFFSET(sizeof(ck__fp_flags))

static int fp_flags_result(const ck__fp_flags *k, int rc, const fexcept_t *saved) {
    const int raised = fetestexcept(FE_INVALID | FE_OVERFLOW | FE_DIVBYZERO);
    fesetexceptflag(saved, FE_ALL_EXCEPT);
    if (rc != CK_OK || raised == 0) {
        return rc;
    }
    const char *fold = strcmp(k->name, "multiply") == 0 ? "product" : "sum";
    if (raised & FE_INVALID) {
        return ck_set_error(CK_ERR_DOMAIN, "%s: invalid value: the %s %s meets inf - inf or 0 * inf",
                            k->name, k->type, fold);
    }
    return ck_set_error(CK_ERR_OVERFLOW, "%s: overflow: a partial %s of the %s values is past "
                                         "the type's range",
                        k->name, fold, k->type);
}

static CK__KERNEL_ALIGN int fp_flags_single(ck_prefix *self, char *dst, char *const *src) {
    fexcept_t saved;
    fegetexceptflag(&saved, FE_ALL_EXCEPT);
    feclearexcept(FE_ALL_EXCEPT);
    const int rc = ck_call_single(ck_child(self, CK__FP_FLAGS_CHILD), dst, src);
    return fp_flags_result((const ck__fp_flags *)self, rc, &saved);
}

static CK__KERNEL_ALIGN int fp_flags_strided(ck_prefix *self, char *dst, intptr_t dst_stride,
                                             char *const *src, const intptr_t *src_stride,
                                             size_t count) {
    fexcept_t saved;
    fegetexceptflag(&saved, FE_ALL_EXCEPT);
    feclearexcept(FE_ALL_EXCEPT);
    const int rc = ck_call_strided(ck_child(self, CK__FP_FLAGS_CHILD), dst, dst_stride, src,
                                   src_stride, count);
    return fp_flags_result((const ck__fp_flags *)self, rc, &saved);
}

static void fp_flags_destroy(ck_prefix *self) {
    ck_prefix_destroy(ck_child(self, CK__FP_FLAGS_CHILD));
}

int ck__fp_flags_wrap(ck_builder *ckb, size_t *offset, const char *name, ck_type_id acc,
                      int builtin_op, unsigned flags, ck_request req) {
    if ((flags & CK_EVAL_FP_ERRORS) == 0 || !is_floating(acc) ||
        (builtin_op != CK__ARITH_ADD && builtin_op != CK__ARITH_MULTIPLY)) {
        return CK_OK;
    }
    CK__RETURN_IF_ERROR(ck_builder_reserve(ckb, *offset + CK__FP_FLAGS_CHILD));
    ck__fp_flags *k = (ck__fp_flags *)ck_builder_at(ckb, *offset);
    k->base.destructor = fp_flags_destroy;
    ck_prefix_set_function(&k->base, req, fp_flags_single, fp_flags_strided);
    snprintf(k->name, sizeof k->name, "%s", name != NULL ? name : "?");
    snprintf(k->type, sizeof k->type, "%s", ck_type_id_name(acc));
    *offset += CK__FP_FLAGS_CHILD;
    return CK_OK;
}

static void fp_flags_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                              ck__children *children) {
    const ck__fp_flags *k = (const ck__fp_flags *)self;
    ck__strbuf_printf(out, "%s: overflows and invalid values of its %s folds are errors", k->name,
                      k->type);
    *size = sizeof(ck__fp_flags);
    ck__children_add(children, CK__FP_FLAGS_CHILD);
}

const ck__kind ck__fp_flags_kind = {"fp_flags", fp_flags_single, fp_flags_strided,
                                    fp_flags_describe};
