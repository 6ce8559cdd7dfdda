/* src/leaves/numeric/f64_to_i32.h: float64 -> int32 nocheck on vectors, for the *.dispatch.c files
 * (the contiguous leaf in scalar_assign.dispatch.c, the streaming loop in
 * streaming.dispatch.c): one body, so both give the leaf's bits. Include after
 * targets/dispatch_target.h. */
#ifndef CKERNEL_F64_TO_I32_H
#define CKERNEL_F64_TO_I32_H

#if !CK__HAVE_AVX512 && !defined(__AVX2__) && defined(__SSE2__)
#  include <emmintrin.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* float64 -> int32, nocheck: the rules of CK__SATURATE in four vector operations. Lanes
 * that are NaN become 0.0 and the rest are clamped to at most INT32_MAX (min of a non-NaN
 * value), then the truncating conversion does the rest: it truncates toward zero whatever
 * the rounding mode, and every value whose truncation is below INT32_MIN (-inf included)
 * gives its "integer indefinite" result 0x80000000, which is INT32_MIN, the saturated
 * value (it raises the invalid flag, as the C loop's compares of NaN do; no result depends
 * on flags). gcc's own vectorization of the C loop keeps three 64-bit compare masks and
 * narrows each to 32-bit lanes with shuffles before blending (about 40 instructions per 8
 * elements in the avx2 target, 3.5x slower in cache). */
#if CK__HAVE_AVX512
static inline __m256i ck__i32_from_f64x8(__m512d v) {
    __mmask8 ord = _mm512_cmp_pd_mask(v, v, _CMP_ORD_Q);
    return _mm512_cvttpd_epi32(_mm512_maskz_min_pd(ord, v, _mm512_set1_pd(2147483647.0)));
}

#elif defined(__AVX2__)
static inline __m128i ck__i32_from_f64x4(__m256d v) {
    /* min(v, MAX) is MAX for a NaN v; the ordered mask then clears that lane to 0.0 */
    __m256d ord = _mm256_cmp_pd(v, v, _CMP_ORD_Q);
    __m256d c = _mm256_and_pd(_mm256_min_pd(v, _mm256_set1_pd(2147483647.0)), ord);
    return _mm256_cvttpd_epi32(c);
}

#elif defined(__SSE2__)
static inline __m128i ck__i32_from_f64x2(__m128d v) {
    __m128d c = _mm_and_pd(_mm_min_pd(v, _mm_set1_pd(2147483647.0)), _mm_cmpord_pd(v, v));
    return _mm_cvttpd_epi32(c); /* the two results in the low half */
}

#endif

#ifdef __cplusplus
}
#endif

#endif
