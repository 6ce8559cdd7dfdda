/* python/src/operand.c: one Python argument of a kernel run as a ck_array. An ndarray is
 * wrapped over its own buffer (no copy, no owner block: the operand holds the ndarray for
 * the run); a ckernel.Array is borrowed; a Python number is a 0-d array over the operand's
 * own 16 bytes; nested lists become a literal array. Every kernel run of the module (assign,
 * call, explain) describes its arguments here and nowhere else. */
#include "ckpy.h"

#include <string.h>

void ckpy_operand_clear(ckpy_operand *op) {
    if (op->owns_array) {
        ck_array_free(op->array);
    }
    op->array = NULL;
    op->owns_array = 0;
    op->nd = NULL;
    Py_CLEAR(op->keep);
}

static int from_ndarray(PyArrayObject *nd, const char *what, ckpy_operand *op) {
    if (ckpy_wrap_ndarray(nd, NULL, &op->array) < 0) {
        ckpy_prefix_error(what); /* "argument 2: NumPy dtype ... has no ckernel type" */
        return -1;
    }
    op->owns_array = 1;
    op->keep = Py_NewRef((PyObject *)nd);
    op->nd = nd;
    return 0;
}

int ckpy_is_python_number(PyObject *obj) {
    /* Exact types: NumPy scalars (np.float64 is a float subclass) keep their dtype. */
    return PyBool_Check(obj) || PyLong_CheckExact(obj) || PyFloat_CheckExact(obj) ||
           PyComplex_CheckExact(obj);
}

ck_type_id ckpy_python_number_type(PyObject *obj) {
    return PyBool_Check(obj)         ? CK_TYPE_BOOL
           : PyLong_CheckExact(obj)  ? CK_TYPE_INT64
           : PyFloat_CheckExact(obj) ? CK_TYPE_FLOAT64
                                     : CK_TYPE_COMPLEX128;
}

/* The number's value at `buf` in its own type (bool, int64, float64, complex128), which
 * *type gets. An int beyond int64 is read as the uint64 or the float64 it goes to when
 * `target` is one (a value out of that range too is CK_ERR_OVERFLOW). */
static int number_value(PyObject *obj, ck_type_id target, const char *what, unsigned char *buf,
                        ck_type_id *type) {
    *type = ckpy_python_number_type(obj);
    if (PyBool_Check(obj)) {
        buf[0] = obj == Py_True;
    } else if (PyLong_CheckExact(obj)) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
        if (v == -1 && PyErr_Occurred()) {
            return -1;
        }
        if (overflow == 0) {
            int64_t i64 = (int64_t)v;
            memcpy(buf, &i64, sizeof i64);
            return 0;
        }
        if (target == CK_TYPE_UINT64 && overflow > 0) {
            unsigned long long u = PyLong_AsUnsignedLongLong(obj);
            if (!(u == (unsigned long long)-1 && PyErr_Occurred())) {
                uint64_t u64 = (uint64_t)u;
                memcpy(buf, &u64, sizeof u64);
                *type = CK_TYPE_UINT64;
                return 0;
            }
            PyErr_Clear();
        } else if (ckpy_scalar_kind(target) == 'F' || ckpy_scalar_kind(target) == 'C') {
            double d = PyLong_AsDouble(obj);
            if (!(d == -1.0 && PyErr_Occurred())) {
                memcpy(buf, &d, sizeof d);
                *type = CK_TYPE_FLOAT64;
                return 0;
            }
            PyErr_Clear();
        }
        ckpy_raise(CK_ERR_OVERFLOW, "%s: the Python int %S is out of range for %s", what, obj,
                   ck_type_id_name(target == CK_TYPE_BOOL ? CK_TYPE_INT64 : target));
        return -1;
    } else if (PyFloat_CheckExact(obj)) {
        double d = PyFloat_AS_DOUBLE(obj);
        memcpy(buf, &d, sizeof d);
    } else {
        Py_complex z = PyComplex_AsCComplex(obj);
        if (z.real == -1.0 && PyErr_Occurred()) {
            return -1;
        }
        double parts[2] = {z.real, z.imag};
        memcpy(buf, parts, sizeof parts);
    }
    return 0;
}

int ckpy_operand_number(PyObject *obj, ck_type_id id, const char *what, ckpy_operand *op) {
    _Alignas(16) unsigned char value[16];
    ck_type_id own;
    if (number_value(obj, id, what, value, &own) < 0) {
        return -1;
    }
    if (own == id) {
        memcpy(op->scalar, value, sizeof value);
    }
    int rc = ck_array_wrap(ck_type_scalar(id), NULL, (char *)op->scalar, NULL, &op->array);
    if (rc == CK_OK) {
        op->owns_array = 1;
    }
    if (rc == CK_OK && id != own) {
        /* Into the type chosen for it: out of range is an error, rounding is not. */
        ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
        ck_array *src = NULL;
        ctx.errmode = CK_ERRMODE_OVERFLOW;
        rc = ck_array_wrap(ck_type_scalar(own), NULL, (char *)value, NULL, &src);
        if (rc == CK_OK) {
            rc = ck_assign(op->array, src, &ctx);
        }
        ck_array_free(src);
    }
    if (rc != CK_OK) {
        ckpy_raise_status(rc);
        ckpy_prefix_error(what);
        return -1;
    }
    return 0;
}

static int from_array(PyObject *obj, ckpy_operand *op) {
    ckpy_Array *a = (ckpy_Array *)obj;
    op->array = a->array; /* borrowed: keep holds the Array */
    op->owns_array = 0;
    op->keep = Py_NewRef(obj);
    op->nd = (PyArrayObject *)a->nd;
    return 0;
}

int ckpy_operand_source(PyObject *obj, const char *what, ckpy_operand *op) {
    if (PyArray_Check(obj)) {
        return from_ndarray((PyArrayObject *)obj, what, op);
    }
    if (ckpy_Array_Check(obj)) {
        return from_array(obj, op);
    }
    if (ckpy_is_python_number(obj)) {
        return ckpy_operand_number(obj, ckpy_python_number_type(obj), what, op);
    }
    if (PyList_Check(obj) || PyTuple_Check(obj) || obj == Py_None || PyUnicode_Check(obj) ||
        PyBytes_Check(obj)) { /* a str or bytes: a 0-d string or bytes */
        if (ckpy_array_from_python(obj, &op->array) < 0) {
            ckpy_prefix_error(what);
            return -1;
        }
        op->owns_array = 1;
        return 0;
    }
    if (PyDict_Check(obj)) {
        ckpy_raise(CK_ERR_TYPE, "%s: a %.100s is not an array (NumPy arrays, ckernel.Array, "
                   "numbers, str, bytes and nested lists are)", what, Py_TYPE(obj)->tp_name);
        return -1;
    }
    PyArrayObject *nd = ckpy_to_ndarray(obj);
    if (nd == NULL) {
        ckpy_convert_error(CK_ERR_TYPE, what);
        return -1;
    }
    int rc = from_ndarray(nd, what, op);
    Py_DECREF(nd);
    return rc;
}

PyArrayObject *ckpy_to_ndarray(PyObject *obj) {
    if (PyArray_Check(obj)) { /* an ndarray's buffer may not be exportable (M8): none needed */
        return (PyArrayObject *)Py_NewRef(obj);
    }
    /* NumPy reads an object whose buffer cannot be had (a released memoryview) as an object
     * array; asking for the buffer first reports why instead. NumPy's own scalars convert
     * without it (an np.datetime64's dtype has no buffer format). */
    if (PyObject_CheckBuffer(obj) && !PyArray_IsScalar(obj, Generic)) {
        Py_buffer view;
        if (PyObject_GetBuffer(obj, &view, PyBUF_RECORDS_RO) < 0) {
            return NULL;
        }
        PyBuffer_Release(&view);
    }
    return (PyArrayObject *)PyArray_FromAny(obj, NULL, 0, 0, 0, NULL);
}

int ckpy_operand_dest(PyObject *obj, const char *what, ckpy_operand *op) {
    if (PyArray_Check(obj)) {
        if (!PyArray_ISWRITEABLE((PyArrayObject *)obj)) {
            ckpy_raise(CK_ERR_INVALID, "%s is a read-only NumPy array", what);
            return -1;
        }
        return from_ndarray((PyArrayObject *)obj, what, op);
    }
    if (ckpy_Array_Check(obj)) {
        if (((ckpy_Array *)obj)->readonly) {
            ckpy_raise(CK_ERR_INVALID, "%s is a ckernel.Array over a read-only NumPy array", what);
            return -1;
        }
        return from_array(obj, op);
    }
    ckpy_raise(CK_ERR_TYPE, "%s must be a writable NumPy array or ckernel.Array, not %.100s",
               what, Py_TYPE(obj)->tp_name);
    return -1;
}

/* The bytes [lo, hi) that n dimensions of the given sizes and strides over elements of
 * `itemsize` bytes at `base` may touch. Size and stride i are at size[i * step] and
 * stride[i * step]: NumPy keeps them in two arrays (step 1), ckernel's arrmeta in pairs
 * (step 2). */
static void span(char *base, int n, const intptr_t *size, const intptr_t *stride, int step,
                 size_t itemsize, char **lo, char **hi) {
    char *l = base, *h = base + itemsize;
    for (int i = 0; i < n; i++) {
        const intptr_t dim = size[i * step], s = stride[i * step];
        if (dim == 0) {
            *lo = *hi = base;
            return;
        }
        if (s < 0) {
            l += (dim - 1) * s;
        } else {
            h += (dim - 1) * s;
        }
    }
    *lo = l;
    *hi = h;
}

static void extent(PyArrayObject *a, char **lo, char **hi) {
    span(PyArray_BYTES(a), PyArray_NDIM(a), PyArray_DIMS(a), PyArray_STRIDES(a), 1,
         (size_t)PyArray_ITEMSIZE(a), lo, hi);
}

/* The same for a ck_array of fixed dimensions over a scalar, a datetime or fixed text (whose
 * bytes are in the element); 0 for other types (their rows and strings may be anywhere). */
static int ck_extent(const ck_array *a, char **lo, char **hi) {
    const ck_type *t = ck_array_type(a);
    int n = 0;
    for (; ck_type_get_id(t) == CK_TYPE_FIXED_DIM; n++) {
        t = ck_type_element(t);
    }
    const ck_type_id id = ck_type_get_id(t);
    if (!ck_type_is_scalar(t) && id != CK_TYPE_FIXED_STRING && id != CK_TYPE_FIXED_BYTES &&
        id != CK_TYPE_DATETIME && id != CK_TYPE_TIMEDELTA) {
        return 0;
    }
    const ck_fixed_dim_arrmeta *fm = (const ck_fixed_dim_arrmeta *)ck_array_arrmeta(a);
    span(ck_array_data(a), n, &fm->dim_size, &fm->stride, 2, ck_type_data_size(t), lo, hi);
    return 1;
}

/* Two byte ranges share a byte (an empty one shares none). */
static int overlap(const char *alo, const char *ahi, const char *blo, const char *bhi) {
    return !(alo >= bhi || blo >= ahi || alo == ahi || blo == bhi);
}

static int same_layout(PyArrayObject *a, PyArrayObject *b) {
    if (PyArray_BYTES(a) != PyArray_BYTES(b) || PyArray_NDIM(a) != PyArray_NDIM(b) ||
        PyArray_ITEMSIZE(a) != PyArray_ITEMSIZE(b)) {
        return 0;
    }
    for (int i = 0; i < PyArray_NDIM(a); i++) {
        if (PyArray_DIM(a, i) != PyArray_DIM(b, i) || PyArray_STRIDE(a, i) != PyArray_STRIDE(b, i)) {
            return 0;
        }
    }
    return 1;
}

int ckpy_needs_copy(PyArrayObject *src, PyArrayObject *dst) {
    if (same_layout(src, dst)) {
        return 0;
    }
    char *slo, *shi, *dlo, *dhi;
    extent(src, &slo, &shi);
    extent(dst, &dlo, &dhi);
    return overlap(slo, shi, dlo, dhi);
}

/* 1 when src and dst may share memory in any way: the same array, or (fixed dimensions of
 * scalars) a byte in common. */
static int may_share(const ck_array *src, const ck_array *dst) {
    char *slo, *shi, *dlo, *dhi;
    if (src == dst) {
        return 1;
    }
    return ck_extent(src, &slo, &shi) && ck_extent(dst, &dlo, &dhi) &&
           overlap(slo, shi, dlo, dhi);
}

/* Replaces the source with a copy in ckernel's memory (the same type, every row). */
static int copy_source(ckpy_operand *src, const char *what) {
    ck_array *copy = NULL;
    int rc = ck_array_new(ck_array_type(src->array), &copy);
    if (rc == CK_OK) {
        rc = ck_assign(copy, src->array, NULL);
    }
    if (rc != CK_OK) {
        ck_array_free(copy);
        ckpy_raise_status(rc);
        ckpy_prefix_error(what);
        return -1;
    }
    ckpy_operand_clear(src);
    src->array = copy;
    src->owns_array = 1;
    return 0;
}

int ckpy_operand_unalias(ckpy_operand *src, const ckpy_operand *dst, int same_layout_ok,
                         const char *what) {
    if (!same_layout_ok) {
        return may_share(src->array, dst->array) ? copy_source(src, what) : 0;
    }
    if (src->nd == NULL || dst->nd == NULL || !ckpy_needs_copy(src->nd, dst->nd)) {
        return 0;
    }
    PyArrayObject *copy = (PyArrayObject *)PyArray_NewCopy(src->nd, NPY_KEEPORDER);
    if (copy == NULL) {
        return -1;
    }
    ckpy_operand_clear(src);
    int rc = from_ndarray(copy, what, src);
    Py_DECREF(copy);
    return rc;
}
