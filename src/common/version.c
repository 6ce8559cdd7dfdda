/* src/common/version.c: the runtime version and build description getters. */
#include "ckernel/config.h"
#include "ckernel/version.h"

const char *ck_version_string(void) {
    return CK_VERSION_STRING;
}

unsigned ck_version_number(void) {
    return CK_VERSION_NUMBER;
}

const char *ck_build_options(void) {
    return CK_BUILD_OPTIONS;
}
