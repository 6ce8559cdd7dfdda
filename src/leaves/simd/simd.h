/* src/leaves/simd/simd.h: this CPU target's vector bodies, one header per ISA level, for
 * the *.dispatch.c sources (include after targets/dispatch_target.h). The levels a target
 * has are included highest first (x86: avx512, avx2, sse2; aarch64: neon; then purec: one
 * lane, for what none gave), and each body a level gives is defined unless a higher level
 * defined its own, so the best body wins without an #if per ISA in the kernels. Each group of bodies announces itself by a macro,
 * which the kernels test where a target may have none (not x86, say):
 *   CK__SIMD_F16_CASTS     ck__v_f32_from_f16, ck__v_f64_from_f16, ck__v_f16_from_f32
 *   CK__SIMD_F64_FROM_I64  ck__v_f64_from_i64
 *   CK__SIMD_I32_FROM_F64  ck__v_i32_from_f64 (nocheck saturation)
 *     each of them: (dst, src, n, ...) converts a prefix of a contiguous run and returns
 *     its length, as ck__fast_contig (scalar_assign.dispatch.c) describes
 *   CK__SIMD_HALF_VECTORS  ck__vf (CK__F16_LANES float32 lanes), ck__vf_load_half,
 *                          ck__vf_store_half, ck__vf_set1, ck__vf_add/_sub/_mul/_div
 *   CK__SIMD_BLOCK_4       block_4 (CK__B4 square, CK__VW4-byte stores) and block_widen
 *                          (CK__BW x 8, CK__VWW): tile transposes of 4-byte elements
 *   CK__SIMD_BLOCK_8       block_8 (CK__B8, CK__VW8): of 8-byte elements
 *   CK__SIMD_STREAM_LINES  ck__nt_line_copy, _i32_f64, _f32_f64, _f64_f32, _f64_i32: one
 *                          64-byte destination line with non-temporal stores
 *   CK__SIMD_MINMAX        CK__VPD, CK__VPS and their primitives (reduce_ops.dispatch.c)
 *   CK__SIMD_SLEEF         CK__VMD_LANES, CK__VMF_LANES (float64 and float32 lanes), their
 *                          unaligned loads and stores, and CK__SLEEF_D(f, u), CK__SLEEF_F,
 *                          CK__SLEEF_FMA_D, CK__SLEEF_FMA_F: the names of SLEEF's
 *                          deterministic functions without and with FMA (vmath_ops.h)
 *   CK__SIMD_SLEEF1        the same of the narrowest vectors (CK__VMD1_LANES, CK__SLEEF1_D,
 *                          ...), for one element at a time
 * A new ISA level is one header here and its line below. */
#ifndef CKERNEL_SIMD_H
#define CKERNEL_SIMD_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "targets/dispatch_target.h"

/* A body a kernel file may not call (another kernel's): defined, never emitted unused. */
#if defined(__GNUC__) || defined(__clang__)
#  define CK__SIMD_BODY static __attribute__((unused))
#  define CK__BLOCK_INLINE static inline __attribute__((always_inline))
#else
#  define CK__SIMD_BODY static
#  define CK__BLOCK_INLINE static inline
#endif

#if CK__HAVE_F16C || CK__HAVE_AVX512
/* vcvtps2ph's rounding given explicitly: nearest even whatever MXCSR says. */
#  define CK__F16_RNE (_MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
#endif

#if CK__HAVE_AVX512
#  include "leaves/simd/x86_avx512.h"
#endif
#if defined(__AVX2__)
#  include "leaves/simd/x86_avx2.h"
#endif
#if defined(__SSE2__)
#  include "leaves/simd/x86_sse2.h"
#endif
#if CK__HAVE_A64_F16
#  include "leaves/simd/a64_neon.h"
#endif
#include "leaves/simd/purec.h" /* what no level above gave: one lane */

#endif
