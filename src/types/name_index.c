/* src/types/name_index.c: see name_index.h. SipHash written from its definition (four 64-bit
 * words of state, add-rotate-xor rounds, the message length in the last word's top byte), the
 * process's key, and the table. */
#define _POSIX_C_SOURCE 200809L

#include "types/name_index.h"

#include <pthread.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "ckernel/types.h"
#include "common/internal.h"

/* A slot holds a field's index + 1 in its upper 32 bits. */
_Static_assert(CK_TYPE_MAX_FIELDS < UINT32_MAX, "field indices must fit a slot's 32 bits");

static uint64_t rotl(uint64_t x, int b) {
    return (x << b) | (x >> (64 - b));
}

static void sip_rounds(uint64_t v[4], int rounds) {
    for (int r = 0; r < rounds; r++) {
        v[0] += v[1];
        v[1] = rotl(v[1], 13);
        v[1] ^= v[0];
        v[0] = rotl(v[0], 32);
        v[2] += v[3];
        v[3] = rotl(v[3], 16);
        v[3] ^= v[2];
        v[0] += v[3];
        v[3] = rotl(v[3], 21);
        v[3] ^= v[0];
        v[2] += v[1];
        v[1] = rotl(v[1], 17);
        v[1] ^= v[2];
        v[2] = rotl(v[2], 32);
    }
}

/* Bytes as a little-endian word, whatever the host's order. */
static uint64_t load_le(const unsigned char *p, size_t n) {
    uint64_t m = 0;
    for (size_t i = 0; i < n; i++) {
        m |= (uint64_t)p[i] << (8 * i);
    }
    return m;
}

uint64_t ck__siphash(const uint64_t key[2], const void *data, size_t len, int c, int d) {
    const unsigned char *p = (const unsigned char *)data;
    uint64_t v[4] = {key[0] ^ 0x736f6d6570736575u, key[1] ^ 0x646f72616e646f6du,
                     key[0] ^ 0x6c7967656e657261u, key[1] ^ 0x7465646279746573u};
    const size_t whole = len - len % 8;
    for (size_t i = 0; i < whole; i += 8) {
        const uint64_t m = load_le(p + i, 8);
        v[3] ^= m;
        sip_rounds(v, c);
        v[0] ^= m;
    }
    const uint64_t last = load_le(p + whole, len % 8) | (uint64_t)(len & 0xff) << 56;
    v[3] ^= last;
    sip_rounds(v, c);
    v[0] ^= last;
    v[2] ^= 0xff;
    sip_rounds(v, d);
    return v[0] ^ v[1] ^ v[2] ^ v[3];
}

static uint64_t ck__name_key[2];
static pthread_once_t ck__name_key_once = PTHREAD_ONCE_INIT;

static void ck__name_key_init(void) {
    const ssize_t got = getrandom(ck__name_key, sizeof ck__name_key, GRND_NONBLOCK);
    if (got == (ssize_t)sizeof ck__name_key) {
        return;
    }
    /* No entropy yet (early boot) or no getrandom: the clock and where this process's
     * addresses fell, which a datashape's author cannot read either. */
    struct timespec ts = {0, 0};
    clock_gettime(CLOCK_REALTIME, &ts);
    const uint64_t seed[2] = {(uint64_t)(uintptr_t)&ts ^ (uint64_t)ts.tv_nsec,
                              (uint64_t)(uintptr_t)&ck__name_key_init ^ (uint64_t)ts.tv_sec};
    ck__name_key[0] = ck__siphash(seed, &ts, sizeof ts, 2, 4);
    ck__name_key[1] = ck__siphash(seed, ck__name_key, sizeof ck__name_key[0], 2, 4);
}

uint32_t ck__name_hash(const char *name) {
    pthread_once(&ck__name_key_once, ck__name_key_init);
    const uint64_t h = ck__siphash(ck__name_key, name, strlen(name), 1, 3);
    return (uint32_t)(h ^ (h >> 32));
}

size_t ck__name_index_slots(size_t n) {
    size_t slots = 2;
    while (slots < 2 * n) {
        slots *= 2;
    }
    return slots;
}

static const char *name_at(const ck__name_list *names, size_t i) {
    return names->ptrs != NULL ? names->ptrs[i] : names->base + names->at[i];
}

/* The slot holding `name`, or the empty slot where it would go (the table is never full). */
static size_t probe(const uint64_t *slots, size_t nslots, const ck__name_list *names,
                    const char *name, uint32_t hash) {
    const size_t mask = nslots - 1;
    for (size_t at = hash & mask;; at = (at + 1) & mask) {
        const uint64_t s = slots[at];
        if (s == 0 ||
            ((uint32_t)s == hash && strcmp(name_at(names, (size_t)(s >> 32) - 1), name) == 0)) {
            return at;
        }
    }
}

intptr_t ck__name_index_find(const uint64_t *slots, size_t nslots, const ck__name_list *names,
                             const char *name, uint32_t hash) {
    const uint64_t s = slots[probe(slots, nslots, names, name, hash)];
    return s == 0 ? -1 : (intptr_t)(s >> 32) - 1;
}

intptr_t ck__name_index_add(uint64_t *slots, size_t nslots, const ck__name_list *names, size_t i,
                            uint32_t hash) {
    const size_t at = probe(slots, nslots, names, name_at(names, i), hash);
    if (slots[at] != 0) {
        return (intptr_t)(slots[at] >> 32) - 1;
    }
    slots[at] = (uint64_t)(i + 1) << 32 | hash;
    return -1;
}

void ck__name_set_init(ck__name_set *s) {
    s->slots = s->inline_slots;
    s->nslots = CK__NAME_SET_INLINE;
    s->n = 0;
    memset(s->inline_slots, 0, sizeof s->inline_slots);
}

int ck__name_set_add(ck__name_set *s, const ck__name_list *names, size_t i, intptr_t *dup) {
    if (2 * (s->n + 1) > s->nslots) {
        /* Twice the slots; each entry goes to its new home by its stored hash (the names
         * are distinct, so none is compared). */
        const size_t nslots = 2 * s->nslots;
        uint64_t *grown = (uint64_t *)ck__calloc(nslots, sizeof *grown);
        if (grown == NULL) {
            return ck__nomem_error("out of memory indexing %zu field names", s->n + 1);
        }
        for (size_t k = 0; k < s->nslots; k++) {
            if (s->slots[k] != 0) {
                size_t at = (uint32_t)s->slots[k] & (nslots - 1);
                while (grown[at] != 0) {
                    at = (at + 1) & (nslots - 1);
                }
                grown[at] = s->slots[k];
            }
        }
        if (s->slots != s->inline_slots) {
            ck__free(s->slots);
        }
        s->slots = grown;
        s->nslots = nslots;
    }
    *dup = ck__name_index_add(s->slots, s->nslots, names, i, ck__name_hash(name_at(names, i)));
    s->n += *dup < 0;
    return CK_OK;
}

void ck__name_set_free(ck__name_set *s) {
    if (s->slots != s->inline_slots) {
        ck__free(s->slots);
    }
    ck__name_set_init(s);
}
