/* tests/support/sanitizer_defaults.c: sanitizer options compiled into every test executable,
 * so `ctest` behaves the same with or without CI's environment. Tests ask for impossible sizes
 * on purpose and check that ckernel reports CK_ERR_NOMEM, so the allocator must return NULL
 * rather than abort. Unused (and harmless) in builds without sanitizers. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) {
    return "allocator_may_return_null=1:detect_leaks=1:strict_string_checks=1";
}
