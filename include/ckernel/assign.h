/* ckernel/assign.h: assignment kernels. ck_make_assign builds, into a ck_builder, one kernel
 * that assigns data of one type (with its arrmeta) to another: casts with checked error
 * modes, broadcasting of fixed and var dimensions, reads and writes through pointers,
 * unaligned data. ck_assign does build + run + destroy for two arrays. */
#ifndef CKERNEL_ASSIGN_H
#define CKERNEL_ASSIGN_H

#include <stddef.h>

#include "ckernel/array.h"
#include "ckernel/builder.h"
#include "ckernel/eval.h"
#include "ckernel/kernel.h"
#include "ckernel/types.h"

CK_BEGIN_DECLS

/* Builds at *offset in ckb the kernel for dst <- src and advances *offset past it. The kernel
 * is called with the data pointers of one dst element and one src element (single request)
 * or strided over many (strided request). Fixed-dimension shapes are checked here
 * (CK_ERR_BROADCAST names both shapes); var dimensions are checked when the kernel runs.
 * Memory blocks referenced by the arrmeta (var destinations allocate from theirs) are
 * referenced by the kernel, so the arrmeta may be released before the kernel is destroyed.
 * ectx NULL means CK_EVAL_CTX_INIT. On failure, destroy the builder. */
CK_EXTERN int ck_make_assign(ck_builder *ckb, size_t *offset, const ck_type *dst_tp,
                             const char *dst_arrmeta, const ck_type *src_tp,
                             const char *src_arrmeta, ck_request req, const ck_eval_ctx *ectx);

/* dst <- src for two whole arrays: builds on a stack builder, runs once, destroys. */
CK_EXTERN int ck_assign(const ck_array *dst, const ck_array *src, const ck_eval_ctx *ectx);

/* Describes the kernel tree rooted at `root`, one line per kernel, children indented:
 *     <kind> @<offset> +<bytes>  <function>  <parameters>
 * Free *out with ck_free. Kernels ckernel does not know (user factories) are shown with
 * their function address, without children. */
CK_EXTERN int ck_kernel_describe(const ck_prefix *root, char **out);

CK_END_DECLS

#endif
