#!/usr/bin/env bash
# python/tests/install_test.sh BUILD_DIR PYTHON PYTHON_DIR: the installed Python package.
#   1. cmake --install BUILD_DIR into a temporary prefix; the module has a $ORIGIN RUNPATH
#      and `import ckernel` works from / in an empty environment with only
#      PYTHONPATH=<prefix>/PYTHON_DIR, loading the prefix's libckernel;
#   2. pip install --no-build-isolation --no-index of python/ (a copy: nothing is written into
#      the tree) into a venv made with --system-site-packages (Debian's NumPy, setuptools),
#      against that prefix (CKERNEL_PREFIX), and the same check from the venv's python.
# Exit 77 (skipped) when the interpreter has no venv or pip.
set -euo pipefail
build=$(cd "$1" && pwd)
py=$2
pydir=$3
src=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
fail() { echo "install_test: FAILED: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" >/dev/null
pkg=$prefix/$pydir
module=$(ls "$pkg"/ckernel/_ckernel*.so) || fail "no module under $pkg/ckernel"
readelf -d "$module" | grep -q 'RUNPATH.*\$ORIGIN' || fail "$module has no \$ORIGIN RUNPATH"
check='
import sys, numpy, ckernel as ck
where, libprefix = sys.argv[1], sys.argv[2]
assert ck.__file__.startswith(where), ck.__file__
maps = open("/proc/self/maps").read()
lib = [l.split()[-1] for l in maps.splitlines() if "libckernel.so" in l]
assert lib and all(p.startswith(libprefix) for p in lib), lib
assert ck.call("add", numpy.arange(3), 1).tolist() == [1, 2, 3]
assert ck.Array([[1], [2, 3]]).type == "2 * var * int64"
import importlib.util
if importlib.util.find_spec("dask"):  # the pure Python files are installed too
    import ckernel.dask
    assert ckernel.dask.__file__.startswith(where), ckernel.dask.__file__
print("install_test: ckernel", ck.__version__, "from", ck.__file__, "with", lib[0])
'
(cd / && env -i PYTHONPATH="$pkg" "$py" -c "$check" "$pkg" "$prefix") || fail "import from $pkg"

if ! "$py" -m venv --system-site-packages "$work/venv" >/dev/null 2>&1; then
  echo "install_test: skipped the pip install: $py -m venv failed (Debian: python3-venv)"
  exit 77
fi
mkdir -p "$work/src"
cp -r "$src/ckernel" "$src/src" "$src/setup.py" "$src/pyproject.toml" "$work/src/"
# setup.py reads the version from the tree beside it: give the copy its include/ too.
mkdir -p "$work/include" && cp -r "$src/../include/ckernel" "$work/include/"
(cd "$work" && CKERNEL_PREFIX="$prefix" "$work/venv/bin/pip" install --no-build-isolation \
   --no-index --no-deps -q "$work/src") || fail "pip install --no-build-isolation"
(cd / && env -i "$work/venv/bin/python" -c "$check" "$work/venv" "$prefix") ||
  fail "import from the venv"
