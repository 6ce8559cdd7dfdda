/* src/leaves/numeric/streaming.dispatch.c: the streaming-store loops of the streaming kernel
 * (leaves/numeric/streaming.c), compiled once per CPU target: a copy, and the conversions worth a
 * loop of their own (lossless casts into float64, float64 -> float32 and float64 -> int32
 * nocheck, written straight from the source). Each takes a destination aligned to 64 bytes and a whole
 * number of 64-byte lines; the caller
 * does the head, the tail and the closing fence. Sources may be unaligned. Targets without
 * SSE2 (not x86-64) have none: the kernel is never built there. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "targets/dispatch_target.h"
#include "leaves/simd/simd.h" /* the lines: one 64-byte destination line per ISA */
#include "core/streaming_loops.h"

#ifdef CK__SIMD_STREAM_LINES

/* Loops that read at least as many bytes as they write ask for the source 2 KiB ahead, one
 * line at a time: on a machine whose hardware prefetcher did not keep up (an AVX-512 VM,
 * float64 -> int32 of 10 Mi elements) this took the loop from 0.69 to 0.46-0.52 ns/element,
 * against 0.42-0.47 for reading the source alone; loops that write more than they read are
 * bound by their stores and gain nothing. A prefetch never faults, so the addresses past the
 * source's end are harmless; they are formed as integers. */
#  define CK__PREFETCH_AHEAD 2048
static inline void prefetch_line(const char *s, size_t at) {
    _mm_prefetch((const char *)((uintptr_t)s + at + CK__PREFETCH_AHEAD), _MM_HINT_T0);
}

/* Bytes: a multiple of 64. */
static void nt_copy(char *d, const char *s, size_t bytes) {
    for (size_t i = 0; i < bytes; i += 64) {
        prefetch_line(s, i);
        ck__nt_line_copy(d + i, s + i);
    }
}

/* n: a multiple of 8 (one destination line). */
static void nt_int32_float64_contig(char *d, const char *s, size_t n) {
    double *out = (double *)(void *)d;
    for (size_t i = 0; i < n; i += 8) {
        const char *p = s + i * 4;
        ck__nt_line_i32_f64(out + i, p);
    }
}

/* n: a multiple of 8. */
static void nt_float32_float64_contig(char *d, const char *s, size_t n) {
    double *out = (double *)(void *)d;
    const float *in = (const float *)(const void *)s;
    for (size_t i = 0; i < n; i += 8) {
        ck__nt_line_f32_f64(out + i, in + i);
    }
}

/* n: a multiple of 16 (one destination line). The C conversion (float)x of the nocheck
 * leaf: rounded in the current mode, inf beyond the range, NaN kept quiet. */
static void nt_float64_float32_contig(char *d, const char *s, size_t n) {
    float *out = (float *)(void *)d;
    const double *in = (const double *)(const void *)s;
    for (size_t i = 0; i < n; i += 16) {
        prefetch_line(s, i * 8);
        prefetch_line(s, i * 8 + 64);
        ck__nt_line_f64_f32(out + i, in + i);
    }
}

/* n: a multiple of 16. The nocheck leaf's saturation, by the same vector body. */
static void nt_float64_int32_contig(char *d, const char *s, size_t n) {
    const double *in = (const double *)(const void *)s;
    for (size_t i = 0; i < n; i += 16) {
        char *out = d + i * 4;
        prefetch_line(s, i * 8);
        prefetch_line(s, i * 8 + 64);
        ck__nt_line_f64_i32(out, in + i);
    }
}

/* ---- strided sources: elements loaded one by one (memcpy: any alignment), converted and
 * streamed a line at a time, the source asked for about 4 KiB ahead ---- */

static inline int32_t ld_i32(const char *s, intptr_t ss, size_t i) {
    int32_t v;
    memcpy(&v, s + (intptr_t)i * ss, sizeof v);
    return v;
}
static inline float ld_f32(const char *s, intptr_t ss, size_t i) {
    float v;
    memcpy(&v, s + (intptr_t)i * ss, sizeof v);
    return v;
}
static inline double ld_f64(const char *s, intptr_t ss, size_t i) {
    double v;
    memcpy(&v, s + (intptr_t)i * ss, sizeof v);
    return v;
}

/* 8 int32 (or float32) at elements i..i+7 of a strided source, as two 4-lane vectors. */
#  define CK__LD4_I32(s, ss, i)                                                            \
    _mm_setr_epi32(ld_i32(s, ss, (i)), ld_i32(s, ss, (i) + 1), ld_i32(s, ss, (i) + 2),     \
                   ld_i32(s, ss, (i) + 3))
#  define CK__LD4_F32(s, ss, i)                                                            \
    _mm_setr_ps(ld_f32(s, ss, (i)), ld_f32(s, ss, (i) + 1), ld_f32(s, ss, (i) + 2),        \
                ld_f32(s, ss, (i) + 3))
#  define CK__LD2_F64(s, ss, i) _mm_setr_pd(ld_f64(s, ss, (i)), ld_f64(s, ss, (i) + 1))

/* n: a multiple of 8. */
static void nt_int32_float64_strided(char *d, const char *s, intptr_t ss, size_t n) {
    double *out = (double *)(void *)d;
    const size_t ahead = ck__prefetch_ahead(ss);
    for (size_t i = 0; i < n; i += 8) {
        ck__prefetch_strided(s, ss, i + ahead, 8);
        const __m128i a = CK__LD4_I32(s, ss, i), b = CK__LD4_I32(s, ss, i + 4);
        ck__nt_line_i32x8_f64(out + i, a, b);
    }
}

/* n: a multiple of 8. */
static void nt_float32_float64_strided(char *d, const char *s, intptr_t ss, size_t n) {
    double *out = (double *)(void *)d;
    const size_t ahead = ck__prefetch_ahead(ss);
    for (size_t i = 0; i < n; i += 8) {
        ck__prefetch_strided(s, ss, i + ahead, 8);
        const __m128 a = CK__LD4_F32(s, ss, i), b = CK__LD4_F32(s, ss, i + 4);
        ck__nt_line_f32x8_f64(out + i, a, b);
    }
}

/* n: a multiple of 16. */
static void nt_float64_float32_strided(char *d, const char *s, intptr_t ss, size_t n) {
    float *out = (float *)(void *)d;
    const size_t ahead = ck__prefetch_ahead(ss);
    for (size_t i = 0; i < n; i += 16) {
        ck__prefetch_strided(s, ss, i + ahead, 16);
        for (size_t j = 0; j < 16; j += 4) {
            const __m128 lo = _mm_cvtpd_ps(CK__LD2_F64(s, ss, i + j));
            const __m128 hi = _mm_cvtpd_ps(CK__LD2_F64(s, ss, i + j + 2));
            _mm_stream_ps(out + i + j, _mm_movelh_ps(lo, hi));
        }
    }
}

/* n: a multiple of 16. The contiguous leaf's lane conversion (leaves/simd/): its bits. */
static void nt_float64_int32_strided(char *d, const char *s, intptr_t ss, size_t n) {
    const size_t ahead = ck__prefetch_ahead(ss);
    for (size_t i = 0; i < n; i += 16) {
        ck__prefetch_strided(s, ss, i + ahead, 16);
#  define CK__LD_AT(j) ld_f64(s, ss, i + (j))
        CK__NT_LINE_F64_I32_BY(d + i * 4, CK__LD_AT);
#  undef CK__LD_AT
    }
}

/* The kernel's cast loops: contiguous sources by the loops above, others element by
 * element. */
#  define CK__CAST_LOOP(name, src_size)                                                    \
    static void name(char *d, const char *s, intptr_t ss, size_t n) {                      \
        if (ss == (intptr_t)(src_size)) {                                                  \
            name##_contig(d, s, n);                                                        \
        } else {                                                                           \
            name##_strided(d, s, ss, n);                                                   \
        }                                                                                  \
    }
CK__CAST_LOOP(nt_int32_float64, 4)
CK__CAST_LOOP(nt_float32_float64, 4)
CK__CAST_LOOP(nt_float64_float32, 8)
CK__CAST_LOOP(nt_float64_int32, 8)

const ck__stream_loops CK_TARGET_NAME(ck__stream_loops) = {
    nt_copy, nt_int32_float64, nt_float32_float64, nt_float64_float32, nt_float64_int32};
#else
const ck__stream_loops CK_TARGET_NAME(ck__stream_loops) = {NULL, NULL, NULL, NULL, NULL};
#endif
