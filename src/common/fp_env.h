/* src/common/fp_env.h: the floating-point environment a kernel call runs in (docs/design.md
 * §8, "The FP environment"). A root kernel call, and each task of a parallel call, enters the
 * IEEE default (round to nearest even, no flush to zero, no denormals read as zero, no traps)
 * or, with CK_EVAL_FLUSH_DENORMALS, that with denormals flushed; it leaves with the caller's
 * mode back and the exception flags the work raised added to the caller's. Entering reads
 * the control register and writes it only when the mode differs (a few ns on x86; a change of
 * rounding direction costs more), so the default case is one read and a compare.
 *
 * x86 (SSE, MXCSR), AArch64 (FPCR; the flags are FPSR's, apart) and 32-bit Arm with VFP
 * (FPSCR) by their registers; elsewhere (POWER, s390x) the rounding direction through
 * <fenv.h>, and the flush-to-zero opt-in does nothing there. */
#ifndef CKERNEL_FP_ENV_H
#define CKERNEL_FP_ENV_H

#include <stdint.h>

#if defined(__SSE2__) || defined(__x86_64__)
#  include <xmmintrin.h>
#  define CK__FP_ENV_MXCSR 1
#elif defined(__aarch64__)
#  define CK__FP_ENV_FPCR 1
#elif defined(__arm__) && defined(__ARM_FP)
#  define CK__FP_ENV_FPSCR 1
#else
#  include <fenv.h>
#  define CK__FP_ENV_FENV 1
#endif

typedef struct ck__fp_env {
    uint64_t saved; /* the caller's control register (or rounding direction) */
    int switched;   /* 1: the mode was changed and goes back on leave */
} ck__fp_env;

#if defined(CK__FP_ENV_MXCSR)
/* MXCSR: bits 0-5 the exception flags, 6 DAZ, 7-12 the masks, 13-14 rounding, 15 FTZ. */
#  define CK__MXCSR_FLAGS 0x003Fu
#  define CK__MXCSR_IEEE 0x1F80u  /* every exception masked, to nearest, no FTZ or DAZ */
#  define CK__MXCSR_FLUSH 0x8040u /* FTZ and DAZ */
static inline uint64_t ck__fp_mode_now(void) {
    return _mm_getcsr() & ~CK__MXCSR_FLAGS;
}
static inline uint64_t ck__fp_mode_ieee(int flush) {
    return CK__MXCSR_IEEE | (flush ? CK__MXCSR_FLUSH : 0u);
}
static inline void ck__fp_env_enter_mode(ck__fp_env *e, uint64_t want) {
    const unsigned m = _mm_getcsr();
    e->saved = m;
    e->switched = (m & ~CK__MXCSR_FLAGS) != (unsigned)want;
    if (e->switched) {
        _mm_setcsr((unsigned)want | (m & CK__MXCSR_FLAGS));
    }
}
static inline void ck__fp_env_leave(const ck__fp_env *e) {
    if (e->switched) {
        _mm_setcsr(((unsigned)e->saved & ~CK__MXCSR_FLAGS) | (_mm_getcsr() & CK__MXCSR_FLAGS));
    }
}
#elif defined(CK__FP_ENV_FPCR)
/* FPCR holds the mode alone (the flags are FPSR's): 0 is the IEEE default; FZ is bit 24. */
static inline uint64_t ck__fpcr_get(void) {
    uint64_t r;
    __asm__ __volatile__("mrs %0, fpcr" : "=r"(r));
    return r;
}
static inline void ck__fpcr_set(uint64_t r) {
    __asm__ __volatile__("msr fpcr, %0" : : "r"(r));
}
static inline uint64_t ck__fp_mode_now(void) {
    return ck__fpcr_get();
}
static inline uint64_t ck__fp_mode_ieee(int flush) {
    return flush ? (UINT64_C(1) << 24) : 0u;
}
static inline void ck__fp_env_enter_mode(ck__fp_env *e, uint64_t want) {
    e->saved = ck__fpcr_get();
    e->switched = e->saved != want;
    if (e->switched) {
        ck__fpcr_set(want);
    }
}
static inline void ck__fp_env_leave(const ck__fp_env *e) {
    if (e->switched) {
        ck__fpcr_set(e->saved);
    }
}
#elif defined(CK__FP_ENV_FPSCR)
/* FPSCR: the mode is bits 22-23 (rounding), 24 (FZ), 25 (DN) and the trap enables 8-12, 15;
 * the rest (flags, condition codes) stays as the work leaves it. */
#  define CK__FPSCR_MODE 0x03C09F00u
static inline uint32_t ck__fpscr_get(void) {
    uint32_t r;
    __asm__ __volatile__("vmrs %0, fpscr" : "=r"(r));
    return r;
}
static inline void ck__fpscr_set(uint32_t r) {
    __asm__ __volatile__("vmsr fpscr, %0" : : "r"(r));
}
static inline uint64_t ck__fp_mode_now(void) {
    return ck__fpscr_get() & CK__FPSCR_MODE;
}
static inline uint64_t ck__fp_mode_ieee(int flush) {
    return flush ? (UINT32_C(1) << 24) : 0u;
}
static inline void ck__fp_env_enter_mode(ck__fp_env *e, uint64_t want) {
    const uint32_t s = ck__fpscr_get();
    e->saved = s;
    e->switched = (s & CK__FPSCR_MODE) != (uint32_t)want;
    if (e->switched) {
        ck__fpscr_set((s & ~CK__FPSCR_MODE) | (uint32_t)want);
    }
}
static inline void ck__fp_env_leave(const ck__fp_env *e) {
    if (e->switched) {
        ck__fpscr_set((ck__fpscr_get() & ~CK__FPSCR_MODE) |
                      ((uint32_t)e->saved & CK__FPSCR_MODE));
    }
}
#else
static inline uint64_t ck__fp_mode_now(void) {
    return (uint64_t)(uint32_t)fegetround();
}
static inline uint64_t ck__fp_mode_ieee(int flush) {
    (void)flush;
    return (uint64_t)(uint32_t)FE_TONEAREST;
}
static inline void ck__fp_env_enter_mode(ck__fp_env *e, uint64_t want) {
    const int r = fegetround();
    e->saved = (uint64_t)(uint32_t)r;
    e->switched = r != (int)(uint32_t)want;
    if (e->switched) {
        fesetround((int)(uint32_t)want);
    }
}
static inline void ck__fp_env_leave(const ck__fp_env *e) {
    if (e->switched) {
        fesetround((int)(uint32_t)e->saved);
    }
}
#endif

/* Enters the IEEE default (flush: with denormals flushed). ck__fp_env_enter_mode enters a
 * mode ck__fp_mode_now read on another thread (a parallel call's workers take the caller's
 * mode under CK_EVAL_HOST_FP_ENV). */
static inline void ck__fp_env_enter(ck__fp_env *e, int flush) {
    ck__fp_env_enter_mode(e, ck__fp_mode_ieee(flush));
}

#endif
