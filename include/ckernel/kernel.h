/* ckernel/kernel.h: the kernel ABI (pinned; see docs/kernels.md).
 * A ckernel is a tree of structs packed into one buffer. Each struct starts with a
 * ck_prefix: the function to call and the destructor. Children sit at offsets behind their
 * parent; kernel data never holds a pointer into the buffer, so the buffer may move. */
#ifndef CKERNEL_KERNEL_H
#define CKERNEL_KERNEL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ckernel/export.h"
#include "ckernel/status.h"

CK_BEGIN_DECLS

typedef struct ck_prefix ck_prefix;

/* Releases what the kernel at `self` owns, including its children. Must accept any
 * partially built (zero-initialised) state. */
typedef void (*ck_destructor_fn)(ck_prefix *self);
/* One element: dst <- f(src[0], ...). Returns CK_OK or a status (details in ck_last_error). */
typedef int (*ck_single_fn)(ck_prefix *self, char *dst, char *const *src);
/* `count` elements; element i is at dst + i*dst_stride and src[k] + i*src_stride[k]. */
typedef int (*ck_strided_fn)(ck_prefix *self, char *dst, intptr_t dst_stride,
                             char *const *src, const intptr_t *src_stride, size_t count);

struct ck_prefix {
    void *function;              /* a ck_single_fn or ck_strided_fn, per the request */
    ck_destructor_fn destructor; /* NULL when there is nothing to release */
};

typedef enum ck_request { CK_REQUEST_SINGLE = 0, CK_REQUEST_STRIDED = 1 } ck_request;

/* Children start on 8-byte boundaries. */
#define CK_ALIGN_OFFSET(off) (((size_t)(off) + (size_t)7) & ~(size_t)7)

/* ISO C has no conversion between function and object pointers; the function is stored in
 * the `void *` slot by copying its representation, which every ckernel platform supports
 * (POSIX requires it). The memcpy compiles to a single move. */
typedef char ck__fn_fits_in_prefix[(sizeof(ck_single_fn) == sizeof(void *) &&
                                    sizeof(ck_strided_fn) == sizeof(void *)) ? 1 : -1];

static inline void ck_prefix_set_single(ck_prefix *self, ck_single_fn fn) {
    memcpy(&self->function, &fn, sizeof fn);
}
static inline void ck_prefix_set_strided(ck_prefix *self, ck_strided_fn fn) {
    memcpy(&self->function, &fn, sizeof fn);
}
/* Stores the one of the two functions that `req` asks for. */
static inline void ck_prefix_set_function(ck_prefix *self, ck_request req, ck_single_fn single,
                                          ck_strided_fn strided) {
    if (req == CK_REQUEST_STRIDED) {
        ck_prefix_set_strided(self, strided);
    } else {
        ck_prefix_set_single(self, single);
    }
}
static inline ck_single_fn ck_prefix_single(const ck_prefix *self) {
    ck_single_fn fn;
    memcpy(&fn, &self->function, sizeof fn);
    return fn;
}
static inline ck_strided_fn ck_prefix_strided(const ck_prefix *self) {
    ck_strided_fn fn;
    memcpy(&fn, &self->function, sizeof fn);
    return fn;
}

/* Runs the destructor of the kernel at `self`, if any. NULL-safe in both senses. */
static inline void ck_prefix_destroy(ck_prefix *self) {
    if (self != NULL && self->destructor != NULL) {
        self->destructor(self);
    }
}

/* The child kernel `rel_offset` bytes behind `self` (offsets are relative to the parent). */
static inline ck_prefix *ck_child(ck_prefix *self, size_t rel_offset) {
    return (ck_prefix *)((char *)self + rel_offset);
}

static inline int ck_call_single(ck_prefix *self, char *dst, char *const *src) {
    return ck_prefix_single(self)(self, dst, src);
}
static inline int ck_call_strided(ck_prefix *self, char *dst, intptr_t dst_stride,
                                  char *const *src, const intptr_t *src_stride, size_t count) {
    return ck_prefix_strided(self)(self, dst, dst_stride, src, src_stride, count);
}

CK_END_DECLS

#endif
