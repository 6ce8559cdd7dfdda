/* python/src/run.c: the module's kernel runs: assign (ck_parallel_assign), call
 * (ck_parallel_call: a NumPy result for fixed dimensions of scalars, else a ckernel.Array),
 * evaluate (an expression over keyword arguments, ck_parallel_expr, its result made as a
 * call's) and explain (ck_make_assign + ck_kernel_describe). Each describes its arguments as
 * operands (operand.c) and runs its kernel with the GIL released. */
#include "ckpy.h"

#include <stdio.h>
#include <string.h>

int ckpy_parse_errmode(PyObject *obj, ck_errmode *out) {
    *out = CK_ERRMODE_FRACTIONAL;
    if (obj == NULL || obj == Py_None) {
        return 0;
    }
    if (!PyUnicode_Check(obj)) {
        ckpy_raise(CK_ERR_INVALID, "errmode is 'nocheck', 'overflow', 'fractional' or "
                   "'inexact', not a %.100s", Py_TYPE(obj)->tp_name);
        return -1;
    }
    const char *name = PyUnicode_AsUTF8(obj);
    if (name == NULL) {
        return -1;
    }
    int rc = ck_errmode_parse(name, out);
    if (rc != CK_OK) {
        ckpy_raise_status(rc);
        return -1;
    }
    return 0;
}

int ckpy_parse_fp_errors(PyObject *obj, unsigned *flags) {
    if (obj == NULL || obj == Py_None) {
        return 0;
    }
    const char *name = PyUnicode_Check(obj) ? PyUnicode_AsUTF8(obj) : NULL;
    if (name != NULL && strcmp(name, "ignore") == 0) {
        return 0;
    }
    if (name != NULL && strcmp(name, "raise") == 0) {
        *flags |= CK_EVAL_FP_ERRORS;
        return 0;
    }
    if (PyErr_Occurred()) {
        return -1;
    }
    ckpy_raise(CK_ERR_INVALID, "fp_errors is 'ignore' (IEEE results) or 'raise' (invalid "
               "operations, divisions by zero and overflows raise ckernel.Error), not %R", obj);
    return -1;
}

/* ---- assign ---- */

/* The arguments of assign and explain: (dst, src, errmode=, by_position=). */
static int parse_assignment(PyObject *args, PyObject *kwargs, const char *format,
                            PyObject **dst, PyObject **src, ck_eval_ctx *ctx) {
    static char kw_dst[] = "dst";
    static char kw_src[] = "src";
    static char kw_errmode[] = "errmode";
    static char kw_by_position[] = "by_position";
    static char *kwlist[] = {kw_dst, kw_src, kw_errmode, kw_by_position, NULL};
    PyObject *errmode = NULL;
    int by_position = 0;
    const ck_eval_ctx init = CK_EVAL_CTX_INIT;
    *ctx = init;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, format, kwlist, dst, src, &errmode,
                                     &by_position) ||
        ckpy_parse_errmode(errmode, &ctx->errmode) < 0) {
        return -1;
    }
    if (by_position) {
        ctx->flags |= CK_EVAL_FIELDS_BY_POSITION;
    }
    return 0;
}

PyObject *ckpy_assign(PyObject *self, PyObject *args, PyObject *kwargs) {
    (void)self;
    PyObject *dst_obj, *src_obj;
    ck_eval_ctx ctx;
    if (parse_assignment(args, kwargs, "OO|Op:assign", &dst_obj, &src_obj, &ctx) < 0) {
        return NULL;
    }
    ckpy_kernel_key key;
    const int cacheable = ckpy_key_init(&key, NULL, NULL, &ctx, dst_obj, 1, &src_obj);
    ckpy_kernel *e = cacheable ? ckpy_cache_find(&key) : NULL;
    if (e != NULL) {
        char *sd = PyArray_BYTES((PyArrayObject *)src_obj);
        const int rc = ckpy_cache_run(e, PyArray_BYTES((PyArrayObject *)dst_obj), &sd);
        return rc == CK_OK ? Py_NewRef(Py_None) : ckpy_raise_status(rc);
    }
    ckpy_operand dst = CKPY_OPERAND_INIT, src = CKPY_OPERAND_INIT;
    PyObject *result = NULL;
    if (ckpy_operand_dest(dst_obj, "dst", &dst) == 0 &&
        ckpy_operand_source(src_obj, "src", &src) == 0 &&
        ckpy_operand_unalias(&src, &dst, 1, "src") == 0) {
        const ck_array *srcs[1] = {src.array};
        char *sd = ck_array_data(src.array);
        e = cacheable ? ckpy_cache_add(&key, NULL, NULL, dst.nd, dst.array, 1, srcs, &ctx) : NULL;
        int rc;
        if (e != NULL) {
            rc = ckpy_cache_run(e, ck_array_data(dst.array), &sd);
        } else {
            Py_BEGIN_ALLOW_THREADS
            rc = ck_parallel_assign(dst.array, src.array, &ctx);
            Py_END_ALLOW_THREADS
        }
        result = rc == CK_OK ? Py_NewRef(Py_None) : ckpy_raise_status(rc);
    }
    ckpy_operand_clear(&src);
    ckpy_operand_clear(&dst);
    return result;
}

/* ---- call ---- */

/* Everything one call or evaluation needs, computed before the kernel runs (call_start or
 * evaluate_start: the callable or the expression, the sources' objects and the context, all
 * the kernel cache's key needs; call_operands: the arguments as arrays and the
 * destination). */
typedef struct call_plan {
    ck_callable *callable; /* a call's, or NULL */
    ck_expr *expr;         /* an evaluation's (sources in its arguments' order), or NULL */
    int nsrc;
    ckpy_operand src[CK_CALL_MAX_ARGS];
    ckpy_operand dst;
    ck_eval_ctx ctx;
    PyObject *result; /* what the call returns: out, a new ndarray or a new Array */
    int scalar_result; /* result is a new 0-d ndarray, returned as a NumPy scalar */
    int evaluated;     /* result already holds the values (an evaluation with reductions) */
} call_plan;

static int parse_call_keywords(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                               PyObject **out, PyObject **errmode, int *allow_unsafe,
                               unsigned *flags) {
    const Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t i = 0; i < nkw; i++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, i), *value = args[nargs + i];
        if (PyUnicode_CompareWithASCIIString(key, "out") == 0) {
            *out = value == Py_None ? NULL : value;
        } else if (PyUnicode_CompareWithASCIIString(key, "errmode") == 0) {
            *errmode = value;
        } else if (PyUnicode_CompareWithASCIIString(key, "allow_unsafe") == 0) {
            *allow_unsafe = PyObject_IsTrue(value);
            if (*allow_unsafe < 0) {
                return -1;
            }
        } else if (PyUnicode_CompareWithASCIIString(key, "fp_errors") == 0) {
            if (ckpy_parse_fp_errors(value, flags) < 0) {
                return -1;
            }
        } else {
            PyErr_Format(PyExc_TypeError, "call() got an unexpected keyword argument '%U'", key);
            return -1;
        }
    }
    return 0;
}

int ckpy_lookup(PyObject *name, int (*by_name)(const char *, ck_callable **), const char *fn,
                ck_callable **out) {
    if (ckpy_Callable_Check(name)) {
        *out = ((ckpy_Callable *)name)->callable;
        ck_callable_incref(*out);
        return 0;
    }
    if (!PyUnicode_Check(name)) {
        ckpy_raise(CK_ERR_TYPE, "%s's first argument is a callable's name or a "
                   "ckernel.Callable, not a %.100s", fn, Py_TYPE(name)->tp_name);
        return -1;
    }
    const char *text = PyUnicode_AsUTF8(name);
    if (text == NULL) {
        return -1;
    }
    int rc = by_name(text, out);
    if (rc != CK_OK) {
        ckpy_raise_status(rc);
        return -1;
    }
    return 0;
}

/* 1 when t is a tuple of scalars NumPy has (a call of two results writes one). */
static int is_scalar_tuple(const ck_type *t) {
    if (ck_type_get_id(t) != CK_TYPE_TUPLE || ck_type_field_count(t) > 16) {
        return 0;
    }
    for (size_t i = 0; i < ck_type_field_count(t); i++) {
        if (!ckpy_is_fixed_scalar(ck_type_field(t, i))) {
            return 0;
        }
    }
    return 1;
}

int ckpy_new_result(const ck_type *rt, PyObject **result, int *scalar, ckpy_operand *dst) {
    npy_intp dims[NPY_MAXDIMS];
    int nd = 0;
    const ck_type *t = rt;
    for (; ck_type_get_id(t) == CK_TYPE_FIXED_DIM && nd < NPY_MAXDIMS; nd++) {
        dims[nd] = (npy_intp)ck_type_fixed_size(t);
        t = ck_type_element(t);
    }
    /* Fixed dimensions of a scalar NumPy has, or of a tuple of such scalars at their C
     * offsets (a NumPy record: the pairs of a call of two results), are a NumPy array. */
    const int record = is_scalar_tuple(t);
    if (ckpy_is_fixed_scalar(rt) || record) {
        if (ck_type_get_id(t) == CK_TYPE_FIXED_DIM) {
            ckpy_raise(CK_ERR_TYPE, "the result has more than %d dimensions", NPY_MAXDIMS);
            return -1;
        }
        _Alignas(16) char am[16 * sizeof(intptr_t)];
        if (record) {
            ck_arrmeta_default_construct(t, am, NULL); /* the fields' C offsets */
        }
        PyArray_Descr *d = ckpy_descr_from_type(t, record ? am : NULL); /* stolen below */
        *result = d == NULL ? NULL : PyArray_SimpleNewFromDescr(nd, dims, d);
        *scalar = nd == 0;
    } else {
        ck_array *a = NULL;
        int rc = ck_array_new(rt, &a);
        if (rc != CK_OK) {
            ckpy_raise_status(rc);
            return -1;
        }
        *result = ckpy_array_from_ck(a, NULL, 0);
    }
    return *result == NULL ? -1 : ckpy_operand_dest(*result, "the result", dst);
}

/* The two results of a call of two results, a structured array's fields (views of its
 * buffer), as NumPy's tuple; 0-d ones as two scalars. Other results pass through. */
static PyObject *split_pair(PyObject *result, const call_plan *p) {
    if (result == NULL || p->expr != NULL || ck_callable_result_count(p->callable) != 2) {
        return result;
    }
    PyObject *arr = PyArray_Check(result) ? Py_NewRef(result) : PyArray_FromAny(result, NULL, 0, 0, 0, NULL);
    Py_DECREF(result);
    if (arr == NULL) {
        return NULL;
    }
    PyObject *out = NULL, *f0 = PyUnicode_FromString("f0"), *f1 = PyUnicode_FromString("f1");
    PyObject *a = f0 == NULL ? NULL : PyObject_GetItem(arr, f0);
    PyObject *b = a == NULL || f1 == NULL ? NULL : PyObject_GetItem(arr, f1);
    if (a != NULL && b != NULL) {
        const int scalar = PyArray_Check(a) && PyArray_NDIM((PyArrayObject *)a) == 0;
        PyObject *ra = scalar ? PyArray_Return((PyArrayObject *)Py_NewRef(a)) : Py_NewRef(a);
        PyObject *rb = scalar ? PyArray_Return((PyArrayObject *)Py_NewRef(b)) : Py_NewRef(b);
        out = ra != NULL && rb != NULL ? PyTuple_Pack(2, ra, rb) : NULL;
        Py_XDECREF(ra);
        Py_XDECREF(rb);
    }
    Py_XDECREF(a);
    Py_XDECREF(b);
    Py_XDECREF(f0);
    Py_XDECREF(f1);
    Py_DECREF(arr);
    return out;
}

/* The destination of a call or evaluation without out=, of ck_call_result_type or
 * ck_expr_result_type. */
static int make_result(call_plan *p) {
    if (p->expr != NULL && ck_expr_reductions(p->expr) > 0) {
        /* Its type follows the reduced values (one value is a NumPy scalar, typed by value):
         * evaluated here, the GIL released, and copied into the new result. */
        const ck_array *arrays[CK_CALL_MAX_ARGS];
        for (int i = 0; i < p->nsrc; i++) {
            arrays[i] = p->src[i].array;
        }
        ck_array *r = NULL;
        int rc;
        Py_BEGIN_ALLOW_THREADS
        rc = ck_expr_eval_new(p->expr, p->nsrc, NULL, arrays, &p->ctx, &r);
        Py_END_ALLOW_THREADS
        if (rc == CK_OK && ckpy_new_result(ck_array_type(r), &p->result, &p->scalar_result,
                                           &p->dst) < 0) {
            ck_array_free(r);
            return -1;
        }
        if (rc == CK_OK) {
            rc = ck_assign(p->dst.array, r, NULL);
        }
        ck_array_free(r);
        if (rc != CK_OK) {
            ckpy_raise_status(rc);
            return -1;
        }
        p->evaluated = 1;
        return 0;
    }
    const ck_type *types[CK_CALL_MAX_ARGS];
    for (int i = 0; i < p->nsrc; i++) {
        types[i] = ck_array_type(p->src[i].array);
    }
    ck_type *rt = NULL;
    int rc = p->expr != NULL
                 ? ck_expr_result_type(p->expr, p->nsrc, NULL, types, &p->ctx, &rt)
                 : ck_call_result_type(p->callable, p->nsrc, types, &p->ctx, &rt);
    if (rc != CK_OK) {
        ckpy_raise_status(rc);
        return -1;
    }
    rc = ckpy_new_result(rt, &p->result, &p->scalar_result, &p->dst);
    ck_type_decref(rt);
    return rc;
}

/* The scalar type at the bottom of t (through dimensions, pointers and options); -1 for
 * records. */
static int bottom_scalar(const ck_type *t) {
    while (!ck_type_is_scalar(t)) {
        t = ck_type_element(t);
        if (t == NULL) {
            return -1;
        }
    }
    return (int)ck_type_get_id(t);
}

/* The type of a Python number among a call's arguments (an evaluation's likewise). Python numbers are weak, as NumPy 2
 * types them (NEP 50): an int takes the scalar type of the first other argument that is an
 * integer, float or complex; a float that of the first float (a complex's component); a
 * complex that of the first complex, or the complex of the first float; a bool stays bool.
 * With nothing of its kind to adapt to, the widest kind among the call's Python numbers:
 * bool, int64, float64, complex128. So float32_array + 1 stays float32 and int8_array + 1
 * int8; a value out of the type's range is an error. */
static ck_type_id weak_type(PyObject *obj, const call_plan *p, PyObject *const *args) {
    const ck_type_id own = ckpy_python_number_type(obj);
    for (int i = 0; i < p->nsrc && own != CK_TYPE_BOOL; i++) {
        const int id = p->src[i].array == NULL ? -1 : bottom_scalar(ck_array_type(p->src[i].array));
        const int is_float = ckpy_scalar_kind((ck_type_id)id) == 'F';
        const int is_complex = ckpy_scalar_kind((ck_type_id)id) == 'C';
        if (id < 0 || id == CK_TYPE_BOOL) {
            continue;
        }
        if (own == CK_TYPE_INT64) {
            return (ck_type_id)id;
        }
        if (own == CK_TYPE_FLOAT64 && (is_float || is_complex)) {
            return is_float ? (ck_type_id)id
                            : id == CK_TYPE_COMPLEX64 ? CK_TYPE_FLOAT32 : CK_TYPE_FLOAT64;
        }
        if (own == CK_TYPE_COMPLEX128 && (is_float || is_complex)) {
            return is_complex ? (ck_type_id)id
                              : id == CK_TYPE_FLOAT64 ? CK_TYPE_COMPLEX128 : CK_TYPE_COMPLEX64;
        }
    }
    /* Nothing to adapt to: the widest of the call's Python numbers (1.0 / 4 is float64). */
    ck_type_id widest = own;
    for (int i = 0; i < p->nsrc; i++) {
        if (ckpy_is_python_number(args[i]) && ckpy_python_number_type(args[i]) > widest) {
            widest = ckpy_python_number_type(args[i]);
        }
    }
    return widest;
}

/* Whether the callable has a signature for the sources' types. */
static int selects(const call_plan *p) {
    const ck_type *types[CK_CALL_MAX_ARGS];
    for (int i = 0; i < p->nsrc; i++) {
        types[i] = ck_array_type(p->src[i].array);
    }
    ck_type *rt = NULL;
    const int rc = ck_call_result_type(p->callable, p->nsrc, types, &p->ctx, &rt);
    ck_type_decref(rt);
    return rc != CK_ERR_TYPE;
}

/* The arguments' names in messages, written out: formatting them on every call cost more
 * than the rest of a small call's preparation. */
static const char *const argument_names[CK_CALL_MAX_ARGS] = {
    "argument 1", "argument 2", "argument 3", "argument 4", "argument 5", "argument 6",
    "argument 7", "argument 8", "argument 9", "argument 10", "argument 11", "argument 12",
    "argument 13", "argument 14", "argument 15", "argument 16"};
typedef char argument_names_cover_every_argument[CK_CALL_MAX_ARGS == 16 ? 1 : -1];

/* The call's keywords, arity and callable: what the kernel cache's key needs. */
static int call_start(call_plan *p, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                      PyObject **out) {
    PyObject *errmode = NULL;
    int allow_unsafe = 0;
    if (nargs < 1) {
        PyErr_SetString(PyExc_TypeError, "call() needs a callable's name and its arguments");
        return -1;
    }
    if (parse_call_keywords(args, nargs, kwnames, out, &errmode, &allow_unsafe,
                            &p->ctx.flags) < 0 ||
        ckpy_parse_errmode(errmode, &p->ctx.errmode) < 0) {
        return -1;
    }
    if (allow_unsafe) {
        p->ctx.flags |= CK_EVAL_ALLOW_UNSAFE;
    }
    if (nargs - 1 < 1 || nargs - 1 > CK_CALL_MAX_ARGS) {
        ckpy_raise(CK_ERR_INVALID, "a call takes 1 to %d arguments, not %zd", CK_CALL_MAX_ARGS,
                   nargs - 1);
        return -1;
    }
    p->nsrc = (int)nargs - 1;
    return ckpy_lookup(args[0], ck_lookup, "call", &p->callable);
}

/* The rest of what the run needs: its sources (named `what` in messages) as arrays and its
 * destination. */
static int finish_operands(call_plan *p, const char *const *what, PyObject *out);

static int call_operands(call_plan *p, PyObject *const *srcs, const char *const *what,
                         PyObject *out) {
    /* Scalars typed as NumPy 1.24 types them beside the arrays (scalars.c); the rest as
     * they are. */
    ck_type_id types[CK_CALL_MAX_ARGS];
    int alt[CK_CALL_MAX_ARGS];
    PyObject *numbers[CK_CALL_MAX_ARGS];
    if (p->expr != NULL) {
        /* An expression's Python numbers are weak (its intermediate values are not typed
         * by value as NumPy's scalars would be, so typing the arguments by value would not
         * be NumPy's eval), NumPy scalars and 0-d arrays keep their dtypes. */
        for (int pass = 0; pass < 2; pass++) {
            for (int i = 0; i < p->nsrc; i++) {
                if (ckpy_is_python_number(srcs[i]) != (pass > 0)) {
                    continue;
                }
                if ((pass == 0 ? ckpy_operand_source(srcs[i], what[i], &p->src[i])
                               : ckpy_operand_number(srcs[i], weak_type(srcs[i], p, srcs),
                                                     what[i], &p->src[i])) < 0) {
                    return -1;
                }
            }
        }
        return finish_operands(p, what, out);
    }
    if (ckpy_scalar_types(p->nsrc, srcs, ckpy_types_uniformly(ck_callable_name(p->callable)),
                          types, alt, numbers) < 0) {
        return -1;
    }
    int rc = 0, alternatives = 0;
    for (int i = 0; i < p->nsrc; i++) {
        alternatives |= alt[i] >= 0;
        if (rc == 0) {
            rc = numbers[i] != NULL
                     ? ckpy_operand_number(numbers[i], types[i], what[i], &p->src[i])
                     : ckpy_operand_source(srcs[i], what[i], &p->src[i]);
        }
    }
    if (rc == 0 && alternatives && !selects(p)) {
        /* No loop takes the small integers so: the other signedness (NumPy's per loop). */
        for (int i = 0; i < p->nsrc && rc == 0; i++) {
            if (alt[i] >= 0) {
                ckpy_operand_clear(&p->src[i]);
                rc = ckpy_operand_number(numbers[i], (ck_type_id)alt[i], what[i], &p->src[i]);
            }
        }
    }
    for (int i = 0; i < p->nsrc; i++) {
        Py_XDECREF(numbers[i]);
    }
    if (rc < 0) {
        return -1;
    }
    return finish_operands(p, what, out);
}

/* The destination: a new result, or `out` (the sources copied where they overlap it). */
static int finish_operands(call_plan *p, const char *const *what, PyObject *out) {
    if (out == NULL) {
        return make_result(p);
    }
    if (ckpy_operand_dest(out, "out", &p->dst) < 0) {
        return -1;
    }
    for (int i = 0; i < p->nsrc; i++) {
        if (ckpy_operand_unalias(&p->src[i], &p->dst, 1, what[i]) < 0) {
            return -1;
        }
    }
    p->result = Py_NewRef(out);
    return 0;
}

static void call_clear(call_plan *p) {
    for (int i = 0; i < p->nsrc; i++) {
        ckpy_operand_clear(&p->src[i]);
    }
    ckpy_operand_clear(&p->dst);
    ck_callable_decref(p->callable);
    ck_expr_decref(p->expr);
    Py_CLEAR(p->result);
}

PyObject *ckpy_return(PyObject *result, int scalar) {
    return scalar ? PyArray_Return((PyArrayObject *)Py_NewRef(result)) : Py_NewRef(result);
}

/* A call whose kernel the cache holds: only the data pointers are new. */
static PyObject *call_cached(ckpy_kernel *e, PyObject *out, int nsrc, PyObject *const *src) {
    PyObject *result = out != NULL ? Py_NewRef(out) : ckpy_cache_new_result(e);
    if (result == NULL) {
        return NULL;
    }
    char *sd[CK_CALL_MAX_ARGS];
    for (int i = 0; i < nsrc; i++) {
        sd[i] = PyArray_BYTES((PyArrayObject *)src[i]);
    }
    const int rc = ckpy_cache_run(e, PyArray_BYTES((PyArrayObject *)result), sd);
    const int scalar = out == NULL && PyArray_NDIM((PyArrayObject *)result) == 0;
    PyObject *r = rc != CK_OK ? ckpy_raise_status(rc) : ckpy_return(result, scalar);
    Py_DECREF(result);
    return r;
}

/* A started call or evaluation: the cached kernel when there is one, else its operands, its
 * result and its run (the GIL released). */
static PyObject *run_plan(call_plan *p, PyObject *const *srcs, const char *const *what,
                          PyObject *out) {
    ckpy_kernel_key key;
    const int cacheable = ckpy_key_init(&key, p->callable, p->expr, &p->ctx, out, p->nsrc, srcs);
    ckpy_kernel *e = cacheable ? ckpy_cache_find(&key) : NULL;
    if (e != NULL) {
        return call_cached(e, out, p->nsrc, srcs);
    }
    if (call_operands(p, srcs, what, out) < 0) {
        return NULL;
    }
    if (p->evaluated) {
        return ckpy_return(p->result, p->scalar_result);
    }
    const ck_array *arrays[CK_CALL_MAX_ARGS];
    char *sd[CK_CALL_MAX_ARGS];
    for (int i = 0; i < p->nsrc; i++) {
        arrays[i] = p->src[i].array;
        sd[i] = ck_array_data(p->src[i].array);
    }
    if (cacheable && PyArray_Check(p->result)) {
        e = ckpy_cache_add(&key, p->callable, p->expr, (PyArrayObject *)p->result, p->dst.array,
                           p->nsrc, arrays, &p->ctx);
    }
    int rc;
    if (e != NULL) {
        rc = ckpy_cache_run(e, ck_array_data(p->dst.array), sd);
    } else {
        Py_BEGIN_ALLOW_THREADS
        rc = p->expr != NULL
                 ? ck_parallel_expr(p->expr, p->dst.array, p->nsrc, NULL, arrays, &p->ctx)
                 : ck_parallel_call(p->callable, p->dst.array, p->nsrc, arrays, &p->ctx);
        Py_END_ALLOW_THREADS
    }
    return rc != CK_OK ? ckpy_raise_status(rc) : ckpy_return(p->result, p->scalar_result);
}

PyObject *ckpy_call(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    (void)self;
    call_plan p;
    memset(&p, 0, sizeof p);
    const ck_eval_ctx init = CK_EVAL_CTX_INIT;
    p.ctx = init;
    PyObject *result = NULL, *out = NULL;
    if (call_start(&p, args, PyVectorcall_NARGS(nargs), kwnames, &out) == 0) {
        /* out=(first, second) of a call of two results, as NumPy's: the pairs are computed,
         * then each assigned (cast as ck.assign casts) into its array. */
        PyObject *pair_out = NULL;
        if (out != NULL && PyTuple_Check(out) && ck_callable_result_count(p.callable) == 2) {
            if (PyTuple_GET_SIZE(out) != 2) {
                call_clear(&p);
                return ckpy_raise(CK_ERR_INVALID, "%s gives two results: out= takes a tuple of "
                                  "two arrays, not %zd", ck_callable_name(p.callable),
                                  PyTuple_GET_SIZE(out));
            }
            pair_out = out;
            out = NULL;
        }
        result = run_plan(&p, args + 1, argument_names, out);
        if (out == NULL) {
            result = split_pair(result, &p);
        }
        for (Py_ssize_t k = 0; pair_out != NULL && result != NULL && k < 2; k++) {
            PyObject *a = Py_BuildValue("(OO)", PyTuple_GET_ITEM(pair_out, k),
                                        PyTuple_GET_ITEM(result, k));
            PyObject *r = a == NULL ? NULL : ckpy_assign(NULL, a, NULL);
            Py_XDECREF(a);
            Py_XDECREF(r);
            if (r == NULL) {
                Py_CLEAR(result);
            }
        }
        if (pair_out != NULL && result != NULL) {
            Py_SETREF(result, Py_NewRef(pair_out));
        }
    }
    call_clear(&p);
    return result;
}

/* ---- evaluate ---- */

/* "argument '<name>'", a name of up to 48 bytes whole. */
#define WHAT_MAX 64

/* A 0-d array of the number held by obj when obj is one number NumPy types by value (a
 * Python bool, int, float or complex, a NumPy scalar, a 0-d ndarray of a bool, integer,
 * float or complex dtype in the machine's byte order); NULL otherwise, with no exception. */
static PyArrayObject *value_of(PyObject *obj) {
    const int number = PyBool_Check(obj) || PyLong_Check(obj) || PyFloat_Check(obj) ||
                       PyComplex_Check(obj) || PyArray_IsScalar(obj, Generic) ||
                       (PyArray_Check(obj) && PyArray_NDIM((PyArrayObject *)obj) == 0);
    if (!number) {
        return NULL;
    }
    PyArrayObject *a = (PyArrayObject *)PyArray_FromAny(obj, NULL, 0, 0, 0, NULL);
    if (a == NULL) {
        PyErr_Clear(); /* not one NumPy takes: the operand's own conversion reports it */
        return NULL;
    }
    PyArray_Descr *d = PyArray_DESCR(a);
    if (PyArray_NDIM(a) != 0 || strchr("?biufc", d->kind) == NULL || d->kind == 0 ||
        !PyArray_ISNBO(d->byteorder) || ckpy_scalar_id(d) < 0) {
        Py_DECREF(a);
        return NULL;
    }
    return a;
}

/* Binds the arguments whose values are single numbers (value_of) into the expression, as
 * NumPy 1.24 types them by value (ck_expr_bind): np.float32(4) * 2 + float32_array is
 * float32. The bound expression is cached by the text, the names, the dtypes and the
 * values' bytes; srcs and n then hold the arguments left. */
static int bind_values(call_plan *p, PyObject *text, PyObject **srcs, int *n) {
    PyArrayObject *vals[CK_CALL_MAX_ARGS] = {NULL};
    int nbound = 0;
    for (int j = 0; j < *n; j++) {
        vals[j] = value_of(srcs[j]);
        nbound += vals[j] != NULL;
    }
    if (nbound == 0) {
        return 0;
    }
    int rc = -1;
    ck_array *arrays[CK_CALL_MAX_ARGS] = {NULL};
    const char *names[CK_CALL_MAX_ARGS];
    PyObject *key = PyTuple_New(1 + 3 * nbound);
    if (key != NULL) {
        Py_INCREF(text);
        PyTuple_SET_ITEM(key, 0, text);
        rc = 0;
    }
    for (int j = 0, b = 0; rc == 0 && j < *n; j++) {
        if (vals[j] == NULL) {
            continue;
        }
        PyArray_Descr *d = PyArray_DESCR(vals[j]);
        PyObject *name = PyUnicode_FromString(ck_expr_arg_name(p->expr, j));
        PyObject *code = PyUnicode_FromFormat("%c%d", d->kind, (int)d->elsize);
        PyObject *bytes = PyBytes_FromStringAndSize(PyArray_BYTES(vals[j]), d->elsize);
        if (name == NULL || code == NULL || bytes == NULL) {
            Py_XDECREF(name);
            Py_XDECREF(code);
            Py_XDECREF(bytes);
            rc = -1;
            break;
        }
        PyTuple_SET_ITEM(key, 1 + 3 * b, name);
        PyTuple_SET_ITEM(key, 2 + 3 * b, code);
        PyTuple_SET_ITEM(key, 3 + 3 * b, bytes);
        names[b] = ck_expr_arg_name(p->expr, j);
        const ck_type *t = ckpy_type_from_descr(d); /* a new reference, or NULL raised */
        const int st = t == NULL ? CK_ERR_TYPE
                                 : ck_array_wrap(t, NULL, PyArray_BYTES(vals[j]), NULL, &arrays[b]);
        ck_type_decref((ck_type *)(uintptr_t)t);
        if (t == NULL) {
            rc = -1;
        } else if (st != CK_OK) {
            ckpy_raise_status(st);
            rc = -1;
        }
        b++;
    }
    ck_expr *bound = NULL;
    if (rc == 0) {
        const int found = ckpy_expr_cached(key, &bound);
        if (found < 0) {
            rc = -1;
        } else if (found == 0) {
            const int st = ck_expr_bind(p->expr, nbound, names, (const ck_array *const *)arrays,
                                        &bound);
            if (st != CK_OK) {
                ckpy_raise_status(st);
                rc = -1;
            } else {
                ckpy_expr_remember(key, bound);
            }
        }
    }
    if (rc == 0) {
        int left = 0;
        for (int j = 0; j < *n; j++) {
            if (vals[j] == NULL) {
                srcs[left++] = srcs[j];
            }
        }
        *n = left;
        ck_expr_decref(p->expr);
        p->expr = bound;
    }
    for (int j = 0; j < CK_CALL_MAX_ARGS; j++) {
        Py_XDECREF(vals[j]);
        ck_array_free(arrays[j]);
    }
    Py_XDECREF(key);
    return rc;
}

/* evaluate's expression and keywords: out=, fp_errors=, and every other keyword the source
 * of the argument of its name (srcs in the expression's order, what[i] "argument 'x'" in
 * buf); a keyword the expression does not name is ignored. A missing name is CK_ERR_INVALID,
 * as the C API reports it (ckernel.evaluate has looked it up in the caller's frame). */
static int evaluate_start(call_plan *p, PyObject *const *args, Py_ssize_t nargs,
                          PyObject *kwnames, PyObject **srcs, const char **what,
                          char (*buf)[WHAT_MAX], PyObject **out) {
    if (nargs != 1) {
        PyErr_Format(PyExc_TypeError, "evaluate() takes the expression as its one positional "
                     "argument (%zd given) and the arrays as keywords: "
                     "evaluate(\"a * x + b\", a=..., x=..., b=...)", nargs);
        return -1;
    }
    if (ckpy_expr_parse(args[0], &p->expr) < 0) {
        return -1;
    }
    int n = ck_expr_nargs(p->expr); /* 0: literals only, a 0-d result */
    for (int j = 0; j < n; j++) {
        srcs[j] = NULL;
    }
    const Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t i = 0; i < nkw; i++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, i), *value = args[nargs + i];
        if (PyUnicode_CompareWithASCIIString(key, "out") == 0) {
            *out = value == Py_None ? NULL : value;
            continue;
        }
        if (PyUnicode_CompareWithASCIIString(key, "fp_errors") == 0) {
            if (ckpy_parse_fp_errors(value, &p->ctx.flags) < 0) {
                return -1;
            }
            continue;
        }
        int j = 0;
        while (j < n && PyUnicode_CompareWithASCIIString(key, ck_expr_arg_name(p->expr, j)) != 0) {
            j++;
        }
        if (j < n) { /* a name the expression does not use is ignored, as numexpr does */
            srcs[j] = value;
        }
    }
    for (int j = 0; j < n; j++) {
        const char *name = ck_expr_arg_name(p->expr, j);
        if (srcs[j] == NULL) {
            ckpy_raise(CK_ERR_INVALID, "evaluate: the argument '%s' of %R is not given%s", name,
                       args[0], strcmp(name, "out") == 0 ? " (out= is the destination: "
                                                           "rename the argument)" : "");
            return -1;
        }
    }
    if (bind_values(p, args[0], srcs, &n) < 0) {
        return -1;
    }
    for (int j = 0; j < n; j++) {
        const char *name = ck_expr_arg_name(p->expr, j);
        snprintf(buf[j], WHAT_MAX, "argument '%.48s'", name);
        what[j] = buf[j];
    }
    p->nsrc = n;
    return 0;
}

PyObject *ckpy_evaluate(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                        PyObject *kwnames) {
    (void)self;
    call_plan p;
    memset(&p, 0, sizeof p);
    const ck_eval_ctx init = CK_EVAL_CTX_INIT;
    p.ctx = init;
    PyObject *result = NULL, *out = NULL, *srcs[CK_CALL_MAX_ARGS];
    const char *what[CK_CALL_MAX_ARGS];
    char buf[CK_CALL_MAX_ARGS][WHAT_MAX];
    if (evaluate_start(&p, args, PyVectorcall_NARGS(nargs), kwnames, srcs, what, buf, &out) == 0) {
        result = run_plan(&p, srcs, what, out);
    }
    call_clear(&p);
    return result;
}

/* The expression's argument names, in its order (ckernel.evaluate looks up the ones not
 * passed, as numexpr does). */
PyObject *ckpy_expression_names(PyObject *self, PyObject *text) {
    (void)self;
    ck_expr *e = NULL;
    if (ckpy_expr_parse(text, &e) < 0) {
        return NULL;
    }
    const int n = ck_expr_nargs(e);
    PyObject *names = PyTuple_New(n);
    for (int j = 0; names != NULL && j < n; j++) {
        PyObject *s = PyUnicode_FromString(ck_expr_arg_name(e, j));
        if (s == NULL) {
            Py_CLEAR(names);
            break;
        }
        PyTuple_SET_ITEM(names, j, s);
    }
    ck_expr_decref(e);
    return names;
}

/* ---- explain ---- */

/* One side of explain: a datashape (C-order arrmeta, var dims and pointers on `arena`) or
 * an array (its own arrmeta). */
typedef struct explain_side {
    ck_type *parsed;
    char *arrmeta; /* for a parsed type */
    ckpy_operand op;
} explain_side;

static int explain_side_init(PyObject *obj, const char *what, ck_memblock *arena,
                             explain_side *s) {
    if (!PyUnicode_Check(obj)) {
        return ckpy_operand_source(obj, what, &s->op);
    }
    const char *ds = PyUnicode_AsUTF8(obj);
    if (ds == NULL) {
        return -1;
    }
    int rc = ck_type_parse(ds, &s->parsed);
    if (rc == CK_OK) {
        size_t n = ck_type_arrmeta_size(s->parsed);
        s->arrmeta = PyMem_Calloc(n != 0 ? n : 1, 1);
        if (s->arrmeta == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        rc = ck_arrmeta_default_construct(s->parsed, s->arrmeta, arena);
    }
    if (rc != CK_OK) {
        ckpy_raise_status(rc);
        return -1;
    }
    return 0;
}

static const ck_type *side_type(const explain_side *s) {
    return s->parsed != NULL ? s->parsed : ck_array_type(s->op.array);
}

static const char *side_arrmeta(const explain_side *s) {
    return s->parsed != NULL ? s->arrmeta : ck_array_arrmeta(s->op.array);
}

static void explain_side_clear(explain_side *s) {
    if (s->arrmeta != NULL) {
        ck_arrmeta_release(s->parsed, s->arrmeta);
        PyMem_Free(s->arrmeta);
    }
    ck_type_decref(s->parsed);
    ckpy_operand_clear(&s->op);
}

PyObject *ckpy_explain(PyObject *self, PyObject *args, PyObject *kwargs) {
    (void)self;
    PyObject *dst_obj, *src_obj;
    ck_eval_ctx ctx;
    if (parse_assignment(args, kwargs, "OO|Op:explain", &dst_obj, &src_obj, &ctx) < 0) {
        return NULL;
    }
    explain_side dst = {NULL, NULL, CKPY_OPERAND_INIT}, src = {NULL, NULL, CKPY_OPERAND_INIT};
    ck_memblock *arena = NULL;
    PyObject *result = NULL;
    int rc = ck_arena_new(0, &arena);
    if (rc != CK_OK) {
        return ckpy_raise_status(rc);
    }
    if (explain_side_init(dst_obj, "dst", arena, &dst) == 0 &&
        explain_side_init(src_obj, "src", arena, &src) == 0) {
        ck_builder b;
        ck_builder_init(&b);
        size_t size = 0;
        char *text = NULL;
        rc = ck_make_assign(&b, &size, side_type(&dst), side_arrmeta(&dst), side_type(&src),
                            side_arrmeta(&src), CK_REQUEST_SINGLE, &ctx);
        if (rc == CK_OK) {
            rc = ck_kernel_describe(ck_builder_root(&b), &text);
        }
        result = rc == CK_OK ? ckpy_string(text) : ckpy_raise_status(rc);
        ck_builder_destroy(&b);
    }
    explain_side_clear(&src);
    explain_side_clear(&dst);
    ck_memblock_decref(arena);
    return result;
}
