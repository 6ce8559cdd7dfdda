/* src/dispatch/select.c: best-match selection of a callable's signature for argument types
 * (src/dispatch/signature.h): rating by conversion kinds, Numba's ranking (with the inexact
 * kind), and messages that list the candidates when none or several fit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/internal.h"
#include "common/strbuf.h"
#include "dispatch/signature.h"

/* Bytes of each scalar, by id (the widening key; a table, since rating runs per candidate). */
static const unsigned char scalar_bytes[CK_NUM_SCALAR_TYPES] = {1, 1, 2, 4, 8, 1, 2,
                                                                4, 8, 2, 4, 8, 8, 16};

int ck__rate(const ck__signature *sig, const ck_type_id *args, int nargs, ck__rating *out) {
    if (sig->nargs != nargs) {
        return 0;
    }
    ck__rating r = {0, 0, 0, 0, 0};
    for (int i = 0; i < nargs; i++) {
        const ck__conversion kind = ck__conversion_kind(args[i], sig->args[i]);
        switch (kind) {
        case CK__CONV_EXACT: break;
        case CK__CONV_PROMOTE: r.promote++; break;
        case CK__CONV_SAFE: r.safe++; break;
        case CK__CONV_INEXACT: r.inexact++; break;
        case CK__CONV_UNSAFE: r.unsafe++; continue; /* narrowing: no widening to count */
        default: return 0;
        }
        r.widen += scalar_bytes[sig->args[i]] - scalar_bytes[args[i]];
    }
    *out = r;
    return 1;
}

int ck__rating_compare(const ck__rating *a, const ck__rating *b) {
    const int ka[] = {a->unsafe, a->inexact, a->safe, a->promote, a->widen};
    const int kb[] = {b->unsafe, b->inexact, b->safe, b->promote, b->widen};
    for (size_t i = 0; i < CK_ARRAY_SIZE(ka); i++) {
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
    int found = -1, ntied = 0;
    ck__rating top = {0, 0, 0, 0, 0};
    for (int i = 0; i < n; i++) {
        ck__rating r;
        if (!ck__rate(&cands[i], args, nargs, &r) || (r.unsafe > 0 && !allow_unsafe)) {
            continue;
        }
        const int c = found < 0 ? -1 : ck__rating_compare(&r, &top);
        if (c < 0) {
            found = i;
            top = r;
            ntied = 1;
        } else if (c == 0) {
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
            ck__rating r;
            if (ck__rate(&cands[i], args, nargs, &r) && (r.unsafe == 0 || allow_unsafe) &&
                ck__rating_compare(&r, &top) == 0) {
                tied[k++] = i;
            }
        }
        const int rc = ambiguous(name, cands, tied, k, args, nargs, &top);
        ck__free(tied);
        return rc;
    }
    *best = found;
    *rating = top;
    return CK_OK;
}
