/* src/leaves/simd/purec.h: the bodies of architectures with no vector level of their own
 * here (32-bit Arm, POWER, s390x, ...; included last from simd.h, so a level above defines
 * its own first): SLEEF's deterministic functions of one lane, Sleef_cinz_*1_u10purec, the
 * same bits as its vector ISAs give on x86-64 and AArch64 (its promise for the cinz family,
 * which ufunc_digest_test holds every host to). These CPUs get no FMA family
 * (ck__vmath_fma() is 0 there), so its names are the same functions. */
#ifndef CKERNEL_SIMD_PUREC_H
#define CKERNEL_SIMD_PUREC_H

#include <sleef.h>
#if defined(__ALTIVEC__) && !defined(__cplusplus)
/* On POWER sleef.h includes altivec.h, which makes bool, vector and pixel macros of its
 * keywords; the kernels pass bool as a type name to macros. */
#  undef bool
#  undef vector
#  undef pixel
#endif

/* One lane: a value, its loads and stores plain C; both families are the cinz one. */
#define CK__PUREC_D(f, u) Sleef_cinz_##f##d1_##u##purec
#define CK__PUREC_F(f, u) Sleef_cinz_##f##f1_##u##purec
#define CK__PUREC_LOAD(p) (*(p))
#define CK__PUREC_STORE(p, v) (*(p) = (v))

#ifndef CK__SIMD_SLEEF
#  define CK__SIMD_SLEEF 1
#  define CK__VMD_LANES 1
#  define CK__VMF_LANES 1
#  define CK__VMD_LOAD CK__PUREC_LOAD
#  define CK__VMD_STORE CK__PUREC_STORE
#  define CK__VMF_LOAD CK__PUREC_LOAD
#  define CK__VMF_STORE CK__PUREC_STORE
#  define CK__SLEEF_D CK__PUREC_D
#  define CK__SLEEF_F CK__PUREC_F
#  define CK__SLEEF_FMA_D CK__PUREC_D
#  define CK__SLEEF_FMA_F CK__PUREC_F
#endif
#ifndef CK__SIMD_SLEEF1
#  define CK__SIMD_SLEEF1 1
#  define CK__VMD1_LANES 1
#  define CK__VMF1_LANES 1
#  define CK__VMD1_LOAD CK__PUREC_LOAD
#  define CK__VMD1_STORE CK__PUREC_STORE
#  define CK__VMF1_LOAD CK__PUREC_LOAD
#  define CK__VMF1_STORE CK__PUREC_STORE
#  define CK__SLEEF1_D CK__PUREC_D
#  define CK__SLEEF1_F CK__PUREC_F
#  define CK__SLEEF1_FMA_D CK__PUREC_D
#  define CK__SLEEF1_FMA_F CK__PUREC_F
#endif

#endif
