/* python/src/scalars.c: the types a call gives its scalar arguments, as NumPy 1.24's ufuncs
 * type them (value-based casting). A scalar is a Python number, a NumPy scalar or a 0-d
 * ndarray. When the call also has arrays (ndarrays of one or more dimensions, ckernel.Arrays,
 * lists) and no scalar is of a higher kind than every array (kinds: bool < integers < floats
 * and complex numbers), each scalar counts as the smallest type that holds its value
 * (np.min_scalar_type: 300 is uint16, -1 int8, 0.1 float16, 1e300 float64, 1j complex64), so
 * int8_array + 300 is int16 and float32_array + 0.1 stays float32; a non-negative integer
 * that also fits the signed type of its width counts as that signed type when an array is
 * signed or a float (NumPy's "small unsigned" rule: int8_array + 1 stays int8,
 * uint8_array + 1 uint8); beside unsigned arrays only, NumPy's two kinds of ufunc differ:
 * those it types by np.result_type (`uniform`: add, subtract, multiply, maximum, minimum,
 * fmax, fmin, gcd, lcm) keep the unsigned type (uint8_array + 300 is uint16), the others,
 * which search their loops, take the signed type when it is wider than every array
 * (uint8_array & 300 is int16, as the loop (int16, int16) comes first), and the other
 * signedness where no loop takes that one (ldexp(uint64_array, 2**32): its exponents are
 * signed). Otherwise each scalar keeps its own type: a Python bool, int,
 * float and complex are bool, int64 (uint64 beyond, as np.asarray makes them), float64 and
 * complex128, and a NumPy scalar its dtype (int8_array + 2.5 is float64). Arguments that are
 * not numbers (text, datetimes, records) leave every scalar its own type.
 * A float's smallest type is by range only (0.1 is float16), and NumPy casts the value itself
 * to the loop's type, not to that smallest type: beside float or complex arrays, a float or
 * complex scalar counts as the wider of its smallest type and the arrays' widest float
 * (the loop's type under NumPy's rule), into which its value is rounded once, as NumPy's is:
 * float32_array + 0.1 adds float32(0.1), not float32(float16(0.1)). */
#include "ckpy.h"

#include <string.h>

/* NumPy's simplified kind order (bool 0, integers 1, floats and complex 2); 3 for anything
 * else, which turns value-based typing off. */
static int kind_order(char kind) {
    switch (kind) {
    case 'b': return 0;
    case 'i':
    case 'u': return 1;
    case 'f':
    case 'c': return 2;
    default: return 3;
    }
}

/* The scalar type under a ckernel.Array's dimensions, pointers and option; NULL for records
 * and text, and for anything but an Array. */
static const ck_type *array_scalar(PyObject *obj) {
    const ck_type *t = ckpy_Array_Check(obj) ? ck_array_type(((ckpy_Array *)obj)->array) : NULL;
    while (t != NULL && !ck_type_is_scalar(t)) {
        t = ck_type_element(t);
    }
    return t;
}

static int is_scalar(PyObject *obj) {
    return ckpy_is_python_number(obj) || PyArray_IsScalar(obj, Generic) ||
           (PyArray_Check(obj) && PyArray_NDIM((PyArrayObject *)obj) == 0);
}

/* The NumPy kind of an argument: of its dtype, its ckernel type's scalar or its number. */
static char kind_of(PyObject *obj) {
    if (PyBool_Check(obj)) {
        return 'b';
    }
    if (PyLong_CheckExact(obj)) {
        return 'i';
    }
    if (PyFloat_CheckExact(obj)) {
        return 'f';
    }
    if (PyComplex_CheckExact(obj)) {
        return 'c';
    }
    if (PyArray_Check(obj)) {
        return PyArray_DESCR((PyArrayObject *)obj)->kind;
    }
    if (PyArray_IsScalar(obj, Generic)) {
        PyArray_Descr *d = PyArray_DescrFromScalar(obj);
        const char k = d != NULL ? d->kind : 'O';
        Py_XDECREF(d);
        return k;
    }
    const ck_type *t = array_scalar(obj);
    if (t != NULL) {
        switch (ckpy_scalar_kind(ck_type_get_id(t))) {
        case 'B': return 'b';
        case 'S': return 'i';
        case 'U': return 'u';
        case 'F': return 'f';
        case 'C': return 'c';
        default: return 'O';
        }
    }
    return 'O'; /* lists and the rest: NumPy's array of them would tell; not value-based */
}

/* The bytes of a float (a complex's part) of an array argument, 0 for other kinds; bfloat16
 * is 3 (it and float16 each hold values the other does not: together, float32). */
static int float_part(PyObject *obj) {
    if (PyArray_Check(obj)) {
        PyArray_Descr *d = PyArray_DESCR((PyArrayObject *)obj);
        return d->kind == 'f' ? d->elsize : d->kind == 'c' ? d->elsize / 2 : 0;
    }
    const ck_type *t = array_scalar(obj);
    if (t == NULL) {
        return 0;
    }
    const ck_type_id id = ck_type_get_id(t);
    const char k = ckpy_scalar_kind(id);
    const int size = (int)ck_type_data_size(t);
    return id == CK_TYPE_BFLOAT16 ? 3 : k == 'F' ? size : k == 'C' ? size / 2 : 0;
}

/* The bytes of an unsigned integer array argument's elements. */
static int unsigned_size(PyObject *obj) {
    if (PyArray_Check(obj)) {
        return PyArray_DESCR((PyArrayObject *)obj)->elsize;
    }
    const ck_type *t = array_scalar(obj);
    return t != NULL ? (int)ck_type_data_size(t) : 0;
}

/* The wider of two float part sizes (float16 2, bfloat16 3, float32 4, float64 8). */
static int wider_part(int a, int b) {
    if ((a == 2 && b == 3) || (a == 3 && b == 2)) {
        return 4;
    }
    return a > b ? a : b;
}

/* The smallest type of the scalar's value, NumPy's: *id, and in *number the value as a
 * Python number (a new reference); a float or complex one at least of `part` bytes (the
 * arrays' widest float). 0, or -1 with an exception. */
static int min_scalar(PyObject *obj, int signed_too, int unsigned_bytes, int part, ck_type_id *id,
                      int *alt, PyObject **number) {
    PyArrayObject *a = (PyArrayObject *)PyArray_FromAny(obj, NULL, 0, 0, 0, NULL);
    if (a == NULL) {
        return -1;
    }
    PyArray_Descr *m = PyArray_MinScalarType(a); /* a new reference */
    *number = PyArray_ToScalar(PyArray_DATA(a), a);
    if (*number != NULL && PyArray_IsScalar(*number, Generic)) {
        PyObject *item = PyObject_CallMethod(*number, "item", NULL);
        Py_SETREF(*number, item);
    }
    Py_DECREF(a);
    const int sid = m != NULL ? ckpy_scalar_id(m) : -1;
    Py_XDECREF(m);
    if (*number == NULL || sid < 0) {
        Py_CLEAR(*number);
        if (!PyErr_Occurred()) {
            ckpy_raise(CK_ERR_TYPE, "%R has no ckernel scalar type", obj);
        }
        return -1;
    }
    *id = (ck_type_id)sid;
    const char k = ckpy_scalar_kind(*id);
    if ((k == 'F' || k == 'C') && part != 0) {
        const size_t own = ck_type_data_size(ck_type_scalar(*id)) / (k == 'C' ? 2 : 1);
        const int p = wider_part((int)own, part);
        *id = k == 'C' ? (p == 8 ? CK_TYPE_COMPLEX128 : CK_TYPE_COMPLEX64)
              : p == 8 ? CK_TYPE_FLOAT64
              : p == 4 ? CK_TYPE_FLOAT32
                       : CK_TYPE_FLOAT16;
    }
    if (signed_too && ckpy_scalar_kind(*id) == 'U') {
        /* A value that fits the signed type of the same width counts as that type. */
        static const ck_type_id signed_of[] = {CK_TYPE_INT8, CK_TYPE_INT16, CK_TYPE_INT32,
                                               CK_TYPE_INT64};
        const size_t size = ck_type_data_size(ck_type_scalar(*id));
        const int w = size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3;
        PyObject *limit = PyLong_FromUnsignedLongLong(1ull << (8 * size - 1));
        const int small = limit == NULL ? -1 : PyObject_RichCompareBool(*number, limit, Py_LT);
        Py_XDECREF(limit);
        if (small < 0) {
            Py_CLEAR(*number);
            return -1;
        }
        if (small) {
            const ck_type_id u = *id;
            if (unsigned_bytes == 0 || (int)size > unsigned_bytes) {
                *id = signed_of[w];
            }
            *alt = (int)(*id == u ? signed_of[w] : u);
        }
    }
    return 0;
}

/* NumPy 1.24's ufuncs typed by np.result_type rather than by a search of their loops. */
int ckpy_types_uniformly(const char *name) {
    static const char *const uniform[] = {"add",  "subtract", "multiply", "maximum", "minimum",
                                          "fmax", "fmin",     "gcd",      "lcm"};
    for (size_t i = 0; i < sizeof uniform / sizeof uniform[0]; i++) {
        if (strcmp(name, uniform[i]) == 0) {
            return 1;
        }
    }
    return 0;
}

int ckpy_scalar_types(int n, PyObject *const *args, int uniform, ck_type_id *types, int *alt,
                      PyObject **numbers) {
    int max_array = -1, max_scalar = -1, all_unsigned = 1, numeric = 1, part = 0, widest = 0;
    for (int i = 0; i < n; i++) {
        numbers[i] = NULL;
        alt[i] = -1;
        const char k = kind_of(args[i]);
        const int order = kind_order(k);
        numeric &= order < 3;
        if (is_scalar(args[i])) {
            max_scalar = order > max_scalar ? order : max_scalar;
        } else {
            max_array = order > max_array ? order : max_array;
            all_unsigned &= k == 'u';
            part = wider_part(part, float_part(args[i]));
            const int bytes = k == 'u' ? unsigned_size(args[i]) : 0;
            widest = bytes > widest ? bytes : widest;
        }
    }
    const int by_value = numeric && max_array >= 0 && max_array >= max_scalar;
    for (int i = 0; i < n; i++) {
        if (!is_scalar(args[i])) {
            continue;
        }
        if (by_value) {
            /* beside unsigned arrays only: signed when wider than them (loop search), or
             * never (result_type) */
            const int signed_too = !all_unsigned || !uniform;
            int other = -1;
            if (min_scalar(args[i], signed_too, all_unsigned ? widest : 0, part, &types[i], &other,
                           &numbers[i]) < 0) {
                for (int j = 0; j < i; j++) {
                    Py_CLEAR(numbers[j]);
                }
                return -1;
            }
            alt[i] = uniform ? -1 : other;
        } else if (ckpy_is_python_number(args[i])) {
            /* Its own type; an int beyond int64 is uint64 up to its range, as NumPy's. */
            types[i] = ckpy_python_number_type(args[i]);
            if (types[i] == CK_TYPE_INT64) {
                int overflow = 0;
                (void)PyLong_AsLongLongAndOverflow(args[i], &overflow);
                if (overflow > 0) {
                    types[i] = CK_TYPE_UINT64;
                }
            }
            numbers[i] = Py_NewRef(args[i]);
        }
    }
    return 0;
}
