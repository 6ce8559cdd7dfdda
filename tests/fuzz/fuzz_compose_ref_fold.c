/* tests/fuzz/fuzz_compose_ref_fold.c: the association of a float or complex fold as
 * docs/design.md §14 fixes it (16 lanes, 8 for complex; blocks of 128; the blocks' lanes in a
 * binary counter; the lanes halved; float16 and bfloat16 in float32 lanes, rounded once into
 * the accumulator), which decides a reduction's bits, and the start values of the
 * accumulators. Compiled without FMA contraction. */
#include <math.h>
#include <string.h>

#include "fuzz_common.h"
#include "fuzz_compose_ref.h"

/* ---- the fold of a float or complex run: its lanes ----
 * A lane holds the accumulator's value (float16 and bfloat16: a float32). */
typedef union rlane {
    float f[2];
    double d[2];
    unsigned char b[16];
} rlane;

static rlane lane_load(ck_type_id id, const unsigned char *p) {
    rlane v;
    memset(&v, 0, sizeof v);
    const fz_float_format *f = ref_narrow_format(id);
    if (f != NULL) {
        v.f[0] = ref_narrow_to_float(f, p);
    } else {
        memcpy(v.b, p, ckt_scalar(id)->size);
    }
    return v;
}

static void lane_store(ck_type_id id, rlane v, unsigned char *out) {
    const fz_float_format *f = ref_narrow_format(id);
    if (f != NULL) {
        ref_float_to_narrow(f, v.f[0], out);
    } else {
        memcpy(out, v.b, ckt_scalar(id)->size);
    }
}

static rlane lane_identity(int rop, ck_type_id id) {
    rlane v;
    memset(&v, 0, sizeof v);
    const int two = ckt_scalar(id)->kind == 'C';
    const int wide = id == CK_TYPE_FLOAT64 || id == CK_TYPE_COMPLEX128;
    for (int k = 0; k < 1 + two; k++) {
        const double d = rop == FZ_ROP_ADD        ? 0.0
                         : rop == FZ_ROP_MULTIPLY ? (k == 0 ? 1.0 : 0.0)
                         : rop == FZ_ROP_MINIMUM  ? (double)INFINITY
                                                  : -(double)INFINITY;
        if (wide) {
            v.d[k] = d;
        } else {
            v.f[k] = (float)d;
        }
    }
    return v;
}

/* op on two lanes: float16 and bfloat16 in float32 (the first of two equal values for
 * minimum and maximum, as their element operation), the others as their element operation. */
static rlane lane_op(int rop, ck_type_id id, rlane a, rlane b) {
    if (ref_narrow_format(id) == NULL) {
        rlane r;
        memset(&r, 0, sizeof r);
        ref_elem_op(rop, id, a.b, b.b, r.b);
        return r;
    }
    const float x = a.f[0], y = b.f[0];
    rlane r;
    memset(&r, 0, sizeof r);
    switch (rop) {
    case FZ_ROP_ADD: r.f[0] = x + y; break;
    case FZ_ROP_MULTIPLY: r.f[0] = x * y; break;
    case FZ_ROP_MINIMUM: r.f[0] = (x <= y || x != x) ? x : y; break;
    default: r.f[0] = (x >= y || x != x) ? x : y; break;
    }
    return r;
}

/* b = a op b lane by lane over ln lanes, where a holds fa lanes and b fb (a lane empty on
 * one side takes the other's); returns the lanes b then holds. */
static int lanes_merge(int rop, ck_type_id id, const rlane *a, int fa, rlane *b, int fb,
                       int ln) {
    for (int l = 0; l < ln; l++) {
        if (l < fa && l < fb) {
            b[l] = lane_op(rop, id, a[l], b[l]);
        } else if (l < fa) {
            b[l] = a[l];
        }
    }
    return fa > fb ? fa : fb;
}

/* acc = op(acc, F(x[0..n))) with F §14's association: 16 lanes (8 complex), element i of a
 * block of 128 into lane i mod 16 in order (a lane starts with its first element as it is,
 * never from the identity), the blocks' lane vectors in a binary counter (the earlier on the
 * left; the stack merged from its top down at the end), the lanes halved (a lane op one
 * that holds a value), then op with the accumulator (float16 and bfloat16: rounded once,
 * there). */
void ref_fold_tree(int rop, ck_type_id id, unsigned char *acc, const ckt_elem *x, size_t n) {
    const int ln = ckt_scalar(id)->kind == 'C' ? 8 : 16;
    rlane stack[48][16];
    int level[48], filled[48], top = 0;
    for (size_t b = 0; b < n; b += 128) {
        const size_t len = n - b < 128 ? n - b : 128;
        rlane v[16];
        int f = 0;
        for (size_t i = 0; i < len; i++) {
            const int l = (int)(i % (size_t)ln);
            const rlane e = lane_load(id, x[b + i].b);
            v[l] = l < f ? lane_op(rop, id, v[l], e) : e;
            f = l + 1 > f ? l + 1 : f;
        }
        int lvl = 0;
        while (top > 0 && level[top - 1] == lvl) {
            f = lanes_merge(rop, id, stack[top - 1], filled[top - 1], v, f, ln);
            top--;
            lvl++;
        }
        CKF_CHECK(top < 48, "the reference's fold stack");
        memcpy(stack[top], v, sizeof v);
        filled[top] = f;
        level[top++] = lvl;
    }
    if (top == 0) {
        return; /* no element: the accumulator as it was */
    }
    rlane v[16];
    memcpy(v, stack[top - 1], sizeof v);
    int f = filled[top - 1];
    for (int j = top - 2; j >= 0; j--) {
        f = lanes_merge(rop, id, stack[j], filled[j], v, f, ln);
    }
    for (int w = ln / 2; w >= 1; w /= 2) {
        for (int l = 0; l < w && l + w < f; l++) {
            v[l] = lane_op(rop, id, v[l], v[l + w]);
        }
        f = f < w ? f : w;
    }
    lane_store(id, lane_op(rop, id, lane_load(id, acc), v[0]), acc);
}

/* The start value of op in type id: its identity, or for minimum and maximum (which have
 * none) the type's largest and smallest value. */
void ref_start_value(int rop, ck_type_id id, unsigned char *out) {
    const ckt_scalar_info *t = ckt_scalar(id);
    memset(out, 0, 16);
    int one = rop == FZ_ROP_MULTIPLY || rop == FZ_ROP_AND;
    if (rop == FZ_ROP_MINIMUM || rop == FZ_ROP_MAXIMUM) {
        const int hi = rop == FZ_ROP_MINIMUM;
        switch (t->kind) {
        case 'B': out[0] = (unsigned char)hi; return;
        case 'S':
        case 'U':
            ckt_put_low_bytes(out, hi ? ckt_int_max_bits(t) : ckt_int_min_bits(t), t->size);
            return;
        default: lane_store(id, lane_identity(rop, id), out); return; /* +-inf */
        }
    }
    if (!one) {
        return;
    }
    switch (t->kind) {
    case 'B':
    case 'S':
    case 'U': out[0] = 1; return;
    default: lane_store(id, lane_identity(FZ_ROP_MULTIPLY, id), out); return;
    }
}
