#!/usr/bin/env bash
# A short tour of the ckernel program (scripts/main.sh runs it after building): what this
# build is, how a ragged assignment kernel is composed, an assignment that succeeds and one
# that a checked error mode refuses, records matched by name and missing values, a
# broadcasting call of a built-in callable and its kernel, and the quick benchmark.
set -uo pipefail
ck=${1:-build/bin/ckernel}
step() {
  printf '\n$ ckernel'
  printf " '%s'" "$@"
  printf '\n'
  "$ck" "$@" 2>&1
}
step info
step explain "2 * var * float64" "2 * var * int32"
step assign "2 * var * float64" "2 * var * int32" "[[1, 2, 3], [4]]"
step assign --errmode overflow "3 * uint8" "3 * int32" "[1, 300, 2]"
if [ $? -ne 1 ]; then echo "tour: the checked assignment should have failed" >&2; exit 1; fi
printf '\n(the last command failed on purpose: 300 does not fit in uint8 under --errmode overflow)\n'
step assign "{y: float64, x: int64}" "{x: int32, y: int32}" "{x: 1, y: 2}"
step explain "var * {a: float64, b: ?float32}" "var * {b: ?int16, a: int32}"
step assign "3 * ?float64" "3 * ?int32" "[1, NA, 3]"
step call add --in "2 * 1 * int32" "[[10], [20]]" --in "3 * float64" "[0.5, 1.5, 2.5]"
step explain --call add --in "2 * 1 * int32" --in "3 * float64"
step bench --quick
exit 0
