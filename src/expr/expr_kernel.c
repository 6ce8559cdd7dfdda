/* src/expr/expr_kernel.c: the expression kernel, the leaf the composition walk puts at the
 * bottom of an expression's tree. It runs the planned nodes as steps over chunks of at most
 * CK__EXPR_MAX_CHUNK elements: each step is a node's own leaf (a call's leaf with its argument
 * casts, built by the callables' ck__call_leaf_build, or a cast's assignment leaf) run over
 * the chunk, reading the walk's sources, earlier steps' results in stack scratch, or
 * constants held in the kernel, and writing scratch or, for the last step, the destination.
 * Scratch is CK__EXPR_SCRATCH bytes of stack, shared by slots that a step frees when its
 * result's last reader has run, so the kernel stays immutable and thread-safe.
 *   layout: {ck__expr_kernel} {ck__expr_step x nsteps} {16-byte constants} {children}
 * An expression of literals only is under a wrapper, {ck_prefix} {child}, that passes the
 * walk its one 0-d source, which no node reads. */
#include <stdatomic.h>
#include <string.h>

#include "builders/compose.h"
#include "common/internal.h"
#include "expr/expr_internal.h"
#include "core/kinds.h"
#include "core/streaming_loops.h"
#include "types/type_internal.h"

#define CK__EXPR_SCRATCH 8192
#define CK__EXPR_MAX_CHUNK 1024
/* Each slot gets at least 64 bytes (4 elements of 16 bytes): at most 128 slots. */
#define CK__EXPR_MAX_SLOTS (CK__EXPR_SCRATCH / 64)

enum { REF_SRC = 0, REF_SLOT = 1, REF_CONST = 2 };

/* Where a step reads an operand: source `where` of the walk, scratch at byte `where`
 * (elements of `size` bytes), or a constant `where` bytes behind the kernel (stride 0). */
typedef struct ck__expr_ref {
    uint8_t kind, size;
    uint16_t pad;
    uint32_t where;
} ck__expr_ref;

typedef struct ck__expr_step {
    uint32_t child;  /* its leaf, relative to the kernel; 0 until built */
    uint32_t column; /* of its node in the text, for messages */
    int32_t out;     /* scratch byte offset of its result; -1: the destination */
    uint16_t nargs, out_size;
    ck__expr_ref arg[CK_CALL_MAX_ARGS];
} ck__expr_step;

typedef struct ck__expr_kernel {
    ck_prefix base;
    uint32_t nsteps;
    uint32_t chunk; /* elements per chunk */
    uint32_t slots;      /* scratch slots used */
    uint32_t slot_bytes; /* bytes between two slots */
    uint32_t dst_size;
    /* A destination above the streaming threshold (the walk's CK__EVAL_STREAM): the last
     * step writes each chunk into a stack buffer that this loop streams out; NULL: never. */
    ck__stream_copy_fn stream;
} ck__expr_kernel;

#define CK__EXPR_STEPS CK_ALIGN_OFFSET(sizeof(ck__expr_kernel))

static ck__expr_step *steps_of(ck_prefix *self) {
    return (ck__expr_step *)(void *)((char *)self + CK__EXPR_STEPS);
}

static void expr_destroy(ck_prefix *self) {
    const ck__expr_kernel *k = (const ck__expr_kernel *)self;
    const ck__expr_step *s = steps_of(self);
    for (uint32_t i = 0; i < k->nsteps; i++) {
        if (s[i].child != 0) {
            ck_prefix_destroy(ck_child(self, s[i].child));
        }
    }
}

/* The steps over count elements, chunk by chunk. With `out` (a streaming kernel's buffer of
 * a chunk), the last step of a chunk writes `out`, which is then streamed to the contiguous
 * destination; the chunks are the same either way, so a node's message is too. */
static inline int expr_run(ck_prefix *self, char *dst, intptr_t dst_stride, char *const *src,
                           const intptr_t *src_stride, size_t count, char *out) {
    const ck__expr_kernel *k = (const ck__expr_kernel *)self;
    const ck__expr_step *steps = steps_of(self);
    _Alignas(64) char scratch[CK__EXPR_SCRATCH];
    for (size_t done = 0; done < count;) {
        const size_t n = count - done < k->chunk ? count - done : k->chunk;
        char *d = dst + (intptr_t)done * dst_stride;
        for (uint32_t i = 0; i < k->nsteps; i++) {
            const ck__expr_step *s = &steps[i];
            char *p[CK_CALL_MAX_ARGS];
            intptr_t ps[CK_CALL_MAX_ARGS];
            for (uint32_t j = 0; j < s->nargs; j++) {
                const ck__expr_ref *r = &s->arg[j];
                if (r->kind == REF_SRC) {
                    ps[j] = src_stride[r->where];
                    p[j] = src[r->where] + (intptr_t)done * ps[j];
                } else if (r->kind == REF_SLOT) {
                    ps[j] = r->size;
                    p[j] = scratch + r->where;
                } else {
                    ps[j] = 0;
                    p[j] = (char *)self + r->where;
                }
            }
            ck_prefix *leaf = ck_child(self, s->child);
            int rc;
            if (s->out >= 0) {
                rc = ck_call_strided(leaf, scratch + s->out, (intptr_t)s->out_size, p, ps, n);
            } else if (out == NULL) {
                rc = ck_call_strided(leaf, d, dst_stride, p, ps, n);
            } else {
                rc = ck_call_strided(leaf, out, dst_stride, p, ps, n);
                if (CK__UNLIKELY(rc != CK_OK)) { /* again, in place: its writes, its error */
                    rc = ck_call_strided(leaf, d, dst_stride, p, ps, n);
                } else {
                    ck__stream_out(k->stream, d, out, n * k->dst_size);
                }
            }
            if (CK__UNLIKELY(rc != CK_OK)) {
                ck__error_offset_outer(rc, (intptr_t)done); /* elements count in the run */
                ck__error_prefix(rc, "expression column %u: ", s->column);
                return rc;
            }
        }
        done += n;
    }
    return CK_OK;
}

static CK__KERNEL_ALIGN int expr_strided(ck_prefix *self, char *dst, intptr_t dst_stride,
                                         char *const *src, const intptr_t *src_stride,
                                         size_t count) {
    return expr_run(self, dst, dst_stride, src, src_stride, count, NULL);
}

/* Short or strided runs are not streamed: a few lines gain nothing. */
static CK__KERNEL_ALIGN int expr_strided_streamed(ck_prefix *self, char *dst,
                                                  intptr_t dst_stride, char *const *src,
                                                  const intptr_t *src_stride, size_t count) {
    const ck__expr_kernel *k = (const ck__expr_kernel *)self;
    if (dst_stride != (intptr_t)k->dst_size || count * k->dst_size < CK__STREAM_MIN_RUN_BYTES) {
        return expr_run(self, dst, dst_stride, src, src_stride, count, NULL);
    }
    _Alignas(CK__STREAM_LINE) char out[CK__EXPR_MAX_CHUNK * 16];
    const int rc = expr_run(self, dst, dst_stride, src, src_stride, count, out);
    ck__stream_fence();
    return rc;
}

static CK__KERNEL_ALIGN int expr_single(ck_prefix *self, char *dst, char *const *src) {
    static const intptr_t zero[CK_CALL_MAX_ARGS] = {0};
    return expr_strided(self, dst, 0, src, zero, 1);
}

static void expr_describe(const ck_prefix *self, ck_describer *d) {
    const ck__expr_kernel *k = (const ck__expr_kernel *)self;
    const ck__expr_step *steps = steps_of((ck_prefix *)(uintptr_t)self);
    ck_describe_printf(d, "steps=%u chunk=%u slots=%u%s:", k->nsteps, k->chunk, k->slots,
                       k->stream != NULL ? " streamed" : "");
    for (uint32_t i = 0; i < k->nsteps; i++) {
        const ck__expr_step *s = &steps[i];
        ck_describe_printf(d, "%s (", i > 0 ? ";" : "");
        for (uint32_t j = 0; j < s->nargs; j++) {
            const ck__expr_ref *r = &s->arg[j];
            const char *sep = j > 0 ? ", " : "";
            if (r->kind == REF_SRC) {
                ck_describe_printf(d, "%ssrc%u", sep, r->where);
            } else if (r->kind == REF_SLOT) {
                ck_describe_printf(d, "%st%u", sep, r->where / k->slot_bytes);
            } else {
                ck_describe_printf(d, "%sconst", sep);
            }
        }
        if (s->out < 0) {
            ck_describe_printf(d, ") -> dst");
        } else {
            ck_describe_printf(d, ") -> t%u", (uint32_t)s->out / k->slot_bytes);
        }
    }
    for (uint32_t i = 0; i < k->nsteps; i++) {
        ck_describe_child(d, steps[i].child);
    }
}

/* {ck_prefix} {child}: the child is the expression's kernel over one 0-d source, which no node
 * reads; the wrapper passes its own address as that source, so its callers pass none. */
typedef struct ck__expr_noargs_kernel {
    ck_prefix base;
} ck__expr_noargs_kernel;

#define CK__EXPR_NOARGS_CHILD CK_ALIGN_OFFSET(sizeof(ck__expr_noargs_kernel))

static void noargs_destroy(ck_prefix *self) {
    ck_prefix_destroy(ck_child(self, CK__EXPR_NOARGS_CHILD));
}

static CK__KERNEL_ALIGN int noargs_single(ck_prefix *self, char *dst, char *const *src) {
    (void)src;
    char *const one[1] = {(char *)self};
    return ck_call_single(ck_child(self, CK__EXPR_NOARGS_CHILD), dst, one);
}

static CK__KERNEL_ALIGN int noargs_strided(ck_prefix *self, char *dst, intptr_t dst_stride,
                                           char *const *src, const intptr_t *src_stride,
                                           size_t count) {
    (void)src;
    (void)src_stride;
    char *const one[1] = {(char *)self};
    static const intptr_t zero[1] = {0};
    return ck_call_strided(ck_child(self, CK__EXPR_NOARGS_CHILD), dst, dst_stride, one, zero,
                           count);
}

static void noargs_describe(const ck_prefix *self, ck_describer *d) {
    (void)self;
    ck_describe_printf(d, "literals only");
    ck_describe_child(d, CK__EXPR_NOARGS_CHILD);
}

/* The kinds (the expr kernel, the literals-only wrapper), registered once for
 * ck_kernel_describe and `ckernel explain`. */
static int register_kind(void) {
    static atomic_int done;
    if (atomic_load_explicit(&done, memory_order_acquire)) {
        return CK_OK;
    }
    const ck_kernel_kind kinds[3] = {
        {"expr", expr_single, expr_strided, sizeof(ck__expr_kernel), expr_describe},
        {"expr", expr_single, expr_strided_streamed, sizeof(ck__expr_kernel), expr_describe},
        {"expr_literals", noargs_single, noargs_strided, sizeof(ck__expr_noargs_kernel),
         noargs_describe}};
    for (int i = 0; i < 3; i++) {
        CK__RETURN_IF_ERROR(ck_kernel_kind_register(&kinds[i]));
    }
    atomic_store_explicit(&done, 1, memory_order_release);
    return CK_OK;
}

/* ---- building ---- */

static int is_step(const ck__expr_plan *pl, int i) {
    return pl->e->nodes[i].kind != CK__EXPR_ARG && !pl->nodes[i].is_const;
}

/* An argument or a constant at the root (literals only), or a cast at the root to another
 * type than the destination's, is assigned to the destination by one more step. */
static int root_extra_step(const ck__expr_plan *pl, const ck_type *dt) {
    const ck__expr_node *nd = &pl->e->nodes[pl->e->nnodes - 1];
    return nd->kind == CK__EXPR_ARG || pl->nodes[pl->e->nnodes - 1].is_const ||
           (nd->kind == CK__EXPR_CAST && nd->type != dt->id);
}

/* Each step's result gets a free slot, taken before its operands' slots are given back (so a
 * leaf never writes what it reads); a slot is free again once its last reader has run.
 * Counts the steps, the constants and the slots, and finds the widest element in a slot. */
static int assign_slots(const ck__expr_plan *pl, const ck_type *dt, int *nsteps, int *nconst,
                        int *nslots, size_t *widest) {
    const ck_expr *e = pl->e;
    const int root = e->nnodes - 1, extra = root_extra_step(pl, dt);
    for (int i = 0; i < e->nnodes; i++) {
        pl->nodes[i].last_use = -1;
        pl->nodes[i].slot = -1;
    }
    for (int i = 0; i < e->nnodes; i++) {
        const ck__expr_node *nd = &e->nodes[i];
        for (int k = 0; is_step(pl, i) && k < pl->nodes[i].nops; k++) {
            pl->nodes[e->operands[nd->first + k]].last_use = i;
        }
    }
    int free_slots[CK__EXPR_MAX_SLOTS];
    int nfree = 0, n = 0, steps = extra, consts = extra && pl->nodes[root].is_const;
    size_t wide = 0;
    for (int i = 0; i < e->nnodes; i++) {
        if (!is_step(pl, i)) {
            continue;
        }
        steps++;
        ck__expr_pnode *pn = &pl->nodes[i];
        const ck__expr_node *nd = &e->nodes[i];
        if (i != root || extra) {
            if (nfree > 0) {
                pn->slot = free_slots[--nfree];
            } else if (n == CK__EXPR_MAX_SLOTS) {
                return ck_set_error(CK_ERR_UNSUPPORTED,
                                    "expression column %d: more than %d intermediate results "
                                    "would be held at once; split the expression",
                                    nd->column, CK__EXPR_MAX_SLOTS);
            } else {
                pn->slot = n++;
            }
            const size_t size = ck_type_data_size(ck_type_scalar(pn->type));
            wide = size > wide ? size : wide;
        }
        for (int k = 0; k < pn->nops; k++) {
            const int o = e->operands[nd->first + k];
            consts += pl->nodes[o].is_const;
            /* An operand read twice by this step is given back once. */
            int again = 0;
            for (int j = 0; j < k; j++) {
                again |= e->operands[nd->first + j] == o;
            }
            if (pl->nodes[o].slot >= 0 && pl->nodes[o].last_use == i && !again) {
                free_slots[nfree++] = pl->nodes[o].slot;
            }
        }
    }
    *nsteps = steps;
    *nconst = consts;
    *nslots = n;
    *widest = wide;
    return CK_OK;
}

/* Builds one step's leaf at *offset: node i (or, with `extra`, the root's last assignment)
 * writing the destination (dt, dbits) or its slot. */
static int build_step(const ck__compose *c, const ck__expr_plan *pl, ck_builder *ckb,
                      size_t *offset, size_t at, int idx, int i, int extra, const ck_type *dt,
                      const ck_type *const *st, unsigned flags, uintptr_t dbits,
                      const uintptr_t *sbits, uint32_t slot_bytes, size_t const_at,
                      int *next_const) {
    const ck_expr *e = pl->e;
    const ck__expr_node *nd = &e->nodes[i];
    const ck__expr_pnode *pn = &pl->nodes[i];
    const int root = e->nnodes - 1;
    ck__expr_step step;
    memset(&step, 0, sizeof step);
    step.column = (uint32_t)nd->column;
    const ck_type *ot[CK_CALL_MAX_ARGS];
    uintptr_t ob[CK_CALL_MAX_ARGS];
    /* The extra step reads the root itself; any other reads the node's operands. */
    const int nops = extra ? 1 : pn->nops;
    for (int k = 0; k < nops; k++) {
        const int o = extra ? i : e->operands[nd->first + k];
        const ck__expr_pnode *on = &pl->nodes[o];
        ck__expr_ref *r = &step.arg[k];
        ob[k] = 0;
        if (on->is_const) {
            /* A call's operand as its signature's type; a constant root (extra) as itself. */
            r->kind = REF_CONST;
            r->where = (uint32_t)(const_at + 16 * (size_t)*next_const);
            ot[k] = ck_type_scalar(extra ? on->type : pn->call.entry->sig.args[k]);
            memcpy(ck_builder_at(ckb, at + r->where), extra ? on->value : pn->opval[k], 16);
            ++*next_const;
        } else if (e->nodes[o].kind == CK__EXPR_ARG) {
            r->kind = REF_SRC;
            r->where = (uint32_t)on->src;
            ot[k] = st[on->src];
            ob[k] = sbits[on->src];
        } else {
            r->kind = REF_SLOT;
            r->where = (uint32_t)on->slot * slot_bytes;
            ot[k] = ck_type_scalar(on->type);
            r->size = (uint8_t)ot[k]->data_size;
        }
    }
    step.nargs = (uint16_t)nops;
    const int to_dst = extra || (i == root && !root_extra_step(pl, dt));
    const ck_type *out_t = to_dst ? dt : ck_type_scalar(pn->type);
    step.out = to_dst ? -1 : (int32_t)((uint32_t)pn->slot * slot_bytes);
    step.out_size = (uint16_t)out_t->data_size;
    const uintptr_t ob_dst = to_dst ? dbits : 0;
    /* The child's zeroed prefix is reserved before the kernel's destructor can reach it. */
    *offset = CK_ALIGN_OFFSET(*offset);
    CK__RETURN_IF_ERROR(ck_builder_reserve(ckb, *offset));
    step.child = (uint32_t)(*offset - at);
    memcpy(steps_of((ck_prefix *)ck_builder_at(ckb, at)) + idx, &step, sizeof step);
    if (!extra && nd->kind == CK__EXPR_CALL) {
        return ck__call_leaf_build(&pn->call, c->mode, ckb, offset, out_t, ot, CK_REQUEST_STRIDED,
                                   flags, ob_dst, ob);
    }
    return ck__make_assign_leaf(ckb, offset, out_t, ot[0], c->mode, CK_REQUEST_STRIDED, flags,
                                ob_dst, ob[0]);
}

int ck__expr_leaf(const ck__compose *c, ck_builder *ckb, size_t *offset, const ck_type *dt,
                  const ck_type *const *st, ck_request req, unsigned flags, uintptr_t dst_bits,
                  const uintptr_t *src_bits) {
    const ck__expr_plan *pl = (const ck__expr_plan *)c->leaf_data;
    const ck_expr *e = pl->e;
    for (int k = 0; k < c->nsrc; k++) {
        if (st[k]->id != pl->src_id[k]) {
            return ck_set_error(CK_ERR_INTERNAL, "expression: source %d is %s at the leaf, %s "
                                                 "when planned",
                                k, ck_type_id_name(st[k]->id), ck_type_id_name(pl->src_id[k]));
        }
    }
    CK__RETURN_IF_ERROR(register_kind());
    int nsteps = 0, nconst = 0, nslots = 0;
    size_t widest = 1;
    CK__RETURN_IF_ERROR(assign_slots(pl, dt, &nsteps, &nconst, &nslots, &widest));
    /* Slots of equal size, whole cache lines; chunks of whole vectors where they can be. */
    uint32_t slot_bytes = 64, chunk = CK__EXPR_MAX_CHUNK;
    if (nslots > 0) {
        slot_bytes = (uint32_t)(CK__EXPR_SCRATCH / (size_t)nslots) & ~63u;
        const size_t fit = slot_bytes / widest;
        chunk = (uint32_t)(fit < CK__EXPR_MAX_CHUNK ? fit : CK__EXPR_MAX_CHUNK);
        chunk = chunk >= 16 ? chunk & ~15u : chunk;
    }
    /* The operands' misalignment goes into the bits: scratch and constants are aligned. */
    uintptr_t sbits[CK_CALL_MAX_ARGS];
    for (int k = 0; k < c->nsrc; k++) {
        sbits[k] = src_bits[k] | ((flags & CK_EVAL_SRC_UNALIGNED) != 0);
    }
    const uintptr_t dbits = dst_bits | ((flags & CK_EVAL_DST_UNALIGNED) != 0);
    const unsigned step_flags =
        flags & ~(unsigned)(CK_EVAL_SRC_UNALIGNED | CK_EVAL_DST_UNALIGNED | CK__EVAL_STREAM);
    ck__stream_copy_fn stream = NULL;
    if ((flags & CK__EVAL_STREAM) != 0 && dt->data_size <= 16) {
        CK__RETURN_IF_ERROR(ck__streaming_copy_loop(&stream));
    }
    const size_t at = *offset;
    const size_t const_at = CK__EXPR_STEPS + (size_t)nsteps * sizeof(ck__expr_step);
    const size_t end = const_at + 16 * (size_t)nconst;
    CK__RETURN_IF_ERROR(ck_builder_reserve(ckb, at + end));
    ck__expr_kernel *k = (ck__expr_kernel *)ck_builder_at(ckb, at);
    k->base.destructor = expr_destroy;
    ck_prefix_set_function(&k->base, req, expr_single,
                           stream != NULL ? expr_strided_streamed : expr_strided);
    k->stream = stream;
    k->dst_size = (uint32_t)dt->data_size;
    k->nsteps = (uint32_t)nsteps;
    k->chunk = chunk;
    k->slots = (uint32_t)nslots;
    k->slot_bytes = slot_bytes;
    *offset = at + end;
    int idx = 0, next_const = 0;
    for (int i = 0; i < e->nnodes; i++) {
        if (is_step(pl, i)) {
            CK__RETURN_IF_ERROR(build_step(c, pl, ckb, offset, at, idx++, i, 0, dt, st, step_flags,
                                          dbits, sbits, slot_bytes, const_at, &next_const));
        }
    }
    if (root_extra_step(pl, dt)) {
        CK__RETURN_IF_ERROR(build_step(c, pl, ckb, offset, at, idx, e->nnodes - 1, 1, dt, st,
                                      step_flags, dbits, sbits, slot_bytes, const_at,
                                      &next_const));
    }
    return CK_OK;
}

/* An expression of literals only (the wrapper above). */
int ck__expr_noargs(ck_builder *ckb, size_t *offset, ck_request req) {
    CK__RETURN_IF_ERROR(register_kind());
    const size_t at = *offset;
    /* The child's zeroed prefix is reserved with the wrapper, before its destructor can run. */
    CK__RETURN_IF_ERROR(ck_builder_reserve(ckb, at + CK__EXPR_NOARGS_CHILD + sizeof(ck_prefix)));
    ck__expr_noargs_kernel *k = (ck__expr_noargs_kernel *)ck_builder_at(ckb, at);
    k->base.destructor = noargs_destroy;
    ck_prefix_set_function(&k->base, req, noargs_single, noargs_strided);
    *offset = at + CK__EXPR_NOARGS_CHILD;
    return CK_OK;
}
