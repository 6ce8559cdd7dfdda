#!/usr/bin/env bash
# Bounded libFuzzer run of every ckernel fuzz target under clang with ASan+UBSan.
# usage: tests/fuzz/run_fuzzers.sh BUILD_DIR TOTAL_SECONDS
# TOTAL_SECONDS is split evenly between the targets. BUILD_DIR is configured here when it is
# not a build yet (clang, ASan+UBSan, no jemalloc, the library instrumented for coverage, the
# leaves compiled for every CPU target so that the composition fuzzer runs them all); an
# existing BUILD_DIR must have been configured that way. New inputs go to a scratch
# directory; the committed corpus is only read. A crash, leak, sanitizer report or broken
# invariant fails the script and leaves the reproducer in BUILD_DIR/fuzz-artifacts/. The
# last lines give each target's executions per second.
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 BUILD_DIR TOTAL_SECONDS" >&2
  exit 2
fi
build=$1
total=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/../.." && pwd)
targets=(type_parse array_parse signature_parse compose)
seconds=$(( total / ${#targets[@]} ))
if [ "$seconds" -lt 1 ]; then
  seconds=1
fi

if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$src" -B "$build" -G Ninja \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCK_SANITIZE=address,undefined -DCK_WITH_JEMALLOC=OFF \
    -DCMAKE_C_FLAGS=-fsanitize=fuzzer-no-link
fi
cmake --build "$build" --target "${targets[@]/#/ck_fuzz_}"

artifacts="$build/fuzz-artifacts"
mkdir -p "$artifacts"
status=0
summary=""
for t in "${targets[@]}"; do
  bin="$build/tests/fuzz/ck_fuzz_$t"
  if [ ! -x "$bin" ]; then
    echo "run_fuzzers: $bin was not built (needs clang with -fsanitize=fuzzer)" >&2
    exit 1
  fi
  scratch=$(mktemp -d)
  log=$(mktemp)
  dict=()
  if [ -f "$here/$t.dict" ]; then
    dict=(-dict="$here/$t.dict")
  fi
  echo "run_fuzzers: $t for ${seconds}s (of ${total}s for ${#targets[@]} targets)"
  # allocator_may_return_null: a huge request must come back as NULL (CK_ERR_NOMEM), which
  # is the behaviour under test, not abort inside ASan.
  if ! ASAN_OPTIONS=allocator_may_return_null=1:detect_leaks=1 \
       UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
       "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
         -print_final_stats=1 "${dict[@]}" -artifact_prefix="$artifacts/$t-" \
         "$scratch" "$here/corpus/$t" 2>&1 | tee "$log"; then
    echo "run_fuzzers: $t FAILED; reproducer in $artifacts" >&2
    status=1
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  summary+="run_fuzzers: $t: ${runs:-?} executions in ${seconds}s, ${rate:-?} exec/s"$'\n'
  rm -rf "$scratch" "$log"
done
printf '%s' "$summary"
exit $status
