#!/usr/bin/env bash
# The aarch64 test command (docs/design.md §8): installs what is missing
# (scripts/install-deps-aarch64.sh), cross-builds everything into build-aarch64/ with
# cmake/toolchain-aarch64-linux-gnu.cmake, then runs the whole ctest suite under
# qemu-aarch64-static once per aarch64 target and prints ctest's summary of each run:
#   baseline, asimdhp  QEMU_CPU=max (it has FP16, dot product and SVE), the target capped by
#                      CKERNEL_CPU_TARGET
#   sve128, sve512     QEMU_CPU=max with SVE vectors of 128 and 512 bits, uncapped: the
#                      vector-length-agnostic leaves proven at both lengths
# Emulation proves correctness only; its timings mean nothing. The suite runs as on x86, but
# for the soak label (the JIT's, which this build has no plugin for) and the tests that need
# the host's Python and NumPy, which are skipped with that reason.
# Usage: bash scripts/test-aarch64.sh [--ci] [RUN...]   (default: all four runs)
#   --ci  the slice .ci/run takes, to stay within CI's time (emulation runs the whole suite in
#         about 40 min of 2 cores): sve512 runs every test but CI_SKIP below (the bench's
#         timing tests, whose figures mean nothing under qemu, and the long random sweeps of
#         code that is the same C on every target: number text, the float16 sweep of all
#         floats; the per-target leaf tests of baseline, asimdhp and sve run in it, as the
#         uncapped run iterates up to the ceiling); baseline, asimdhp and sve128 run the
#         target's own per-target tests (Targets/.../<target>), the target selection tests
#         and the float16 and dot tests (what asimdhp's flags change).
# Exit status: 1 when any run failed.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
jobs=${CK_JOBS:-$(nproc)}

bash scripts/install-deps-aarch64.sh
cmake -S . -B build-aarch64 -G Ninja -DCMAKE_BUILD_TYPE=Release -DCK_WERROR=ON \
      -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/toolchain-aarch64-linux-gnu.cmake" >/dev/null
cmake --build build-aarch64 -j"$jobs"
built=$(date +%s)
echo "test-aarch64: built in $((built - start)) s"

ci=0
if [ "${1:-}" = --ci ]; then ci=1; shift; fi
CI_SKIP='^(BenchCli\.|Bench/KernelEqualsLoop\.|TypesNumText\.Random|TypesFloat16\.StridedSweep|TextVarCompare\.|TextNumber\.IntegerTextAtEveryLength|ExprStreaming\.)'

runs=("$@")
[ ${#runs[@]} -ne 0 ] || runs=(baseline asimdhp sve128 sve512)
summaries=() failed=0
for run in "${runs[@]}"; do
  case $run in
    baseline | asimdhp) cpu=max cap=$run ;;
    sve128) cpu=max,sve128=on cap= ;;
    sve512) cpu=max,sve512=on,sve-default-vector-length=64 cap= ;;
    *) echo "test-aarch64: unknown run '$run' (baseline, asimdhp, sve128, sve512)" >&2; exit 2 ;;
  esac
  t0=$(date +%s)
  echo
  echo "===== $run: QEMU_CPU=$cpu${cap:+ CKERNEL_CPU_TARGET=$cap}"
  export QEMU_CPU=$cpu
  if [ -n "$cap" ]; then export CKERNEL_CPU_TARGET=$cap; else unset CKERNEL_CPU_TARGET; fi
  # What the library sees: the target it picks and the features (the SVE vector length too).
  qemu-aarch64-static build-aarch64/bin/ckernel info | grep -E '^ *cpu' || true
  log=build-aarch64/ctest-$run.log
  status=0
  slice=()
  if [ "$ci" = 1 ]; then
    case $run in
      sve512) slice=(-E "$CI_SKIP") ;;
      *) target=${run%128}
         slice=(-R "^Targets/.*/$target\$|^TargetSelection\.|Float16|Half|Dot") ;;
    esac
  fi
  ctest --test-dir build-aarch64 -j"$jobs" -LE soak "${slice[@]}" --no-tests=error \
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
echo "===== test-aarch64 summary (build $((built - start)) s, total $(($(date +%s) - start)) s)"
printf '%s\n' "${summaries[@]}"
exit "$failed"
