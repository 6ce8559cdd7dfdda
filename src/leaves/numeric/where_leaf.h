/* src/leaves/numeric/where_leaf.h: the select leaves of the built-in `where` (where.c):
 * dst = cond ? a : b over (bool, T, T) -> T for every scalar type T. */
#ifndef CKERNEL_WHERE_LEAF_H
#define CKERNEL_WHERE_LEAF_H

#include "ckernel/builder.h"
#include "ckernel/kernel.h"
#include "ckernel/types.h"
#include "common/strbuf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The leaf of type id, a bare prefix at *offset. */
int ck__make_where_leaf(ck_builder *ckb, size_t *offset, ck_type_id id, ck_request req);
/* "where int32|uint32|float32 strided" and 1 for its leaves, else 0. */
int ck__where_leaf_describe(const void *fn, ck__strbuf *out);

#ifdef __cplusplus
}
#endif

#endif
