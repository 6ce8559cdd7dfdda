/* tests/support/sanitizer_defaults.c: sanitizer options compiled into every test executable,
 * so `ctest` behaves the same with or without CI's environment. Tests ask for impossible sizes
 * on purpose and check that ckernel reports CK_ERR_NOMEM, so the allocator must return NULL
 * rather than abort. intercept_tls_get_addr=0: LeakSanitizer's tracking of dynamic TLS (the
 * JIT plugin's libLLVM, loaded by dlopen, has thread_local data) misreads glibc 2.36's blocks,
 * and its tracer then crashed now and then at exit ("Tracer caught signal 11") after a passing
 * test under load; without it the JIT suites report no leak either. Unused (and harmless) in
 * builds without sanitizers. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) {
    return "allocator_may_return_null=1:detect_leaks=1:strict_string_checks=1:"
           "intercept_tls_get_addr=0";
}
