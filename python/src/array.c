/* python/src/array.c: ckernel.Array, a ck_array as a Python object: made from a literal and
 * a datashape, from nested Python values, or over a NumPy array's buffer (zero copies, the
 * ndarray kept alive by the wrapper's owner block); read back as Python objects (tolist),
 * as its literal (str) and as a NumPy array over the same memory (numpy.asarray). */
#include "ckpy.h"

#include <string.h>

int ckpy_is_fixed_scalar(const ck_type *t) {
    while (ck_type_get_id(t) == CK_TYPE_FIXED_DIM) {
        t = ck_type_element(t);
    }
    return (ck_type_is_scalar(t) && ckpy_typenum(ck_type_get_id(t)) >= 0) ||
           ck_type_get_id(t) == CK_TYPE_DATETIME || ck_type_get_id(t) == CK_TYPE_TIMEDELTA;
}

PyObject *ckpy_array_from_ck(ck_array *a, PyObject *nd, int readonly) {
    ckpy_Array *self = PyObject_New(ckpy_Array, &ckpy_ArrayType);
    if (self == NULL) {
        ck_array_free(a);
        return NULL;
    }
    self->array = a;
    self->nd = nd;
    self->readonly = readonly;
    return (PyObject *)self;
}

/* ---- ckernel data as Python objects ---- */

static PyObject *scalar_to_python(ck_type_id id, const char *p) {
    /* memcpy: a host's data may sit at any address. */
    union {
        int8_t i8;
        int16_t i16;
        int32_t i32;
        int64_t i64;
        uint8_t u8;
        uint16_t u16;
        uint32_t u32;
        uint64_t u64;
        float f[2];
        double d[2];
    } v;
    memcpy(&v, p, ck_type_data_size(ck_type_scalar(id)));
    switch (id) {
    case CK_TYPE_BOOL:
        return PyBool_FromLong(v.u8 != 0);
    case CK_TYPE_INT8:
        return PyLong_FromLong(v.i8);
    case CK_TYPE_INT16:
        return PyLong_FromLong(v.i16);
    case CK_TYPE_INT32:
        return PyLong_FromLong(v.i32);
    case CK_TYPE_INT64:
        return PyLong_FromLongLong(v.i64);
    case CK_TYPE_UINT8:
        return PyLong_FromUnsignedLong(v.u8);
    case CK_TYPE_UINT16:
        return PyLong_FromUnsignedLong(v.u16);
    case CK_TYPE_UINT32:
        return PyLong_FromUnsignedLong(v.u32);
    case CK_TYPE_UINT64:
        return PyLong_FromUnsignedLongLong(v.u64);
    case CK_TYPE_FLOAT16:
        return PyFloat_FromDouble(PyFloat_Unpack2(p, PY_LITTLE_ENDIAN));
    case CK_TYPE_BFLOAT16: { /* the top half of a float32's bits */
        const uint32_t bits = (uint32_t)v.u16 << 16;
        float f;
        memcpy(&f, &bits, sizeof f);
        return PyFloat_FromDouble(f);
    }
    case CK_TYPE_FLOAT32:
        return PyFloat_FromDouble(v.f[0]);
    case CK_TYPE_FLOAT64:
        return PyFloat_FromDouble(v.d[0]);
    case CK_TYPE_COMPLEX64:
        return PyComplex_FromDoubles(v.f[0], v.f[1]);
    case CK_TYPE_COMPLEX128:
        return PyComplex_FromDoubles(v.d[0], v.d[1]);
    default:
        return ckpy_raise(CK_ERR_INTERNAL, "not a scalar type id: %d", (int)id);
    }
}

/* A text element as str (string, fixed_string) or bytes (bytes, fixed_bytes); a fixed
 * value's trailing NUL units are padding, as NumPy's U and S tolist() drop them. Host text
 * that is not valid in its encoding is CK_ERR_TEXT (Python's UnicodeDecodeError as the
 * cause). */
static PyObject *text_to_python(const ck_type *t, const char *p) {
    const ck_type_id id = ck_type_get_id(t);
    const char *bytes;
    size_t size;
    int unit = 1;
    if (id == CK_TYPE_STRING || id == CK_TYPE_BYTES) {
        ck_string_data sd;
        memcpy(&sd, p, sizeof sd); /* a host's data may sit at any address */
        if (sd.data == NULL && sd.size != 0) {
            return ckpy_raise(CK_ERR_UNINITIALIZED, "a %s of %zu bytes that is not allocated",
                              ck_type_id_name(id), sd.size);
        }
        bytes = sd.data != NULL ? sd.data : "";
        size = sd.size;
    } else {
        const int enc = ck_type_text_encoding(t);
        unit = enc == CK_ENCODING_UTF16 ? 2 : enc == CK_ENCODING_UTF32 ? 4 : 1;
        size_t n = (size_t)ck_type_text_length(t);
        static const char zero[4] = {0, 0, 0, 0};
        while (n > 0 && memcmp(p + (n - 1) * (size_t)unit, zero, (size_t)unit) == 0) {
            n--;
        }
        bytes = p;
        size = n * (size_t)unit;
    }
    if (size > (size_t)PY_SSIZE_T_MAX) {
        return ckpy_raise(CK_ERR_INVALID, "a text of %zu bytes", size);
    }
    if (id == CK_TYPE_BYTES || id == CK_TYPE_FIXED_BYTES) {
        return PyBytes_FromStringAndSize(bytes, (Py_ssize_t)size);
    }
    int order = PY_LITTLE_ENDIAN ? -1 : 1; /* the machine's: a BOM is a character */
    PyObject *out = unit == 4   ? PyUnicode_DecodeUTF32(bytes, (Py_ssize_t)size, "strict", &order)
                    : unit == 2 ? PyUnicode_DecodeUTF16(bytes, (Py_ssize_t)size, "strict", &order)
                    : ck_type_text_encoding(t) == CK_ENCODING_ASCII
                        ? PyUnicode_DecodeASCII(bytes, (Py_ssize_t)size, "strict")
                        : PyUnicode_DecodeUTF8(bytes, (Py_ssize_t)size, "strict");
    if (out == NULL) {
        ckpy_convert_error(CK_ERR_TEXT, "text not valid in its encoding");
    }
    return out;
}

/* A list of n elements of type el, element i at data + i * stride. */
static PyObject *elements_to_python(const ck_type *el, const char *am, const char *data,
                                    intptr_t n, intptr_t stride) {
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (intptr_t i = 0; list != NULL && i < n; i++) {
        PyObject *item = ckpy_to_python(el, am, data + i * stride);
        if (item == NULL) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, item);
    }
    return list;
}

static PyObject *fields_to_python(const ck_type *t, const char *am, const char *data) {
    const size_t n = ck_type_field_count(t);
    const intptr_t *offsets = (const intptr_t *)am; /* the record's arrmeta: field offsets */
    const int named = ck_type_get_id(t) == CK_TYPE_STRUCT;
    PyObject *out = named ? PyDict_New() : PyTuple_New((Py_ssize_t)n);
    for (size_t i = 0; out != NULL && i < n; i++) {
        PyObject *v = ckpy_to_python(ck_type_field(t, i), am + ck_type_field_arrmeta_offset(t, i),
                                     data + offsets[i]);
        if (v == NULL) {
            Py_CLEAR(out);
            break;
        }
        if (!named) {
            PyTuple_SET_ITEM(out, (Py_ssize_t)i, v);
            continue;
        }
        int rc = PyDict_SetItemString(out, ck_type_field_name(t, i), v);
        Py_DECREF(v);
        if (rc < 0) {
            Py_CLEAR(out);
        }
    }
    return out;
}

PyObject *ckpy_to_python(const ck_type *t, const char *am, const char *data) {
    const ck_type_id id = ck_type_get_id(t);
    switch (id) {
    case CK_TYPE_FIXED_DIM: {
        const ck_fixed_dim_arrmeta *fm = (const ck_fixed_dim_arrmeta *)am;
        return elements_to_python(ck_type_element(t), am + sizeof *fm, data, fm->dim_size,
                                  fm->stride);
    }
    case CK_TYPE_VAR_DIM: {
        const ck_var_dim_arrmeta *vm = (const ck_var_dim_arrmeta *)am;
        ck_var_data row;
        memcpy(&row, data, sizeof row);
        if (row.begin == NULL) {
            Py_RETURN_NONE; /* not allocated: the literal's null */
        }
        if (row.size > (size_t)PY_SSIZE_T_MAX) {
            return ckpy_raise(CK_ERR_INVALID, "a var row of %zu elements", row.size);
        }
        return elements_to_python(ck_type_element(t), am + sizeof *vm, row.begin + vm->offset,
                                  (intptr_t)row.size, vm->stride);
    }
    case CK_TYPE_POINTER: {
        const ck_pointer_arrmeta *pm = (const ck_pointer_arrmeta *)am;
        const char *target;
        memcpy(&target, data, sizeof target);
        if (target == NULL) {
            Py_RETURN_NONE;
        }
        return ckpy_to_python(ck_type_element(t), am + sizeof *pm, target + pm->offset);
    }
    case CK_TYPE_TUPLE:
    case CK_TYPE_STRUCT:
        return fields_to_python(t, am, data);
    case CK_TYPE_OPTION:
        if (ck_option_is_na(t, data)) {
            Py_RETURN_NONE;
        }
        return ckpy_to_python(ck_type_element(t), am, data);
    case CK_TYPE_STRING:
    case CK_TYPE_BYTES:
    case CK_TYPE_FIXED_STRING:
    case CK_TYPE_FIXED_BYTES:
        return text_to_python(t, data);
    case CK_TYPE_DATETIME:
    case CK_TYPE_TIMEDELTA: { /* np.datetime64 and np.timedelta64, of the unit */
        PyArray_Descr *d = ckpy_descr_from_type(t, am);
        PyObject *v = d == NULL ? NULL : PyArray_Scalar((void *)(uintptr_t)data, d, NULL);
        Py_XDECREF(d);
        return v;
    }
    default:
        return scalar_to_python(id, data);
    }
}

/* ---- construction ---- */

/* A new array of type t holding src converted (ck_parallel_assign, default error mode). */
static int convert_array(const ck_array *src, const ck_type *t, ck_array **out) {
    int rc = ck_array_new(t, out);
    if (rc == CK_OK) {
        Py_BEGIN_ALLOW_THREADS
        rc = ck_parallel_assign(*out, src, NULL);
        Py_END_ALLOW_THREADS
    }
    if (rc != CK_OK) {
        ckpy_raise_status(rc);
        ck_array_free(*out);
        *out = NULL;
        return -1;
    }
    return 0;
}

/* An Array over the ndarray's buffer; with a type other than its own, a converted copy. */
static PyObject *array_from_ndarray(PyTypeObject *type, PyArrayObject *nd, const ck_type *t) {
    ck_memblock *owner = NULL;
    ck_array *view = NULL;
    if (ckpy_owner_block(nd, &owner) < 0) {
        return NULL;
    }
    int rc = ckpy_wrap_ndarray(nd, owner, &view);
    ck_memblock_decref(owner); /* the view holds its own reference */
    if (rc < 0) {
        return NULL;
    }
    ckpy_Array *self = (ckpy_Array *)type->tp_alloc(type, 0);
    if (self == NULL) {
        ck_array_free(view);
        return NULL;
    }
    if (t == NULL || ck_type_equal(t, ck_array_type(view))) {
        self->array = view;
        self->nd = (PyObject *)nd;
        self->readonly = !PyArray_ISWRITEABLE(nd);
        return (PyObject *)self;
    }
    rc = convert_array(view, t, &self->array);
    ck_array_free(view);
    if (rc < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static PyObject *array_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char kw_obj[] = "obj";
    static char kw_type[] = "type";
    static char *kwlist[] = {kw_obj, kw_type, NULL};
    PyObject *obj, *type_obj = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O:Array", kwlist, &obj, &type_obj)) {
        return NULL;
    }
    ck_type *t = NULL;
    if (type_obj != Py_None) {
        if (!PyUnicode_Check(type_obj)) {
            return ckpy_raise(CK_ERR_TYPE, "type= is a datashape string, not %.100s",
                              Py_TYPE(type_obj)->tp_name);
        }
        const char *ds = PyUnicode_AsUTF8(type_obj);
        if (ds == NULL) {
            return NULL;
        }
        int rc = ck_type_parse(ds, &t);
        if (rc != CK_OK) {
            return ckpy_raise_status(rc);
        }
    }
    PyObject *result = NULL;
    ck_array *a = NULL;
    if (PyUnicode_Check(obj)) { /* a literal */
        const char *text = PyUnicode_AsUTF8(obj);
        if (t == NULL) {
            ckpy_raise(CK_ERR_INVALID, "Array(literal) needs type=, the literal's datashape");
        } else if (text != NULL) {
            int rc = ck_array_parse(t, text, &a);
            if (rc != CK_OK) {
                ckpy_raise_status(rc);
            }
        }
    } else if (ckpy_Array_Check(obj)) {
        const ck_array *src = ((ckpy_Array *)obj)->array;
        if (t == NULL || ck_type_equal(t, ck_array_type(src))) {
            result = Py_NewRef(obj); /* immutable in shape and type: the same object */
        } else {
            convert_array(src, t, &a);
        }
    } else if (PyList_Check(obj) || PyTuple_Check(obj) || PyDict_Check(obj) || obj == Py_None ||
               (ckpy_is_number(obj) && !PyArray_IsScalar(obj, Generic))) {
        if (t != NULL) {
            ckpy_array_from_python_typed(obj, t, &a);
        } else {
            ckpy_array_from_python(obj, &a);
        }
    } else {
        PyArrayObject *nd = ckpy_to_ndarray(obj);
        if (nd == NULL) {
            ckpy_convert_error(CK_ERR_TYPE, "Array(obj): obj is not an array NumPy can read");
        } else {
            result = array_from_ndarray(type, nd, t);
            Py_DECREF(nd);
        }
    }
    ck_type_decref(t);
    if (a != NULL) {
        ckpy_Array *self = (ckpy_Array *)type->tp_alloc(type, 0);
        if (self == NULL) {
            ck_array_free(a);
            return NULL;
        }
        self->array = a;
        return (PyObject *)self;
    }
    return result;
}

static void array_dealloc(ckpy_Array *self) {
    ck_array_free(self->array); /* releases the owner block: the ndarray's reference */
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* ---- reading ---- */

static PyObject *array_type(ckpy_Array *self, void *closure) {
    (void)closure;
    char *text = NULL;
    int rc = ck_type_format(ck_array_type(self->array), &text);
    return rc == CK_OK ? ckpy_string(text) : ckpy_raise_status(rc);
}

static PyObject *array_str(ckpy_Array *self) {
    char *text = NULL;
    int rc = ck_array_format(self->array, &text);
    return rc == CK_OK ? ckpy_string(text) : ckpy_raise_status(rc);
}

static PyObject *array_repr(ckpy_Array *self) {
    PyObject *text = array_str(self), *type = text == NULL ? NULL : array_type(self, NULL);
    PyObject *out = type == NULL ? NULL : PyUnicode_FromFormat("ckernel.Array(%R, type=%R)", text, type);
    Py_XDECREF(text);
    Py_XDECREF(type);
    return out;
}

static PyObject *array_tolist(ckpy_Array *self, PyObject *unused) {
    (void)unused;
    return ckpy_to_python(ck_array_type(self->array), ck_array_arrmeta(self->array),
                          ck_array_data(self->array));
}

/* numpy.asarray(a): an ndarray over the same memory, for fixed dimensions of scalars or
 * records; its base is the Array, which keeps the data alive. */
static PyObject *array_numpy(ckpy_Array *self, PyObject *args, PyObject *kwargs) {
    static char kw_dtype[] = "dtype";
    static char kw_copy[] = "copy";
    static char *kwlist[] = {kw_dtype, kw_copy, NULL};
    PyObject *dtype_obj = Py_None, *copy = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO:__array__", kwlist, &dtype_obj, &copy)) {
        return NULL;
    }
    const ck_type *t = ck_array_type(self->array);
    const char *am = ck_array_arrmeta(self->array);
    npy_intp dims[NPY_MAXDIMS], strides[NPY_MAXDIMS];
    int nd = 0;
    for (; ck_type_get_id(t) == CK_TYPE_FIXED_DIM; nd++) {
        if (nd == NPY_MAXDIMS) {
            return ckpy_raise(CK_ERR_TYPE, "NumPy arrays have at most %d dimensions", NPY_MAXDIMS);
        }
        const ck_fixed_dim_arrmeta *fm = (const ck_fixed_dim_arrmeta *)am;
        dims[nd] = (npy_intp)fm->dim_size;
        strides[nd] = (npy_intp)fm->stride;
        am += sizeof *fm;
        t = ck_type_element(t);
    }
    PyArray_Descr *descr = ckpy_descr_from_type(t, am);
    if (descr == NULL) {
        return NULL;
    }
    PyObject *arr = PyArray_NewFromDescr(&PyArray_Type, descr, nd, dims, strides,
                                         ck_array_data(self->array),
                                         self->readonly ? 0 : NPY_ARRAY_WRITEABLE, NULL);
    if (arr == NULL) {
        return NULL;
    }
    Py_INCREF(self);
    if (PyArray_SetBaseObject((PyArrayObject *)arr, (PyObject *)self) < 0) {
        Py_DECREF(arr);
        return NULL;
    }
    if (copy == Py_True) { /* NumPy 2 asks for a copy this way */
        PyObject *dup = PyArray_NewCopy((PyArrayObject *)arr, NPY_KEEPORDER);
        Py_DECREF(arr);
        arr = dup;
        if (arr == NULL) {
            return NULL;
        }
    }
    if (dtype_obj != Py_None) {
        PyArray_Descr *want = NULL;
        if (!PyArray_DescrConverter(dtype_obj, &want)) {
            Py_DECREF(arr);
            return NULL;
        }
        if (!PyArray_EquivTypes(want, PyArray_DESCR((PyArrayObject *)arr))) {
            PyObject *cast = PyArray_CastToType((PyArrayObject *)arr, want, 0);
            Py_DECREF(arr);
            return cast;
        }
        Py_DECREF(want);
    }
    return arr;
}

static PyMethodDef array_methods[] = {
    {"tolist", (PyCFunction)array_tolist, METH_NOARGS,
     "tolist()\n--\n\nThe data as Python objects: lists for dimensions, tuples, dicts for "
     "structs, None for NA and unallocated rows."},
    {"__array__", (PyCFunction)(void (*)(void))array_numpy, METH_VARARGS | METH_KEYWORDS,
     "__array__(dtype=None, copy=None)\n--\n\nA NumPy array over the same memory (fixed "
     "dimensions of scalars or records); a copy with copy=True or another dtype."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef array_getset[] = {
    {"type", (getter)array_type, NULL, "The datashape, \"2 * var * int32\".", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject ckpy_ArrayType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ckernel.Array",
    .tp_basicsize = sizeof(ckpy_Array),
    .tp_dealloc = (destructor)array_dealloc,
    .tp_repr = (reprfunc)array_repr,
    .tp_str = (reprfunc)array_str,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Array(obj, type=None)\n--\n\n"
              "A ckernel array: from a literal and its datashape (Array(\"[[1, 2], [3]]\", "
              "type=\"2 * var * int32\")), from nested Python values (the type inferred, or "
              "type=), or over a NumPy array's buffer (zero copies).",
    .tp_methods = array_methods,
    .tp_getset = array_getset,
    .tp_new = array_new,
};
