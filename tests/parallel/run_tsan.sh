#!/usr/bin/env bash
# tests/parallel/run_tsan.sh BUILD_DIR: builds the parallel-evaluation tests (and the other
# threading tests: the arena's, the assignment kernels' shared-kernel test, callables'
# registration racing selection) with
# ThreadSanitizer under clang, and runs them. Exits non-zero on any failure or report.
#
# BUILD_DIR is configured here when it has no CMakeCache.txt yet; an existing one must be a
# thread-sanitizer build. Suppressions: tests/parallel/tsan.supp (oneTBB internals only, see
# the file). Extra arguments go to every test binary (e.g. --gtest_filter=...).
set -euo pipefail

if [ $# -lt 1 ]; then
  echo "usage: $0 BUILD_DIR [gtest arguments...]" >&2
  exit 2
fi
build=$1
shift
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$src" -B "$build" -G Ninja \
    -DCK_SANITIZE=thread -DCK_WITH_JEMALLOC=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCK_CPU_DISPATCH= \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCK_WERROR=ON
fi
if ! grep -q '^CK_SANITIZE:STRING=thread$' "$build/CMakeCache.txt"; then
  echo "$build is not a ThreadSanitizer build (CK_SANITIZE is not 'thread')" >&2
  exit 2
fi

# The parallel suite, plus the other threading tests when this tree has them.
targets=(ck_parallel_tests)
declare -A filters=([ck_parallel_tests]='*')
available=$(cmake --build "$build" --target help 2>/dev/null || true)
if grep -q '^ck_types_unit_tests:' <<<"$available"; then
  targets+=(ck_types_unit_tests)
  filters[ck_types_unit_tests]='*Arena*'
fi
if grep -q '^ck_assign_tests:' <<<"$available"; then
  targets+=(ck_assign_tests)
  filters[ck_assign_tests]='*Thread*:*Parallel*'
fi
if grep -q '^ck_jit_tests:' <<<"$available"; then
  targets+=(ck_jit_tests)
  filters[ck_jit_tests]='*Concurrent*:*Shared*'
fi
if grep -q '^ck_callables_tests:' <<<"$available"; then
  targets+=(ck_callables_tests)
  filters[ck_callables_tests]='*Race*'
fi
cmake --build "$build" -j2 --target "${targets[@]}"

# halt_on_error: the first report fails the run. exitcode 66 tells a report from a failed
# test (1). The suppressions file only covers oneTBB's own templates.
export TSAN_OPTIONS="suppressions=$src/tests/parallel/tsan.supp halt_on_error=1 exitcode=66 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"

# clang 14's TSan cannot map its shadow under the 32-bit mmap ASLR entropy of newer kernels
# ("unexpected memory mapping"); run without ASLR when the kernel uses that much.
launcher=()
if [ "$(cat /proc/sys/vm/mmap_rnd_bits 2>/dev/null || echo 28)" -gt 28 ] && command -v setarch >/dev/null; then
  launcher=(setarch "$(uname -m)" -R)
fi

status=0
for t in "${targets[@]}"; do
  exe=$(find "$build/tests" -type f -name "$t" -perm -u+x | head -n 1)
  if [ -z "$exe" ]; then
    echo "run_tsan.sh: $t was not built" >&2
    exit 1
  fi
  echo "== $t (filter ${filters[$t]})"
  if ! "${launcher[@]}" "$exe" --gtest_filter="${filters[$t]}" "$@"; then
    echo "run_tsan.sh: $t failed under ThreadSanitizer" >&2
    status=1
  fi
done
exit $status
