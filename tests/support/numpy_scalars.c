/* tests/support/numpy_scalars.c: see numpy_scalars.h. */
#include "numpy_scalars.h"

#include <math.h>
#include <string.h>

/* NumPy's kind ladder for value-based casting: b < i, u < f, c. */
static int ladder(ck_type_id t) {
    if (t == CK_TYPE_BOOL) return 0;
    if (t == CK_TYPE_FLOAT16 || t == CK_TYPE_BFLOAT16 || t == CK_TYPE_FLOAT32 ||
        t == CK_TYPE_FLOAT64 || t == CK_TYPE_COMPLEX64 || t == CK_TYPE_COMPLEX128)
        return 2;
    return 1;
}

static int is_unsigned(ck_type_id t) {
    return t == CK_TYPE_UINT8 || t == CK_TYPE_UINT16 || t == CK_TYPE_UINT32 || t == CK_TYPE_UINT64;
}

static int is_complex(ck_type_id t) {
    return t == CK_TYPE_COMPLEX64 || t == CK_TYPE_COMPLEX128;
}

/* The precision class of a float: 16 (float16), 17 (bfloat16), 32, 64; 0 for non-floats.
 * float16 beside bfloat16 needs float32. */
static int precision(ck_type_id t) {
    switch (t) {
    case CK_TYPE_FLOAT16: return 16;
    case CK_TYPE_BFLOAT16: return 17;
    case CK_TYPE_FLOAT32: case CK_TYPE_COMPLEX64: return 32;
    case CK_TYPE_FLOAT64: case CK_TYPE_COMPLEX128: return 64;
    default: return 0;
    }
}

static int join(int a, int b) {
    if ((a == 16 && b == 17) || (a == 17 && b == 16)) return 32;
    return a > b ? a : b;
}

/* The value of a 0-d array as `as` (int64, uint64, float64 or complex128), exactly. */
static int read_value(ck_array *a, ck_type_id as, void *out, size_t size) {
    ck_array *v = NULL;
    int rc = ck_array_new(ck_type_scalar(as), &v);
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.errmode = CK_ERRMODE_NOCHECK;
    if (rc == CK_OK) rc = ck_assign(v, a, &ctx);
    if (rc == CK_OK) memcpy(out, ck_array_data(v), size);
    ck_array_free(v);
    return rc;
}

int ckt_numpy_operand_types(const char *callable, int n, const ck_type_id *id,
                            const int *scalar, ck_array *const *value, ck_type_id *out,
                            int *alt) {
    static const char *const by_result_type[] = {"add", "subtract", "multiply", "maximum",
                                                 "minimum", "fmax", "fmin", "gcd", "lcm",
                                                 "where"};
    int uniform = 0;
    for (size_t i = 0; i < sizeof by_result_type / sizeof *by_result_type; i++) {
        uniform |= strcmp(callable, by_result_type[i]) == 0;
    }
    const int skip = strcmp(callable, "where") == 0 && n == 3; /* the condition */
    int arrays_top = -1, scalars_top = -1, only_unsigned = 1, unsigned_bytes = 0, prec = 0;
    for (int k = 0; k < n; k++) {
        out[k] = id[k];
        alt[k] = -1;
        if (k < skip) continue;
        if (scalar[k]) {
            if (ladder(id[k]) > scalars_top) scalars_top = ladder(id[k]);
            continue;
        }
        if (ladder(id[k]) > arrays_top) arrays_top = ladder(id[k]);
        only_unsigned = only_unsigned && is_unsigned(id[k]);
        if (is_unsigned(id[k]) && (int)ck_type_data_size(ck_type_scalar(id[k])) > unsigned_bytes)
            unsigned_bytes = (int)ck_type_data_size(ck_type_scalar(id[k]));
        prec = join(prec, precision(id[k]));
    }
    if (arrays_top < 0 || scalars_top < 0 || scalars_top > arrays_top) return CK_OK;
    static const ck_type_id ints[] = {CK_TYPE_INT8, CK_TYPE_INT16, CK_TYPE_INT32, CK_TYPE_INT64};
    static const ck_type_id uints[] = {CK_TYPE_UINT8, CK_TYPE_UINT16, CK_TYPE_UINT32,
                                       CK_TYPE_UINT64};
    for (int k = skip; k < n; k++) {
        if (scalar[k] != 1 || id[k] == CK_TYPE_BOOL) continue;
        if (ladder(id[k]) == 1) {
            int64_t s = 0;
            uint64_t u = 0;
            const int neg_able = !is_unsigned(id[k]);
            int rc = neg_able ? read_value(value[k], CK_TYPE_INT64, &s, sizeof s)
                              : read_value(value[k], CK_TYPE_UINT64, &u, sizeof u);
            if (rc != CK_OK) return rc;
            if (neg_able && s < 0) {
                int w = 0;
                while (w < 3 && s < -((int64_t)1 << ((8 << w) - 1))) w++;
                out[k] = ints[w];
                continue;
            }
            if (neg_able) u = (uint64_t)s;
            int w = 0;
            while (w < 3 && u > (((uint64_t)1 << (8 << w)) - 1)) w++;
            out[k] = uints[w];
            const int fits_signed = w == 3 ? u <= (uint64_t)INT64_MAX
                                           : u <= (((uint64_t)1 << ((8 << w) - 1)) - 1);
            if (fits_signed && (!only_unsigned || !uniform)) {
                if (!only_unsigned || (1 << w) > unsigned_bytes) out[k] = ints[w];
                if (!uniform) alt[k] = (int)(out[k] == uints[w] ? ints[w] : uints[w]);
            }
            continue;
        }
        double v[2] = {0, 0};
        int rc = read_value(value[k], is_complex(id[k]) ? CK_TYPE_COMPLEX128 : CK_TYPE_FLOAT64, v,
                            is_complex(id[k]) ? 16 : 8);
        if (rc != CK_OK) return rc;
        int need = is_complex(id[k]) ? 32 : 16;
        for (int p = 0; p < (is_complex(id[k]) ? 2 : 1); p++) {
            if (isfinite(v[p])) {
                const double m = fabs(v[p]);
                need = join(need, m < 65000.0 ? 16 : m < 3.4e38 ? 32 : 64);
            }
        }
        need = join(need, prec);
        out[k] = is_complex(id[k]) ? (need == 64 ? CK_TYPE_COMPLEX128 : CK_TYPE_COMPLEX64)
                 : need == 64      ? CK_TYPE_FLOAT64
                 : need == 32      ? CK_TYPE_FLOAT32
                                   : CK_TYPE_FLOAT16;
    }
    return CK_OK;
}
