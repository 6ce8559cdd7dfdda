#!/usr/bin/env bash
# A short tour of the ckernel program (scripts/main.sh runs it after building): what this
# build is, how a ragged assignment kernel is composed, an assignment that succeeds and one
# that a checked error mode refuses, records matched by name and missing values, a
# broadcasting call of a built-in callable and its kernel, a few lines of the Python package,
# and the quick benchmark.
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
# The Python package (python/), when the build made it beside the program's build tree.
pypath=$(cd "$(dirname "$ck")/.." 2>/dev/null && pwd)/python
if compgen -G "$pypath/ckernel/_ckernel*.so" >/dev/null && [ -x /usr/bin/python3 ]; then
  tour_py='import numpy as np, ckernel as ck
a = ck.Array("[[1, 2, 3], [4]]", type="2 * var * int32")
print("ck.call(\"add\", a, 0.5) ->", ck.call("add", a, 0.5))
x = np.arange(6, dtype=np.int16).reshape(2, 3)
print("ck.call(\"multiply\", x.T, 2) ->", ck.call("multiply", x.T, 2).tolist())
d = np.zeros(3, dtype=np.uint8)
try:
    ck.assign(d, [1, 300, 2])
except ck.Error as e:
    print("ck.assign(uint8 array, [1, 300, 2]) ->", e.status + ":", e)'
  printf '\n$ PYTHONPATH=%s python3\n%s\n' "$pypath" "$tour_py"
  PYTHONPATH=$pypath /usr/bin/python3 -c "$tour_py" 2>&1
else
  printf '\n(the Python package is not built here: scripts/install-deps.sh installs python3-dev and python3-numpy)\n'
fi
step bench --quick
exit 0
