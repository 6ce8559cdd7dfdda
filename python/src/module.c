/* python/src/module.c: the extension module ckernel._ckernel: ckernel.Error, the module's
 * functions that are not kernel runs (version, threads, the registry), and its init. */
#define CKPY_IMPORT_ARRAY
#include "ckpy.h"

#include <limits.h>
#include <stdarg.h>
#include <string.h>

PyObject *ckpy_Error = NULL;
/* Registered ckernel.Callable objects, by name: the registry holds their ck_callable and
 * this dict the Python objects their native signatures call (kept for the process). */
static PyObject *registered = NULL;

/* ---- errors ---- */

/* Raises ckernel.Error(message) with .status = status_name; both references are stolen. */
static PyObject *raise_named(PyObject *status_name, PyObject *message) {
    PyObject *exc = NULL;
    if (status_name != NULL && message != NULL) {
        exc = PyObject_CallOneArg(ckpy_Error, message);
    }
    if (exc != NULL && PyObject_SetAttrString(exc, "status", status_name) == 0) {
        PyErr_SetObject(ckpy_Error, exc);
    }
    Py_XDECREF(exc);
    Py_XDECREF(status_name);
    Py_XDECREF(message);
    return NULL;
}

static PyObject *raise_with(int status, PyObject *message) {
    return raise_named(PyUnicode_FromString(ck_status_name(status)), message);
}

PyObject *ckpy_raise_status(int status) {
    const char *msg = ck_last_error();
    if (msg == NULL || msg[0] == '\0' || ck_last_status() != status) {
        msg = ck_status_message(status);
    }
    return raise_with(status, PyUnicode_DecodeUTF8(msg, (Py_ssize_t)strlen(msg), "replace"));
}

PyObject *ckpy_raise(int status, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    PyObject *message = PyUnicode_FromFormatV(fmt, ap);
    va_end(ap);
    return raise_with(status, message);
}

void ckpy_convert_error(int status, const char *what) {
    if (!PyErr_ExceptionMatches(PyExc_TypeError) && !PyErr_ExceptionMatches(PyExc_ValueError)) {
        return;
    }
    if (PyErr_ExceptionMatches(ckpy_Error)) {
        return;
    }
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    if (tb != NULL) {
        PyException_SetTraceback(value, tb);
    }
    ckpy_raise(status, "%s: %S", what, value);
    PyObject *t2, *v2, *tb2;
    PyErr_Fetch(&t2, &v2, &tb2);
    PyErr_NormalizeException(&t2, &v2, &tb2);
    if (v2 != NULL) {
        PyException_SetCause(v2, value); /* steals value */
        value = NULL;
    }
    PyErr_Restore(t2, v2, tb2);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
}

void ckpy_prefix_error(const char *what) {
    if (!PyErr_ExceptionMatches(ckpy_Error)) {
        return;
    }
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    PyObject *status = value == NULL ? NULL : PyObject_GetAttrString(value, "status");
    PyObject *message = value == NULL ? NULL : PyUnicode_FromFormat("%s: %S", what, value);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
    raise_named(status, message);
}

/* ---- functions ---- */

static PyObject *set_num_threads(PyObject *self, PyObject *arg) {
    (void)self;
    long n = PyLong_AsLong(arg);
    if (n == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (n < INT_MIN || n > INT_MAX) {
        return ckpy_raise(CK_ERR_INVALID, "set_num_threads(%ld): out of range", n);
    }
    int rc = ck_set_num_threads((int)n);
    if (rc != CK_OK) {
        return ckpy_raise_status(rc);
    }
    Py_RETURN_NONE;
}

static PyObject *get_num_threads(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    return PyLong_FromLong(ck_get_num_threads());
}

PyObject *ckpy_string(char *text) {
    PyObject *s = text == NULL ? NULL
                               : PyUnicode_DecodeUTF8(text, (Py_ssize_t)strlen(text), "replace");
    ck_free(text);
    return s;
}

PyObject *ckpy_lines(char *text) {
    PyObject *s = ckpy_string(text);
    if (s == NULL) {
        return NULL;
    }
    PyObject *out = PyUnicode_Splitlines(s, 0);
    Py_DECREF(s);
    return out;
}

static PyObject *callables(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    char *text = NULL;
    int rc = ck_registry_names(&text);
    if (rc != CK_OK) {
        return ckpy_raise_status(rc);
    }
    PyObject *names = ckpy_lines(text), *out = PyDict_New();
    for (Py_ssize_t i = 0; names != NULL && out != NULL && i < PyList_GET_SIZE(names); i++) {
        PyObject *name = PyList_GET_ITEM(names, i);
        ck_callable *c = NULL;
        char *sigs = NULL;
        rc = ck_lookup(PyUnicode_AsUTF8(name), &c);
        if (rc == CK_ERR_TYPE) {
            continue; /* unregistered meanwhile */
        }
        if (rc == CK_OK) {
            rc = ck_callable_signatures(c, &sigs);
        }
        ck_callable_decref(c);
        PyObject *list = rc == CK_OK ? ckpy_lines(sigs) : ckpy_raise_status(rc);
        if (list == NULL || PyDict_SetItem(out, name, list) < 0) {
            Py_XDECREF(list);
            Py_CLEAR(out);
            break;
        }
        Py_DECREF(list);
    }
    Py_XDECREF(names);
    return out;
}

static PyObject *register_callable(PyObject *self, PyObject *arg) {
    (void)self;
    if (!ckpy_Callable_Check(arg)) {
        return ckpy_raise(CK_ERR_TYPE, "register takes a ckernel.Callable, not %.100s",
                          Py_TYPE(arg)->tp_name);
    }
    ckpy_Callable *c = (ckpy_Callable *)arg;
    int rc = ck_register(c->callable);
    if (rc != CK_OK) {
        return ckpy_raise_status(rc);
    }
    /* Registered for good: its native functions must stay callable (no unregister). */
    if (PyDict_SetItemString(registered, ck_callable_name(c->callable), arg) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* For the tests: ckernel's live allocations (blocks, bytes), to see that nothing leaks; the
 * kernel cache and the JIT's retained code are emptied first (what they hold is not a leak). */
static PyObject *alloc_live(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    ckpy_cache_clear();
    ck_jit_trim(); /* nor is the compiled code kept for later builds */
    ck_alloc_stats st;
    ck_get_alloc_stats(&st);
    return Py_BuildValue("(Ln)", (long long)st.live, (Py_ssize_t)ck_get_alloc_live_bytes());
}

/* For the tests: ck_set_alloc_limit (0: none), to make ckernel's allocations fail at every
 * point of a run. */
static PyObject *set_alloc_limit(PyObject *self, PyObject *arg) {
    (void)self;
    const size_t bytes = PyLong_AsSize_t(arg);
    if (bytes == (size_t)-1 && PyErr_Occurred()) {
        return NULL;
    }
    ck_set_alloc_limit(bytes);
    Py_RETURN_NONE;
}

/* For the tests: the kernel cache's (hits, misses, kernels held). */
static PyObject *cache_stats(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    return ckpy_cache_stats();
}

static PyMethodDef methods[] = {
    {"assign", (PyCFunction)(void (*)(void))ckpy_assign, METH_VARARGS | METH_KEYWORDS,
     "assign(dst, src, errmode='fractional', by_position=False)\n--\n\n"
     "dst <- src in place (dst: a writable NumPy array or ckernel.Array), any strides, "
     "broadcasting src."},
    {"call", (PyCFunction)(void (*)(void))ckpy_call, METH_FASTCALL | METH_KEYWORDS,
     "call(name, *args, out=None, errmode='fractional', allow_unsafe=False)\n--\n\n"
     "Calls the registered callable `name` (or a ckernel.Callable) on the arguments."},
    {"evaluate", (PyCFunction)(void (*)(void))ckpy_evaluate, METH_FASTCALL | METH_KEYWORDS,
     "evaluate(expr, /, out=None, **arrays)\n--\n\n"
     "The expression (\"a * x + b\") over the keyword arguments, as one kernel: broadcast "
     "together, evaluated in cache-sized chunks without full-size temporaries."},
    {"_expression_names", ckpy_expression_names, METH_O,
     "_expression_names(expr)\n--\n\nThe expression's argument names, in its order."},
    {"reduce", (PyCFunction)(void (*)(void))ckpy_reduce, METH_VARARGS | METH_KEYWORDS,
     "reduce(name, a, axis=None, keepdims=False, skipna=False, out=None)\n--\n\n"
     "Folds a over the axes (None: all) with the reduction `name` (sum, prod, min, max, all, "
     "any, a registered callable's name with an identity, or a ckernel.Callable)."},
    {"accumulate", (PyCFunction)(void (*)(void))ckpy_accumulate, METH_VARARGS | METH_KEYWORDS,
     "accumulate(name, a, axis=-1, out=None)\n--\n\n"
     "The running fold of a along one axis: cumsum, cumprod, cummin, cummax, a registered "
     "callable's name, or a ckernel.Callable."},
    {"explain", (PyCFunction)(void (*)(void))ckpy_explain, METH_VARARGS | METH_KEYWORDS,
     "explain(dst, src, errmode='fractional', by_position=False)\n--\n\n"
     "The kernel tree of dst <- src (datashapes or arrays), as text."},
    {"callables", callables, METH_NOARGS,
     "callables()\n--\n\nEvery registered callable and its signatures."},
    {"register", register_callable, METH_O,
     "register(callable)\n--\n\nRegisters a ckernel.Callable under its name."},
    {"set_num_threads", set_num_threads, METH_O,
     "set_num_threads(n)\n--\n\nThreads of parallel runs (0: all hardware threads)."},
    {"get_num_threads", get_num_threads, METH_NOARGS,
     "get_num_threads()\n--\n\nThreads of parallel runs."},
    {"_alloc_live", alloc_live, METH_NOARGS, NULL},
    {"_cache_stats", cache_stats, METH_NOARGS, NULL},
    {"_set_alloc_limit", set_alloc_limit, METH_O, NULL},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "ckernel._ckernel",
    "The C extension of the ckernel package (use `import ckernel`).", -1, methods,
    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__ckernel(void);
PyMODINIT_FUNC PyInit__ckernel(void) {
    import_array();
    if (PyType_Ready(&ckpy_ArrayType) < 0 || PyType_Ready(&ckpy_CallableType) < 0) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&module_def);
    if (m == NULL) {
        return NULL;
    }
    PyObject *attrs = Py_BuildValue("{sO}", "status", Py_None);
    ckpy_Error = attrs == NULL ? NULL : PyErr_NewExceptionWithDoc(
        "ckernel.Error",
        "A ckernel status: .status is its name (\"CK_ERR_OVERFLOW\"), str() its message.",
        PyExc_ValueError, attrs);
    Py_XDECREF(attrs);
    registered = PyDict_New();
    if (ckpy_Error == NULL || registered == NULL ||
        PyModule_AddObjectRef(m, "Error", ckpy_Error) < 0 ||
        PyModule_AddObjectRef(m, "_registered", registered) < 0 ||
        PyModule_AddObjectRef(m, "Array", (PyObject *)&ckpy_ArrayType) < 0 ||
        PyModule_AddObjectRef(m, "Callable", (PyObject *)&ckpy_CallableType) < 0 ||
        PyModule_AddStringConstant(m, "__version__", ck_version_string()) < 0 ||
        PyModule_AddStringConstant(m, "build_options", ck_build_options()) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
