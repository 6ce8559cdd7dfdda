/* src/signatures/select.c: selection of a callable's signature for argument types
 * (src/signatures/signature.h): the best match by conversion kinds, Numba's ranking (with the
 * inexact kind), or NumPy's first loop the arguments cast to safely; and messages that list
 * the candidates when none or several fit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/internal.h"
#include "common/strbuf.h"
#include "signatures/signature.h"

/* The packed rating (signature.h) of sig for args: 1 and *key when the arity agrees and
 * every type is a scalar, else 0. */
static inline int rate_key(const ck__signature *sig, const ck_type_id *args, int nargs,
                           uint64_t *key) {
    if (sig->nargs != nargs) {
        return 0;
    }
    uint64_t k = 0;
    for (int i = 0; i < nargs; i++) {
        if ((unsigned)args[i] >= CK_NUM_SCALAR_TYPES ||
            (unsigned)sig->args[i] >= CK_NUM_SCALAR_TYPES) {
            return 0;
        }
        k += ck__rating_steps[args[i]][sig->args[i]];
    }
    *key = k;
    return 1;
}

static ck__rating unpack(uint64_t key) {
    const uint64_t m = 0xfff;
    ck__rating r = {(int)(key >> CK__RATING_UNSAFE_SHIFT & m),
                    (int)(key >> CK__RATING_INEXACT_SHIFT & m),
                    (int)(key >> CK__RATING_SAFE_SHIFT & m),
                    (int)(key >> CK__RATING_PROMOTE_SHIFT & m), (int)(key & m)};
    return r;
}

int ck__rate(const ck__signature *sig, const ck_type_id *args, int nargs, ck__rating *out) {
    uint64_t key;
    if (!rate_key(sig, args, nargs, &key)) {
        return 0;
    }
    *out = unpack(key);
    return 1;
}

int ck__rating_compare(const ck__rating *a, const ck__rating *b) {
    const int ka[] = {a->unsafe, a->inexact, a->safe, a->promote, a->widen};
    const int kb[] = {b->unsafe, b->inexact, b->safe, b->promote, b->widen};
    for (size_t i = 0; i < CK__ARRAY_SIZE(ka); i++) {
        if (ka[i] != kb[i]) {
            return ka[i] < kb[i] ? -1 : 1;
        }
    }
    return 0;
}

void ck__rating_format(const ck__rating *r, char *buf, size_t cap) {
    if (r->unsafe + r->inexact + r->safe + r->promote == 0) {
        snprintf(buf, cap, "exact");
        return;
    }
    snprintf(buf, cap, "%d unsafe, %d inexact, %d safe, %d promote, %d bytes wider", r->unsafe,
             r->inexact, r->safe, r->promote, r->widen);
}

static void put_args(ck__strbuf *b, const ck_type_id *args, int nargs) {
    ck__strbuf_puts(b, "(");
    for (int i = 0; i < nargs; i++) {
        ck__strbuf_printf(b, "%s%s", i == 0 ? "" : ", ", ck_type_id_name(args[i]));
    }
    ck__strbuf_puts(b, ")");
}

/* Canonical texts of the listed candidates, sorted so that messages do not depend on the
 * order in which signatures were registered. */
typedef struct listed {
    char text[512];
    char why[64];
    int rank; /* no match: how close it came (unsafe count; no conversion, arity: after) */
} listed;

/* By closeness, then by text: the nearest candidates come first in a long list. */
static int compare_listed(const void *a, const void *b) {
    const listed *x = (const listed *)a, *y = (const listed *)b;
    if (x->rank != y->rank) {
        return x->rank < y->rank ? -1 : 1;
    }
    return strcmp(x->text, y->text);
}

/* Formats the message into a strbuf and sets it with `status`; falls back to the bare
 * status message when memory runs out. */
static int report(int status, ck__strbuf *b) {
    char *msg = NULL;
    if (ck__strbuf_finish(b, &msg) != CK_OK) {
        return ck_set_error(status, "%s", ck_status_message(status));
    }
    ck_set_error(status, "%s", msg);
    ck__free(msg);
    return status;
}

static int no_match(const char *name, const ck__signature *cands, int n, const ck_type_id *args,
                    int nargs, int allow_unsafe) {
    listed *l = (listed *)ck__calloc(n > 0 ? (size_t)n : 1, sizeof *l);
    if (l == NULL) {
        return ck__nomem_error("out of memory reporting a failed selection");
    }
    for (int i = 0; i < n; i++) {
        ck__signature_format(&cands[i], l[i].text, sizeof l[i].text);
        ck__rating r;
        if (cands[i].nargs != nargs) {
            snprintf(l[i].why, sizeof l[i].why, "takes %d argument%s", cands[i].nargs,
                     cands[i].nargs == 1 ? "" : "s");
            l[i].rank = CK__SIG_MAX_ARGS + 2;
        } else if (ck__rate(&cands[i], args, nargs, &r)) {
            snprintf(l[i].why, sizeof l[i].why, "%d unsafe conversion%s", r.unsafe,
                     r.unsafe == 1 ? "" : "s");
            l[i].rank = r.unsafe;
        } else {
            snprintf(l[i].why, sizeof l[i].why, "no conversion");
            l[i].rank = CK__SIG_MAX_ARGS + 1;
        }
    }
    qsort(l, (size_t)n, sizeof *l, compare_listed);
    ck__strbuf b = CK__STRBUF_INIT;
    ck__strbuf_printf(&b, "%s: no signature takes ", name);
    put_args(&b, args, nargs);
    ck__strbuf_puts(&b, allow_unsafe ? "" : " without unsafe conversions");
    ck__strbuf_puts(&b, n == 0 ? "; it has no signatures" : "; candidates:");
    for (int i = 0; i < n; i++) {
        ck__strbuf_printf(&b, " %s [%s]%s", l[i].text, l[i].why, i + 1 < n ? "," : "");
    }
    ck__free(l);
    return report(CK_ERR_TYPE, &b);
}

static int ambiguous(const char *name, const ck__signature *cands, const int *tied, int ntied,
                     const ck_type_id *args, int nargs, const ck__rating *r) {
    listed *l = (listed *)ck__calloc((size_t)ntied, sizeof *l);
    if (l == NULL) {
        return ck__nomem_error("out of memory reporting an ambiguous selection");
    }
    for (int i = 0; i < ntied; i++) {
        ck__signature_format(&cands[tied[i]], l[i].text, sizeof l[i].text);
    }
    qsort(l, (size_t)ntied, sizeof *l, compare_listed);
    ck__strbuf b = CK__STRBUF_INIT;
    ck__strbuf_printf(&b, "%s: ", name);
    put_args(&b, args, nargs);
    char rating[96];
    ck__rating_format(r, rating, sizeof rating);
    ck__strbuf_printf(&b, " matches %d signatures equally well (%s):", ntied, rating);
    for (int i = 0; i < ntied; i++) {
        ck__strbuf_printf(&b, " %s%s", l[i].text, i + 1 < ntied ? "," : "");
    }
    ck__free(l);
    return report(CK_ERR_AMBIGUOUS, &b);
}

int ck__select(const char *name, const ck__signature *cands, int n, const ck_type_id *args,
               int nargs, int allow_unsafe, int *best, ck__rating *rating) {
    if (cands == NULL && n > 0) {
        return ck_set_error(CK_ERR_INVALID, "%s: NULL candidate list", name);
    }
    /* Packed ratings compare as integers: one table load and add per argument. */
    const uint64_t no_unsafe = ((uint64_t)1 << CK__RATING_UNSAFE_SHIFT) - 1;
    int found = -1, ntied = 0;
    uint64_t top = 0;
    for (int i = 0; i < n; i++) {
        uint64_t key;
        if (!rate_key(&cands[i], args, nargs, &key) || (key > no_unsafe && !allow_unsafe)) {
            continue;
        }
        if (found < 0 || key < top) {
            found = i;
            top = key;
            ntied = 1;
        } else if (key == top) {
            ntied++;
        }
    }
    if (found < 0) {
        return no_match(name, cands, n, args, nargs, allow_unsafe);
    }
    if (ntied > 1) {
        int *tied = (int *)ck__calloc((size_t)ntied, sizeof *tied);
        if (tied == NULL) {
            return ck__nomem_error("out of memory reporting an ambiguous selection");
        }
        int k = 0;
        for (int i = 0; i < n && k < ntied; i++) {
            uint64_t key;
            if (rate_key(&cands[i], args, nargs, &key) && key == top) {
                tied[k++] = i;
            }
        }
        const ck__rating r = unpack(top);
        const int rc = ambiguous(name, cands, tied, k, args, nargs, &r);
        ck__free(tied);
        return rc;
    }
    *best = found;
    *rating = unpack(top);
    return CK_OK;
}

int ck__select_first_safe(const char *name, const ck__signature *cands, const int *order, int n,
                          const ck_type_id *args, int nargs, int allow_unsafe, int *best,
                          ck__rating *rating) {
    if ((cands == NULL || order == NULL) && n > 0) {
        return ck_set_error(CK_ERR_INVALID, "%s: NULL candidate list", name);
    }
    int found = -1;
    for (int i = 0; i < n; i++) {
        const ck__signature *s = &cands[i];
        if (s->nargs != nargs || (found >= 0 && order[i] > order[found])) {
            continue;
        }
        int safe = 1;
        for (int k = 0; k < nargs && safe; k++) {
            safe = ck__numpy_safe(args[k], s->args[k]);
        }
        if (safe) {
            found = i;
        }
    }
    if (found < 0) {
        if (allow_unsafe) {
            return ck__select(name, cands, n, args, nargs, allow_unsafe, best, rating);
        }
        return no_match(name, cands, n, args, nargs, allow_unsafe);
    }
    uint64_t key = 0;
    (void)rate_key(&cands[found], args, nargs, &key); /* scalars of the right arity: rated */
    *best = found;
    *rating = unpack(key);
    return CK_OK;
}
