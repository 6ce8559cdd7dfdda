/* tests/fuzz/fuzz_compose.c: libFuzzer target for the composition walk and the kernels it
 * builds (ck_make_assign, ck_make_call). Each input is decoded (fuzz_compose_gen.c) into a
 * destination and 1-3 sources with random arrmeta and data in guarded buffers, a context and
 * a CPU target cap; the kernel is built, run, and held against the reference interpreter
 * (fuzz_compose_ref.c). What is asserted, for every input:
 *
 *  - Build: the kernel builds exactly when the reference finds no build error; otherwise the
 *    status and ck_last_error() are the reference's first error in the walk's order.
 *  - Success: every destination element holds the reference's bytes (NaN payloads free
 *    where design.md leaves them free; bit for bit for copies); every byte of the
 *    destination's buffers the reference does not write (gaps, padding, guards) is
 *    unchanged; every row the kernel allocates has the expected size, lies outside the
 *    fuzzer's buffers and the other rows, and holds zeros where nothing is written.
 *  - Failure: the status and the message are those of a failing element (or row) of the
 *    reference: in "strict" cases (one-source assignments without records or options and
 *    no tileable pair of dimensions, whose kernels run in C order) the first one in C order,
 *    every element after it untouched and no row after it allocated; otherwise any one of
 *    them (tiles, column-by-column records, option chunks and call chunks reorder the
 *    work). In both, every failing element keeps its old bytes and every other one holds
 *    its old bytes or the reference's.
 *  - Always: the sources' bytes (and everything behind their pointers and rows) are
 *    unchanged, no guard byte changes, no ckernel allocation outlives the input, and
 *    ASan/UBSan see nothing.
 *
 * Element numbers that count within a kernel's own run ("NA at element 3", "divide: ... at
 * element 7", "the value at element 2 converts to the NA") are not compared: design.md
 * counts them within the leaf's or option kernel's run, which coalescing and chunking decide.
 * Inputs that start with FZ_EXPR_MAGIC are expressions (fuzz_expr.c, its own checks), with
 * FZ_TEXT_MAGIC text casts (fuzz_text.c), with FZ_UFUNC_MAGIC two-result and matmul calls
 * (fuzz_ufunc.c).
 * CKF_COMPOSE_VERBOSE=1 prints each case. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "fuzz_compose.h"

/* ---- the fuzzer's own callable: sum3(a, b, c) = (a + b) + c ---- */

typedef struct sum3_leaf {
    ck_prefix base;
    int id;
} sum3_leaf;

#define SUM3(T, U)                                                                         \
    do {                                                                                   \
        T x, y, z;                                                                         \
        memcpy(&x, a, sizeof x);                                                           \
        memcpy(&y, b, sizeof y);                                                           \
        memcpy(&z, c, sizeof z);                                                           \
        const T r = (T)((U)((U)x + (U)y) + (U)z);                                          \
        memcpy(d, &r, sizeof r);                                                           \
    } while (0)

static void sum3_one(int id, char *d, const char *a, const char *b, const char *c) {
    switch (id) {
    case CK_TYPE_INT8: SUM3(int8_t, uint8_t); break;
    case CK_TYPE_INT32: SUM3(int32_t, uint32_t); break;
    case CK_TYPE_UINT16: SUM3(uint16_t, uint16_t); break;
    case CK_TYPE_INT64: SUM3(int64_t, uint64_t); break;
    case CK_TYPE_FLOAT32: SUM3(float, float); break;
    case CK_TYPE_FLOAT64: SUM3(double, double); break;
    default: {
        double x[2], y[2], z[2], r[2];
        memcpy(x, a, 16);
        memcpy(y, b, 16);
        memcpy(z, c, 16);
        r[0] = x[0] + y[0];
        r[0] = r[0] + z[0];
        r[1] = x[1] + y[1];
        r[1] = r[1] + z[1];
        memcpy(d, r, 16);
        break;
    }
    }
}

/* The composition hands a leaf aligned elements of its signature's types (design.md §10). */
static void check_aligned(int id, const void *p) {
    const size_t a = ckt_scalar(id)->align;
    CKF_CHECK((uintptr_t)p % a == 0, "sum3's leaf got a misaligned %s at %p",
              ckt_scalar(id)->name, p);
}

static int sum3_strided(ck_prefix *self, char *dst, intptr_t ds, char *const *src,
                        const intptr_t *ss, size_t count) {
    const int id = ((const sum3_leaf *)self)->id;
    for (size_t i = 0; i < count; i++) {
        const intptr_t j = (intptr_t)i;
        char *d = dst + j * ds;
        const char *a = src[0] + j * ss[0], *b = src[1] + j * ss[1], *c = src[2] + j * ss[2];
        check_aligned(id, d);
        check_aligned(id, a);
        check_aligned(id, b);
        check_aligned(id, c);
        sum3_one(id, d, a, b, c);
    }
    return CK_OK;
}

static int sum3_single(ck_prefix *self, char *dst, char *const *src) {
    static const intptr_t zero[3] = {0, 0, 0};
    return sum3_strided(self, dst, 0, src, zero, 1);
}

static int sum3_instantiate(void *data, ck_builder *ckb, size_t *offset,
                            const ck_leaf_info *info) {
    (void)data;
    int rc = ck_builder_reserve_leaf(ckb, *offset + sizeof(sum3_leaf));
    if (rc == CK_OK) {
        sum3_leaf *k = (sum3_leaf *)ck_builder_at(ckb, *offset);
        ck_prefix_set_function(&k->base, info->req, sum3_single, sum3_strided);
        k->id = (int)info->ret;
        *offset += CK_ALIGN_OFFSET(sizeof(sum3_leaf));
    }
    return rc;
}

ck_callable *fz_sum3_callable(void);
ck_callable *fz_sum3_callable(void) {
    static ck_callable *c;
    if (c == NULL) {
        static const char *const sigs[] = {"bbb)b", "iii)i", "HHH)H", "qqq)q",
                                           "fff)f", "ddd)d", "(complex128, complex128, complex128) -> complex128"};
        ck_callable *made = NULL;
        CKF_CHECK(ck_callable_new("fuzz_sum3", &made) == CK_OK, "%s", ck_last_error());
        for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
            const ck_factory f = {sum3_instantiate, NULL, NULL, NULL};
            CKF_CHECK(ck_callable_add(made, sigs[i], &f) == CK_OK, "%s", ck_last_error());
        }
        c = made;
    }
    return c;
}

/* ---- describing a case (for reproducers) ---- */

static void describe_am(const fz_type *t, const char *am, FILE *out) {
    switch (t->kind) {
    case FZ_FIXED: {
        ck_fixed_dim_arrmeta m;
        memcpy(&m, am, sizeof m);
        fprintf(out, "[fixed %td stride %td] ", m.dim_size, m.stride);
        describe_am(t->el, am + sizeof m, out);
        return;
    }
    case FZ_VAR: {
        ck_var_dim_arrmeta m;
        memcpy(&m, am, sizeof m);
        fprintf(out, "[var stride %td offset %td %s] ", m.stride, m.offset,
                m.blockref == NULL                                       ? "no block"
                : ck_memblock_get_kind(m.blockref) == CK_MEMBLOCK_ARENA ? "arena"
                                                                         : "data block");
        describe_am(t->el, am + sizeof m, out);
        return;
    }
    case FZ_POINTER: {
        ck_pointer_arrmeta m;
        memcpy(&m, am, sizeof m);
        fprintf(out, "[pointer offset %td] ", m.offset);
        describe_am(t->el, am + sizeof m, out);
        return;
    }
    case FZ_TUPLE:
    case FZ_STRUCT:
        fprintf(out, "{offsets");
        for (int i = 0; i < t->nf; i++) {
            uintptr_t offset;
            memcpy(&offset, am + sizeof offset * (size_t)i, sizeof offset);
            fprintf(out, " %ju", (uintmax_t)offset);
        }
        fprintf(out, "} ");
        for (int i = 0; i < t->nf; i++) {
            fprintf(out, "(%d: ", i);
            describe_am(t->f[i], am + t->fam[i], out);
            fprintf(out, ") ");
        }
        return;
    default: return;
    }
}

static void describe(const fz_case *c, FILE *out) {
    static const char *const ops[] = {"add", "subtract", "multiply", "trunc_divide", "assign", "sum3"};
    char text[FZ_MSG];
    fz_type_text(c->dst.t, text, sizeof text);
    if (c->op == FZ_OP_REDUCE || c->op == FZ_OP_ACCUMULATE) {
        fprintf(out, "case: %s %s axes",
                c->op == FZ_OP_REDUCE ? "ck_make_reduce" : "ck_make_accumulate", fz_reduce_name(c));
        if (c->naxes < 0) {
            fprintf(out, " NULL");
        }
        for (int i = 0; i < c->naxes; i++) {
            fprintf(out, " %d", c->axes[i]);
        }
        fprintf(out, "%s%s", (c->rflags & CK_REDUCE_KEEPDIMS) ? " keepdims" : "",
                (c->rflags & CK_REDUCE_SKIPNA) ? " skipna" : "");
    } else {
        fprintf(out, "case: %s", c->op == FZ_OP_ASSIGN ? "ck_make_assign" : "ck_make_call ");
    }
    if (c->op == FZ_OP_CALL) {
        fprintf(out, "%s", ops[c->arith]);
    }
    fprintf(out, "\n  dst: %s  data %p\n    arrmeta ", text, (void *)c->dst.data);
    describe_am(c->dst.t, c->dst.am, out);
    for (int k = 0; k < c->nsrc; k++) {
        fz_type_text(c->src[k].t, text, sizeof text);
        fprintf(out, "\n  src%d: %s  data %p\n    arrmeta ", k, text, (void *)c->src[k].data);
        describe_am(c->src[k].t, c->src[k].am, out);
        /* the first bytes at data (within the region's guard when the data ends sooner) */
        fprintf(out, "\n    bytes at data:");
        for (int i = 0; i < 16; i++) {
            fprintf(out, " %02x", (unsigned)(unsigned char)c->src[k].data[i]);
        }
    }
    fprintf(out, "\n  errmode %d flags 0x%x request %s", (int)c->ctx.errmode, c->ctx.flags,
            c->req == CK_REQUEST_SINGLE ? "single" : "strided");
    if (c->req == CK_REQUEST_STRIDED) {
        fprintf(out, " count %td dst stride %td src strides", c->root_count, c->root_dst_stride);
        for (int k = 0; k < c->nsrc; k++) {
            fprintf(out, " %td", c->root_src_stride[k]);
        }
    }
    fprintf(out, " cpu cap %d streaming threshold %zu\n", c->cap, c->stream_threshold);
    if (c->op == FZ_OP_CALL && c->sig_status == CK_OK) {
        fprintf(out, "  signature (");
        for (int k = 0; k < c->sig.nargs; k++) {
            fprintf(out, "%s%s", k ? ", " : "", ckt_scalar(c->sig.args[k])->name);
        }
        fprintf(out, ") -> %s\n", ckt_scalar(c->sig.ret)->name);
    }
}

static const fz_case *g_case; /* for messages of failed checks */

#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            describe(g_case, stderr);                                                      \
            CKF_CHECK(cond, __VA_ARGS__);                                                  \
        }                                                                                  \
    } while (0)

/* ---- the checks ---- */

/* n bytes as the host reads them as one number: the most significant byte first. */
static void hex(const unsigned char *p, size_t n, char *out) {
    static const char digits[] = "0123456789abcdef";
    size_t k = 0;
    for (size_t j = 0; j < n && k + 3 < 80; j++) {
        const size_t i = CKT_BIG_ENDIAN ? j : n - 1 - j;
        out[k++] = digits[p[i] >> 4];
        out[k++] = digits[p[i] & 15];
    }
    out[k] = '\0';
}

typedef struct checker {
    fz_case *c;
    fz_expect *x;
    int rc;
    const fz_fail *failed; /* the failure the kernel reported */
    unsigned char **cov;   /* per region: which bytes the reference accounts for */
    unsigned char **rcov;  /* per allocated row */
    size_t *order;         /* regions by address */
} checker;

static long region_at(const checker *k, uintptr_t p, size_t n) {
    size_t lo = 0, hi = k->c->nregions;
    while (lo < hi) {
        const size_t mid = (lo + hi) / 2;
        const fz_region *r = &k->c->regions[k->order[mid]];
        if ((uintptr_t)(r->raw + FZ_GUARD) + r->size <= p && !(r->size == 0 && (uintptr_t)(r->raw + FZ_GUARD) == p)) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    for (size_t i = lo > 0 ? lo - 1 : 0; i < k->c->nregions && i <= lo + 1; i++) {
        const fz_region *r = &k->c->regions[k->order[i]];
        const uintptr_t b = (uintptr_t)(r->raw + FZ_GUARD);
        if (p >= b && p + n <= b + r->size) {
            return (long)k->order[i];
        }
    }
    return -1;
}

static const fz_case *g_sort_case;
static int by_address(const void *a, const void *b) {
    const uintptr_t x = (uintptr_t)g_sort_case->regions[*(const size_t *)a].raw;
    const uintptr_t y = (uintptr_t)g_sort_case->regions[*(const size_t *)b].raw;
    return x < y ? -1 : x > y;
}

/* Where a location is now (NULL when it is in a row the kernel did not allocate), and what
 * it held before the kernel ran. */
static unsigned char *resolve(const checker *k, fz_loc l, const unsigned char **old,
                              unsigned char **cov, size_t n) {
    static unsigned char *zeros;
    static size_t nzeros;
    if (n > nzeros) { /* what a row the kernel allocates held before: zeros */
        free(zeros);
        nzeros = n < 4096 ? 4096 : n;
        zeros = (unsigned char *)calloc(nzeros, 1);
        CKF_CHECK(zeros != NULL, "out of memory");
    }
    if (l.row >= 0) {
        const fz_vrow *v = &k->x->rows[l.row];
        if (!v->allocated) {
            return NULL;
        }
        const size_t alloc = v->n > 0 ? (size_t)((v->n - 1) * v->stride) + v->elem_size : 0;
        CHECK(l.at + n <= alloc, "a write at %zu of %zu bytes outside a row of %zu bytes",
              (size_t)l.at, n, alloc);
        *old = zeros;
        *cov = k->rcov[l.row] + l.at;
        return (unsigned char *)v->begin + l.at;
    }
    const long r = region_at(k, l.at, n);
    CHECK(r >= 0 && k->c->regions[r].dst, "a destination write at %p (%zu bytes) outside the destination's buffers",
          (void *)l.at, n);
    const fz_region *reg = &k->c->regions[r];
    const size_t off = l.at - (uintptr_t)(reg->raw + FZ_GUARD);
    *old = reg->snap + FZ_GUARD + off;
    *cov = k->cov[r] + off;
    return reg->raw + FZ_GUARD + off;
}

/* Rows the kernel allocated: where they are, the right size, and apart from everything. */
typedef struct row_span {
    uintptr_t begin, end;
} row_span;

static int span_order(const void *a, const void *b) {
    const uintptr_t x = ((const row_span *)a)->begin, y = ((const row_span *)b)->begin;
    return x < y ? -1 : x > y;
}

static void check_rows(checker *k) {
    fz_expect *x = k->x;
    row_span *spans = (row_span *)malloc((x->nrows + 1) * sizeof *spans);
    CKF_CHECK(spans != NULL, "out of memory");
    size_t nspans = 0;
    for (size_t i = 0; i < x->nrows; i++) {
        fz_vrow *v = &x->rows[i];
        const unsigned char *old;
        unsigned char *cov;
        unsigned char *slot = resolve(k, v->slot, &old, &cov, sizeof(ck_var_data));
        v->allocated = 0;
        k->rcov[i] = NULL;
        if (slot == NULL) {
            continue; /* its own row was never allocated */
        }
        for (size_t b = 0; b < sizeof(ck_var_data); b++) {
            CHECK(cov[b] == 0, "two expectations on one byte of a row slot");
            cov[b] = 1;
        }
        if (k->rc != CK_OK && x->loose) {
            continue; /* a failed reduction's rows are partial: not compared */
        }
        ck_var_data now;
        memcpy(&now, slot, sizeof now);
        if (now.begin == NULL) {
            CHECK(memcmp(slot, old, sizeof now) == 0, "an unallocated destination row's size changed");
            CHECK(k->rc != CK_OK, "row %zu (%td elements) was not allocated by a kernel that succeeded", i, v->n);
            continue;
        }
        CHECK(now.size == (size_t)v->n, "an allocated row has %zu elements, expected %td", now.size, v->n);
        if (k->failed != NULL && x->strict) {
            CHECK(v->seq < k->failed->seq, "a row after the failing element (in C order) was allocated");
        }
        v->allocated = 1;
        v->begin = now.begin;
        const size_t alloc = v->n > 0 ? (size_t)((v->n - 1) * v->stride) + v->elem_size : 0;
        k->rcov[i] = (unsigned char *)calloc(alloc + 1, 1);
        CKF_CHECK(k->rcov[i] != NULL, "out of memory");
        const uintptr_t b = (uintptr_t)now.begin;
        for (size_t r = 0; r < k->c->nregions; r++) {
            const uintptr_t rb = (uintptr_t)k->c->regions[r].raw;
            const uintptr_t re = rb + k->c->regions[r].size + 2 * FZ_GUARD;
            CHECK(alloc == 0 || b + alloc <= rb || b >= re, "an allocated row overlaps the fuzzer's buffers");
        }
        if (alloc > 0) {
            spans[nspans].begin = b;
            spans[nspans++].end = b + alloc;
        }
    }
    /* No two allocated rows overlap: sorted by their start, each ends before the next
     * starts (a pairwise check took seconds over a case's 83,000 rows). */
    qsort(spans, nspans, sizeof *spans, span_order);
    for (size_t i = 1; i < nspans; i++) {
        CHECK(spans[i - 1].end <= spans[i].begin, "two allocated rows overlap");
    }
    free(spans);
}

static void check_writes(checker *k) {
    fz_expect *x = k->x;
    for (size_t i = 0; i < x->nwrites; i++) {
        const fz_write *w = &x->writes[i];
        const unsigned char *old;
        unsigned char *cov;
        unsigned char *now = resolve(k, w->loc, &old, &cov, w->size);
        if (now == NULL) {
            CHECK(k->rc != CK_OK, "an element of an unallocated row, after success");
            continue;
        }
        for (size_t b = 0; b < w->size; b++) {
            CHECK(cov[b] == 0, "two expectations on one destination byte (the fuzzer's bug)");
            cov[b] = 1;
        }
        if (k->rc != CK_OK && x->loose) {
            continue; /* a failed reduction's accumulators are partial: covered, not compared */
        }
        int is_new = 0;
        if (w->kind == FZ_W_VALUE) {
            is_new = ckt_oracle_matches(w->id, &w->e, now) &&
                     !(w->not_na && memcmp(now, ck_option_na_bytes(ck_type_scalar(w->id)),
                                           ckt_scalar(w->id)->size) == 0);
        } else if (w->kind == FZ_W_BYTES) {
            is_new = memcmp(now, w->bytes, w->size) == 0;
        }
        const int is_old = memcmp(now, old, w->size) == 0;
        char got[80], want[80], was[80];
        hex(now, w->size, got);
        hex(w->kind == FZ_W_VALUE ? w->e.out.b : w->kind == FZ_W_BYTES ? w->bytes : old,
            w->kind == FZ_W_VALUE ? ckt_scalar(w->id)->size : w->size, want);
        hex(old, w->size, was);
        const char *where = w->loc.row >= 0 ? "in an allocated row" : "";
        if (k->rc == CK_OK) {
            CHECK(is_new, "destination element %zu %s at %p: got 0x%s, want 0x%s%s (was 0x%s)", i,
                  where, (void *)now, got, want,
                  w->kind == FZ_W_VALUE && (w->e.nan[0] || w->e.nan[1]) ? " (any NaN)" : "", was);
        } else if (w->kind == FZ_W_KEEP) {
            CHECK(is_old, "failing element %zu %s was written: 0x%s, was 0x%s", i, where, got, was);
        } else if (x->strict && w->seq > k->failed->seq) {
            CHECK(is_old, "element %zu %s after the failing one (C order) was written: 0x%s, was 0x%s", i,
                  where, got, was);
        } else {
            CHECK(is_old || is_new, "element %zu %s holds 0x%s: neither its old 0x%s nor the reference's 0x%s",
                  i, where, got, was, want);
        }
    }
}

/* Every byte nobody accounts for is as it was, guards included. */
static void check_untouched(checker *k) {
    for (size_t r = 0; r < k->c->nregions; r++) {
        const fz_region *reg = &k->c->regions[r];
        const size_t total = reg->size + 2 * FZ_GUARD;
        for (size_t b = 0; b < total; b++) {
            const int inside = b >= FZ_GUARD && b < FZ_GUARD + reg->size;
            if (inside && reg->dst && k->cov[r][b - FZ_GUARD]) {
                continue;
            }
            CHECK(reg->raw[b] == reg->snap[b],
                  "%s byte %zu of a %s buffer of %zu bytes at %p changed: 0x%02x, was 0x%02x",
                  inside ? "unwritten" : "guard", inside ? b - FZ_GUARD : b,
                  reg->dst ? "destination" : "source", reg->size, (void *)(reg->raw + FZ_GUARD),
                  reg->raw[b], reg->snap[b]);
        }
    }
    for (size_t i = 0; i < k->x->nrows; i++) {
        const fz_vrow *v = &k->x->rows[i];
        if (!v->allocated) {
            continue;
        }
        const size_t alloc = v->n > 0 ? (size_t)((v->n - 1) * v->stride) + v->elem_size : 0;
        for (size_t b = 0; b < alloc; b++) {
            CHECK(k->rcov[i][b] || v->begin[b] == 0, "byte %zu of an allocated row is 0x%02x, not zero", b,
                  (unsigned char)v->begin[b]);
        }
    }
}

static void print_fails(const fz_case *c, fz_expect *x) {
    size_t shown = 0;
    for (size_t i = 0; i < x->nfails && shown < 8; i++, shown++) {
        fz_fail *f = &x->fails[i];
        if (f->leaf) {
            fprintf(stderr, "  reference failure %zu: %s, %s%s -> %s (the leaf's message)\n", i,
                    ck_status_name(f->status), f->prefix, ckt_scalar(f->leaf_src)->name,
                    ckt_scalar(f->leaf_dst)->name);
        } else {
            fprintf(stderr, "  reference failure %zu: %s, %s%s\n", i, ck_status_name(f->status),
                    f->prefix, f->text[0]);
        }
    }
    (void)c;
}

static void check_run(fz_case *c, fz_expect *x, int rc) {
    checker k = {c, x, rc, NULL, NULL, NULL, NULL};
    if (rc != CK_OK) {
        /* a copy: matching a leaf's message runs that leaf, which sets the message again */
        char msg[FZ_MSG];
        snprintf(msg, sizeof msg, "%s", ck_last_error());
        CHECK(ck_last_status() == rc, "ck_last_status %d, the kernel returned %d", ck_last_status(), rc);
        if (x->nfails == 0) {
            describe(c, stderr);
        }
        CHECK(x->nfails > 0, "the kernel failed with %s (%s), the reference succeeds", ck_status_name(rc), msg);
        for (size_t i = 0; i < x->nfails && k.failed == NULL; i++) {
            fz_fail *f = &x->fails[i];
            if (f->status == rc && fz_fail_matches(c, f, msg)) {
                k.failed = f;
            }
            if (x->strict) {
                break; /* only the first failure in C order will do */
            }
        }
        if (k.failed == NULL) {
            describe(c, stderr);
            print_fails(c, x);
        }
        CHECK(k.failed != NULL, "the kernel failed with %s: \"%s\", which is no%s failure of the reference (%zu of them)",
              ck_status_name(rc), msg, x->strict ? "t the first" : "", x->nfails);
    } else {
        if (x->nfails != 0) {
            describe(c, stderr);
            print_fails(c, x);
        }
        CHECK(x->nfails == 0, "the kernel succeeded; the reference fails (%zu failures)", x->nfails);
    }
    k.cov = (unsigned char **)calloc(c->nregions, sizeof *k.cov);
    k.rcov = (unsigned char **)calloc(x->nrows + 1, sizeof *k.rcov);
    k.order = (size_t *)malloc((c->nregions + 1) * sizeof *k.order);
    CKF_CHECK(k.cov != NULL && k.rcov != NULL && k.order != NULL, "out of memory");
    for (size_t r = 0; r < c->nregions; r++) {
        k.cov[r] = (unsigned char *)calloc(c->regions[r].size + 1, 1);
        CKF_CHECK(k.cov[r] != NULL, "out of memory");
        k.order[r] = r;
    }
    g_sort_case = c;
    qsort(k.order, c->nregions, sizeof *k.order, by_address);
    check_rows(&k);
    check_writes(&k);
    check_untouched(&k);
    for (size_t r = 0; r < c->nregions; r++) {
        free(k.cov[r]);
    }
    for (size_t i = 0; i < x->nrows; i++) {
        free(k.rcov[i]);
    }
    free(k.cov);
    free(k.rcov);
    free(k.order);
}

/* ---- the case's invariants before the kernel ---- */

static void check_types(const fz_case *c) {
    const fz_operand *ops[1 + FZ_MAX_SRC] = {&c->dst, &c->src[0], &c->src[1], &c->src[2]};
    for (int k = 0; k <= c->nsrc; k++) {
        const fz_operand *o = ops[k];
        char mine[FZ_MSG], *theirs = NULL;
        fz_type_text(o->t, mine, sizeof mine);
        CHECK(ck_type_format(o->ck, &theirs) == CK_OK, "%s", ck_last_error());
        CHECK(strcmp(mine, theirs) == 0, "the type %s prints as %s", mine, theirs);
        ck_free(theirs);
        CHECK(ck_type_data_size(o->ck) == o->t->size && ck_type_data_alignment(o->ck) == o->t->align &&
                  ck_type_arrmeta_size(o->ck) == o->t->amsize,
              "%s: size %zu align %zu arrmeta %zu, the C layout rules say %zu %zu %zu", mine,
              ck_type_data_size(o->ck), ck_type_data_alignment(o->ck), ck_type_arrmeta_size(o->ck),
              o->t->size, o->t->align, o->t->amsize);
    }
}

/* Strict cases run in the reference's C order (see the top of this file): one source, no
 * records or options (column-by-column records and chunked options reorder), and no pair of
 * fixed dimensions a tiled kernel could take (two innermost levels of 8 or more: only when a
 * run of fixed levels over a scalar holds at least 64 elements). */
static int reorders(const fz_type *t) {
    switch (t->kind) {
    case FZ_OPTION:
    case FZ_TUPLE:
    case FZ_STRUCT: return 1;
    case FZ_FIXED: {
        intptr_t product = 1;
        int levels = 0;
        const fz_type *e = t;
        while (e->kind == FZ_FIXED) {
            product *= e->n > 0 ? e->n : 1;
            levels++;
            e = e->el;
        }
        if (levels >= 2 && product >= 64 && e->kind == FZ_SCALAR) {
            return 1;
        }
        return reorders(e);
    }
    case FZ_VAR:
    case FZ_POINTER: return reorders(t->el);
    default: return 0;
    }
}

static int strict_case(const fz_case *c) {
    return c->op == FZ_OP_ASSIGN && !reorders(c->dst.t) && !reorders(c->src[0].t);
}

/* A reduction's destination generated as NumPy's result type (fz_case.natural) is what
 * ck_reduce_result_type (ck_accumulate_result_type) gives. */
static void check_result_type(const fz_case *c, const fz_expect *x) {
    if ((c->op != FZ_OP_REDUCE && c->op != FZ_OP_ACCUMULATE) || !c->natural ||
        x->build_status != CK_OK) {
        return;
    }
    const ck_reduce_spec r = {c->callable, c->naxes < 0 ? NULL : c->axes,
                              c->naxes < 0 ? 0 : c->naxes, c->rflags};
    ck_type *t = NULL;
    const int rc = c->op == FZ_OP_REDUCE ? ck_reduce_result_type(&r, c->src[0].ck, &c->ctx, &t)
                                         : ck_accumulate_result_type(&r, c->src[0].ck, &c->ctx, &t);
    CHECK(rc == CK_OK, "the result type: %s", ck_last_error());
    char mine[FZ_MSG], *theirs = NULL;
    fz_type_text(c->dst.t, mine, sizeof mine);
    CHECK(ck_type_format(t, &theirs) == CK_OK, "%s", ck_last_error());
    CHECK(strcmp(mine, theirs) == 0, "the result type is %s; NumPy's rules give %s", theirs, mine);
    ck_free(theirs);
    ck_type_decref(t);
}

/* ---- the target ---- */

static int target_available(int t) {
    return ck_cpu_target_compiled((ck_cpu_target)t) && t <= (int)ck_cpu_target_ceiling();
}

static void restore_globals(void) {
    for (int t = CK_NUM_CPU_TARGETS - 1; t >= 0; t--) {
        if (target_available(t) && ck_cpu_set_target_cap((ck_cpu_target)t) == CK_OK) {
            break;
        }
    }
    ck_set_streaming_threshold(0);
}

static int build(const fz_case *c, ck_builder *b) {
    size_t off = 0;
    if (c->op == FZ_OP_REDUCE || c->op == FZ_OP_ACCUMULATE) {
        const ck_reduce_spec r = {c->callable, c->naxes < 0 ? NULL : c->axes,
                                  c->naxes < 0 ? 0 : c->naxes, c->rflags};
        return c->op == FZ_OP_REDUCE
                   ? ck_make_reduce(b, &off, &r, c->dst.ck, c->dst.am, c->src[0].ck,
                                    c->src[0].am, c->req, &c->ctx)
                   : ck_make_accumulate(b, &off, &r, c->dst.ck, c->dst.am, c->src[0].ck,
                                        c->src[0].am, c->req, &c->ctx);
    }
    if (c->op == FZ_OP_ASSIGN) {
        return ck_make_assign(b, &off, c->dst.ck, c->dst.am, c->src[0].ck, c->src[0].am, c->req,
                              &c->ctx);
    }
    const ck_type *st[FZ_MAX_SRC];
    const char *sam[FZ_MAX_SRC];
    for (int k = 0; k < c->nsrc; k++) {
        st[k] = c->src[k].ck;
        sam[k] = c->src[k].am;
    }
    return ck_make_call(b, &off, c->callable, c->dst.ck, c->dst.am, c->nsrc, st, sam, c->req,
                        &c->ctx);
}

static int run(const fz_case *c, ck_builder *b) {
    char *src[FZ_MAX_SRC];
    for (int k = 0; k < c->nsrc; k++) {
        src[k] = c->src[k].data;
    }
    if (c->req == CK_REQUEST_SINGLE) {
        return ck_call_single(ck_builder_root(b), c->dst.data, src);
    }
    return ck_call_strided(ck_builder_root(b), c->dst.data, c->root_dst_stride, src,
                           c->root_src_stride, (size_t)c->root_count);
}

/* The library keeps a message's first 1023 bytes, its last three "..." when the message was
 * longer (src/common/status.c); the reference's holds up to FZ_MSG - 1. So a cut message
 * equals a longer reference up to the cut. */
static int same_message(const char *got, const char *want) {
    const size_t cut = 1020;
    if (strlen(got) == cut + 3 && strcmp(got + cut, "...") == 0 && strlen(want) > cut + 3) {
        return strncmp(got, want, cut) == 0;
    }
    return strcmp(got, want) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static fz_case c;
    static int verbose = -1;
    if (verbose < 0) {
        const char *v = getenv("CKF_COMPOSE_VERBOSE");
        verbose = v != NULL && v[0] == '1';
        fz_sum3_callable();
    }
    if (size >= 4 && memcmp(data, FZ_EXPR_MAGIC, 4) == 0) {
        fz_expr_one(data + 4, size - 4);
        restore_globals();
        ckf_check_no_leak();
        return 0;
    }
    if (size >= 4 && memcmp(data, FZ_TEXT_MAGIC, 4) == 0) {
        fz_text_one(data + 4, size - 4);
        ckf_check_no_leak();
        return 0;
    }
    if (size >= 4 && memcmp(data, FZ_UFUNC_MAGIC, 4) == 0) {
        fz_ufunc_one(data + 4, size - 4);
        ckf_check_no_leak();
        return 0;
    }
    fz_in in = {data, size, 0, 0};
    g_case = &c;
    if (fz_generate(&c, &in)) {
        if (verbose) {
            describe(&c, stdout);
            fflush(stdout);
        }
        check_types(&c);
        if (c.cap >= 0 && target_available(c.cap)) {
            CHECK(ck_cpu_set_target_cap((ck_cpu_target)c.cap) == CK_OK, "%s", ck_last_error());
        }
        ck_set_streaming_threshold(c.stream_threshold);
        for (size_t r = 0; r < c.nregions; r++) {
            fz_region *reg = &c.regions[r];
            reg->snap = (unsigned char *)malloc(reg->size + 2 * FZ_GUARD);
            CKF_CHECK(reg->snap != NULL, "out of memory");
            memcpy(reg->snap, reg->raw, reg->size + 2 * FZ_GUARD);
        }
        fz_expect x;
        fz_reference(&c, &x);
        x.strict = strict_case(&c);
        check_result_type(&c, &x);
        ck_builder b;
        ck_builder_init(&b);
        ck_clear_error();
        int rc = build(&c, &b);
        if (rc != CK_OK || x.build_status != CK_OK) {
            CHECK(rc == x.build_status, "the build gives %s (%s), the reference %s (%s)",
                  ck_status_name(rc), ck_last_error(), ck_status_name(x.build_status),
                  x.build_message);
            CHECK(same_message(ck_last_error(), x.build_message),
                  "the build fails with \"%s\", the reference with \"%s\"", ck_last_error(),
                  x.build_message);
        } else if (!x.too_big) {
            if (verbose) {
                char *tree = NULL;
                if (ck_kernel_describe(ck_builder_root(&b), &tree) == CK_OK) {
                    printf("%s", tree);
                    fflush(stdout);
                }
                ck_free(tree);
            }
            ck_clear_error();
            rc = run(&c, &b);
            check_run(&c, &x, rc);
        }
        if (verbose) {
            printf("  -> build %s, run %s, %zu writes, %zu failures, %zu rows%s: %s\n",
                   ck_status_name(x.build_status), ck_status_name(rc), x.nwrites, x.nfails,
                   x.nrows, x.strict ? ", strict" : "", rc != CK_OK ? ck_last_error() : "");
        }
        ck_builder_destroy(&b);
        fz_expect_free(&x);
    }
    fz_case_free(&c);
    restore_globals();
    ckf_check_no_leak();
    return 0;
}
