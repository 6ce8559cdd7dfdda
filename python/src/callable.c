/* python/src/callable.c: ckernel.Callable, a ck_callable made from Python: a name, native
 * functions added as signatures (ck_callable_add_native: a ctypes function pointer, a Numba
 * @cfunc or a plain address), which ckernel lifts over every dimension kind with
 * broadcasting and argument casts, and an identity (what a reduction starts from). The
 * Callable keeps each function's Python object alive, and ckernel.register keeps registered
 * Callables for the process, so code that a signature calls never goes away while a kernel
 * can call it. */
#include "ckpy.h"

#include <string.h>

static PyObject *callable_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char kw_name[] = "name";
    static char *kwlist[] = {kw_name, NULL};
    const char *name;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "s:Callable", kwlist, &name)) {
        return NULL;
    }
    ckpy_Callable *self = (ckpy_Callable *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->keep = PyList_New(0);
    if (self->keep == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    int rc = ck_callable_new(name, &self->callable);
    if (rc != CK_OK) {
        Py_DECREF(self);
        return ckpy_raise_status(rc);
    }
    return (PyObject *)self;
}

static void callable_dealloc(ckpy_Callable *self) {
    ck_callable_decref(self->callable);
    Py_XDECREF(self->keep);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The machine address of a function: an int, an object with an int .address (a Numba
 * @cfunc), or a ctypes function pointer. 0 with an exception set when there is none. */
static void *function_address(PyObject *fn) {
    PyObject *addr = NULL;
    if (PyLong_Check(fn)) {
        addr = Py_NewRef(fn);
    } else if (PyObject_HasAttrString(fn, "address")) {
        addr = PyObject_GetAttrString(fn, "address");
    } else {
        PyObject *ctypes = PyImport_ImportModule("ctypes");
        PyObject *base = ctypes == NULL ? NULL : PyObject_GetAttrString(ctypes, "_CFuncPtr");
        int is_fn = base == NULL ? -1 : PyObject_IsInstance(fn, base);
        if (is_fn == 1) {
            PyObject *vp = PyObject_GetAttrString(ctypes, "c_void_p");
            PyObject *cast = vp == NULL ? NULL : PyObject_CallMethod(ctypes, "cast", "OO", fn, vp);
            addr = cast == NULL ? NULL : PyObject_GetAttrString(cast, "value");
            Py_XDECREF(vp);
            Py_XDECREF(cast);
        }
        Py_XDECREF(base);
        Py_XDECREF(ctypes);
        if (is_fn == 0) {
            ckpy_raise(CK_ERR_TYPE, "add_native takes a function's address: an int, a Numba "
                       "@cfunc or a ctypes function pointer, not a %.100s", Py_TYPE(fn)->tp_name);
            return NULL;
        }
    }
    if (addr == NULL) {
        return NULL;
    }
    if (!PyLong_Check(addr)) {
        ckpy_raise(CK_ERR_TYPE, "the function's address is not an int but a %.100s",
                   Py_TYPE(addr)->tp_name);
        Py_DECREF(addr);
        return NULL;
    }
    void *p = PyLong_AsVoidPtr(addr);
    Py_DECREF(addr);
    if (p == NULL && !PyErr_Occurred()) {
        ckpy_raise(CK_ERR_INVALID, "the function's address is 0");
    }
    return p;
}

static PyObject *callable_add_native(ckpy_Callable *self, PyObject *args) {
    const char *sig;
    PyObject *fn;
    if (!PyArg_ParseTuple(args, "sO:add_native", &sig, &fn)) {
        return NULL;
    }
    void *p = function_address(fn);
    if (p == NULL) {
        return NULL;
    }
    void (*native)(void);
    memcpy(&native, &p, sizeof native); /* an address as a function pointer (POSIX) */
    int rc = ck_callable_add_native(self->callable, sig, native);
    if (rc != CK_OK) {
        return ckpy_raise_status(rc);
    }
    ckpy_cache_clear(); /* kernels selected among the callable's old signatures */
    if (PyList_Append(self->keep, fn) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *callable_signatures(ckpy_Callable *self, PyObject *unused) {
    (void)unused;
    char *text = NULL;
    int rc = ck_callable_signatures(self->callable, &text);
    return rc == CK_OK ? ckpy_lines(text) : ckpy_raise_status(rc);
}

static PyObject *callable_set_identity(ckpy_Callable *self, PyObject *arg) {
    if (!PyUnicode_Check(arg)) {
        return ckpy_raise(CK_ERR_TYPE, "set_identity takes the identity's literal (\"0\", "
                          "\"-inf\"), not a %.100s", Py_TYPE(arg)->tp_name);
    }
    const char *literal = PyUnicode_AsUTF8(arg);
    if (literal == NULL) {
        return NULL;
    }
    int rc = ck_callable_set_identity(self->callable, literal);
    if (rc != CK_OK) {
        return ckpy_raise_status(rc);
    }
    Py_RETURN_NONE;
}

static PyObject *callable_identity(ckpy_Callable *self, void *closure) {
    (void)closure;
    const char *literal = ck_callable_identity(self->callable);
    if (literal == NULL) {
        Py_RETURN_NONE;
    }
    return PyUnicode_FromString(literal);
}

static PyObject *callable_name(ckpy_Callable *self, void *closure) {
    (void)closure;
    return PyUnicode_FromString(ck_callable_name(self->callable));
}

static PyObject *callable_repr(ckpy_Callable *self) {
    PyObject *sigs = callable_signatures(self, NULL);
    if (sigs == NULL) {
        return NULL;
    }
    /* Names are identifiers: nothing to escape. */
    PyObject *out = PyUnicode_FromFormat("ckernel.Callable('%s', signatures=%R)",
                                         ck_callable_name(self->callable), sigs);
    Py_DECREF(sigs);
    return out;
}

static PyMethodDef callable_methods[] = {
    {"add_native", (PyCFunction)callable_add_native, METH_VARARGS,
     "add_native(signature, function)\n--\n\nAdds a native function as a signature: "
     "\"dd)d\" or \"(float64, float64) -> float64\"; the function is a Numba @cfunc, a "
     "ctypes function pointer or an address (int)."},
    {"set_identity", (PyCFunction)callable_set_identity, METH_O,
     "set_identity(literal)\n--\n\nThe identity e with f(e, x) == x, as a literal read in "
     "the accumulator's type (\"0\", \"-inf\"): what ckernel.reduce starts from. Once, "
     "before the callable is used."},
    {"signatures", (PyCFunction)callable_signatures, METH_NOARGS,
     "signatures()\n--\n\nThe signatures, sorted, as \"(float64, float64) -> float64\"."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef callable_getset[] = {
    {"name", (getter)callable_name, NULL, "The callable's name.", NULL},
    {"identity", (getter)callable_identity, NULL,
     "The identity's literal (set_identity), or None.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject ckpy_CallableType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ckernel.Callable",
    .tp_basicsize = sizeof(ckpy_Callable),
    .tp_dealloc = (destructor)callable_dealloc,
    .tp_repr = (reprfunc)callable_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Callable(name)\n--\n\nA new callable without signatures; add native functions "
              "with add_native, then ckernel.register it or pass it to ckernel.call.",
    .tp_methods = callable_methods,
    .tp_getset = callable_getset,
    .tp_new = callable_new,
};
