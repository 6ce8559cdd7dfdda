/* python/src/cache.c: the module's cache of built kernels for small runs over ndarrays.
 *
 * Building a kernel (selection, broadcasting, composition) costs a few hundred nanoseconds,
 * about what NumPy takes for a whole ufunc call on 10 elements. A kernel is built for the
 * arguments' types and layouts (shapes, strides, alignment) and takes the data pointers
 * when it runs, so a run whose operands are all ndarrays of scalar dtypes is keyed by those
 * layouts and the kernel built for the first such run is reused by the next ones with only
 * the data pointers changed (no ck_array, no type, no builder per call).
 *
 * Only runs that ckernel would run serially anyway are cached: less than two parallel grains
 * of destination (ck_parallel_call and ck_parallel_assign split nothing smaller), where the
 * build is a large part of the time. Everything here runs with the GIL held, which is what
 * makes the table safe; a run holds its entry (users) while the GIL is released, and an
 * entry evicted meanwhile is freed by the last run that used it. */
#include "ckpy.h"

#include <string.h>

#define CACHE_SLOTS 32

/* A run's key: what the kernel was built for. Word 0 the callable or the expression (NULL
 * for an assignment), word 1 the error mode, flags and arity, then per operand (the destination first, unless a
 * call makes its result) its scalar type, rank and alignment, its shape and its strides. */
struct ckpy_kernel {
    ckpy_kernel_key key;
    ck_builder builder;    /* the kernel, built with CK_REQUEST_SINGLE at offset 0 */
    ck_callable *callable; /* a reference, so that the key's pointer stays this callable */
    ck_expr *expr;         /* the same for an expression */
    int users;             /* runs in progress with the GIL released */
    int evicted;           /* out of the table: the last user frees it */
    /* A call without out=: its result's dtype and shape (a C-order array, aligned). */
    int result_typenum;
    int result_nd;
    size_t result_align;
    npy_intp result_dims[CKPY_KEY_MAX_DIMS];
};

static ckpy_kernel *slots[CACHE_SLOTS];
static unsigned next_victim;
static Py_ssize_t hits, misses;

/* Parsed expressions by their text (str -> capsule of a ck_expr reference): parsing looks up
 * every callable in the registry, which a warm evaluate of a few elements need not repeat.
 * Emptied when it holds EXPR_SLOTS texts, and with the kernels. */
#define EXPR_SLOTS 64
static PyObject *parsed;

static void kernel_free(ckpy_kernel *e) {
    ck_builder_destroy(&e->builder);
    ck_callable_decref(e->callable);
    ck_expr_decref(e->expr);
    PyMem_Free(e);
}

static void evict(int i) {
    ckpy_kernel *e = slots[i];
    slots[i] = NULL;
    if (e != NULL && e->users > 0) {
        e->evicted = 1;
    } else if (e != NULL) {
        kernel_free(e);
    }
}

void ckpy_cache_clear(void) {
    for (int i = 0; i < CACHE_SLOTS; i++) {
        evict(i);
    }
    if (parsed != NULL) {
        PyDict_Clear(parsed);
    }
}

static void expr_capsule_free(PyObject *capsule) {
    ck_expr_decref((ck_expr *)PyCapsule_GetPointer(capsule, "ckernel.expr"));
}

int ckpy_expr_cached(PyObject *key, ck_expr **out) {
    *out = NULL;
    if (parsed == NULL && (parsed = PyDict_New()) == NULL) {
        return -1;
    }
    PyObject *found = PyDict_GetItemWithError(parsed, key); /* borrowed */
    if (found != NULL) {
        *out = (ck_expr *)PyCapsule_GetPointer(found, "ckernel.expr");
        ck_expr_incref(*out);
        return 1;
    }
    return PyErr_Occurred() ? -1 : 0;
}

void ckpy_expr_remember(PyObject *key, ck_expr *e) {
    if (parsed == NULL) {
        return;
    }
    if (PyDict_GET_SIZE(parsed) >= EXPR_SLOTS) {
        PyDict_Clear(parsed);
    }
    /* The capsule holds a reference of its own; not remembering it only costs a parse. */
    ck_expr_incref(e);
    PyObject *capsule = PyCapsule_New(e, "ckernel.expr", expr_capsule_free);
    if (capsule == NULL) {
        ck_expr_decref(e);
    }
    if (capsule == NULL || PyDict_SetItem(parsed, key, capsule) < 0) {
        PyErr_Clear();
    }
    Py_XDECREF(capsule);
}

int ckpy_expr_parse(PyObject *text, ck_expr **out) {
    *out = NULL;
    if (!PyUnicode_Check(text)) {
        ckpy_raise(CK_ERR_TYPE, "evaluate's first argument is an expression (a str), not a "
                   "%.100s", Py_TYPE(text)->tp_name);
        return -1;
    }
    const int found = ckpy_expr_cached(text, out);
    if (found != 0) {
        return found < 0 ? -1 : 0;
    }
    const char *utf8 = PyUnicode_AsUTF8(text);
    if (utf8 == NULL) {
        return -1;
    }
    const int rc = ck_expr_parse(utf8, out);
    if (rc != CK_OK) {
        ckpy_raise_status(rc);
        return -1;
    }
    ckpy_expr_remember(text, *out);
    return 0;
}

PyObject *ckpy_cache_stats(void) {
    Py_ssize_t n = 0;
    for (int i = 0; i < CACHE_SLOTS; i++) {
        n += slots[i] != NULL;
    }
    return Py_BuildValue("(nnn)", hits, misses, n);
}

/* CKPY_KEY_WORDS has room for the most operands of the highest rank taken. */
static void push(ckpy_kernel_key *k, intptr_t w) {
    k->w[k->n++] = w;
}

/* Whether the run is too large to cache (see the top of the file). */
static int too_large(PyArrayObject *dst) {
    return (size_t)PyArray_NBYTES(dst) >= 2 * CK_PARALLEL_DEFAULT_GRAIN_BYTES;
}

/* One operand's words; -1 when it is not an ndarray the cache takes. */
static int push_operand(ckpy_kernel_key *k, PyObject *obj) {
    if (!PyArray_Check(obj)) {
        return -1;
    }
    PyArrayObject *a = (PyArrayObject *)obj;
    const int id = ckpy_scalar_id(PyArray_DESCR(a));
    const int nd = PyArray_NDIM(a);
    if (id < 0 || nd > CKPY_KEY_MAX_DIMS) {
        return -1;
    }
    const size_t align = ck_type_data_alignment(ck_type_scalar((ck_type_id)id));
    const int unaligned = (uintptr_t)PyArray_BYTES(a) % align != 0;
    push(k, id | nd << 8 | unaligned << 16);
    for (int i = 0; i < nd; i++) {
        push(k, (intptr_t)PyArray_DIM(a, i));
        push(k, (intptr_t)PyArray_STRIDE(a, i));
    }
    return 0;
}

int ckpy_key_init(ckpy_kernel_key *k, ck_callable *c, ck_expr *x, const ck_eval_ctx *ctx,
                  PyObject *dst, int nsrc, PyObject *const *src) {
    k->n = 0;
    push(k, c != NULL ? (intptr_t)c : (intptr_t)x);
    push(k, (intptr_t)ctx->errmode | (intptr_t)ctx->flags << 8 | (intptr_t)nsrc << 24 |
                (intptr_t)(dst != NULL) << 30);
    /* A read-only destination is refused by the uncached run, with its message. */
    if (dst != NULL && (!PyArray_Check(dst) || !PyArray_ISWRITEABLE((PyArrayObject *)dst) ||
                        too_large((PyArrayObject *)dst) || push_operand(k, dst) < 0)) {
        return 0;
    }
    /* A 0-d source beside arrays is typed by its value (scalars.c): its kernel is not the
     * next value's. */
    int zero_d = 0, arrays = 0;
    for (int i = 0; i < nsrc; i++) {
        if (PyArray_Check(src[i])) {
            zero_d |= PyArray_NDIM((PyArrayObject *)src[i]) == 0;
            arrays |= PyArray_NDIM((PyArrayObject *)src[i]) > 0;
        }
    }
    if (zero_d && arrays) {
        return 0;
    }
    for (int i = 0; i < nsrc; i++) {
        /* A source overlapping the destination is copied first: the uncached run does it. */
        if (push_operand(k, src[i]) < 0 ||
            (dst != NULL && ckpy_needs_copy((PyArrayObject *)src[i], (PyArrayObject *)dst))) {
            return 0;
        }
    }
    uintptr_t h = 0x9e3779b97f4a7c15u;
    for (int i = 0; i < k->n; i++) {
        h = (h ^ (uintptr_t)k->w[i]) * 0x100000001b3u;
    }
    k->hash = h;
    return 1;
}

ckpy_kernel *ckpy_cache_find(const ckpy_kernel_key *k) {
    for (int i = 0; i < CACHE_SLOTS; i++) {
        ckpy_kernel *e = slots[i];
        if (e != NULL && e->key.hash == k->hash && e->key.n == k->n &&
            memcmp(e->key.w, k->w, (size_t)k->n * sizeof k->w[0]) == 0) {
            hits++;
            return e;
        }
    }
    return NULL;
}

ckpy_kernel *ckpy_cache_add(const ckpy_kernel_key *k, ck_callable *c, ck_expr *x,
                            PyArrayObject *dst_nd, const ck_array *dst, int nsrc,
                            const ck_array *const *src, const ck_eval_ctx *ctx) {
    if (too_large(dst_nd)) { /* a call's new result, larger than its arguments */
        return NULL;
    }
    if (PyDataType_HASFIELDS(PyArray_DESCR(dst_nd))) {
        return NULL; /* a call of two results: its record result is no type number */
    }
    ckpy_kernel *e = PyMem_Calloc(1, sizeof *e);
    if (e == NULL) {
        return NULL; /* not cached: the run goes the uncached way */
    }
    memcpy(&e->key, k, offsetof(ckpy_kernel_key, w) + (size_t)k->n * sizeof k->w[0]);
    ck_builder_init(&e->builder);
    /* As ck_call and ck_assign build theirs: flagged for these very pointers' alignment. */
    ck_eval_ctx built = *ctx;
    const ck_type *dt = ck_array_type(dst);
    const ck_type *st[CK_CALL_MAX_ARGS];
    const char *sam[CK_CALL_MAX_ARGS];
    for (int i = 0; i < nsrc; i++) {
        st[i] = ck_array_type(src[i]);
        sam[i] = ck_array_arrmeta(src[i]);
        if ((uintptr_t)ck_array_data(src[i]) % ck_type_data_alignment(st[i]) != 0) {
            built.flags |= CK_EVAL_SRC_UNALIGNED;
        }
    }
    if ((uintptr_t)ck_array_data(dst) % ck_type_data_alignment(dt) != 0) {
        built.flags |= CK_EVAL_DST_UNALIGNED;
    }
    size_t off = 0;
    const char *dam = ck_array_arrmeta(dst);
    int rc = c != NULL   ? ck_make_call(&e->builder, &off, c, dt, dam, nsrc, st, sam,
                                        CK_REQUEST_SINGLE, &built)
             : x != NULL ? ck_make_expr(&e->builder, &off, x, dt, dam, nsrc, NULL, st, sam,
                                        CK_REQUEST_SINGLE, &built)
                         : ck_make_assign(&e->builder, &off, dt, dam, st[0], sam[0],
                                          CK_REQUEST_SINGLE, &built);
    if (rc != CK_OK) { /* the uncached run builds it again and reports why */
        ck_builder_destroy(&e->builder);
        PyMem_Free(e);
        return NULL;
    }
    misses++;
    if (c != NULL) {
        ck_callable_incref(c);
        e->callable = c;
    }
    if (x != NULL) {
        ck_expr_incref(x);
        e->expr = x;
    }
    e->result_typenum = PyArray_TYPE(dst_nd);
    e->result_nd = PyArray_NDIM(dst_nd);
    e->result_align = ck_type_data_alignment(dt);
    for (int i = 0; i < e->result_nd; i++) { /* (a 0-d array has no dims to copy) */
        e->result_dims[i] = PyArray_DIM(dst_nd, i);
    }
    const int slot = (int)(next_victim++ % CACHE_SLOTS);
    evict(slot);
    slots[slot] = e;
    return e;
}

PyObject *ckpy_cache_new_result(const ckpy_kernel *e) {
    PyObject *r = PyArray_SimpleNew(e->result_nd, e->result_dims, e->result_typenum);
    /* The kernel was built for an aligned result, and NumPy aligns what it allocates. */
    if (r != NULL && (uintptr_t)PyArray_BYTES((PyArrayObject *)r) % e->result_align != 0) {
        Py_DECREF(r);
        return ckpy_raise(CK_ERR_INTERNAL, "NumPy allocated a misaligned result");
    }
    return r;
}

int ckpy_cache_run(ckpy_kernel *e, char *dst, char *const *src) {
    e->users++;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = ck_call_single(ck_builder_root(&e->builder), dst, src);
    Py_END_ALLOW_THREADS
    if (--e->users == 0 && e->evicted) {
        kernel_free(e);
    }
    return rc;
}
