/* src/parallel/parallel_reduce.c: ck_parallel_reduce, a reduction split across threads so
 * that its result is the serial kernel's, bit for bit, whatever the thread count:
 *   rows      the source's outermost dimension is kept (fixed on both sides): the kernel of
 *             one row is built once and the rows run in parallel (ck_parallel_strided), so
 *             each result element is folded by one thread exactly as serially;
 *   one run   every dimension is reduced and the source is one contiguous run (the serial
 *             kernel merges its dimensions into one) of the accumulator's own type, folded by
 *             a built-in: the run is cut into chunks of 2^9 blocks (65536 elements), whose
 *             partial folds run in parallel; float folds then finish the fixed tree on the
 *             calling thread (leaves/reduce/reduce_ops.h: chunks aligned to subtrees of the serial
 *             fold's tree), exact ones fold the partials in order;
 *   anything else runs serially (ck_reduce). */
#include <string.h>

#include "ckernel/arrmeta.h"
#include "ckernel/parallel.h"
#include "builders/assign_internal.h"
#include "callables/callable_internal.h"
#include "common/internal.h"
#include "core/kinds.h"
#include "leaves/reduce/reduce_ops.h"
#include "types/type_internal.h"

/* A chunk of the one-run split: 2^9 blocks. Fixed, never from the thread count: the tree's
 * shape, and so the bits, do not depend on how many threads there are. */
#define CK__PAR_CHUNK_LEVEL 9u
#define CK__PAR_CHUNK_BLOCKS ((size_t)1 << CK__PAR_CHUNK_LEVEL)
#define CK__PAR_CHUNK_ELEMS (CK__PAR_CHUNK_BLOCKS * CK__FOLD_BLOCK)
/* Each row task folds at least this many source bytes (the destination of a reduction is
 * small: the grain of ck_parallel_strided, in destination bytes, is scaled to it). */
#define CK__PAR_REDUCE_GRAIN ((size_t)1 << 18)

/* The chunk kernel: element i is chunk i of the run (src) and its partial (dst). */
typedef struct ck__chunk_kernel {
    ck_prefix base;
    const ck__fold_split *split; /* NULL: an exact fold */
    ck_prefix *acc_leaf;         /* the exact fold's accumulate leaf */
    intptr_t xs;
    size_t acc_size;
    unsigned char start[16];
} ck__chunk_kernel;

static int chunk_strided(ck_prefix *self, char *dst, intptr_t dst_stride, char *const *src,
                         const intptr_t *src_stride, size_t count) {
    const ck__chunk_kernel *k = (const ck__chunk_kernel *)self;
    char *x = src[0];
    for (size_t i = 0; i < count; i++, dst += dst_stride, x += src_stride[0]) {
        if (k->split != NULL) {
            k->split->chunk(x, k->xs, CK__PAR_CHUNK_BLOCKS, dst);
            continue;
        }
        memcpy(dst, k->start, k->acc_size);
        CK__RETURN_IF_ERROR(
            ck_call_strided(k->acc_leaf, dst, 0, &x, &k->xs, CK__PAR_CHUNK_ELEMS));
    }
    return CK_OK;
}

/* The one run of a source whose every dimension is reduced, when the serial kernel merges
 * them into one: its element count and stride (the same rule as the reduction walk's). */
static int one_run(const ck_type *st, const char *sam, size_t *n, intptr_t *stride) {
    intptr_t size = 1, inner_stride = 0, prev_size = -1, prev_stride = 0;
    while (st->id == CK_TYPE_FIXED_DIM) {
        const ck_fixed_dim_arrmeta *m = (const ck_fixed_dim_arrmeta *)(const void *)sam;
        if (prev_size >= 0) {
            intptr_t span;
            if (__builtin_mul_overflow(m->dim_size, m->stride, &span) || span != prev_stride) {
                return 0;
            }
        }
        if (__builtin_mul_overflow(size, m->dim_size, &size)) {
            return 0;
        }
        prev_size = m->dim_size;
        prev_stride = m->stride;
        inner_stride = m->stride;
        sam += sizeof(ck_fixed_dim_arrmeta);
        st = st->element;
    }
    if (!ck__id_is_scalar(st->id) || prev_size < 0) {
        return 0;
    }
    *n = (size_t)size;
    *stride = inner_stride;
    return 1;
}

static int parallel_run(const ck_array *dst, const ck_array *src, const ck_eval_ctx *ectx,
                        ck__arith_op op, ck_type_id acc_id, size_t n, intptr_t xs, int *done) {
    *done = 0;
    const size_t nchunks = n / CK__PAR_CHUNK_ELEMS;
    const int threads = ectx != NULL && ectx->max_threads > 0 ? ectx->max_threads
                                                               : ck_get_num_threads();
    const size_t acc_size = ck_type_data_size(ck_type_scalar(acc_id));
    if (threads < 2 || nchunks < 2 || n > CK__FOLD_BLOCK * CK__FOLD_MAX_BLOCKS) {
        return CK_OK;
    }
    ck__chunk_kernel k;
    memset(&k, 0, sizeof k);
    ck_prefix_set_strided(&k.base, chunk_strided);
    k.split = ck__fold_split_for(op, acc_id);
    k.xs = xs;
    k.acc_size = acc_size;
    ck__reduce_start_value(op, acc_id, k.start);
    ck_builder lb;
    ck_builder_init(&lb);
    int rc = CK_OK;
    if (k.split == NULL) {
        size_t off = 0;
        rc = ck__make_acc_leaf(&lb, &off, op, acc_id);
        k.acc_leaf = ck_builder_root(&lb);
    }
    const size_t part = k.split != NULL ? k.split->lanes_bytes : acc_size;
    char *parts = NULL;
    if (rc == CK_OK) {
        parts = (char *)ck_malloc(nchunks * part);
        rc = parts == NULL ? CK_ERR_NOMEM : CK_OK;
    }
    char *x = ck_array_data(src), *acc = ck_array_data(dst);
    if (rc == CK_OK) {
        static const ck_eval_ctx defaults = CK_EVAL_CTX_INIT;
        ck_eval_ctx ctx = ectx != NULL ? *ectx : defaults;
        ctx.grain_bytes = part; /* one chunk per task at least */
        const intptr_t chunk_stride = (intptr_t)CK__PAR_CHUNK_ELEMS * xs;
        rc = ck_parallel_strided(&k.base, parts, (intptr_t)part, &x, &chunk_stride, nchunks,
                                 &ctx);
    }
    if (rc == CK_OK) {
        char *tail = x + (intptr_t)(nchunks * CK__PAR_CHUNK_ELEMS) * xs;
        const size_t tail_n = n - nchunks * CK__PAR_CHUNK_ELEMS;
        memcpy(acc, k.start, acc_size);
        if (k.split != NULL) {
            k.split->finish(acc, parts, nchunks, CK__PAR_CHUNK_LEVEL, tail, xs, tail_n);
        } else {
            const intptr_t ps = (intptr_t)part;
            rc = ck_call_strided(k.acc_leaf, acc, 0, &parts, &ps, nchunks);
            if (rc == CK_OK) rc = ck_call_strided(k.acc_leaf, acc, 0, &tail, &xs, tail_n);
        }
        *done = rc == CK_OK;
    }
    ck_free(parts);
    ck_builder_destroy(&lb);
    return rc;
}

/* The rows case: the kernel of one row (the outer dimension kept), run over the rows. */
static int parallel_rows(const ck_reduce_spec *r, const ck_array *dst, const ck_array *src,
                         const ck_eval_ctx *ectx, uint64_t reduced, int *done) {
    *done = 0;
    const ck_type *dt = ck_array_type(dst), *st = ck_array_type(src);
    if (dt->id != CK_TYPE_FIXED_DIM || st->id != CK_TYPE_FIXED_DIM || (reduced & 1u) != 0) {
        return CK_OK;
    }
    const ck_fixed_dim_arrmeta *dm = (const ck_fixed_dim_arrmeta *)(const void *)ck_array_arrmeta(dst);
    const ck_fixed_dim_arrmeta *sm = (const ck_fixed_dim_arrmeta *)(const void *)ck_array_arrmeta(src);
    if (dm->dim_size != sm->dim_size || dm->dim_size < 2) {
        return CK_OK; /* the serial call reports a mismatch */
    }
    /* The axes of a row: the reduced ones, one dimension less. */
    int axes[64], naxes = 0;
    for (int d = 1; d < 64; d++) {
        if ((reduced >> d) & 1u) {
            axes[naxes++] = d - 1;
        }
    }
    if (naxes == 0) {
        return CK_OK; /* a cast: the serial call's business */
    }
    ck_reduce_spec rr = *r;
    rr.axes = axes;
    rr.naxes = naxes;
    static const ck_eval_ctx defaults = CK_EVAL_CTX_INIT;
    ck_eval_ctx ctx = ectx != NULL ? *ectx : defaults;
    /* Rows at dst + i*stride: say when one can be misaligned, as ck_reduce does. */
    ctx.flags |= ck__unaligned_flags(dt, (uintptr_t)ck_array_data(dst) | (uintptr_t)dm->stride,
                                     st, (uintptr_t)ck_array_data(src) | (uintptr_t)sm->stride);
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    int rc = ck__make_reduce_at(&b, &off, &rr, dt->element,
                                ck_array_arrmeta(dst) + sizeof(ck_fixed_dim_arrmeta),
                                st->element, ck_array_arrmeta(src) + sizeof(ck_fixed_dim_arrmeta),
                                CK_REQUEST_STRIDED, &ctx, 1);
    if (rc != CK_OK) {
        ck_builder_destroy(&b);
        return rc == CK_ERR_NOMEM ? rc : CK_OK; /* the serial call reports the rest */
    }
    /* The grain counts destination bytes: scale it so that a task folds enough source. */
    const size_t row_src = st->element->data_size != 0 ? st->element->data_size : 1;
    const size_t row_dst = dm->stride < 0 ? (size_t)-dm->stride : (size_t)dm->stride;
    const size_t grain = ectx != NULL && ectx->grain_bytes != 0 ? ectx->grain_bytes
                                                                : CK__PAR_REDUCE_GRAIN;
    const size_t rows = grain / row_src + 1;
    ctx.grain_bytes = rows * (row_dst != 0 ? row_dst : 1);
    char *s = ck_array_data(src);
    rc = ck_parallel_strided(ck_builder_root(&b), ck_array_data(dst), dm->stride, &s,
                             &sm->stride, (size_t)dm->dim_size, &ctx);
    ck_builder_destroy(&b);
    *done = 1;
    return rc;
}

int ck_parallel_reduce(const ck_reduce_spec *r, const ck_array *dst, const ck_array *src,
                       const ck_eval_ctx *ectx) {
    if (r == NULL || dst == NULL || src == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_parallel_reduce: NULL reduction or array");
    }
    if (ectx != NULL && ectx->max_threads < 0) {
        return ck_set_error(CK_ERR_INVALID,
                            "ck_parallel_reduce: max_threads is %d in the evaluation context; use "
                            "a positive count, or 0 for ck_get_num_threads()",
                            ectx->max_threads);
    }
    const ck_type *dt = ck_array_type(dst), *st = ck_array_type(src);
    const ck_type *dv = dt;
    while (!ck__id_is_scalar(dv->id) && dv->element != NULL) {
        dv = dv->element;
    }
    ck_type_id acc_id;
    int op = -1, done = 0;
    uint64_t reduced = 0;
    if (!ck__id_is_scalar(dv->id) ||
        ck__reduce_plan_info(r, st, (int)dv->id, ectx, &acc_id, &op, &reduced) != CK_OK) {
        return ck_reduce(r, dst, src, ectx); /* which reports what is wrong */
    }
    CK__RETURN_IF_ERROR(parallel_rows(r, dst, src, ectx, reduced, &done));
    if (done) {
        return CK_OK;
    }
    if (ectx != NULL && (ectx->flags & CK_EVAL_FP_ERRORS) != 0) {
        /* the one-run split folds outside the kernel, whose fp_flags read the errors: the
         * serial kernel's bits are the split's */
        return ck_reduce(r, dst, src, ectx);
    }
    size_t n = 0;
    intptr_t xs = 0;
    const int nd = ck_type_ndim(st);
    const uint64_t all = nd >= 64 ? UINT64_MAX : (UINT64_C(1) << nd) - 1u;
    const uintptr_t bits = (uintptr_t)ck_array_data(src) | (uintptr_t)ck_array_data(dst);
    if (op >= 0 && reduced == all && st->id == CK_TYPE_FIXED_DIM &&
        one_run(st, ck_array_arrmeta(src), &n, &xs) && dt->data_size == dv->data_size &&
        dv->id == acc_id) {
        const ck_type *sv = st;
        while (sv->id == CK_TYPE_FIXED_DIM) {
            sv = sv->element;
        }
        const size_t align = sv->data_alignment;
        if (sv->id == acc_id && ((bits | (uintptr_t)xs) & (align - 1)) == 0) {
            CK__RETURN_IF_ERROR(parallel_run(dst, src, ectx, (ck__arith_op)op, acc_id, n, xs,
                                            &done));
            if (done) {
                if (dt->id == CK_TYPE_OPTION) { /* a value is never NA (kinds/options/na_canon.c) */
                    ck__canon_na(acc_id, ck_array_data(dst), 0, 1);
                }
                return CK_OK;
            }
        }
    }
    return ck_reduce(r, dst, src, ectx);
}
