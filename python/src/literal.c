/* python/src/literal.c: nested Python values (lists, tuples, dicts, numbers, None) as
 * ckernel arrays. They are written as the literal of the type and parsed by ck_array_parse,
 * so values are checked and rounded as every literal is, and a wrong one is reported with
 * its element and column. Without a type, the type is inferred (docs/python.md). */
#include "ckpy.h"

#include <string.h>

/* The deepest nesting of Python containers read: ckernel's types go no deeper. */
#define MAX_NESTING CK_TYPE_MAX_DEPTH

int ckpy_is_number(PyObject *obj) {
    return PyBool_Check(obj) || PyLong_Check(obj) || PyFloat_Check(obj) || PyComplex_Check(obj) ||
           PyArray_IsScalar(obj, Number) || PyArray_IsScalar(obj, Bool);
}

/* Lists, tuples and NumPy arrays of at least one dimension hold the elements of a dimension. */
static int is_sequence(PyObject *obj) {
    return PyList_Check(obj) || PyTuple_Check(obj) ||
           (PyArray_Check(obj) && PyArray_NDIM((PyArrayObject *)obj) > 0);
}

/* ---- the literal's text ---- */

typedef struct textbuf {
    char *p;
    size_t len, cap;
} textbuf;

static int put(textbuf *b, const char *s, size_t n) {
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap < 256 ? 256 : b->cap;
        while (cap < b->len + n + 1) {
            cap *= 2;
        }
        char *p = PyMem_Realloc(b->p, cap);
        if (p == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
    return 0;
}

static int puts_(textbuf *b, const char *s) {
    return put(b, s, strlen(s));
}

static int put_double(textbuf *b, double v) {
    /* repr's shortest round-trip text ("0.1", "1e+16", "inf", "nan"), which the literal
     * parser reads back to the same value, rounded once to a narrower type. */
    char *s = PyOS_double_to_string(v, 'r', 0, 0, NULL);
    if (s == NULL) {
        return -1;
    }
    int rc = puts_(b, s);
    PyMem_Free(s);
    return rc;
}

static int put_number(textbuf *b, PyObject *obj) {
    if (PyBool_Check(obj) || PyArray_IsScalar(obj, Bool)) {
        return puts_(b, PyObject_IsTrue(obj) ? "true" : "false");
    }
    if (PyLong_Check(obj) || PyArray_IsScalar(obj, Integer)) {
        PyObject *i = PyNumber_Index(obj), *s = i == NULL ? NULL : PyObject_Str(i);
        const char *text = s == NULL ? NULL : PyUnicode_AsUTF8(s);
        int rc = text == NULL ? -1 : puts_(b, text);
        Py_XDECREF(i);
        Py_XDECREF(s);
        return rc;
    }
    if (PyComplex_Check(obj) || PyArray_IsScalar(obj, ComplexFloating)) {
        Py_complex z = PyComplex_AsCComplex(obj);
        if (z.real == -1.0 && PyErr_Occurred()) {
            return -1;
        }
        char *im = PyOS_double_to_string(z.imag, 'r', 0, 0, NULL);
        if (im == NULL) {
            return -1;
        }
        int rc = put_double(b, z.real);
        if (rc == 0 && im[0] != '-') {
            rc = puts_(b, "+");
        }
        if (rc == 0) {
            rc = puts_(b, im);
        }
        PyMem_Free(im);
        return rc == 0 ? puts_(b, "j") : -1;
    }
    double v = PyFloat_AsDouble(obj);
    if (v == -1.0 && PyErr_Occurred()) {
        return -1;
    }
    return put_double(b, v);
}

/* A str as a JSON string literal (UTF-8, control characters and DEL as \u00XX), bytes as
 * a bytes literal (printable ASCII as it is, the rest \xHH). A str that UTF-8 cannot hold
 * (a lone surrogate) is CK_ERR_TEXT. */
static int put_text(textbuf *b, PyObject *obj) {
    const int is_bytes = PyBytes_Check(obj);
    Py_ssize_t n = 0;
    const char *p;
    if (is_bytes) {
        p = PyBytes_AS_STRING(obj);
        n = PyBytes_GET_SIZE(obj);
    } else {
        p = PyUnicode_AsUTF8AndSize(obj, &n);
        if (p == NULL) {
            ckpy_convert_error(CK_ERR_TEXT, "a str that is not valid UTF-8");
            return -1;
        }
    }
    int rc = puts_(b, "\"");
    Py_ssize_t run = 0; /* bytes written as they are, copied together */
    for (Py_ssize_t i = 0; rc == 0 && i <= n; i++) {
        const unsigned char c = i < n ? (unsigned char)p[i] : 0;
        const int plain = i < n && c >= 0x20 && c != 0x7f && c != '"' && c != '\\' &&
                          (!is_bytes || c < 0x80);
        if (plain) {
            run++;
            continue;
        }
        rc = put(b, p + i - run, (size_t)run);
        run = 0;
        if (rc == 0 && i < n) {
            char esc[8];
            if (c == '"' || c == '\\') {
                esc[0] = '\\';
                esc[1] = (char)c;
                esc[2] = '\0';
            } else {
                PyOS_snprintf(esc, sizeof esc, is_bytes ? "\\x%02x" : "\\u%04x", c);
            }
            rc = puts_(b, esc);
        }
    }
    return rc == 0 ? puts_(b, "\"") : -1;
}

/* A field name as the literal spells it: an identifier as it is, anything else quoted. */
static int put_name(textbuf *b, const char *name) {
    int ident = (name[0] == '_' || (name[0] | 0x20) >= 'a') && (name[0] | 0x20) <= 'z';
    for (const char *c = name; ident && *c != '\0'; c++) {
        ident = *c == '_' || ((*c | 0x20) >= 'a' && (*c | 0x20) <= 'z') || (*c >= '0' && *c <= '9');
    }
    if (ident) {
        return puts_(b, name);
    }
    if (puts_(b, "'") < 0) {
        return -1;
    }
    for (const unsigned char *c = (const unsigned char *)name; *c != '\0'; c++) {
        char esc[8];
        if (*c == '\'' || *c == '\\') {
            esc[0] = '\\';
            esc[1] = (char)*c;
            esc[2] = '\0';
        } else if (*c < 0x20 || *c == 0x7f) {
            PyOS_snprintf(esc, sizeof esc, "\\x%02x", *c);
        } else {
            esc[0] = (char)*c;
            esc[1] = '\0';
        }
        if (puts_(b, esc) < 0) {
            return -1;
        }
    }
    return puts_(b, "'");
}

static int write_value(textbuf *b, PyObject *obj, const ck_type *t, int depth);

static int write_list(textbuf *b, PyObject *obj, const ck_type *el, int depth) {
    PyObject *seq = PySequence_Fast(obj, "a dimension's elements");
    if (seq == NULL) {
        return -1;
    }
    int rc = puts_(b, "[");
    for (Py_ssize_t i = 0; rc == 0 && i < PySequence_Fast_GET_SIZE(seq); i++) {
        if (i > 0) {
            rc = puts_(b, ", ");
        }
        if (rc == 0) {
            rc = write_value(b, PySequence_Fast_GET_ITEM(seq, i), el, depth + 1);
        }
    }
    Py_DECREF(seq);
    return rc == 0 ? puts_(b, "]") : -1;
}

/* A dict as a struct literal {name: value, ...}; a tuple for a struct type names its values
 * by position. */
static int write_struct(textbuf *b, PyObject *obj, const ck_type *t, int depth) {
    int rc = puts_(b, "{");
    const int is_struct = t != NULL && ck_type_get_id(t) == CK_TYPE_STRUCT;
    if (PyTuple_Check(obj)) {
        const Py_ssize_t n = PyTuple_GET_SIZE(obj);
        if ((size_t)n != ck_type_field_count(t)) {
            ckpy_raise(CK_ERR_TYPE, "a tuple of %zd values for a struct of %zu fields", n,
                       ck_type_field_count(t));
            return -1;
        }
        for (Py_ssize_t i = 0; rc == 0 && i < n; i++) {
            rc = i > 0 ? puts_(b, ", ") : 0;
            if (rc == 0) rc = put_name(b, ck_type_field_name(t, (size_t)i));
            if (rc == 0) rc = puts_(b, ": ");
            if (rc == 0) {
                rc = write_value(b, PyTuple_GET_ITEM(obj, i), ck_type_field(t, (size_t)i), depth + 1);
            }
        }
        return rc == 0 ? puts_(b, "}") : -1;
    }
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    int first = 1;
    while (rc == 0 && PyDict_Next(obj, &pos, &key, &value)) {
        if (!PyUnicode_Check(key)) {
            ckpy_raise(CK_ERR_TYPE, "a struct's field names are str, not %.100s",
                       Py_TYPE(key)->tp_name);
            return -1;
        }
        const char *name = PyUnicode_AsUTF8(key);
        if (name == NULL) {
            return -1;
        }
        const ck_type *ft = NULL;
        if (is_struct) {
            intptr_t i = ck_type_field_index(t, name);
            ft = i >= 0 ? ck_type_field(t, (size_t)i) : NULL;
        }
        rc = first ? 0 : puts_(b, ", ");
        first = 0;
        if (rc == 0) rc = put_name(b, name);
        if (rc == 0) rc = puts_(b, ": ");
        if (rc == 0) rc = write_value(b, value, ft, depth + 1);
    }
    return rc == 0 ? puts_(b, "}") : -1;
}

static int write_tuple(textbuf *b, PyObject *obj, const ck_type *t, int depth) {
    int rc = puts_(b, "(");
    const size_t nfields = ck_type_field_count(t);
    for (Py_ssize_t i = 0; rc == 0 && i < PyTuple_GET_SIZE(obj); i++) {
        rc = i > 0 ? puts_(b, ", ") : 0;
        if (rc == 0) {
            const ck_type *ft = (size_t)i < nfields ? ck_type_field(t, (size_t)i) : NULL;
            rc = write_value(b, PyTuple_GET_ITEM(obj, i), ft, depth + 1);
        }
    }
    return rc == 0 ? puts_(b, ")") : -1;
}

/* Writes obj as the literal of t. t guides what the parser cannot tell from the text (None
 * is NA for an option, null for a var row or a pointer; a tuple is a record for a record
 * type, else a dimension) and may be NULL where obj does not fit it: the parser then
 * reports the mismatch with its element and column. */
static int write_value(textbuf *b, PyObject *obj, const ck_type *t, int depth) {
    if (depth > MAX_NESTING) {
        ckpy_raise(CK_ERR_INVALID, "values nested more than %d deep", MAX_NESTING);
        return -1;
    }
    const ck_type_id id = t != NULL ? ck_type_get_id(t) : CK_TYPE_BOOL;
    if (t != NULL && (id == CK_TYPE_POINTER || id == CK_TYPE_OPTION)) {
        if (obj == Py_None) {
            return puts_(b, id == CK_TYPE_OPTION ? "NA" : "null");
        }
        return write_value(b, obj, ck_type_element(t), depth + 1); /* transparent */
    }
    if (obj == Py_None) {
        return puts_(b, "null");
    }
    if (PyDict_Check(obj) || (PyTuple_Check(obj) && t != NULL && id == CK_TYPE_STRUCT)) {
        return write_struct(b, obj, t, depth);
    }
    if (PyTuple_Check(obj) && t != NULL && id == CK_TYPE_TUPLE) {
        return write_tuple(b, obj, t, depth);
    }
    if (is_sequence(obj)) {
        const ck_type *el = t != NULL && (id == CK_TYPE_FIXED_DIM || id == CK_TYPE_VAR_DIM)
                                ? ck_type_element(t)
                                : NULL;
        return write_list(b, obj, el, depth);
    }
    if (ckpy_is_number(obj)) {
        return put_number(b, obj);
    }
    if (PyUnicode_Check(obj) || PyBytes_Check(obj)) {
        return put_text(b, obj);
    }
    ckpy_raise(CK_ERR_TYPE,
               "a %.100s is not a value for ckernel (numbers, str, bytes, lists, tuples, "
               "dicts, None)",
               Py_TYPE(obj)->tp_name);
    return -1;
}

int ckpy_array_from_python_typed(PyObject *obj, const ck_type *t, ck_array **out) {
    textbuf b = {NULL, 0, 0};
    int rc = write_value(&b, obj, t, 0);
    if (rc == 0) {
        int st = ck_array_parse(t, b.p, out);
        if (st != CK_OK) {
            ckpy_raise_status(st);
            rc = -1;
        }
    }
    PyMem_Free(b.p);
    return rc;
}

/* ---- inferring the type ---- */

typedef struct infer_state {
    intptr_t size[MAX_NESTING]; /* per list level: the common length, -1 var, -2 unseen */
    uint64_t list_levels;       /* bit d: a list was seen at depth d */
    int value_depth;            /* the depth of values (and None); -1 before the first */
    int kind;                   /* -1 none, 0 bool, 1 int, 2 float, 3 complex, 4 str, 5 bytes */
    int has_none;
} infer_state;

static int infer_walk(infer_state *st, PyObject *obj, int depth) {
    if (is_sequence(obj)) {
        if (depth >= MAX_NESTING) {
            ckpy_raise(CK_ERR_INVALID, "lists nested more than %d deep", MAX_NESTING);
            return -1;
        }
        if (st->value_depth == depth) {
            ckpy_raise(CK_ERR_TYPE, "lists and values at the same depth (%d): the lists need "
                       "the same depth everywhere", depth);
            return -1;
        }
        PyObject *seq = PySequence_Fast(obj, "a dimension's elements");
        if (seq == NULL) {
            return -1;
        }
        const intptr_t n = (intptr_t)PySequence_Fast_GET_SIZE(seq);
        st->list_levels |= (uint64_t)1 << depth;
        st->size[depth] = st->size[depth] == -2 || st->size[depth] == n ? n : -1;
        int rc = 0;
        for (Py_ssize_t i = 0; rc == 0 && i < n; i++) {
            rc = infer_walk(st, PySequence_Fast_GET_ITEM(seq, i), depth + 1);
        }
        Py_DECREF(seq);
        return rc;
    }
    int kind;
    if (obj == Py_None) {
        kind = -1;
        st->has_none = 1;
    } else if (PyBool_Check(obj) || PyArray_IsScalar(obj, Bool)) {
        kind = 0;
    } else if (PyLong_Check(obj) || PyArray_IsScalar(obj, Integer)) {
        kind = 1;
    } else if (PyFloat_Check(obj) || PyArray_IsScalar(obj, Floating)) {
        kind = 2;
    } else if (PyComplex_Check(obj) || PyArray_IsScalar(obj, ComplexFloating)) {
        kind = 3;
    } else if (PyUnicode_Check(obj)) {
        kind = 4;
    } else if (PyBytes_Check(obj)) {
        kind = 5;
    } else if (PyDict_Check(obj)) {
        ckpy_raise(CK_ERR_TYPE, "records (dicts) need type=, the datashape of the values");
        return -1;
    } else {
        ckpy_raise(CK_ERR_TYPE,
                   "a %.100s is not a value for ckernel (numbers, str, bytes, lists, tuples, "
                   "None)",
                   Py_TYPE(obj)->tp_name);
        return -1;
    }
    if ((st->value_depth >= 0 && st->value_depth != depth) ||
        (depth < MAX_NESTING && (st->list_levels >> depth) & 1)) {
        ckpy_raise(CK_ERR_TYPE, "values at depths %d and %d: the lists need the same depth "
                   "everywhere", st->value_depth >= 0 ? st->value_depth : depth,
                   st->value_depth >= 0 ? depth : depth + 1);
        return -1;
    }
    /* Text and numbers have no common type; str and bytes neither. */
    if (kind >= 0 && st->kind >= 0 && (kind >= 4 || st->kind >= 4) && kind != st->kind) {
        static const char *const names[6] = {"bool", "int", "float", "complex", "str", "bytes"};
        ckpy_raise(CK_ERR_TYPE, "%s and %s values in one array: give type=, or convert them",
                   names[st->kind], names[kind]);
        return -1;
    }
    st->value_depth = depth;
    if (kind > st->kind) {
        st->kind = kind;
    }
    return 0;
}

int ckpy_array_from_python(PyObject *obj, ck_array **out) {
    static const ck_type_id kinds[6] = {CK_TYPE_BOOL, CK_TYPE_INT64, CK_TYPE_FLOAT64,
                                        CK_TYPE_COMPLEX128, CK_TYPE_STRING, CK_TYPE_BYTES};
    infer_state st;
    for (int i = 0; i < MAX_NESTING; i++) {
        st.size[i] = -2;
    }
    st.list_levels = 0;
    st.value_depth = -1;
    st.kind = -1;
    st.has_none = 0;
    if (infer_walk(&st, obj, 0) < 0) {
        return -1;
    }
    int ndim = st.value_depth;
    if (ndim < 0) { /* no value anywhere: every list level counts, float64 as NumPy's */
        for (ndim = 0; ndim < MAX_NESTING && ((st.list_levels >> ndim) & 1); ndim++) {
        }
    }
    const ck_type_id kind = kinds[st.kind < 0 ? 2 : st.kind];
    const ck_type *t = kind == CK_TYPE_STRING  ? ck_type_string()
                       : kind == CK_TYPE_BYTES ? ck_type_bytes()
                                               : ck_type_scalar(kind);
    int rc = CK_OK;
    if (st.has_none) {
        ck_type *option = NULL;
        rc = ck_type_make_option(t, &option);
        t = option;
    }
    for (int d = ndim - 1; d >= 0 && rc == CK_OK; d--) {
        ck_type *outer = NULL;
        rc = st.size[d] == -1 ? ck_type_make_var_dim(t, &outer)
                              : ck_type_make_fixed_dim(st.size[d], t, &outer);
        ck_type_decref(t);
        t = outer;
    }
    if (rc != CK_OK) {
        ck_type_decref(t);
        ckpy_raise_status(rc);
        return -1;
    }
    int result = ckpy_array_from_python_typed(obj, t, out);
    ck_type_decref(t);
    return result;
}
