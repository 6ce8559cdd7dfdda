/* python/src/convert.c: NumPy dtypes as ckernel types and back (M8 and m8 as datetime64 and
 * timedelta64 of their unit), and ndarrays wrapped as ck_arrays over their own buffers
 * (ck_array_wrap: the type from the shape and dtype, the arrmeta from the strides and field
 * offsets; never a copy). */
#include "ckpy.h"

#include <limits.h>
#include <string.h>

/* ---- dtype -> type ---- */

static const ck_type *type_error(PyArray_Descr *d, const char *why) {
    ckpy_raise(CK_ERR_TYPE, "NumPy dtype %R has no ckernel type (%s)", (PyObject *)d, why);
    return NULL;
}

static const ck_type *status_type(int rc) {
    ckpy_raise_status(rc);
    return NULL;
}

/* N0 * N1 * ... * el for a sub-array's shape (a tuple of sizes); el is consumed. */
static const ck_type *wrap_dims(PyObject *shape, const ck_type *el) {
    PyObject *seq = PySequence_Fast(shape, "a sub-array shape is a tuple");
    if (seq == NULL) {
        ck_type_decref(el);
        return NULL;
    }
    const ck_type *t = el;
    for (Py_ssize_t i = PySequence_Fast_GET_SIZE(seq) - 1; i >= 0 && t != NULL; i--) {
        Py_ssize_t n = PyLong_AsSsize_t(PySequence_Fast_GET_ITEM(seq, i));
        ck_type *outer = NULL;
        if (n == -1 && PyErr_Occurred()) {
            ck_type_decref(t);
            t = NULL;
            break;
        }
        int rc = ck_type_make_fixed_dim((intptr_t)n, t, &outer);
        ck_type_decref(t);
        t = rc == CK_OK ? outer : status_type(rc);
    }
    Py_DECREF(seq);
    return t;
}

/* The scalar table's facts the package asks (ckernel/scalar_types.h), by id. */
typedef struct scalar_row {
    const char *name;
    int size;
    char numpy; /* NumPy's dtype kind, or 0 */
    char kind;  /* 'B' bool, 'S' signed, 'U' unsigned, 'F' float, 'C' complex */
} scalar_row;
#define CKPY_KIND_BOOL 'B'
#define CKPY_KIND_SIGNED 'S'
#define CKPY_KIND_UNSIGNED 'U'
#define CKPY_KIND_FLOAT 'F'
#define CKPY_KIND_COMPLEX 'C'
#define CKPY_SCALAR_ROW(E, n, part, psize, parts, kind, bits, exp, na, letters, npk)            \
    {#n, (psize) * (parts), npk, CKPY_KIND_##kind},
static const scalar_row scalar_rows[CK_NUM_SCALAR_TYPES] = {CK_SCALAR_TABLE(CKPY_SCALAR_ROW)};

char ckpy_scalar_kind(ck_type_id id) {
    return (unsigned)id < CK_NUM_SCALAR_TYPES ? scalar_rows[id].kind : 0;
}

/* The scalar type of a dtype of no fields: the table's row of its kind and size; or -1 and
 * *why (a message naming the scalars of that kind, when ckernel has the kind). */
static int scalar_id(PyArray_Descr *d, const char **why) {
    static char sizes[5][160]; /* per kind b, i, u, f, c: built once, under the GIL */
    if (!PyArray_ISNBO(d->byteorder)) {
        *why = "its byte order is not the machine's: use .astype(dtype.newbyteorder('='))";
        return -1;
    }
    int has_kind = 0;
    for (int id = 0; id < CK_NUM_SCALAR_TYPES; id++) {
        if (scalar_rows[id].numpy == d->kind) {
            has_kind = 1;
            if (scalar_rows[id].size == d->elsize) {
                return id;
            }
        }
    }
    if (!has_kind) {
        *why = "ckernel has bool, integers, floats, complex numbers, U and S text, datetime64, "
               "timedelta64 and records of them";
        return -1;
    }
    const char *at = strchr("biufc", d->kind); /* has_kind: one of these */
    char *msg = sizes[at - "biufc"];
    if (msg[0] == '\0') {
        size_t used = (size_t)snprintf(msg, sizeof sizes[0], "NumPy's '%c' types ckernel has are", d->kind);
        for (int id = 0; id < CK_NUM_SCALAR_TYPES && used < sizeof sizes[0]; id++) {
            if (scalar_rows[id].numpy == d->kind) {
                used += (size_t)snprintf(msg + used, sizeof sizes[0] - used, " %s", scalar_rows[id].name);
            }
        }
    }
    *why = msg;
    return -1;
}

int ckpy_scalar_id(PyArray_Descr *d) {
    const char *why;
    return d->subarray != NULL || PyDataType_HASFIELDS(d) ? -1 : scalar_id(d, &why);
}

/* NumPy's U (UTF-32 code points in the machine's order) is fixed_string[N, 'utf32'], S
 * fixed_bytes[N]: the same bytes, NUL-padded alike, so wrapping reads them in place. A new
 * reference. */
static const ck_type *text_from_descr(PyArray_Descr *d) {
    const int unicode = d->kind == 'U';
    const intptr_t n = unicode ? d->elsize / 4 : d->elsize;
    if (unicode && !PyArray_ISNBO(d->byteorder)) {
        return type_error(d, "its byte order is not the machine's: use "
                             ".astype(dtype.newbyteorder('='))");
    }
    if (n < 1) {
        return type_error(d, "a text of no characters: ckernel's fixed text holds at least one");
    }
    ck_type *t = NULL;
    int rc = unicode ? ck_type_make_fixed_string(n, CK_ENCODING_UTF32, &t)
                     : ck_type_make_fixed_bytes(n, &t);
    return rc == CK_OK ? t : status_type(rc);
}

/* NumPy's units in ckernel's order (NPY_FR_Y .. NPY_FR_ns; 3 is a gap, once business days). */
static const int time_units[] = {CK_UNIT_Y, CK_UNIT_M, CK_UNIT_W, -1,         CK_UNIT_D, CK_UNIT_h,
                                 CK_UNIT_m, CK_UNIT_s, CK_UNIT_ms, CK_UNIT_us, CK_UNIT_ns};

/* NumPy's M8[unit] is datetime64[unit] and m8[unit] timedelta64[unit]: the same int64 count
 * since 1970 (of the unit), NaT the same INT64_MIN, so wrapping reads them in place. */
static const ck_type *time_from_descr(PyArray_Descr *d) {
    if (!PyArray_ISNBO(d->byteorder)) {
        return type_error(d, "its byte order is not the machine's: use "
                             ".astype(dtype.newbyteorder('='))");
    }
    const PyArray_DatetimeMetaData *m = &((PyArray_DatetimeDTypeMetaData *)d->c_metadata)->meta;
    const int base = (int)m->base;
    const int unit = base >= 0 && base < (int)(sizeof time_units / sizeof time_units[0])
                         ? time_units[base]
                         : -1;
    if (unit < 0 || m->num != 1) {
        return type_error(d, "ckernel's units are Y M W D h m s ms us ns, one of each: no "
                             "generic unit, multiples or units below ns");
    }
    return d->kind == 'M' ? ck_type_datetime((ck_datetime_unit)unit)
                          : ck_type_timedelta((ck_datetime_unit)unit);
}

static const ck_type *scalar_from_descr(PyArray_Descr *d) {
    if (d->kind == 'U' || d->kind == 'S') {
        return text_from_descr(d);
    }
    if (d->kind == 'M' || d->kind == 'm') {
        return time_from_descr(d);
    }
    const char *why = NULL;
    const int id = scalar_id(d, &why);
    /* Static scalar types: the reference costs nothing and never fails. */
    return id < 0 ? type_error(d, why) : ck_type_scalar((ck_type_id)id);
}

static const ck_type *struct_from_descr(PyArray_Descr *d, int depth);

static const ck_type *descr_type(PyArray_Descr *d, int depth) {
    if (depth > CK_TYPE_MAX_DEPTH) {
        return type_error(d, "nested deeper than ckernel's types");
    }
    if (d->subarray != NULL) {
        const ck_type *el = descr_type(d->subarray->base, depth + 1);
        return el == NULL ? NULL : wrap_dims(d->subarray->shape, el);
    }
    if (PyDataType_HASFIELDS(d)) {
        return struct_from_descr(d, depth);
    }
    return scalar_from_descr(d);
}

/* A structured dtype as a struct of its fields in their order (names as UTF-8). */
static const ck_type *struct_from_descr(PyArray_Descr *d, int depth) {
    Py_ssize_t n = PyTuple_GET_SIZE(d->names);
    const ck_type **fields = PyMem_Calloc((size_t)n + 1, sizeof *fields);
    const char **names = PyMem_Calloc((size_t)n + 1, sizeof *names);
    ck_type *out = NULL;
    Py_ssize_t made = 0;
    if (fields == NULL || names == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (; made < n; made++) {
        PyObject *name = PyTuple_GET_ITEM(d->names, made);
        PyObject *info = PyDict_GetItemWithError(d->fields, name); /* (dtype, offset[, title]) */
        if (info == NULL) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_RuntimeError, "a structured dtype without its field");
            }
            goto done;
        }
        names[made] = PyUnicode_AsUTF8(name);
        if (names[made] == NULL) {
            goto done;
        }
        fields[made] = descr_type((PyArray_Descr *)PyTuple_GET_ITEM(info, 0), depth + 1);
        if (fields[made] == NULL) {
            goto done;
        }
    }
    int rc = ck_type_make_struct((size_t)n, fields, names, &out);
    if (rc != CK_OK) {
        status_type(rc);
    }
done:
    for (Py_ssize_t i = 0; i < made; i++) {
        ck_type_decref(fields[i]);
    }
    PyMem_Free(fields);
    PyMem_Free((void *)names);
    return out;
}

const ck_type *ckpy_type_from_descr(PyArray_Descr *d) {
    return descr_type(d, 0);
}

/* ---- type -> dtype ---- */

int ckpy_typenum(ck_type_id id) {
    if ((unsigned)id >= CK_NUM_SCALAR_TYPES) {
        return -1;
    }
    const int size = scalar_rows[id].size;
    switch (scalar_rows[id].numpy) { /* NumPy's sized types of each kind */
    case 'b': return NPY_BOOL;
    case 'i':
        return size == 1 ? NPY_INT8 : size == 2 ? NPY_INT16 : size == 4 ? NPY_INT32 : NPY_INT64;
    case 'u':
        return size == 1 ? NPY_UINT8 : size == 2 ? NPY_UINT16 : size == 4 ? NPY_UINT32 : NPY_UINT64;
    case 'f': return size == 2 ? NPY_HALF : size == 4 ? NPY_FLOAT32 : NPY_FLOAT64;
    case 'c': return size == 8 ? NPY_COMPLEX64 : NPY_COMPLEX128;
    default: return -1; /* a type NumPy lacks */
    }
}

static PyArray_Descr *descr_error(const ck_type *t, const char *why) {
    char *text = NULL;
    if (ck_type_format(t, &text) != CK_OK) {
        return (PyArray_Descr *)ckpy_raise_status(ck_last_status());
    }
    ckpy_raise(CK_ERR_TYPE, "%s has no NumPy dtype: %s", text, why);
    ck_free(text);
    return NULL;
}

/* A record's fields as NumPy's dict form {names, formats, offsets, itemsize}. */
static PyArray_Descr *record_descr(const ck_type *t, const char *arrmeta) {
    const size_t n = ck_type_field_count(t);
    const intptr_t *offsets = (const intptr_t *)arrmeta;
    PyObject *names = PyList_New((Py_ssize_t)n), *formats = PyList_New((Py_ssize_t)n);
    PyObject *offs = PyList_New((Py_ssize_t)n), *spec = NULL;
    PyArray_Descr *out = NULL;
    intptr_t itemsize = 0;
    int default_layout = 1;
    if (names == NULL || formats == NULL || offs == NULL) {
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        const ck_type *ft = ck_type_field(t, i);
        const char *fname = ck_type_field_name(t, i);
        PyArray_Descr *fd = ckpy_descr_from_type(ft, arrmeta + ck_type_field_arrmeta_offset(t, i));
        if (fd == NULL) {
            goto done;
        }
        PyList_SET_ITEM(formats, (Py_ssize_t)i, (PyObject *)fd);
        PyObject *name = fname != NULL ? PyUnicode_FromString(fname)
                                       : PyUnicode_FromFormat("f%zu", i);
        PyObject *off = PyLong_FromSsize_t(offsets[i]);
        if (name == NULL || off == NULL) {
            Py_XDECREF(name);
            Py_XDECREF(off);
            goto done;
        }
        PyList_SET_ITEM(names, (Py_ssize_t)i, name);
        PyList_SET_ITEM(offs, (Py_ssize_t)i, off);
        if (offsets[i] < 0) {
            ckpy_raise(CK_ERR_TYPE, "field %zu is at a negative offset: NumPy cannot describe it", i);
            goto done;
        }
        default_layout &= (size_t)offsets[i] == ck_type_field_offset(t, i);
        if (offsets[i] + fd->elsize > itemsize) {
            itemsize = offsets[i] + fd->elsize;
        }
    }
    /* The C layout keeps its trailing padding; another layout ends at its last byte. */
    if (default_layout) {
        itemsize = (intptr_t)ck_type_data_size(t);
    }
    spec = Py_BuildValue("{sOsOsOsn}", "names", names, "formats", formats, "offsets", offs,
                         "itemsize", (Py_ssize_t)itemsize);
    if (spec != NULL && !PyArray_DescrConverter(spec, &out)) {
        out = NULL;
    }
done:
    Py_XDECREF(names);
    Py_XDECREF(formats);
    Py_XDECREF(offs);
    Py_XDECREF(spec);
    return out;
}

/* fixed_string[N, 'utf32'] as U<N>, fixed_bytes[N] as S<N> (NumPy has no other text). */
static PyArray_Descr *text_descr(const ck_type *t) {
    const ck_type_id id = ck_type_get_id(t);
    if (id != CK_TYPE_FIXED_BYTES &&
        (id != CK_TYPE_FIXED_STRING || ck_type_text_encoding(t) != CK_ENCODING_UTF32)) {
        return descr_error(t, "NumPy's text is U (fixed_string[N, 'utf32']) and S "
                              "(fixed_bytes[N])");
    }
    const intptr_t n = ck_type_text_length(t);
    if (n > INT_MAX / 4) {
        return descr_error(t, "too long for a NumPy dtype");
    }
    PyArray_Descr *d = PyArray_DescrNewFromType(id == CK_TYPE_FIXED_BYTES ? NPY_STRING
                                                                          : NPY_UNICODE);
    if (d != NULL) {
        d->elsize = (int)(id == CK_TYPE_FIXED_BYTES ? n : 4 * n);
    }
    return d;
}

/* datetime64[unit] as M8[unit], timedelta64[unit] as m8[unit]. */
static PyArray_Descr *time_descr(const ck_type *t) {
    static const char *const names[CK_NUM_DATETIME_UNITS] = {"Y", "M",  "W",  "D",  "h",
                                                             "m", "s", "ms", "us", "ns"};
    const int unit = ck_type_datetime_unit(t);
    PyObject *spec = PyUnicode_FromFormat("%s8[%s]",
                                          ck_type_get_id(t) == CK_TYPE_DATETIME ? "M" : "m",
                                          names[unit]);
    PyArray_Descr *d = NULL;
    if (spec != NULL && !PyArray_DescrConverter(spec, &d)) {
        d = NULL;
    }
    Py_XDECREF(spec);
    return d;
}

PyArray_Descr *ckpy_descr_from_type(const ck_type *t, const char *arrmeta) {
    ck_type_id id = ck_type_get_id(t);
    if (ck_type_is_scalar(t)) {
        return ckpy_typenum(id) >= 0 ? PyArray_DescrFromType(ckpy_typenum(id))
                                     : descr_error(t, "NumPy has no such dtype");
    }
    if (id == CK_TYPE_DATETIME || id == CK_TYPE_TIMEDELTA) {
        return time_descr(t);
    }
    if (ck_type_is_text(t)) {
        return text_descr(t);
    }
    if (id == CK_TYPE_TUPLE || id == CK_TYPE_STRUCT) {
        return record_descr(t, arrmeta);
    }
    if (id != CK_TYPE_FIXED_DIM) {
        return descr_error(t, "NumPy has no var dimensions, pointers or options");
    }
    /* Fixed dimensions inside a record: a NumPy sub-array, which is C-contiguous. */
    const ck_type *whole = t;
    intptr_t sizes[CK_TYPE_MAX_DEPTH], strides[CK_TYPE_MAX_DEPTH];
    int k = 0;
    for (; ck_type_get_id(t) == CK_TYPE_FIXED_DIM && k < CK_TYPE_MAX_DEPTH; k++) {
        const ck_fixed_dim_arrmeta *fm = (const ck_fixed_dim_arrmeta *)arrmeta;
        sizes[k] = fm->dim_size;
        strides[k] = fm->stride;
        arrmeta += sizeof *fm;
        t = ck_type_element(t);
    }
    PyArray_Descr *base = ckpy_descr_from_type(t, arrmeta);
    if (base == NULL) {
        return NULL;
    }
    intptr_t expected = base->elsize;
    for (int i = k - 1; i >= 0; i--) {
        if (sizes[i] > 1 && strides[i] != expected) {
            Py_DECREF(base);
            return descr_error(whole, "the fixed dimensions of a record's field must be C-contiguous");
        }
        expected *= sizes[i];
    }
    PyObject *shape = PyTuple_New(k);
    PyArray_Descr *out = NULL;
    for (int i = 0; shape != NULL && i < k; i++) {
        PyObject *n = PyLong_FromSsize_t((Py_ssize_t)sizes[i]);
        if (n == NULL) {
            Py_CLEAR(shape);
            break;
        }
        PyTuple_SET_ITEM(shape, i, n);
    }
    if (shape != NULL) {
        PyObject *spec = Py_BuildValue("(OO)", (PyObject *)base, shape);
        if (spec != NULL && !PyArray_DescrConverter(spec, &out)) {
            out = NULL;
        }
        Py_XDECREF(spec);
        Py_DECREF(shape);
    }
    Py_DECREF(base);
    return out;
}

/* ---- ndarrays as ck_arrays ---- */

/* The arrmeta of one element of dtype d (type t) at `am`: a sub-array's C-order strides, a
 * record's field offsets (NumPy's, so packed and padded layouts are honoured) and its
 * fields' arrmeta. */
static void fill_elem_arrmeta(PyArray_Descr *d, const ck_type *t, char *am) {
    if (d->subarray != NULL) {
        PyObject *shape = d->subarray->shape; /* a tuple of sizes */
        const Py_ssize_t nd = PyTuple_GET_SIZE(shape);
        ck_fixed_dim_arrmeta *fm = (ck_fixed_dim_arrmeta *)am;
        intptr_t stride = d->subarray->base->elsize;
        for (Py_ssize_t i = nd - 1; i >= 0; i--) {
            fm[i].dim_size = (intptr_t)PyLong_AsSsize_t(PyTuple_GET_ITEM(shape, i));
            fm[i].stride = stride;
            stride *= fm[i].dim_size;
        }
        for (Py_ssize_t i = 0; i < nd; i++) {
            t = ck_type_element(t);
        }
        fill_elem_arrmeta(d->subarray->base, t, am + (size_t)nd * sizeof *fm);
        return;
    }
    if (PyDataType_HASFIELDS(d)) {
        intptr_t *offsets = (intptr_t *)am;
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(d->names); i++) {
            PyObject *info = PyDict_GetItem(d->fields, PyTuple_GET_ITEM(d->names, i));
            offsets[i] = (intptr_t)PyLong_AsSsize_t(PyTuple_GET_ITEM(info, 1));
            fill_elem_arrmeta((PyArray_Descr *)PyTuple_GET_ITEM(info, 0),
                              ck_type_field(t, (size_t)i),
                              am + ck_type_field_arrmeta_offset(t, (size_t)i));
        }
    }
}

int ckpy_wrap_ndarray(PyArrayObject *a, ck_memblock *owner, ck_array **out) {
    const ck_type *el = ckpy_type_from_descr(PyArray_DESCR(a));
    if (el == NULL) {
        return -1;
    }
    const int nd = PyArray_NDIM(a);
    const npy_intp *shape = PyArray_DIMS(a), *strides = PyArray_STRIDES(a);
    const ck_type *t = el;
    ck_type_incref(el);
    int rc = CK_OK;
    for (int i = nd - 1; i >= 0 && rc == CK_OK; i--) {
        ck_type *outer = NULL;
        rc = ck_type_make_fixed_dim((intptr_t)shape[i], t, &outer);
        ck_type_decref(t);
        t = outer;
    }
    if (rc != CK_OK) {
        ck_type_decref(el);
        ckpy_raise_status(rc);
        return -1;
    }
    /* Arrmeta is intptr_t-aligned; a few hundred bytes cover every array but deep records. */
    intptr_t local[64];
    const size_t size = ck_type_arrmeta_size(t);
    char *am = size <= sizeof local ? (char *)local : PyMem_Malloc(size);
    if (am == NULL) {
        ck_type_decref(el);
        ck_type_decref(t);
        PyErr_NoMemory();
        return -1;
    }
    ck_fixed_dim_arrmeta *fm = (ck_fixed_dim_arrmeta *)am;
    for (int i = 0; i < nd; i++) {
        fm[i].dim_size = (intptr_t)shape[i];
        fm[i].stride = (intptr_t)strides[i];
    }
    fill_elem_arrmeta(PyArray_DESCR(a), el, am + (size_t)nd * sizeof *fm);
    rc = ck_array_wrap(t, am, PyArray_BYTES(a), owner, out);
    if (am != (char *)local) {
        PyMem_Free(am);
    }
    ck_type_decref(el);
    ck_type_decref(t);
    if (rc != CK_OK) {
        ckpy_raise_status(rc);
        return -1;
    }
    return 0;
}

/* The owner block's release: ckernel drops its last reference to a wrapped ndarray. That
 * happens when an Array is freed, with the GIL held; taking it here keeps the decref
 * correct from any thread. */
static void release_pyobject(void *ctx) {
    PyGILState_STATE g = PyGILState_Ensure();
    Py_DECREF((PyObject *)ctx);
    PyGILState_Release(g);
}

int ckpy_owner_block(PyArrayObject *a, ck_memblock **out) {
    int rc = ck_memblock_new_external(PyArray_BYTES(a), (size_t)PyArray_NBYTES(a),
                                      release_pyobject, a, out);
    if (rc != CK_OK) {
        ckpy_raise_status(rc);
        return -1;
    }
    Py_INCREF(a); /* the block's, released by release_pyobject */
    return 0;
}
