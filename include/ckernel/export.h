/* ckernel/export.h: CK_EXTERN, the one macro that marks a symbol as part of the public ABI.
 * The library is compiled with hidden visibility; only CK_EXTERN symbols are exported. */
#ifndef CKERNEL_EXPORT_H
#define CKERNEL_EXPORT_H

#if defined(_WIN32)
#  if defined(CK_BUILDING_SHARED)
#    define CK_EXTERN __declspec(dllexport)
#  elif defined(CK_STATIC)
#    define CK_EXTERN
#  else
#    define CK_EXTERN __declspec(dllimport)
#  endif
#elif defined(__GNUC__) || defined(__clang__)
#  define CK_EXTERN __attribute__((visibility("default")))
#else
#  define CK_EXTERN
#endif

#ifdef __cplusplus
#  define CK_BEGIN_DECLS extern "C" {
#  define CK_END_DECLS }
#else
#  define CK_BEGIN_DECLS
#  define CK_END_DECLS
#endif

#endif
