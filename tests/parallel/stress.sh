#!/usr/bin/env bash
# tests/parallel/stress.sh BUILD_DIR [RUNS] [BUSY]: runs the parallel-evaluation suite RUNS
# times in a row (default 200) while BUSY busy loops (default 2) compete for the cores, and
# stops at the first failing run. Not part of ctest or CI (it takes minutes); run it after
# touching the parallel layer or its tests. For a ThreadSanitizer build directory, the runs
# go through run_tsan.sh's settings (suppressions, halt on the first report, no ASLR).
#
#   bash tests/parallel/stress.sh build            # release build, 200 runs
#   bash tests/parallel/stress.sh build-tsan 20    # ThreadSanitizer build (see run_tsan.sh)
set -euo pipefail

if [ $# -lt 1 ]; then
  echo "usage: $0 BUILD_DIR [RUNS] [BUSY]" >&2
  exit 2
fi
build=$1
runs=${2:-200}
busy=${3:-2}
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

exe=$(find "$build/tests" -type f -name ck_parallel_tests -perm -u+x 2>/dev/null | head -n 1)
if [ -z "$exe" ]; then
  echo "stress.sh: $build has no ck_parallel_tests; build it first" >&2
  exit 2
fi
launcher=()
if grep -q '^CK_SANITIZE:STRING=thread$' "$build/CMakeCache.txt" 2>/dev/null; then
  export TSAN_OPTIONS="suppressions=$src/tests/parallel/tsan.supp halt_on_error=1 exitcode=66 ${TSAN_OPTIONS:-}"
  if [ "$(cat /proc/sys/vm/mmap_rnd_bits 2>/dev/null || echo 28)" -gt 28 ] && command -v setarch >/dev/null; then
    launcher=(setarch "$(uname -m)" -R)
  fi
fi

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
for ((i = 0; i < busy; i++)); do
  bash -c 'while :; do :; done' &
  pids+=($!)
done

log=$(mktemp)
start=$(date +%s)
for ((run = 1; run <= runs; run++)); do
  if ! "${launcher[@]}" "$exe" --gtest_brief=1 >"$log" 2>&1; then
    cat "$log"
    echo "stress.sh: run $run of $runs failed (with $busy busy loops)" >&2
    rm -f "$log"
    exit 1
  fi
done
rm -f "$log"
echo "stress.sh: $runs runs of the parallel suite passed with $busy busy loops in $(( $(date +%s) - start )) s"
