/* tests/consumer/consumer.c: a C program using the installed ckernel: builds a two-level
 * kernel that outgrows the inline buffer, runs it, calls a C function through a callable
 * (ck_callable_add_native, when the build has libffi; else checks the refusal), reads and
 * prints float literals (the number text, fast_float and double-conversion inside the
 * library), and checks that ckernel's allocator did not replace the process's malloc. Exit
 * status 0 only when every check holds. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ckernel/ckernel.h>

static int failures = 0;

/* Called through ckernel's native leaf: a - 3 b. */
static int32_t diff3(int32_t a, int32_t b) {
    return a - 3 * b;
}
#define CHECK(cond)                                                           \
    do {                                                                      \
        if (!(cond)) {                                                        \
            fprintf(stderr, "consumer_c: check failed: %s (line %d)\n", #cond, \
                    __LINE__);                                                \
            failures++;                                                       \
        }                                                                     \
    } while (0)

typedef struct add_kernel {
    ck_prefix base;
    int64_t addend;
    char padding[200]; /* makes the kernel outgrow the 128-byte inline buffer */
} add_kernel;

static int add_single(ck_prefix *self, char *dst, char *const *src) {
    int64_t v;
    memcpy(&v, src[0], sizeof v);
    v += ((const add_kernel *)self)->addend;
    memcpy(dst, &v, sizeof v);
    return CK_OK;
}

static int add_strided(ck_prefix *self, char *dst, intptr_t dst_stride, char *const *src,
                       const intptr_t *src_stride, size_t count) {
    char *s = src[0];
    for (size_t i = 0; i < count; i++, dst += dst_stride, s += src_stride[0]) {
        add_single(self, dst, &s);
    }
    return CK_OK;
}

int main(void) {
    CHECK(strcmp(ck_version_string(), CK_VERSION_STRING) == 0);
    CHECK(strcmp(ck_status_name(CK_ERR_BROADCAST), "CK_ERR_BROADCAST") == 0);

    ck_builder b;
    ck_builder_init(&b);
    CHECK(ck_builder_reserve_leaf(&b, sizeof(add_kernel)) == CK_OK);
    CHECK(!ck_builder_is_inline(&b));
    add_kernel *k = (add_kernel *)ck_builder_at(&b, 0);
    ck_prefix_set_function(&k->base, CK_REQUEST_STRIDED, add_single, add_strided);
    k->addend = 1000;
    int64_t in[5] = {1, 2, 3, 4, 5}, out[5] = {0};
    char *src = (char *)in;
    intptr_t ss = sizeof(int64_t);
    CHECK(ck_call_strided(ck_builder_root(&b), (char *)out, sizeof(int64_t), &src, &ss, 5) ==
          CK_OK);
    for (int i = 0; i < 5; i++) {
        CHECK(out[i] == 1001 + i);
    }

    /* The parallel layer (the C++ oneTBB shim in the archive) from a C program. */
    enum { big = 1 << 17 };
    int64_t *bin = (int64_t *)malloc(big * sizeof(int64_t));
    int64_t *bout = (int64_t *)calloc(big, sizeof(int64_t));
    CHECK(bin != NULL && bout != NULL);
    if (bin != NULL && bout != NULL) {
        for (int i = 0; i < big; i++) {
            bin[i] = i;
        }
        ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
        ctx.max_threads = 2;
        ctx.grain_bytes = 4096;
        char *bsrc = (char *)bin;
        CHECK(ck_parallel_strided(ck_builder_root(&b), (char *)bout, sizeof(int64_t), &bsrc, &ss,
                                  big, &ctx) == CK_OK);
        for (int i = 0; i < big; i++) {
            CHECK(bout[i] == 1000 + i);
            if (bout[i] != 1000 + i) {
                break;
            }
        }
    }
    free(bin);
    free(bout);
    ck_builder_destroy(&b);

    /* A native function as a callable's leaf (libffi, linked by the package's dependencies). */
    {
        ck_callable *c = NULL;
        CHECK(ck_callable_new("diff3", &c) == CK_OK);
        const int rc = ck_callable_add_native(c, "ii)i", (void (*)(void))diff3);
#if CK_WITH_FFI
        CHECK(rc == CK_OK);
        ck_type *t = NULL;
        ck_array *x = NULL, *y = NULL, *r = NULL;
        char *text = NULL;
        CHECK(ck_type_parse("3 * int32", &t) == CK_OK);
        CHECK(ck_array_parse(t, "[1, -2, 30]", &x) == CK_OK);
        CHECK(ck_array_parse(t, "[1, 1, 10]", &y) == CK_OK);
        const ck_array *args[2] = {x, y};
        CHECK(ck_call_new(c, 2, args, NULL, &r) == CK_OK);
        CHECK(r != NULL && ck_array_format(r, &text) == CK_OK && strcmp(text, "[-2, -5, 0]") == 0);
        ck_free(text);
        ck_array_free(r);
        ck_array_free(x);
        ck_array_free(y);
        ck_type_decref(t);
#else
        CHECK(rc == CK_ERR_UNSUPPORTED);
#endif
        ck_callable_decref(c);
    }

    /* Float literals: read correctly rounded (fast_float, compiled in) and printed shortest
     * (double-conversion, which the shared library links privately and the archive carries
     * inside). */
    {
        ck_type *t = NULL;
        ck_array *a = NULL;
        char *text = NULL;
        const char *lit = "[0.1, 0.30000000000000004, 1e+16, 5e-324, -1.5e-07, 100]";
        CHECK(ck_type_parse("6 * float64", &t) == CK_OK);
        CHECK(ck_array_parse(t, lit, &a) == CK_OK);
        CHECK(a != NULL && ((const double *)(const void *)ck_array_data(a))[1] == 0.1 + 0.2);
        CHECK(a != NULL && ck_array_format(a, &text) == CK_OK && strcmp(text, lit) == 0);
        ck_free(text);
        ck_array_free(a);
        ck_type_decref(t);
    }

    /* The process's malloc must still be the C library's, not ckernel's jemalloc. */
    Dl_info info;
    void *m = dlsym(RTLD_DEFAULT, "malloc");
    CHECK(m != NULL && dladdr(m, &info) != 0 && info.dli_fname != NULL &&
          strstr(info.dli_fname, "libc.so") != NULL);
    CHECK(dlsym(RTLD_DEFAULT, "mallocx") == NULL);
    CHECK(dlsym(RTLD_DEFAULT, "ck__je_mallocx") == NULL); /* the private allocator is hidden */

    ck_alloc_stats st;
    ck_get_alloc_stats(&st);
    CHECK(st.live == 0 && st.allocations >= 1);
    printf("consumer_c: %s (allocator: %s, threads: %s)\n", failures ? "FAILED" : "ok",
           ck_allocator_name(), ck_parallel_backend());
    return failures ? 1 : 0;
}
