#!/usr/bin/env bash
# The test command of the other hosts (docs/design.md §8): installs what is missing
# (scripts/install-deps-cross.sh), cross-builds everything into build-ARCH/ with
# cmake/toolchain-<triple>.cmake, then runs the whole ctest suite once per CPU target of ARCH
# and prints ctest's summary of each run. i386 runs natively (capped by CKERNEL_CPU_TARGET;
# a target this CPU lacks is skipped and says so), the others under qemu's user-mode
# emulator, the CPU chosen by QEMU_CPU:
#   aarch64  baseline, asimdhp  QEMU_CPU=max (FP16, dot product and SVE), capped
#            sve128, sve512     QEMU_CPU=max with SVE vectors of 128 and 512 bits, uncapped:
#                               the vector-length-agnostic leaves proven at both lengths
#   i386     baseline, avx2, avx512   this CPU, capped
#   armhf    baseline           QEMU_CPU=max, capped (VFP only)
#            neon               QEMU_CPU=max, uncapped
#   ppc64le  baseline, vsx3, vsx4     QEMU_CPU=power8, power9, power10, uncapped: each CPU's
#                                     own best (HWCAP2), which `ckernel info` shows first
#   s390x    baseline           qemu's default CPU; big-endian
# Emulation proves correctness only; its timings mean nothing. The suite runs as on x86-64,
# but for the soak label (the JIT's, which cross builds have no plugin for) and the tests that
# need the host's Python and NumPy, which are skipped with that reason.
#
# Usage: bash scripts/test-cross.sh ARCH [--ci] [RUN...]   (default: every run of ARCH)
#   --ci  the slice .ci/run takes, to stay within CI's time (emulation runs the whole suite
#         in 10-40 min of 2 cores per run). It builds into build-ARCH-ci/, without
#         jemalloc (its cross build alone is a minute or more of CI's two cores). i386
#         (native, fast) runs the whole suite at its best target only. The emulated
#         architectures build only the library, the CLI and the suites in CI_SUITES below,
#         the ones that hold what differs between hosts; the other suites are the full
#         runs'. Their last run (the best target) runs those suites but CI_SKIP (the long
#         random sweeps of code that is the same C on every target); each other run only
#         the target selection tests, to see the emulated CPU detected as that target (an
#         uncapped run already runs each per-target test at every target up to its own).
# Exit status: 1 when any run failed.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
jobs=${CK_JOBS:-$(nproc)}
arch=${1:-}
shift || true

# ARCH -> the toolchain file's triple, qemu's name (none: native), every run of the suite.
case $arch in
  aarch64) triple=aarch64-linux-gnu qemu=aarch64 all=(baseline asimdhp sve128 sve512) ;;
  i386) triple=i686-linux-gnu qemu= all=(baseline avx2 avx512) ;;
  armhf) triple=arm-linux-gnueabihf qemu=arm all=(baseline neon) ;;
  ppc64le) triple=powerpc64le-linux-gnu qemu=ppc64le all=(baseline vsx3 vsx4) ;;
  s390x) triple=s390x-linux-gnu qemu=s390x all=(baseline) ;;
  *) echo "usage: bash scripts/test-cross.sh ARCH [--ci] [RUN...]" \
          "(ARCH: aarch64, i386, armhf, ppc64le, s390x)" >&2
     exit 2 ;;
esac
# A run -> QEMU_CPU (qemu's CPU; i386: unused) and the cap (CKERNEL_CPU_TARGET; empty: the
# CPU's best).
run_cpu() {
  case $arch:$1 in
    aarch64:baseline | aarch64:asimdhp) cpu=max cap=$1 ;;
    aarch64:sve128) cpu=max,sve128=on cap= ;;
    aarch64:sve512) cpu=max,sve512=on,sve-default-vector-length=64 cap= ;;
    i386:*) cpu= cap=$1 ;;
    armhf:baseline) cpu=max cap=baseline ;;
    armhf:neon) cpu=max cap= ;;
    ppc64le:baseline) cpu=power8 cap= ;;
    ppc64le:vsx3) cpu=power9 cap= ;;
    ppc64le:vsx4) cpu=power10 cap= ;;
    s390x:baseline) cpu=max cap= ;;
    *) echo "test-cross: $arch has no run '$1' (${all[*]})" >&2; exit 2 ;;
  esac
}

ci=0
if [ "${1:-}" = --ci ]; then ci=1; shift; fi
runs=("$@")
if [ ${#runs[@]} -eq 0 ]; then
  runs=("${all[@]}")
  # i386 in CI: the whole suite at the best target this CPU has.
  if [ "$ci" = 1 ] && [ "$arch" = i386 ]; then runs=(); fi
fi
for run in "${runs[@]}"; do run_cpu "$run"; done

bash scripts/install-deps-cross.sh "$arch"
# CI's suites on the emulated architectures (labels: each suite is its executable's name):
# target selection, casts, the ufuncs and their digests, reductions, the FP environment and
# the composition fuzzer's replay everywhere; what each architecture's own faults were
# found in besides (s390x: byte order in types, literals and text; armhf: number text
# without a wide long double; ppc64le: the transposes' NaNs).
CI_SUITES=(ck_dispatch_tests ck_cast_tests ck_callables_tests ck_fpenv_tests
           ck_fuzz_replay_compose)
case $arch in
  s390x) CI_SUITES+=(ck_types_unit_tests ck_types_api_tests ck_text_tests) ;;
  armhf) CI_SUITES+=(ck_types_unit_tests) ;;
  ppc64le) CI_SUITES+=(ck_assign_tests) ;;
esac
build=build-$arch
jemalloc=ON
targets=()
if [ "$ci" = 1 ]; then
  # CI builds without jemalloc (its cross build alone is a minute or more of 2 cores); the
  # emulated architectures only the library, the CLI and CI_SUITES.
  build=build-$arch-ci jemalloc=OFF
  [ -z "$qemu" ] || targets=(--target ckernel_cli "${CI_SUITES[@]}")
fi
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCK_WERROR=ON \
      -DCK_WITH_JEMALLOC=$jemalloc \
      -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/toolchain-$triple.cmake" >/dev/null
cmake --build "$build" -j"$jobs" "${targets[@]}"
built=$(date +%s)
echo "test-cross $arch: built in $((built - start)) s"

emulator=()
[ -z "$qemu" ] || emulator=("qemu-$qemu-static")
if [ ${#runs[@]} -eq 0 ]; then
  # (i386 --ci) the best target this CPU and build have, as `ckernel info` chooses it
  runs=("$("${build}/bin/ckernel" info | sed -n 's/^ *cpu chosen: *\([a-z0-9]*\).*/\1/p')")
fi
# Whether this CPU has target $1 (native runs): at or below the one `ckernel info` detects.
has_target() {
  local detected t
  detected=$("$build/bin/ckernel" info | sed -n 's/^ *cpu detected: *\([a-z0-9]*\).*/\1/p')
  for t in "${all[@]}"; do
    [ "$t" != "$1" ] || return 0
    [ "$t" != "$detected" ] || return 1
  done
  return 1
}
CI_SKIP='^(BenchCli\.|Bench/KernelEqualsLoop\.|TypesNumText\.(Random|ReadsEveryDecimal|ShortDecimalsExactlyHalfway)|TypesFloat16\.(StridedSweep|RandomDoubles)|TextVarCompare\.|TextNumber\.IntegerTextAtEveryLength|ExprStreaming\.)'
last=${runs[${#runs[@]}-1]}
summaries=() failed=0
for run in "${runs[@]}"; do
  run_cpu "$run"
  t0=$(date +%s)
  echo
  echo "===== $arch $run:${cpu:+ QEMU_CPU=$cpu}${cap:+ CKERNEL_CPU_TARGET=$cap}"
  if [ -n "$cpu" ]; then export QEMU_CPU=$cpu; else unset QEMU_CPU; fi
  unset CKERNEL_CPU_TARGET
  if [ -z "$qemu" ] && ! has_target "$run"; then
    summaries+=("$run: skipped, this CPU has no $run")
    echo "skipped: this CPU has no $run"
    continue
  fi
  if [ -n "$cap" ]; then export CKERNEL_CPU_TARGET=$cap; fi
  # What the library sees: the target it picks and the features it read.
  "${emulator[@]}" "$build/bin/ckernel" info | grep -E '^ *cpu' || true
  log=$build/ctest-$run.log
  status=0
  slice=()
  if [ "$ci" = 1 ] && [ -n "$qemu" ]; then
    suites=$(IFS='|'; echo "${CI_SUITES[*]}")
    slice=(-L "^($suites)\$")
    if [ "$run" = "$last" ]; then
      slice+=(-E "$CI_SKIP")
    else
      slice+=(-R "^TargetSelection\.")
    fi
  fi
  ctest --test-dir "$build" -j"$jobs" -LE soak "${slice[@]}" --no-tests=error \
        --output-on-failure >"$log" 2>&1 || status=$?
  summary=$(grep -E 'tests passed|tests failed' "$log" || echo "no summary (see $log)")
  skipped=$(grep -cE '^\s+[0-9]+ - .*\(Skipped\)' "$log" || true)
  echo "$summary; $skipped skipped (their reasons in $log)"
  grep -A1000 'The following tests FAILED' "$log" | grep -E '^\s+[0-9]+ - ' || true
  summaries+=("$run: $summary, $skipped skipped ($(($(date +%s) - t0)) s)")
  [ "$status" -eq 0 ] || failed=1
done
unset QEMU_CPU CKERNEL_CPU_TARGET

echo
echo "===== test-cross $arch summary (build $((built - start)) s, total $(($(date +%s) - start)) s)"
printf '%s\n' "${summaries[@]}"
exit "$failed"
