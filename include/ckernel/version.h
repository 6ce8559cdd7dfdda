/* ckernel/version.h: the library version. CMake reads the three numbers below, so keep
 * their form; ck_version_string()/ck_version_number() report the version actually linked. */
#ifndef CKERNEL_VERSION_H
#define CKERNEL_VERSION_H

#include "ckernel/export.h"

#define CK_VERSION_MAJOR 0
#define CK_VERSION_MINOR 1
#define CK_VERSION_PATCH 0

#define CK__STRINGIFY_(x) #x
#define CK__STRINGIFY(x) CK__STRINGIFY_(x)
#define CK_VERSION_STRING                                   \
    CK__STRINGIFY(CK_VERSION_MAJOR) "." CK__STRINGIFY(CK_VERSION_MINOR) "." \
    CK__STRINGIFY(CK_VERSION_PATCH)
/* major * 10000 + minor * 100 + patch, for compile-time comparisons. */
#define CK_VERSION_NUMBER (CK_VERSION_MAJOR * 10000 + CK_VERSION_MINOR * 100 + CK_VERSION_PATCH)

CK_BEGIN_DECLS
CK_EXTERN const char *ck_version_string(void);
CK_EXTERN unsigned ck_version_number(void);
/* How this copy was built: "build=Release jemalloc=private tbb=on ..." (one line). */
CK_EXTERN const char *ck_build_options(void);
CK_END_DECLS

#endif
