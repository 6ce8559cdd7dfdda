/* ckernel/cpu_targets.h: the one table of CPU targets, every architecture's (docs/design.md
 * §8). ckernel/cpu.h makes the ck_cpu_target enum of the architecture being compiled from it,
 * src/targets/cpu.c its names and detection, and cmake/CkDispatch.cmake reads the rows as
 * text for the targets' compiler flags: keep one row per line, in this exact form.
 *
 * A row: X(arch, name, ENUM, "compiler flags", detection predicate). Within an architecture
 * the rows are in order of preference, lowest first; a target's enum value is its position
 * there. The predicate is the cpu_features fields the target needs beyond the rows before
 * it, each as F(field) (X86Features, Aarch64Features, ArmFeatures; POWER's fields are
 * src/targets/cpu.c's); the baseline needs none, the compiler assumes it. An architecture
 * without rows (s390x, ...) is OTHER: the baseline only. Adding a target: one row here,
 * plus any hand-written bodies in the *.dispatch.c files. */
#ifndef CKERNEL_CPU_TARGETS_H
#define CKERNEL_CPU_TARGETS_H

/* clang-format off */
#define CK_CPU_TARGET_TABLE(X) \
    X(X86_64, baseline, BASELINE, "", ) \
    X(X86_64, avx2, AVX2, "-march=x86-64-v3", F(avx) F(avx2) F(fma3) F(f16c) F(bmi1) F(bmi2) F(movbe)) \
    X(X86_64, avx512, AVX512, "-march=x86-64-v4 -mprefer-vector-width=512", F(avx512f) F(avx512bw) F(avx512cd) F(avx512dq) F(avx512vl)) \
    X(AARCH64, baseline, BASELINE, "", ) \
    X(AARCH64, asimdhp, ASIMDHP, "-march=armv8.2-a+fp16+dotprod", F(fphp) F(asimdhp) F(asimddp)) \
    X(AARCH64, sve, SVE, "-march=armv8.2-a+fp16+dotprod+sve", F(sve)) \
    X(ARM, baseline, BASELINE, "", ) \
    X(ARM, neon, NEON, "-mfpu=neon", F(neon)) \
    X(PPC64, baseline, BASELINE, "", ) \
    X(PPC64, vsx3, VSX3, "-mcpu=power9", F(arch300)) \
    X(PPC64, vsx4, VSX4, "-mcpu=power10", F(arch31)) \
    X(OTHER, baseline, BASELINE, "", )
/* clang-format on */

/* What `ckernel info` lists as detected: X(arch, shown name, cpu_features field). */
#define CK_CPU_FEATURE_TABLE(X)                                                                \
    X(X86_64, sse2, sse2) X(X86_64, sse4_2, sse4_2) X(X86_64, avx, avx) X(X86_64, avx2, avx2)  \
    X(X86_64, fma, fma3) X(X86_64, f16c, f16c) X(X86_64, bmi1, bmi1) X(X86_64, bmi2, bmi2)     \
    X(X86_64, movbe, movbe) X(X86_64, avx512f, avx512f) X(X86_64, avx512bw, avx512bw)          \
    X(X86_64, avx512cd, avx512cd) X(X86_64, avx512dq, avx512dq) X(X86_64, avx512vl, avx512vl)  \
    X(AARCH64, asimd, asimd) X(AARCH64, fphp, fphp) X(AARCH64, asimdhp, asimdhp)               \
    X(AARCH64, asimddp, asimddp) X(AARCH64, asimdfhm, asimdfhm) X(AARCH64, sve, sve)           \
    X(AARCH64, sve2, sve2) X(ARM, vfpv3, vfpv3) X(ARM, vfpd32, vfpd32) X(ARM, vfpv4, vfpv4)     \
    X(ARM, neon, neon) X(PPC64, vsx, vsx) X(PPC64, arch_2_07, arch207)                         \
    X(PPC64, arch_3_00, arch300) X(PPC64, arch_3_1, arch31)

/* CK__CPU_ARCH_<arch>(...) keeps its arguments for the architecture being compiled and drops
 * them for the others. */
#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__)
#  define CK__CPU_ARCH_X86_64(...) __VA_ARGS__
#elif defined(__aarch64__) || defined(_M_ARM64)
#  define CK__CPU_ARCH_AARCH64(...) __VA_ARGS__
#elif defined(__arm__) && defined(__ARM_PCS_VFP) /* 32-bit Arm, hard float */
#  define CK__CPU_ARCH_ARM(...) __VA_ARGS__
#elif defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)
#  define CK__CPU_ARCH_PPC64(...) __VA_ARGS__
#else
#  define CK__CPU_ARCH_OTHER(...) __VA_ARGS__
#endif
#ifndef CK__CPU_ARCH_X86_64
#  define CK__CPU_ARCH_X86_64(...)
#endif
#ifndef CK__CPU_ARCH_AARCH64
#  define CK__CPU_ARCH_AARCH64(...)
#endif
#ifndef CK__CPU_ARCH_ARM
#  define CK__CPU_ARCH_ARM(...)
#endif
#ifndef CK__CPU_ARCH_PPC64
#  define CK__CPU_ARCH_PPC64(...)
#endif
#ifndef CK__CPU_ARCH_OTHER
#  define CK__CPU_ARCH_OTHER(...)
#endif

#endif
