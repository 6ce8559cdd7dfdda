/* python/src/reduce.c: the module's reductions and accumulations: reduce (ck_parallel_reduce)
 * and accumulate (ck_accumulate) of one argument of any kind a call takes. The callable comes
 * from a reduction's or an accumulation's name (sum, cumsum, ...) or is a ckernel.Callable;
 * the result is made as a call's (run.c: NumPy for fixed dimensions of scalars, a NumPy
 * scalar for 0-d, else a ckernel.Array), or is out=, whose dtype is the accumulator's. */
#include "ckpy.h"

#include <limits.h>

/* A source has at most 64 dimensions (ck_reduce_spec), so more axes repeat one. */
#define CKPY_MAX_AXES 64

/* One axis: an int (or anything with __index__, as NumPy's integers), not a bool. */
static int parse_axis(PyObject *obj, const char *fn, int *out) {
    if (PyBool_Check(obj) || !PyIndex_Check(obj)) {
        ckpy_raise(CK_ERR_TYPE, "%s: an axis is an int, not a %.100s", fn, Py_TYPE(obj)->tp_name);
        return -1;
    }
    const Py_ssize_t v = PyNumber_AsSsize_t(obj, NULL); /* clipped: reported below */
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (v < INT_MIN || v > INT_MAX) {
        ckpy_raise(CK_ERR_INVALID, "%s: axis %S is out of range", fn, obj);
        return -1;
    }
    *out = (int)v;
    return 0;
}

/* axis= as the spec's axes (into buf): None is every dimension (axes NULL), an int one, a
 * tuple of ints those (() none: a cast). Range and repetition are the library's to check
 * (CK_ERR_INVALID, as NumPy's AxisError). */
static int parse_axes(PyObject *obj, const char *fn, int *buf, ck_reduce_spec *r) {
    r->axes = NULL;
    r->naxes = 0;
    if (obj == Py_None) {
        return 0;
    }
    if (!PyTuple_Check(obj)) {
        r->axes = buf;
        r->naxes = 1;
        return parse_axis(obj, fn, &buf[0]);
    }
    const Py_ssize_t n = PyTuple_GET_SIZE(obj);
    if (n > CKPY_MAX_AXES) {
        ckpy_raise(CK_ERR_INVALID, "%s: %zd axes; a source has at most %d dimensions", fn, n,
                   CKPY_MAX_AXES);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (parse_axis(PyTuple_GET_ITEM(obj, i), fn, &buf[i]) < 0) {
            return -1;
        }
    }
    r->axes = buf;
    r->naxes = (int)n;
    return 0;
}

/* What tells a reduction from an accumulation here: the library's functions of each. */
typedef struct fold_kind {
    const char *fn;
    int (*lookup)(const char *name, ck_callable **out);
    int (*result_type)(const ck_reduce_spec *r, const ck_type *src_tp, const ck_eval_ctx *ectx,
                       ck_type **out);
    int (*run)(const ck_reduce_spec *r, const ck_array *dst, const ck_array *src,
               const ck_eval_ctx *ectx);
} fold_kind;

static const fold_kind reduction = {"reduce", ck_reduction_lookup, ck_reduce_result_type,
                                    ck_parallel_reduce};
/* Accumulations have no parallel split (a scan is sequential along its axis). */
static const fold_kind accumulation = {"accumulate", ck_accumulation_lookup,
                                       ck_accumulate_result_type, ck_accumulate};

/* r(a) into out, or into a new result of the library's result type; the spec's axes and
 * flags are set, its callable is looked up here. */
static PyObject *fold(const fold_kind *k, ck_reduce_spec *r, PyObject *name, PyObject *a,
                      PyObject *out, PyObject *fp_errors) {
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    if (ckpy_parse_fp_errors(fp_errors, &ctx.flags) < 0) {
        return NULL;
    }
    ckpy_operand src = CKPY_OPERAND_INIT, dst = CKPY_OPERAND_INIT;
    PyObject *result = NULL, *ret = NULL;
    int scalar = 0, rc;
    if (ckpy_lookup(name, k->lookup, k->fn, &r->callable) < 0) {
        return NULL;
    }
    if (ckpy_operand_source(a, "a", &src) < 0) {
        goto done;
    }
    if (out != NULL) {
        /* The kernel writes start values and partial results into out before it has read
         * all of a: a source sharing out's memory is read from a copy. */
        if (ckpy_operand_dest(out, "out", &dst) < 0 ||
            ckpy_operand_unalias(&src, &dst, 0, "a") < 0) {
            goto done;
        }
        result = Py_NewRef(out);
    } else {
        ck_type *rt = NULL;
        rc = k->result_type(r, ck_array_type(src.array), &ctx, &rt);
        if (rc != CK_OK) {
            ckpy_raise_status(rc);
            goto done;
        }
        rc = ckpy_new_result(rt, &result, &scalar, &dst);
        ck_type_decref(rt);
        if (rc < 0) {
            goto done;
        }
    }
    Py_BEGIN_ALLOW_THREADS
    rc = k->run(r, dst.array, src.array, &ctx);
    Py_END_ALLOW_THREADS
    ret = rc == CK_OK ? ckpy_return(result, scalar) : ckpy_raise_status(rc);
done:
    ckpy_operand_clear(&src);
    ckpy_operand_clear(&dst);
    Py_XDECREF(result);
    ck_callable_decref(r->callable);
    return ret;
}

PyObject *ckpy_reduce(PyObject *self, PyObject *args, PyObject *kwargs) {
    (void)self;
    static char kw_name[] = "name";
    static char kw_a[] = "a";
    static char kw_axis[] = "axis";
    static char kw_keepdims[] = "keepdims";
    static char kw_skipna[] = "skipna";
    static char kw_out[] = "out";
    static char kw_fp_errors[] = "fp_errors";
    static char *kwlist[] = {kw_name, kw_a,   kw_axis,      kw_keepdims,
                             kw_skipna, kw_out, kw_fp_errors, NULL};
    PyObject *name, *a, *axis = Py_None, *out = Py_None, *fp_errors = NULL;
    int keepdims = 0, skipna = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|OppO$O:reduce", kwlist, &name, &a, &axis,
                                     &keepdims, &skipna, &out, &fp_errors)) {
        return NULL;
    }
    int axes[CKPY_MAX_AXES];
    ck_reduce_spec r = {NULL, NULL, 0, 0};
    if (parse_axes(axis, "reduce", axes, &r) < 0) {
        return NULL;
    }
    r.flags = (keepdims ? CK_REDUCE_KEEPDIMS : 0u) | (skipna ? CK_REDUCE_SKIPNA : 0u);
    return fold(&reduction, &r, name, a, out == Py_None ? NULL : out, fp_errors);
}

PyObject *ckpy_accumulate(PyObject *self, PyObject *args, PyObject *kwargs) {
    (void)self;
    static char kw_name[] = "name";
    static char kw_a[] = "a";
    static char kw_axis[] = "axis";
    static char kw_out[] = "out";
    static char kw_fp_errors[] = "fp_errors";
    static char *kwlist[] = {kw_name, kw_a, kw_axis, kw_out, kw_fp_errors, NULL};
    PyObject *name, *a, *axis = NULL, *out = Py_None, *fp_errors = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|OO$O:accumulate", kwlist, &name, &a,
                                     &axis, &out, &fp_errors)) {
        return NULL;
    }
    int ax = -1;
    if (axis != NULL && (PyTuple_Check(axis) || axis == Py_None)) {
        return ckpy_raise(CK_ERR_INVALID, "accumulate runs along one axis: axis is an int, "
                          "not %.100s", axis == Py_None ? "None" : "a tuple");
    }
    if (axis != NULL && parse_axis(axis, "accumulate", &ax) < 0) {
        return NULL;
    }
    ck_reduce_spec r = {NULL, &ax, 1, 0};
    return fold(&accumulation, &r, name, a, out == Py_None ? NULL : out, fp_errors);
}
