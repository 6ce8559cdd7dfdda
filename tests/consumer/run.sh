#!/usr/bin/env bash
# tests/consumer/run.sh BUILD_DIR: installs that build into a temporary prefix and builds and
# runs consumers against the installed tree only, the ways hosts consume a library:
#   CMake find_package  shared in a C-only project that has no oneTBB development package
#                       (find_package(TBB) disabled), shared with C++/oneTBB, static in a
#                       C-only project (project(x C): the archive must bring the C++ runtime
#                       itself), static with C++/oneTBB
#   pkg-config          ckernel (shared) and ckernel-static (the archive), C and C++
#   the installed ckernel program, run from an empty environment (it finds its library
#                       through its RUNPATH)
# Every consumer checks that the process's malloc is still the C library's (MALLOC_CHECK_=3
# makes glibc abort on heap corruption); a negative control proves that check can fail.
set -euo pipefail
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"

cmake --install "$build" --prefix "$prefix" >/dev/null
export MALLOC_CHECK_=3 # glibc aborts on any heap inconsistency
count=0
run() { echo "consumer: $*"; "$@"; count=$((count + 1)); }
fail() { echo "consumer: FAILED: $*" >&2; exit 1; }
# (ldd's whole output first: under pipefail, grep -q quitting at its first match could
# leave ldd to die of SIGPIPE and fail the check.)
uses_shared() { local deps; deps=$(ldd "$1") && grep -q 'libckernel\.so' <<<"$deps"; }

# ---- CMake ----
cmake_consumer() { # name, extra cmake arguments...
  local name=$1
  shift
  cmake -S "$here" -B "$work/$name" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" "$@" >/dev/null
  cmake --build "$work/$name" >/dev/null
}
cmake_consumer shared-c -DCONSUMER_CXX=OFF -DCMAKE_DISABLE_FIND_PACKAGE_TBB=ON
uses_shared "$work/shared-c/consumer_c" || fail "shared consumer does not use libckernel.so"
run "$work/shared-c/consumer_c"
cmake_consumer shared-cxx
run "$work/shared-cxx/consumer_c"
run "$work/shared-cxx/consumer_tbb"
cmake_consumer static-c -DCONSUMER_STATIC=ON -DCONSUMER_CXX=OFF
! uses_shared "$work/static-c/consumer_c" || fail "static consumer depends on libckernel.so"
run "$work/static-c/consumer_c"
cmake_consumer static-cxx -DCONSUMER_STATIC=ON
! uses_shared "$work/static-cxx/consumer_tbb" || fail "static consumer depends on libckernel.so"
run "$work/static-cxx/consumer_c"
run "$work/static-cxx/consumer_tbb"

# ---- pkg-config ----
libdir=$(ls -d "$prefix"/lib*/pkgconfig | head -1)
export PKG_CONFIG_PATH="$libdir"
pc_libdir=$(pkg-config --variable=libdir ckernel)
mkdir -p "$work/pc"
cc -std=c11 -Wall -Wextra -Wpedantic -Werror "$here/consumer.c" -o "$work/pc/consumer_c" \
   $(pkg-config --cflags --libs ckernel) -ldl
c++ -std=c++17 -Wall -Wextra -Werror "$here/consumer_tbb.cpp" -o "$work/pc/consumer_tbb" \
   $(pkg-config --cflags --libs ckernel tbb) -ldl
uses_shared "$work/pc/consumer_c" || fail "pkg-config ckernel does not link libckernel.so"
LD_LIBRARY_PATH="$pc_libdir" run "$work/pc/consumer_c"
LD_LIBRARY_PATH="$pc_libdir" run "$work/pc/consumer_tbb"
# The archive through ckernel-static alone: the C compiler driver, no flag added by hand.
cc -std=c11 -Wall -Wextra -Wpedantic -Werror "$here/consumer.c" -o "$work/pc/consumer_c_static" \
   $(pkg-config --cflags --libs ckernel-static)
c++ -std=c++17 -Wall -Wextra -Werror "$here/consumer_tbb.cpp" -o "$work/pc/consumer_tbb_static" \
   $(pkg-config --cflags --libs ckernel-static)
! uses_shared "$work/pc/consumer_c_static" || fail "ckernel-static links libckernel.so"
! uses_shared "$work/pc/consumer_tbb_static" || fail "ckernel-static links libckernel.so"
run "$work/pc/consumer_c_static"
run "$work/pc/consumer_tbb_static"

# ---- the installed program, from an empty environment ----
readelf -d "$prefix/bin/ckernel" | grep -q 'RUNPATH.*\$ORIGIN' || fail "bin/ckernel has no \$ORIGIN RUNPATH"
out=$(env -i "$prefix/bin/ckernel" info) || fail "the installed ckernel program does not run"
grep -q '^ckernel ' <<<"$out" || fail "ckernel info printed: $out"
echo "consumer: env -i $prefix/bin/ckernel info"
count=$((count + 1))

# ---- negative control ----
# The same program with Debian's unprefixed libjemalloc.so linked in has its malloc
# replaced, and the check above must notice (or the check proves nothing).
if [ -e /usr/lib/x86_64-linux-gnu/libjemalloc.so ] || ldconfig -p | grep -q libjemalloc.so; then
  cc -std=c11 "$here/consumer.c" -o "$work/pc/consumer_c_jemalloc" $(pkg-config --cflags --libs ckernel) \
     -Wl,--no-as-needed -ljemalloc -Wl,--as-needed -ldl
  if LD_LIBRARY_PATH="$pc_libdir" "$work/pc/consumer_c_jemalloc" >/dev/null 2>&1; then
    fail "negative control passed: the malloc check cannot see a replaced malloc"
  fi
  echo "consumer: negative control: linking libjemalloc.so replaces malloc, and the check caught it"
fi
echo "consumer: all $count consumers passed"
