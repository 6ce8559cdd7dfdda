/* python/src/ckpy.h: what the files of the extension module ckernel._ckernel share: the
 * Python types (Array, Callable), operands (any Python argument wrapped as a ck_array for
 * one kernel run), NumPy dtypes as ckernel types and back, and raising ckernel.Error.
 *
 * The module is written on the CPython and NumPy C APIs over ckernel's public C API only
 * (<ckernel/ckernel.h>). Rule for the GIL: it is released around every kernel run
 * (ck_parallel_assign, ck_parallel_call, ck_expr_eval, ck_parallel_reduce, ck_accumulate)
 * and nothing that runs without it touches a Python object; everything else here runs with
 * it held. */
#ifndef CKPY_H
#define CKPY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
/* One table of NumPy's C API for the whole module: module.c imports it (CKPY_IMPORT_ARRAY),
 * the other files refer to it. */
#define PY_ARRAY_UNIQUE_SYMBOL ckpy_numpy_api
#ifndef CKPY_IMPORT_ARRAY
#define NO_IMPORT_ARRAY
#endif
#include <numpy/arrayobject.h>

#include <ckernel/ckernel.h>

/* ---- errors (module.c) ---- */

/* ckernel.Error, a subclass of ValueError. */
extern PyObject *ckpy_Error;
/* Raises ckernel.Error for `status` with the thread's ck_last_error() text (the status's
 * fixed message when there is none). Returns NULL. */
PyObject *ckpy_raise_status(int status);
/* Raises ckernel.Error for `status` with a message of the module's own (printf-style, as
 * PyUnicode_FromFormat). Returns NULL. */
PyObject *ckpy_raise(int status, const char *fmt, ...);
/* Turns a TypeError or ValueError that is being raised into ckernel.Error with `status`,
 * "<what>: <its message>", chained to it (__cause__); any other exception stays. */
void ckpy_convert_error(int status, const char *what);
/* Prefixes the message of a ckernel.Error being raised with "<what>: " (same status). */
void ckpy_prefix_error(const char *what);

/* A string ckernel made (freed here, ck_free) as a str, and as a list of its lines. */
PyObject *ckpy_string(char *text);
PyObject *ckpy_lines(char *text);

/* ---- the Array type (array.c) ---- */

typedef struct ckpy_Array {
    PyObject_HEAD
    ck_array *array;  /* owned */
    PyObject *nd;     /* the ndarray whose buffer the data is (borrowed: the array's owner
                         block holds the reference), or NULL for ckernel's own memory */
    int readonly;     /* the data belongs to a read-only ndarray */
} ckpy_Array;

extern PyTypeObject ckpy_ArrayType;
#define ckpy_Array_Check(o) PyObject_TypeCheck((o), &ckpy_ArrayType)
/* A new ckernel.Array holding `a` (stolen, also on failure). */
PyObject *ckpy_array_from_ck(ck_array *a, PyObject *nd, int readonly);
/* 1 when t is fixed dimensions (zero or more) over a scalar NumPy has a dtype for (not
 * bfloat16), a datetime64 or a timedelta64: what NumPy holds directly as numbers. Results of
 * other types are ckernel.Arrays. */
int ckpy_is_fixed_scalar(const ck_type *t);
/* The Python objects of the data of t at `data` with its arrmeta: lists, tuples, dicts,
 * numbers, None. NULL with an exception set on failure. */
PyObject *ckpy_to_python(const ck_type *t, const char *arrmeta, const char *data);

/* ---- the Callable type (callable.c) ---- */

typedef struct ckpy_Callable {
    PyObject_HEAD
    ck_callable *callable; /* one reference */
    PyObject *keep;        /* list: the objects whose code native signatures call */
} ckpy_Callable;

extern PyTypeObject ckpy_CallableType;
#define ckpy_Callable_Check(o) PyObject_TypeCheck((o), &ckpy_CallableType)

/* ---- NumPy dtypes and ckernel types (convert.c) ---- */

/* The ckernel type of one element of dtype d: a scalar, fixed dims of a sub-array, or a
 * struct of a structured dtype (one new reference). NULL with ckernel.Error (CK_ERR_TYPE)
 * for dtypes ckernel has no type for (object, strings, dates, long double, byte-swapped). */
const ck_type *ckpy_type_from_descr(PyArray_Descr *d);
/* The NumPy type number of a scalar type id; -1 for others and for a scalar NumPy lacks. */
int ckpy_typenum(ck_type_id id);
/* The scalar table's kind of an id: 'B' bool, 'S' signed, 'U' unsigned, 'F' float, 'C'
 * complex; 0 for a non-scalar id. */
char ckpy_scalar_kind(ck_type_id id);
/* The dtype of one element of t (scalars, fixed dims in records, tuples and structs) laid
 * out as `arrmeta` says; NULL with ckernel.Error for types NumPy cannot hold (var, pointer,
 * option) or layouts it cannot describe. */
PyArray_Descr *ckpy_descr_from_type(const ck_type *t, const char *arrmeta);
/* The scalar type id of a dtype that is a scalar ckernel has (native byte order, no fields),
 * else -1 (no exception). */
int ckpy_scalar_id(PyArray_Descr *d);
/* A ck_array over the ndarray's own buffer (ck_array_wrap, zero copies): its type, and
 * arrmeta from its shape, strides and field offsets. `owner` as ck_array_wrap's. 0 or -1
 * with an exception. */
int ckpy_wrap_ndarray(PyArrayObject *a, ck_memblock *owner, ck_array **out);
/* An external memory block over the ndarray's buffer holding a reference to it, released
 * (with the GIL) when ckernel drops the block. 0 or -1 with an exception. */
int ckpy_owner_block(PyArrayObject *a, ck_memblock **out);

/* ---- Python values as literals (literal.c) ---- */

/* A new ck_array of type t from nested Python lists, tuples, dicts, numbers and None
 * (written as the literal of t and parsed: errors name the element and column). */
int ckpy_array_from_python_typed(PyObject *obj, const ck_type *t, ck_array **out);
/* The same with the type inferred from the values (docs/python.md: lists are dimensions,
 * fixed when every list of a level has the same length, else var; values bool, int64,
 * float64 or complex128, the widest kind present; None makes the element an option). */
int ckpy_array_from_python(PyObject *obj, ck_array **out);
/* 1 when obj is a Python or NumPy bool, integer, float or complex number. */
int ckpy_is_number(PyObject *obj);

/* ---- operands: one Python argument of one kernel run (operand.c) ---- */

typedef struct ckpy_operand {
    ck_array *array;  /* the array the kernel reads or writes */
    int owns_array;   /* free it with the operand (not when borrowed from a ckernel.Array) */
    PyObject *keep;   /* a reference to the object owning the data, or NULL */
    PyArrayObject *nd;/* the ndarray the data belongs to (borrowed from keep), or NULL */
    /* A Python number's value, in place: a 0-d array needs no buffer of its own. */
    _Alignas(16) unsigned char scalar[16];
} ckpy_operand;

#define CKPY_OPERAND_INIT {NULL, 0, NULL, NULL, {0}}

/* The types of a call's scalar arguments, as NumPy 1.24's ufuncs type them (scalars.c): for
 * each of the n arguments that is a scalar typed so, types[i] and numbers[i] (its value as a
 * Python number, a new reference: ckpy_operand_number makes the operand); numbers[i] NULL
 * for the others, which ckpy_operand_source takes as they are. `uniform`: the call is typed
 * as np.result_type types it (expressions, and ckpy_types_uniformly's ufuncs), not by a
 * search of loops; alt[i] (or -1) the type to try where no loop takes types[i]. 0, or -1
 * with an exception. */
/* fp_errors= ('ignore', the default, or 'raise': CK_EVAL_FP_ERRORS into *flags); None is
 * the default. 0, or -1 with ckernel.Error. */
int ckpy_parse_fp_errors(PyObject *obj, unsigned *flags);

int ckpy_scalar_types(int n, PyObject *const *args, int uniform, ck_type_id *types,
                      int *alt, PyObject **numbers);
/* Whether NumPy 1.24 types the ufunc `name` by np.result_type (add, ...): `uniform` above. */
int ckpy_types_uniformly(const char *name);

/* Any argument as a source: an ndarray or anything NumPy makes one of (zero copies where
 * NumPy's is), a ckernel.Array, a Python number (0-d bool, int64, float64 or complex128), a
 * nested list. `what` names it in messages ("argument 2"). 0 or -1 with an exception. */
int ckpy_operand_source(PyObject *obj, const char *what, ckpy_operand *op);
/* 1 for a Python bool, int, float or complex (exactly: NumPy scalars are arrays here), and
 * its own type: bool, int64, float64, complex128. */
int ckpy_is_python_number(PyObject *obj);
ck_type_id ckpy_python_number_type(PyObject *obj);
/* A Python number as a 0-d array of scalar type `id`, converted in the overflow mode (a
 * value out of id's range is CK_ERR_OVERFLOW, rounding is not an error). */
int ckpy_operand_number(PyObject *obj, ck_type_id id, const char *what, ckpy_operand *op);
/* NumPy's array of obj (PyArray_FromAny), refusing objects whose buffer cannot be had. */
PyArrayObject *ckpy_to_ndarray(PyObject *obj);
/* A destination: a writable ndarray or ckernel.Array. 0 or -1 with an exception. */
int ckpy_operand_dest(PyObject *obj, const char *what, ckpy_operand *op);
/* Replaces a source that shares memory with the destination with a copy, so that writing
 * the destination cannot change what is still to be read. same_layout_ok: a source of the
 * destination's very layout is left (elementwise kernels read each element before they
 * write it), and only ndarrays are compared; else (reductions and accumulations, which
 * write start values and partial results first) any shared byte of fixed dimensions of
 * scalars, or the same array, is copied. */
int ckpy_operand_unalias(ckpy_operand *src, const ckpy_operand *dst, int same_layout_ok,
                         const char *what);
/* 1 when src and dst share memory without being the same layout (src must be copied
 * before dst is written). */
int ckpy_needs_copy(PyArrayObject *src, PyArrayObject *dst);
void ckpy_operand_clear(ckpy_operand *op);

/* ---- the kernel cache (cache.c): small runs over ndarrays reuse the kernel built for
 * the same types and layouts ---- */

#define CKPY_KEY_MAX_DIMS 8
#define CKPY_KEY_WORDS (2 + (CK_CALL_MAX_ARGS + 1) * (1 + 2 * CKPY_KEY_MAX_DIMS))
typedef struct ckpy_kernel_key {
    uintptr_t hash;
    int n;
    intptr_t w[CKPY_KEY_WORDS];
} ckpy_kernel_key;
typedef struct ckpy_kernel ckpy_kernel;

/* The key of the run dst <- c(src...), or dst <- x(src...) for an expression x (its
 * sources in the order of ck_expr_arg_name); c and x NULL: the assignment dst <- src[0];
 * dst NULL: a call or an evaluation that makes its result. 0 when the run is not one the
 * cache takes: an operand that is not an ndarray of a scalar dtype of at most
 * CKPY_KEY_MAX_DIMS dimensions, a read-only dst, a source overlapping dst, or a destination
 * of two parallel grains or more. */
int ckpy_key_init(ckpy_kernel_key *k, ck_callable *c, ck_expr *x, const ck_eval_ctx *ctx,
                  PyObject *dst, int nsrc, PyObject *const *src);
/* The cached kernel of that key, or NULL. */
ckpy_kernel *ckpy_cache_find(const ckpy_kernel_key *k);
/* Builds the kernel of the key's run over these arrays (dst over dst_nd, which is out= or
 * a call's new result) into the cache; NULL when it cannot be (too large, no memory, or
 * the build fails: the uncached run then reports why). No exception is set. */
ckpy_kernel *ckpy_cache_add(const ckpy_kernel_key *k, ck_callable *c, ck_expr *x,
                            PyArrayObject *dst_nd, const ck_array *dst, int nsrc,
                            const ck_array *const *src, const ck_eval_ctx *ctx);
/* A new result for a cached call without out= (the dtype and shape of the first one). */
PyObject *ckpy_cache_new_result(const ckpy_kernel *e);
/* Runs the cached kernel with the GIL released; a ckernel status. */
int ckpy_cache_run(ckpy_kernel *e, char *dst, char *const *src);
/* Drops every cached kernel (a Callable's new signature changes selections) and parsed
 * expression. */
void ckpy_cache_clear(void);
/* The expression of the text (ck_expr_parse; one reference in *out), parsed once for the
 * texts used last. 0 or -1 with ckernel.Error (CK_ERR_PARSE, CK_ERR_TYPE, ...). */
int ckpy_expr_parse(PyObject *text, ck_expr **out);
/* The parsed-expression cache by any key (a text, or a text with bound values): 1 and a
 * new reference in *out when found, 0 when not, -1 with an exception. */
int ckpy_expr_cached(PyObject *key, ck_expr **out);
/* Remembers e under key (a reference of its own); a failure only forgets it. */
void ckpy_expr_remember(PyObject *key, ck_expr *e);
/* (hits, misses, kernels held), for the tests. */
PyObject *ckpy_cache_stats(void);

/* ---- module functions (run.c: assign, call, evaluate, explain; reduce.c) ---- */

PyObject *ckpy_assign(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *ckpy_call(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);
PyObject *ckpy_expression_names(PyObject *self, PyObject *text);
PyObject *ckpy_evaluate(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                        PyObject *kwnames);
PyObject *ckpy_explain(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *ckpy_reduce(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *ckpy_accumulate(PyObject *self, PyObject *args, PyObject *kwargs);
/* The errmode keyword: a mode's name ("nocheck", "overflow", "fractional", "inexact"). */
int ckpy_parse_errmode(PyObject *obj, ck_errmode *out);
/* The callable of a run: a ckernel.Callable itself, or the one a name gives by `by_name`
 * (ck_lookup, ck_reduction_lookup, ck_accumulation_lookup). `fn` names the function in
 * messages. One reference in *out; 0 or -1 with an exception. */
int ckpy_lookup(PyObject *name, int (*by_name)(const char *, ck_callable **), const char *fn,
                ck_callable **out);
/* The new destination of a run without out=, of type rt: a C-order ndarray when rt is fixed
 * dimensions of scalars (*scalar: it is 0-d), else a ckernel.Array (var rows allocated by
 * the run); *result gets it and dst its operand. 0 or -1 with an exception. */
int ckpy_new_result(const ck_type *rt, PyObject **result, int *scalar, ckpy_operand *dst);
/* What a run returns: its result (a new reference), or, when `scalar` (a new 0-d result), a
 * NumPy scalar, as NumPy's ufuncs and reductions return. */
PyObject *ckpy_return(PyObject *result, int scalar);

#endif
