/* src/core/kinds.h: what the kernel layer shares: the factories of every kernel kind
 * (called by the composition in src/builders/assign.c) and the registry that lets a built
 * kernel tree be described (ck_kernel_describe). A factory that has a child builds only its
 * own struct and reserves the child's prefix, then advances *offset to where the caller
 * builds the child, with the request noted at each factory. */
#ifndef CKERNEL_KINDS_H
#define CKERNEL_KINDS_H

#include <stdint.h>
#include <string.h>

#include "ckernel/arrmeta.h"
#include "ckernel/builder.h"
#include "ckernel/callable.h"
#include "ckernel/eval.h"
#include "ckernel/kernel.h"
#include "ckernel/memblock.h"
#include "ckernel/types.h"
#include "common/strbuf.h"
#include "core/leaf_families.h"
#include "core/streaming_loops.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Copies one scalar element of `size` bytes (1, 2, 4, 8 or 16): a constant-size memcpy per
 * case compiles to one unaligned move, where a run-time size would be a library call. In a
 * loop the compiler hoists the switch out (loop unswitching at -O3). */
static inline void ck__copy_scalar(char *dst, const char *src, size_t size) {
    switch (size) {
    case 1: memcpy(dst, src, 1); return;
    case 2: memcpy(dst, src, 2); return;
    case 4: memcpy(dst, src, 4); return;
    case 8: memcpy(dst, src, 8); return;
    case 16: memcpy(dst, src, 16); return;
    default: memcpy(dst, src, size); return;
    }
}

/* ---- description ---- */
typedef struct ck__describe_ctx {
    ck__strbuf *out;
    const char *base; /* the root: offsets are printed relative to it */
} ck__describe_ctx;

/* The children a node lists when it is described: any number (a struct kernel has one per
 * field), their offsets relative to the node. The first failure to grow sticks. */
#define CK__CHILDREN_INLINE 18
typedef struct ck__children {
    size_t inline_offsets[CK__CHILDREN_INLINE];
    size_t *offsets; /* inline_offsets, or a heap block once they do not fit */
    size_t n, cap;
    int status;
} ck__children;
void ck__children_init(ck__children *c);
void ck__children_add(ck__children *c, size_t rel_offset);
void ck__children_free(ck__children *c);

/* One kind: how to recognise a node (by its function) and describe it. `describe` prints the
 * node's own parameters (after the common prefix of the line, without a newline), stores the
 * node's struct size, and adds its children's relative offsets. */
#define CK__MAX_CHILDREN 18 /* of call_args: its arguments' casts, the leaf and the result's */
typedef struct ck__kind {
    const char *name;
    ck_single_fn single;
    ck_strided_fn strided;
    void (*describe)(const ck_prefix *self, ck__strbuf *out, size_t *size,
                     ck__children *children);
} ck__kind;

/* The kind list: one row per kind the library builds, X(name) for ck__<name>_kind, defined
 * in the file named beside it. It declares the kinds here and is describe.c's table of
 * them: adding a kind is its file and one row. */
/* clang-format off */
#define CK__KIND_LIST(X) \
    X(strided_dim)          /* strided_dim.c */        \
    X(strided_dim_n)        /* strided_dim.c */        \
    X(var_dim)              /* var_dim.c */            \
    X(pointer_src)          /* pointer.c */            \
    X(pointer_dst)          /* pointer.c */            \
    X(pointer_gather)       /* pointer.c */            \
    X(pointer_gather_copy)  /* pointer.c */            \
    X(unaligned)            /* unaligned.c */          \
    X(tiled_2d)             /* tiled_2d.c */           \
    X(call_args)            /* call_args.c */          \
    X(streaming)            /* streaming.c */          \
    X(copy_bytes)           /* copy_bytes.c */         \
    X(fields)               /* fields.c */             \
    X(option)               /* option.c */             \
    X(is_na)                /* option.c */             \
    X(assign_na)            /* option.c */             \
    X(na_canon)             /* na_canon.c */           \
    X(reduce_dim)           /* reduce_dim.c */         \
    X(reduce_fill)          /* reduce_dim.c */         \
    X(reduce_fold)          /* reduce_dim.c */         \
    X(reduce_var_reset)     /* reduce_dim.c */         \
    X(reduce_var_grow)      /* reduce_dim.c */         \
    X(fold_rows)            /* fold_rows.c */          \
    X(reduce_option)        /* reduce_option.c */      \
    X(accumulate_dim)       /* accumulate_dim.c */     \
    X(reduce_scan)          /* accumulate_dim.c */     \
    X(scan_stream)          /* scan_stream.c */        \
    X(materialize)          /* materialize.c */        \
    X(option_scan)          /* option_scan.c */        \
    X(option_fill)          /* option_scan.c */        \
    X(dot)                  /* dot.c */                \
    X(matmul)               /* matmul.c */             \
    X(core_call)            /* core_call.c */          \
    X(text_cast)            /* text_cast.c */          \
    X(text_number)          /* text_number.c */        \
    X(text_compare)         /* text_compare.c */       \
    X(datetime_cast)        /* datetime_cast.c */      \
    X(datetime_arith)       /* datetime_cast.c */      \
    X(datetime_compare)     /* datetime_compare.c */   \
    X(datetime_text)        /* datetime_text.c */      \
    X(fp_check)             /* callables/fp_errors.c */ \
    X(fp_flags)             /* callables/fp_errors.c */
/* clang-format on */
#define CK__KIND_DECLARE(name) extern const ck__kind ck__##name##_kind;
CK__KIND_LIST(CK__KIND_DECLARE)

/* The root's guard (kinds/fp_env.c): when the kernel at [start, *end) was built at offset 0,
 * and flags lack CK_EVAL_HOST_FP_ENV, its root calls run in the IEEE default FP environment
 * (denormals flushed under CK_EVAL_FLUSH_DENORMALS): a root of the library's kinds gets its
 * kind's guarded function, any other moves behind a 16-byte fp_env kernel (*end grows).
 * The public makers call it last. ck__fp_env_unguarded: the node a description starts at
 * (the child of an fp_env kernel, else root) and *fn the function it stands for. */
int ck__fp_env_guard(ck_builder *ckb, size_t start, size_t *end, unsigned flags,
                     ck_request req);
const ck_prefix *ck__fp_env_unguarded(const ck_prefix *root, const void **fn);

/* Leaves (bare prefixes) are described by their families (core/leaf_families.h). */
int ck__scalar_leaf_describe(const void *fn, ck__strbuf *out);

/* ---- factories ---- */

/* A strided (fixed) dimension: `size` rows, one stride per source (nsrc of them, 1..16);
 * child: strided request. One source gets the 40-byte kernel of old; more get an N-ary one. */
int ck__make_strided_dim(ck_builder *ckb, size_t *offset, intptr_t size, intptr_t dst_stride,
                         int nsrc, const intptr_t *src_stride, ck_request req);

/* The two innermost fixed dimensions walked in tiles ([0] outer, [1] inner), for operands
 * contiguous along different dimensions (tiled_2d.c): the leaf converts each tile along
 * the source's contiguous axis into a stack buffer, which is transposed in registers into
 * the destination (`stream`: with non-temporal stores). Both sizes at least 1. Child:
 * strided request (a leaf writing aligned, contiguous dst_size-byte elements). When
 * `plain_cast` says the leaf is the assignment dst_id <- src_id, a copy of 4- or 8-byte
 * elements, int32 -> float64 and float32 -> float64 skip the buffer where the source is
 * contiguous along its axis and the destination along its own: transposed (and widened)
 * in registers straight from the source, the same bytes in every error mode. */
int ck__make_tiled_2d(ck_builder *ckb, size_t *offset, const intptr_t size[2],
                      const intptr_t dst_stride[2], const intptr_t src_stride[2],
                      ck_type_id dst_id, size_t dst_size, ck_type_id src_id, size_t src_size,
                      int plain_cast, int stream, ck_request req);

/* The streaming kernel (streaming.c) over an assignment leaf dst_id <- src_id, for a
 * destination above the streaming threshold. Child: strided request (the leaf, possibly
 * wrapped). ck__streaming_supported: 1 when this build and element size can stream. */
int ck__streaming_supported(size_t dst_size);
/* The streaming copy loop (whole 64-byte lines to an aligned destination, no fence) of the
 * CPU target kernels are built for now. */
int ck__streaming_copy_loop(ck__stream_copy_fn *out);
int ck__make_streaming(ck_builder *ckb, size_t *offset, ck_type_id dst_id, ck_type_id src_id,
                       size_t dst_size, size_t src_size, ck_errmode mode, ck_request req);
/* The same over any leaf of nsrc sources (a call's): always through the buffer. */
int ck__make_streaming_over(ck_builder *ckb, size_t *offset, size_t dst_size, int nsrc,
                            ck_request req);

/* A dimension where the destination or any source is ragged. Each side is var, fixed, or
 * (sources only) absent (broadcast). Child: strided request over the elements. */
typedef enum ck__dim_side { CK__DIM_VAR, CK__DIM_FIXED, CK__DIM_ABSENT } ck__dim_side;
typedef struct ck__var_side {
    ck__dim_side kind;
    intptr_t size;   /* fixed: the size */
    intptr_t stride; /* element stride */
    intptr_t offset; /* var: arrmeta offset */
} ck__var_side;
typedef struct ck__var_dim_params {
    ck__dim_side dst_kind;
    intptr_t dst_size, dst_stride, dst_offset;
    ck_memblock *dst_blockref; /* var destination: where to allocate (borrowed) */
    /* The bytes one destination element spans from its start under its arrmeta (its data
     * size in C order; more with a host's padded strides or field offsets), what a row
     * allocated here must give each element; dst_elem_before: the arrmeta reaches before
     * the element's start, so no row can be allocated for it. */
    size_t dst_elem_size, dst_elem_align;
    int dst_elem_before;
    int dim; /* the dimension's number in the whole destination type (0..63), for messages */
    int nsrc;
    ck__var_side src[16];
} ck__var_dim_params;
int ck__make_var_dim(ck_builder *ckb, size_t *offset, const ck__var_dim_params *p,
                     ck_request req);
/* Where a destination var row is allocated (var_dim.c; reductions' var kernels too): the
 * arena block, the arrmeta's offset (must be 0) and stride, and what an element needs
 * (ck__var_dim_params' dst_elem_*). */
typedef struct ck__var_row_spec {
    ck_memblock *blockref;
    intptr_t offset, stride;
    size_t elem_size, elem_align;
    int elem_before;
} ck__var_row_spec;
/* Allocates a row of n elements into *dv, or says why it cannot (a located error of "var
 * dimension <dim>"). */
int ck__var_row_allocate(const ck__var_row_spec *r, int dim, intptr_t n, ck_var_data *dv);

/* pointer[T] -> U (reads through the pointer stored in source `which` of nsrc) or
 * T -> pointer[U] (writes through the destination's). Child: single request; except with
 * `gather` (the byte size of a scalar T, 0 otherwise; one source only), when targets are
 * gathered in chunks and the child is a leaf built with the strided request. */
int ck__make_pointer_src(ck_builder *ckb, size_t *offset, intptr_t target_offset,
                         size_t gather, int nsrc, int which, ck_request req);
int ck__make_pointer_dst(ck_builder *ckb, size_t *offset, intptr_t target_offset, int nsrc,
                         ck_request req);
/* pointer[T] -> T for a scalar T of `size` bytes, one source: a leaf (no child) copying each
 * target straight into the destination (any alignment). */
int ck__make_pointer_gather_copy(ck_builder *ckb, size_t *offset, intptr_t target_offset,
                                 size_t size, ck_request req);

/* Copies misaligned elements through aligned stack chunks around a leaf; with `stream` (and
 * a buffered destination) a contiguous destination gets non-temporal stores of its whole
 * lines. Child: strided request over contiguous aligned elements. */
int ck__make_unaligned(ck_builder *ckb, size_t *offset, size_t dst_size, size_t src_size,
                       int buffer_dst, int buffer_src, int stream, ck_request req);

/* The argument kernel of a call (call_args.c): `arg_size[k]` is the byte size of argument
 * k's signature type when it is converted into scratch, 0 when it is passed through;
 * `out_size` likewise for the result. Advances *offset to where the leaf is built (child 0);
 * the caller then builds each cast child and records it with ck__call_args_set_child
 * (slot 1 + k for argument k, nargs + 1 for the result), `at` being the kernel's offset. */
int ck__make_call_args(ck_builder *ckb, size_t *offset, int nargs, const size_t *arg_size,
                       size_t out_size, ck_request req);
int ck__call_args_set_child(ck_builder *ckb, size_t at, int slot, size_t child_offset);

/* The text cast leaf (text_cast.c): a text kind <- a text kind, a number (an integer or
 * float type) <- text, or text <- a number. `dst_enc`/`src_enc` and the fixed kinds' N
 * (`*_units`) describe the text sides; a string or bytes destination allocates from
 * `dst_arena` (borrowed; the kernel takes a reference; CK_ERR_INVALID when it is not an
 * arena); `share`: a string <- string whose bytes are in that same arena copies the slot.
 * nsrc 2 (0 is 1): concat, the texts of two text sources one after the other (src2_*
 * describes the second). */
typedef struct ck__text_cast_spec {
    ck_type_id dst_id, src_id;
    int dst_enc, src_enc;
    size_t dst_units, src_units;
    ck_memblock *dst_arena;
    int share;
    ck_errmode mode;
    int nsrc;
    ck_type_id src2_id;
    int src2_enc;
    size_t src2_units;
    int dst_unit, src_unit; /* a datetime64 or timedelta64 side's unit */
    int refuse_na; /* the value of ?dst, checked: text whose bits are its NA is an overflow */
} ck__text_cast_spec;
int ck__make_text_cast(ck_builder *ckb, size_t *offset, const ck__text_cast_spec *spec,
                       ck_request req);
/* The spec of the text cast dst <- src from the operands where the walk reaches them, their
 * arrmeta included (leaves/text/family.c). */
int ck__text_cast_spec_of(const ck__cast_operands *ops, ck__text_cast_spec *spec);
/* The fast path of numbers <-> text (text_number.c), built first by ck__make_text_cast for
 * the pairs it serves (*made 1; the general leaf is then built as its child, single
 * request, where *offset was left); *made 0 and nothing built for the others. */
int ck__make_text_number(ck_builder *ckb, size_t *offset, const ck__text_cast_spec *spec,
                         ck_request req, int *made);

/* A text cast whose one side is datetime64 or timedelta64 (datetime_text.c): where the other
 * is a fixed text kind, the fast leaf over the text cast leaf (its child, for the elements it
 * cannot finish); else the text cast leaf itself. */
int ck__make_datetime_text(ck_builder *ckb, size_t *offset, const ck__text_cast_spec *spec,
                           ck_request req);

/* The datetime cast leaf (datetime_cast.c): dt <- st where one is datetime64 or timedelta64
 * and the other the same kind (any unit) or int64; CK_ERR_TYPE for other pairs. */
int ck__make_datetime_cast(ck_builder *ckb, size_t *offset, const ck_type *dt,
                           const ck_type *st, ck_errmode mode, ck_request req);
/* The leaf of add (subtract: 0) or subtract (1) on two datetime64/timedelta64 operands
 * st[0], st[1] whose result type is `res` (callables/time_call.c), written into dt (res's
 * kind, any unit res converts to). */
int ck__make_datetime_arith(ck_builder *ckb, size_t *offset, int subtract, const ck_type *res,
                            const ck_type *dt, const ck_type *const *st, ck_errmode mode,
                            ck_request req);

/* The leaf of a comparison (a ck__compare_op) of two datetime64 or two timedelta64 operands
 * a and b in any units (datetime_compare.c; a timedelta's Y or M meets only Y or M), a bool
 * result; CK_ERR_INTERNAL for other operands (callables/time_call.c refuses them first). */
int ck__make_datetime_compare(ck_builder *ckb, size_t *offset, int op, const ck_type *a,
                              const ck_type *b, ck_request req);
/* isnat's leaf (the same kind): whether a datetime64 or timedelta64 a is NaT, a bool. */
#define CK__DATETIME_ISNAT 255
int ck__make_datetime_isnat(ck_builder *ckb, size_t *offset, const ck_type *a, ck_request req);

/* The copy_bytes leaf (copy_bytes.c): `size` bytes per element, as they are; with `stream`,
 * a contiguous run of at least 256 bytes with non-temporal stores (ck__streaming_supported
 * must hold for 1-byte elements). */
int ck__make_copy_bytes(ck_builder *ckb, size_t *offset, size_t size, int stream,
                        ck_request req);

/* The fields kernel of tuples and structs (fields.c), in two steps: ck__make_fields builds
 * the parent with room for n entries and `name_bytes` of names (each name with its NUL),
 * leaving *offset where the first child goes; then, for each entry i in order,
 * ck__fields_set_entry reserves the child's prefix at child_offset and records it (the
 * name, if any, at byte name_at of the names), and the caller builds the child there with
 * the request the fields kernel was built with. `at`: the kernel's offset. */
typedef struct ck__field_spec {
    intptr_t dst_offset, src_offset;
    size_t dst_index;  /* the destination field's position */
    size_t run;        /* > 1: that many fields copied together as bytes; else 1 */
    const char *name;  /* the destination field's name, or NULL (tuples, runs) */
} ck__field_spec;
int ck__make_fields(ck_builder *ckb, size_t *offset, size_t n, size_t name_bytes,
                    ck_request req);
int ck__fields_set_entry(ck_builder *ckb, size_t at, size_t i, const ck__field_spec *spec,
                         size_t name_at, size_t child_offset);

/* The option kernel (option.c): builds itself and its is_na and assign_na children, and
 * leaves *offset where the caller builds the value child (strided request, over the value
 * types: a scalar dst_id and each source's value type); *at is the kernel's offset. */
#define CK__MAX_OPTION_SRC 16
typedef struct ck__option_spec {
    ck_type_id dst_id;
    int dst_option;  /* the destination is ?dst_id */
    int check;       /* checked mode and a conversion: a value equal to the NA is an overflow */
    int nsrc;
    ck_type_id src_id[CK__MAX_OPTION_SRC];
    int src_option[CK__MAX_OPTION_SRC];
    /* Text values (whose NA is every byte 0xff): the element's size; unused for the others. */
    size_t dst_size;
    size_t src_size[CK__MAX_OPTION_SRC];
} ck__option_spec;
int ck__make_option(ck_builder *ckb, size_t *offset, const ck__option_spec *spec,
                    ck_request req, size_t *at);

/* Kinds with several children keep their offsets (relative to themselves; 0: none) in
 * uint32_t fields (reduce_dim.c): destroy them, list them for a description, and record
 * one, given the field's offset in the kernel at `at` ("what" names the kind in the
 * message of an offset out of range). */
void ck__children_destroy(ck_prefix *self, const uint32_t *child, int n);
void ck__children_list(ck__children *children, const uint32_t *child, int n);
int ck__record_child(ck_builder *ckb, size_t at, size_t field, size_t child_offset,
                     const char *what);

/* The kernels of reductions (reduce_dim.c). reduce_dim, the outermost reduced dimension:
 * fixed (`size` elements) or var (rows at arrmeta `offset`), elements `src_stride` apart;
 * with `check_empty` (an operation without identity, `op` its ck__arith_op for the message)
 * a var row of zero elements is CK_ERR_INVALID. It leaves *offset after itself and *at at
 * itself; the caller builds its
 * children (strided request), the init child first if any (reserve its prefix, then
 * ck__reduce_dim_set_child(..., 1, ...)), then the fold child (..., 0, ...). */
typedef struct ck__reduce_dim_spec {
    ck__dim_side kind;
    intptr_t size, offset, src_stride;
    int check_empty, op, dim;
    int skip_first; /* the init child starts the accumulators from the first element; the
                     * fold takes the rest (a reduction without identity) */
} ck__reduce_dim_spec;
int ck__make_reduce_dim(ck_builder *ckb, size_t *offset, const ck__reduce_dim_spec *spec,
                        ck_request req, size_t *at);
int ck__reduce_dim_set_child(ck_builder *ckb, size_t at, int init, size_t child_offset);
/* The leaf writing `value` (16 bytes, of scalar type id) to each destination element; `na`:
 * the value is the NA of ?id (for the description). */
int ck__make_reduce_fill(ck_builder *ckb, size_t *offset, ck_type_id id,
                         const unsigned char value[16], int na, ck_request req);
/* dst = f(dst, src) over a binary leaf f, built by the caller at *offset afterwards (strided
 * request, two arguments). */
int ck__make_reduce_fold(ck_builder *ckb, size_t *offset, ck_request req);
/* A kept var dimension below the reduced one, in the init child: each destination row
 * becomes an allocated empty row (a leaf: what lies below starts when the row grows). */
int ck__make_reduce_var_reset(ck_builder *ckb, size_t *offset, const ck__var_row_spec *row,
                              int dim, ck_request req);
/* The same dimension in the fold child: source rows fold into the destination row
 * left-aligned, which grows to the longest. Children as reduce_dim's (both present): the
 * init child (started over new elements), then the fold child; *at is the kernel's offset. */
int ck__make_reduce_var_grow(ck_builder *ckb, size_t *offset, const ck__var_row_spec *row,
                             intptr_t src_offset, intptr_t src_stride, int dim, ck_request req,
                             size_t *at);
int ck__reduce_var_grow_set_child(ck_builder *ckb, size_t at, int init, size_t child_offset);
/* The accumulate kernel over an option source ?src_id into accumulators of dst_id (an option
 * destination when dst_option): NA propagates, or with skipna is left out; with `first` (and
 * skipna) an NA accumulator holds no element yet and takes the first one through the first
 * child. Builds itself, leaves *offset where the value child goes (the accumulate leaf of
 * dst_id over src_id's values, strided request) and *at at itself; the caller then reserves
 * and records the first child (ck__reduce_option_set_first: a cast dst_id <- src_id). */
typedef struct ck__reduce_option_spec {
    ck_type_id src_id, dst_id;
    int skipna, first, dst_option;
    int canon; /* ?A of a float or complex A: an accumulator of the NA's bits becomes NaN
                * after each run of values (na_canon.c) */
} ck__reduce_option_spec;
int ck__make_reduce_option(ck_builder *ckb, size_t *offset, const ck__reduce_option_spec *spec,
                           ck_request req, size_t *at);
int ck__reduce_option_set_first(ck_builder *ckb, size_t at, size_t child_offset);

/* The accumulated dimension (accumulate_dim.c): the source fixed (`size`) or var (rows at
 * `src_offset`), the destination the same kind (a var one allocates rows through `row`);
 * `inner`: the innermost dimension, whose children are slot 0 the cast of a row into the
 * destination (optional) and slot 1 the scan leaf; else slots 0 first (out[0] = x[0]),
 * 1 copy (out[i] = out[i-1]) and 2 fold (out[i] = f(out[i], x[i])), each over the fixed
 * dimensions below. The caller builds them (strided request), reserving each prefix before
 * ck__accumulate_dim_set_child records it; *at is the kernel's offset. */
typedef struct ck__accumulate_dim_spec {
    ck__dim_side src_kind, dst_kind;
    intptr_t size, src_offset, src_stride, dst_stride;
    ck__var_row_spec row;
    int inner, dim;
} ck__accumulate_dim_spec;
int ck__make_accumulate_dim(ck_builder *ckb, size_t *offset, const ck__accumulate_dim_spec *spec,
                            ck_request req, size_t *at);
int ck__accumulate_dim_set_child(ck_builder *ckb, size_t at, int slot, size_t child_offset);
/* The materialize kernel (materialize.c) of a reduction or accumulation whose source holds
 * pointers: each call copies the source into a scratch of scratch_size bytes (slot 0, the
 * assignment scratch <- source) and reduces that (slot 1, dst <- scratch); both children
 * single request, recorded by ck__materialize_set_child once their prefix is reserved. */
int ck__make_materialize(ck_builder *ckb, size_t *offset, size_t scratch_size, ck_request req,
                         size_t *at);
int ck__materialize_set_child(ck_builder *ckb, size_t at, int slot, size_t child_offset);
/* The scan of an accumulation of ?A along the innermost axis (option_scan.c), in place over
 * the destination row its cast child wrote: runs of values through its child, the scan
 * leaf of A (strided request); without skipna NA ends the row, with skipna an NA repeats
 * the value before it (`identity`, A's bytes, where there is none yet; NULL: NA stays). */
int ck__make_option_scan(ck_builder *ckb, size_t *offset, ck_type_id id, int skipna,
                         const unsigned char *identity, ck_request req);
/* Row 0 of a skipna accumulation of ?A along an outer dimension (option_scan.c): its child,
 * built right after it, casts the elements into the destination (NA kept); NA then becomes
 * `identity` (A's bytes). */
int ck__make_option_fill(ck_builder *ckb, size_t *offset, ck_type_id id,
                         const unsigned char *identity, ck_request req);
/* Arithmetic never creates an NA (na_canon.c): for the float and complex value types
 * (ck__na_needs_canon), ck__canon_na writes each part of n elements at p that has the NA's
 * bits as the default quiet NaN; the na_canon kernel runs its child (built right after it,
 * the strided request: an accumulate or scan leaf of ?id) and then does so over what the
 * child wrote (one element for a fold into one accumulator, stride 0). */
int ck__na_needs_canon(ck_type_id id);
void ck__canon_na(ck_type_id id, char *p, intptr_t stride, size_t n);
/* The same, skipping element i where mask[i] != 0 (an NA written on purpose). */
void ck__canon_na_masked(ck_type_id id, char *p, intptr_t stride, size_t n, const char *mask);
int ck__make_na_canon(ck_builder *ckb, size_t *offset, ck_type_id id, ck_request req);
/* The scan form of a user's binary leaf (elements of elem_size bytes), built by the caller
 * right after it. */
int ck__make_reduce_scan(ck_builder *ckb, size_t *offset, size_t elem_size, ck_request req);

/* The single and strided functions of that leaf (the JIT's slow path for elements it is not
 * sure of, and its inner runs for types it does not convert itself). */
int ck__scalar_leaf_single(ck_type_id dst_id, ck_type_id src_id, ck_errmode mode,
                           ck_single_fn *out, ck_strided_fn *strided);

/* The scalar leaf for dst <- src in `mode` (a concrete mode), for the CPU target in use. */
int ck__make_scalar_leaf(ck_builder *ckb, size_t *offset, ck_type_id dst_id, ck_type_id src_id,
                         ck_errmode mode, ck_request req);

/* Calls with core dimensions (docs/design.md §14). The core_call kernel (core_call.c) of a
 * call some of whose operands' core blocks are converted: `block[k]` is the bytes of
 * argument k's block in scratch (0: passed through), block[nargs] the result's. Advances
 * *offset to where the leaf is built (child 0, single request); the caller then builds each
 * cast child (single request) and records it with ck__core_call_set_child (slot 1 + k for
 * argument k, nargs + 1 for the result), `at` being the kernel's offset. */
int ck__make_core_call(ck_builder *ckb, size_t *offset, int nargs, const size_t *block,
                       ck_request req);
int ck__core_call_set_child(ck_builder *ckb, size_t at, int slot, size_t child_offset);
/* The built-in dot's leaf (dot.c) for rows of type id as `core` describes them. */
int ck__make_dot_leaf(ck_builder *ckb, size_t *offset, ck_type_id id, const ck_core_dims *core,
                      ck_request req);
/* The built-in matmul's leaf (matmul.c): (N * K * T, K * M * T) -> N * M * T of fixed core
 * dimensions as `core` describes them. */
int ck__make_matmul_leaf(ck_builder *ckb, size_t *offset, ck_type_id id,
                         const ck_core_dims *core, ck_request req);

#ifdef __cplusplus
}
#endif

#endif
