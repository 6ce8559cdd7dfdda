/* bench/workloads_select.c: the select/... workloads time ck_callable_select of the
 * built-in add for (int32, float64) alone, per operation (as build/3-level times a build),
 * and check the signature it selects: select/warm through add's selection cache, select/cold
 * as a first selection that the cache never serves. */
#include <stdio.h>
#include <string.h>

#include "workloads.h"

/* A factory that is never instantiated: select/cold's callable only selects. */
static int no_instantiate(void *data, ck_builder *ckb, size_t *offset,
                          const ck_leaf_info *info) {
    (void)data;
    (void)ckb;
    (void)offset;
    return ck_set_error(CK_ERR_INTERNAL, "bench: %s is for selection only", info->name);
}

/* Keys select/cold selects before timing so that its callable's cache is full: at least
 * twice the keys one cache table holds (CK__CACHE_MAX, 32, in src/callables/callable.c). */
#define SELECT_COLD_MIN_FILL 64

/* select/warm and select/cold. The selection is add's for (int32, float64): 14 signatures,
 * "(float64, float64) -> float64" chosen with one safe conversion; *expected is its index in
 * the sorted signature list (ck_callable_select's contract), found by text here.
 *
 * warm: the built-in add itself, warmed before timing: the cache-hit path (build key,
 * probe, copy the entry out).
 *
 * cold: what a first selection costs, repeatably. A fresh callable per operation cannot be
 * separated from its setup (14 ck_callable_add, each a copy-on-write snapshot and a sort),
 * and the built-in add's own cache is process-wide state the other workloads use. So a
 * private, unregistered callable gets a copy of add's signatures (read from add, so it
 * follows add), then every other key that selects successfully, (a, b) for every scalar a
 * and b, with and without CK_EVAL_ALLOW_UNSAFE, is selected once: far more keys than a cache
 * table holds, so the table is full and stays full, and the timed key ((int32, float64),
 * safe only), left out of the fill, is never cached. Each timed call then does what a first
 * selection does: build the key, miss in the table, rate every signature (ck__select, with
 * the conversion-kind table), rank them, and go to cache the result (the callable's mutex,
 * the table found full). The one part of a real first selection it leaves out is publishing
 * a new cache table (a calloc of one table and a copy of its slots), paid once per key. */
static int setup_select(ckb_wl *w, int cold) {
    w->sel_args[0] = w->def->src;
    w->sel_args[1] = CK_TYPE_FLOAT64;
    ck_callable *add = NULL;
    char *sigs = NULL;
    int rc = ck_lookup("add", &add);
    if (rc == CK_OK) rc = ck_callable_signatures(add, &sigs);
    if (rc != CK_OK) {
        ck_callable_decref(add);
        return rc;
    }
    /* One signature a line, sorted: the expected index is the wanted line's number. */
    static const char want[] = "(float64, float64) -> float64";
    w->sel_expected = -1;
    int nsig = 0;
    for (const char *line = sigs; *line != '\0'; nsig++) {
        const size_t len = strcspn(line, "\n");
        if (len == sizeof want - 1 && memcmp(line, want, len) == 0) {
            w->sel_expected = nsig;
        }
        line += len + (line[len] == '\n');
    }
    w->n = (size_t)nsig;
    if (!cold) {
        ck_free(sigs);
        w->callable = add;
        int index;
        return ck_callable_select(add, 2, w->sel_args, &w->ctx, &index, NULL);
    }
    ck_callable_decref(add);
    rc = ck_callable_new("ckb_add_uncached", &w->callable);
    for (char *line = sigs; rc == CK_OK && *line != '\0';) {
        const size_t len = strcspn(line, "\n");
        const char keep = line[len];
        line[len] = '\0';
        const ck_factory f = {no_instantiate, NULL, NULL, NULL};
        rc = ck_callable_add(w->callable, line, &f);
        line[len] = keep;
        line += len + (keep == '\n');
    }
    ck_free(sigs);
    int filled = 0;
    for (int unsafe = 0; rc == CK_OK && unsafe < 2; unsafe++) {
        ck_eval_ctx c = w->ctx;
        c.flags = unsafe ? c.flags | CK_EVAL_ALLOW_UNSAFE : c.flags & ~CK_EVAL_ALLOW_UNSAFE;
        for (int a = 0; a < CK_NUM_SCALAR_TYPES; a++) {
            for (int b = 0; b < CK_NUM_SCALAR_TYPES; b++) {
                const ck_type_id args[2] = {(ck_type_id)a, (ck_type_id)b};
                if (!unsafe && args[0] == w->sel_args[0] && args[1] == w->sel_args[1]) {
                    continue; /* the timed key */
                }
                int index;
                filled += ck_callable_select(w->callable, 2, args, &c, &index, NULL) == CK_OK;
            }
        }
    }
    ck_clear_error(); /* pairs that match nothing, or several */
    if (rc == CK_OK && filled < SELECT_COLD_MIN_FILL) {
        rc = ck_set_error(CK_ERR_INTERNAL,
                          "bench: select/cold filled the cache with %d keys, fewer than %d",
                          filled, SELECT_COLD_MIN_FILL);
    }
    return rc;
}

int ckb_select_setup_warm(ckb_wl *w) {
    return setup_select(w, 0);
}

int ckb_select_setup_cold(ckb_wl *w) {
    return setup_select(w, 1);
}

int ckb_select_run(ckb_wl *w) {
    int index = -1;
    int rc = ck_callable_select(w->callable, 2, w->sel_args, &w->ctx, &index, NULL);
    ckb_sink ^= (uint64_t)(unsigned)index;
    return rc;
}

/* The selected index is the expected signature's. */
int ckb_select_verify(ckb_wl *w, int *equal, char *msg, size_t msg_size) {
    int index = -1;
    const int rc = ck_callable_select(w->callable, 2, w->sel_args, &w->ctx, &index, NULL);
    if (rc != CK_OK) {
        return rc;
    }
    *equal = w->sel_expected >= 0 && index == w->sel_expected;
    if (msg_size != 0) {
        msg[0] = '\0';
        if (!*equal) {
            snprintf(msg, msg_size,
                     "%s: selected signature %d, expected %d ((float64, float64) -> float64)",
                     w->def->name, index, w->sel_expected);
        }
    }
    return CK_OK;
}
