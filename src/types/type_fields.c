/* src/types/type_fields.c: the kinds with fields, tuple `(T0, T1)` and struct
 * `{x: T0, y: T1}`: their makers (the C layout, computed once), their operations
 * (type_internal.h) and the quoting of field names.
 *
 * Data: fields at their offsets, as a C compiler lays out a struct of them (each field at
 * the next multiple of its alignment, the size a multiple of the largest alignment).
 * Arrmeta (as DyND's): first the data offset of every field, as `intptr_t offsets[n]` (the
 * C layout's when constructed by default; a host may describe other layouts, such as
 * NumPy's packed records), then the arrmeta of each field in order.
 *
 * A struct of more than CK__NAME_INDEX_MIN_FIELDS fields also holds the hashed index of its
 * names (name_index.h), built with it in the same allocation: duplicates are found as it is
 * built and ck_type_field_index is one probe, so a wide struct costs O(n), not O(n^2). */
#include <stdalign.h>
#include <string.h>

#include "common/internal.h"
#include "common/strbuf.h"
#include "types/name_index.h"
#include "types/type_internal.h"

static size_t align_up(size_t v, size_t a) {
    return (v + a - 1) / a * a;
}

/* Bytes of the tables after the struct, each part aligned for what follows it. */
typedef struct tables_layout {
    size_t fields, offsets, arrmeta_offsets, names, name_slots, nslots, name_bytes, total;
} tables_layout;

static int tables_size(size_t n, const char *const *names, tables_layout *l) {
    size_t at = 0;
    l->fields = at;
    at += n * sizeof(ck_type *);
    l->offsets = at;
    at += n * sizeof(size_t);
    l->arrmeta_offsets = at;
    at += n * sizeof(size_t);
    l->names = at;
    at += names != NULL ? n * sizeof(char *) : 0;
    at = align_up(at, alignof(uint64_t));
    l->name_slots = at;
    l->nslots = names != NULL && n > CK__NAME_INDEX_MIN_FIELDS ? ck__name_index_slots(n) : 0;
    at += l->nslots * sizeof(uint64_t);
    l->name_bytes = at;
    for (size_t i = 0; names != NULL && i < n; i++) {
        const size_t len = strlen(names[i]);
        if (len > SIZE_MAX / 2 - at) {
            return ck_set_error(CK_ERR_INVALID, "ck_type_make_struct: field names too long");
        }
        at += len + 1;
    }
    l->total = at;
    return CK_OK;
}

/* known: NULL, or an index of the names (known_nslots slots), which are then distinct. */
static int make_fields(ck_type_id id, const char *what, size_t n, const ck_type *const *fields,
                       const char *const *names, const uint64_t *known, size_t known_nslots,
                       ck_type **out) {
    if (out == NULL) {
        return ck_set_error(CK_ERR_INVALID, "%s: out is NULL", what);
    }
    *out = NULL;
    if (n > CK_TYPE_MAX_FIELDS) {
        return ck_set_error(CK_ERR_INVALID, "%s: %zu fields, more than %d", what, n,
                            CK_TYPE_MAX_FIELDS);
    }
    if (n > 0 && (fields == NULL || (id == CK_TYPE_STRUCT && names == NULL))) {
        return ck_set_error(CK_ERR_INVALID, "%s: NULL %s", what, fields == NULL ? "fields" : "names");
    }
    size_t size = 0, align = 1, arrmeta = n * sizeof(intptr_t);
    int depth = 0, blockref = 0;
    for (size_t i = 0; i < n; i++) {
        ck_type *unused;
        CK__RETURN_IF_ERROR(ck__type_check_part(what, fields[i], &unused));
        if (id == CK_TYPE_STRUCT) {
            if (names[i] == NULL || names[i][0] == '\0') {
                return ck_set_error(CK_ERR_INVALID, "%s: field %zu has %s name", what, i,
                                    names[i] == NULL ? "a NULL" : "an empty");
            }
        }
        const ck_type *f = fields[i];
        size = align_up(size, f->data_alignment);
        if (size > (size_t)INTPTR_MAX - f->data_size) {
            return ck_set_error(CK_ERR_INVALID,
                                "%s: the fields overflow the largest data size (%lld bytes)",
                                what, (long long)INTPTR_MAX);
        }
        size += f->data_size;
        align = f->data_alignment > align ? f->data_alignment : align;
        arrmeta += f->arrmeta_size;
        depth = f->depth > depth ? f->depth : depth;
        blockref |= f->has_blockref;
    }
    size = align_up(size, align);
    if (size > (size_t)INTPTR_MAX) {
        return ck_set_error(CK_ERR_INVALID,
                            "%s: the fields overflow the largest data size (%lld bytes)", what,
                            (long long)INTPTR_MAX);
    }
    tables_layout l = {0, 0, 0, 0, 0, 0, 0, 0};
    CK__RETURN_IF_ERROR(tables_size(n, id == CK_TYPE_STRUCT ? names : NULL, &l));
    ck_type *t = ck__type_alloc(id, l.total);
    if (t == NULL) {
        return CK_ERR_NOMEM;
    }
    char *tables = (char *)(t + 1);
    if (id == CK_TYPE_STRUCT && known != NULL && known_nslots == l.nslots) {
        /* A copy in order: the slots of a wide struct, filled in random order, miss the
         * cache once per name (a third of the parse of 65536 fields). */
        memcpy(tables + l.name_slots, known, l.nslots * sizeof *known);
        t->name_slots = l.nslots > 0 ? (const uint64_t *)(const void *)(tables + l.name_slots)
                                     : NULL;
        t->name_nslots = l.nslots;
    } else if (id == CK_TYPE_STRUCT) {
        /* Duplicates through the index (kept in the type when it is wide enough to need one,
         * on the stack otherwise), before any reference is taken. */
        uint64_t small[2 * CK__NAME_INDEX_MIN_FIELDS];
        uint64_t *slots = l.nslots > 0 ? (uint64_t *)(void *)(tables + l.name_slots) : small;
        const size_t nslots = ck__name_index_slots(n);
        if (l.nslots == 0) {
            memset(small, 0, nslots * sizeof *small);
        }
        const ck__name_list view = {names, NULL, NULL};
        for (size_t i = 0; i < n; i++) {
            if (ck__name_index_add(slots, nslots, &view, i, ck__name_hash(names[i])) >= 0) {
                ck__free(t);
                return ck_set_error(CK_ERR_INVALID, "%s: the name '%s' is used twice", what,
                                    names[i]);
            }
        }
        if (l.nslots > 0) {
            t->name_slots = slots;
            t->name_nslots = nslots;
        }
    }
    const ck_type **ft = (const ck_type **)(void *)(tables + l.fields);
    size_t *offsets = (size_t *)(void *)(tables + l.offsets);
    size_t *arrmeta_offsets = (size_t *)(void *)(tables + l.arrmeta_offsets);
    size_t at = 0, am = n * sizeof(intptr_t);
    for (size_t i = 0; i < n; i++) {
        at = align_up(at, fields[i]->data_alignment);
        offsets[i] = at;
        at += fields[i]->data_size;
        arrmeta_offsets[i] = am;
        am += fields[i]->arrmeta_size;
        ck_type_incref(fields[i]);
        ft[i] = fields[i];
    }
    if (id == CK_TYPE_STRUCT) {
        const char **nt = (const char **)(void *)(tables + l.names);
        char *bytes = tables + l.name_bytes;
        for (size_t i = 0; i < n; i++) {
            const size_t len = strlen(names[i]);
            memcpy(bytes, names[i], len + 1);
            nt[i] = bytes;
            bytes += len + 1;
        }
        t->names = nt;
    }
    t->nfields = n;
    t->fields = ft;
    t->offsets = offsets;
    t->arrmeta_offsets = arrmeta_offsets;
    t->has_blockref = (uint8_t)blockref;
    t->depth = (uint8_t)(depth + 1);
    t->data_size = size;
    t->data_alignment = align;
    t->arrmeta_size = arrmeta;
    *out = t;
    return CK_OK;
}

int ck_type_make_tuple(size_t nfields, const ck_type *const *fields, ck_type **out) {
    return make_fields(CK_TYPE_TUPLE, "ck_type_make_tuple", nfields, fields, NULL, NULL, 0, out);
}

int ck_type_make_struct(size_t nfields, const ck_type *const *fields, const char *const *names,
                        ck_type **out) {
    return make_fields(CK_TYPE_STRUCT, "ck_type_make_struct", nfields, fields, names, NULL, 0,
                       out);
}

int ck__type_make_struct_indexed(size_t nfields, const ck_type *const *fields,
                                 const char *const *names, const uint64_t *slots, size_t nslots,
                                 ck_type **out) {
    return make_fields(CK_TYPE_STRUCT, "ck_type_make_struct", nfields, fields, names, slots,
                       nslots, out);
}

/* ---- operations ---- */

static void fields_release(ck_type *t) {
    for (size_t i = 0; i < t->nfields; i++) {
        ck_type_decref(t->fields[i]);
    }
}

static int fields_equal(const ck_type *a, const ck_type *b) {
    if (a->nfields != b->nfields) {
        return 0;
    }
    for (size_t i = 0; i < a->nfields; i++) {
        if ((a->names != NULL && strcmp(a->names[i], b->names[i]) != 0) ||
            !ck_type_equal(a->fields[i], b->fields[i])) {
            return 0;
        }
    }
    return 1;
}

static int is_identifier(const char *s) {
    if (!ck__is_ident_start(*s)) {
        return 0;
    }
    for (s++; *s != '\0'; s++) {
        if (!ck__is_ident(*s)) {
            return 0;
        }
    }
    return 1;
}

void ck__format_field_name(const char *name, ck__strbuf *out) {
    if (is_identifier(name)) {
        ck__strbuf_puts(out, name);
        return;
    }
    ck__strbuf_puts(out, "'");
    for (const unsigned char *p = (const unsigned char *)name; *p != '\0'; p++) {
        if (*p == '\'' || *p == '\\') {
            ck__strbuf_printf(out, "\\%c", *p);
        } else if (*p < 0x20 || *p == 0x7f) {
            ck__strbuf_printf(out, "\\x%02x", *p);
        } else {
            ck__strbuf_append(out, (const char *)p, 1);
        }
    }
    ck__strbuf_puts(out, "'");
}

static int hex_digit(char c) {
    return c >= '0' && c <= '9' ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

const char *ck__scan_field_name(const char *s, size_t len, size_t *pos, ck__strbuf *name) {
    const size_t start = *pos;
    if (start < len && ck__is_ident_start(s[start])) {
        size_t i = start + 1;
        while (i < len && ck__is_ident(s[i])) {
            i++;
        }
        ck__strbuf_append(name, s + start, i - start);
        *pos = i;
        return NULL;
    }
    const char q = start < len ? s[start] : '\0';
    if (q != '\'' && q != '"') {
        return "expected a field name";
    }
    const size_t before = name->len;
    size_t i = start + 1;
    for (;;) {
        if (i >= len) {
            return "unterminated quoted field name";
        }
        const char c = s[i];
        if (c == q) {
            break;
        }
        if (c != '\\') {
            ck__strbuf_append(name, &c, 1);
            i++;
            continue;
        }
        const char e = i + 1 < len ? s[i + 1] : '\0';
        if (e == '\\' || e == '\'' || e == '"') {
            ck__strbuf_append(name, &e, 1);
            i += 2;
        } else if (e == 'x' && i + 3 < len && hex_digit(s[i + 2]) >= 0 &&
                   hex_digit(s[i + 3]) >= 0) {
            const char v = (char)(hex_digit(s[i + 2]) * 16 + hex_digit(s[i + 3]));
            if (v == '\0') {
                *pos = i;
                return "a field name cannot hold a NUL byte";
            }
            ck__strbuf_append(name, &v, 1);
            i += 4;
        } else {
            *pos = i;
            return "unknown escape in a field name (\\\\, \\', \\\" and \\xHH are known)";
        }
    }
    if (name->len == before) {
        return "a field name cannot be empty";
    }
    *pos = i + 1;
    return NULL;
}

static void fields_format(const ck_type *t, ck__strbuf *out) {
    ck__strbuf_puts(out, t->names != NULL ? "{" : "(");
    for (size_t i = 0; i < t->nfields; i++) {
        if (i > 0) {
            ck__strbuf_puts(out, ", ");
        }
        if (t->names != NULL) {
            ck__format_field_name(t->names[i], out);
            ck__strbuf_puts(out, ": ");
        }
        ck__type_kind_of(t->fields[i]->id)->format(t->fields[i], out);
    }
    ck__strbuf_puts(out, t->names != NULL ? "}" : ")");
}

static void fields_construct(const ck_type *t, char *arrmeta, ck_memblock *blockref) {
    for (size_t i = 0; i < t->nfields; i++) {
        const intptr_t off = (intptr_t)t->offsets[i];
        memcpy(arrmeta + i * sizeof(intptr_t), &off, sizeof off);
        const ck_type *f = t->fields[i];
        ck__type_kind_of(f->id)->arrmeta_construct(f, arrmeta + t->arrmeta_offsets[i], blockref);
    }
}

static void fields_incref(const ck_type *t, char *arrmeta) {
    for (size_t i = 0; i < t->nfields; i++) {
        ck__arrmeta_incref(t->fields[i], arrmeta + t->arrmeta_offsets[i]);
    }
}

static void fields_release_arrmeta(const ck_type *t, char *arrmeta) {
    for (size_t i = 0; i < t->nfields; i++) {
        ck_arrmeta_release(t->fields[i], arrmeta + t->arrmeta_offsets[i]);
    }
}

/* Every field's extent at its offset from the arrmeta. */
static void fields_extent(const ck_type *t, const char *arrmeta, intptr_t *lo, intptr_t *hi) {
    *lo = *hi = 0;
    for (size_t i = 0; i < t->nfields; i++) {
        intptr_t off, flo, fhi;
        memcpy(&off, arrmeta + i * sizeof off, sizeof off);
        ck__arrmeta_extent(t->fields[i], arrmeta + t->arrmeta_offsets[i], &flo, &fhi);
        ck__extent_union(lo, hi, flo, fhi, off);
    }
}

/* Tuples and structs share them: a struct is a tuple with names. */
const ck__type_kind ck__fields_kind_ops = {fields_release,   fields_equal,  fields_format,
                                           fields_construct, fields_incref, fields_release_arrmeta,
                                           fields_extent};
