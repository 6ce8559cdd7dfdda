#!/usr/bin/env bash
# tests/consumer/run.sh BUILD_DIR: installs that build into a temporary prefix and builds
# and runs the consumers against it: CMake find_package (shared, static) and pkg-config
# (shared, static). This catches what in-tree tests miss: missing installed headers,
# broken exported targets, link dependencies of the static archive, exported allocator symbols.
set -euo pipefail
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"

cmake --install "$build" --prefix "$prefix" >/dev/null
export MALLOC_CHECK_=3 # glibc aborts on any heap inconsistency

run() { echo "consumer: $*"; "$@"; }

for mode in shared static; do
  static=OFF; [ "$mode" = static ] && static=ON
  cmake -S "$here" -B "$work/cmake-$mode" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
        -DCONSUMER_STATIC=$static >/dev/null
  cmake --build "$work/cmake-$mode" >/dev/null
  deps=$(ldd "$work/cmake-$mode/consumer_c" | grep -c libckernel || true)
  if [ "$mode" = static ] && [ "$deps" != 0 ]; then echo "static consumer depends on libckernel.so"; exit 1; fi
  if [ "$mode" = shared ] && [ "$deps" = 0 ]; then echo "shared consumer does not use libckernel.so"; exit 1; fi
  run "$work/cmake-$mode/consumer_c"
  run "$work/cmake-$mode/consumer_tbb"
done

libdir=$(ls -d "$prefix"/lib*/pkgconfig | head -1)
export PKG_CONFIG_PATH="$libdir"
pc_libdir=$(pkg-config --variable=libdir ckernel)
mkdir -p "$work/pc"
# Shared.
cc -std=c11 -Wall -Wextra -Wpedantic -Werror "$here/consumer.c" -o "$work/pc/consumer_c" \
   $(pkg-config --cflags --libs ckernel) -ldl
c++ -std=c++17 -Wall -Wextra -Werror "$here/consumer_tbb.cpp" -o "$work/pc/consumer_tbb" \
   $(pkg-config --cflags --libs ckernel tbb) -ldl
LD_LIBRARY_PATH="$pc_libdir" run "$work/pc/consumer_c"
LD_LIBRARY_PATH="$pc_libdir" run "$work/pc/consumer_tbb"
# Static: the archive plus its Libs.private.
private=$(pkg-config --static --libs-only-l ckernel | sed 's/-lckernel//')
cc -std=c11 -Wall -Wextra -Wpedantic -Werror "$here/consumer.c" -o "$work/pc/consumer_c_static" \
   $(pkg-config --cflags ckernel) -L"$pc_libdir" -Wl,-Bstatic -lckernel -Wl,-Bdynamic $private -ldl
c++ -std=c++17 -Wall -Wextra -Werror "$here/consumer_tbb.cpp" -o "$work/pc/consumer_tbb_static" \
   $(pkg-config --cflags ckernel tbb) -L"$pc_libdir" -Wl,-Bstatic -lckernel -Wl,-Bdynamic \
   $private $(pkg-config --libs tbb) -ldl
run "$work/pc/consumer_c_static"
run "$work/pc/consumer_tbb_static"
# Negative control: the same program with Debian's unprefixed libjemalloc.so linked in has its
# malloc replaced, and the check above must notice (or the check proves nothing).
if [ -e /usr/lib/x86_64-linux-gnu/libjemalloc.so ] || ldconfig -p | grep -q libjemalloc.so; then
  cc -std=c11 "$here/consumer.c" -o "$work/pc/consumer_c_jemalloc" $(pkg-config --cflags --libs ckernel) \
     -Wl,--no-as-needed -ljemalloc -Wl,--as-needed -ldl
  if LD_LIBRARY_PATH="$pc_libdir" "$work/pc/consumer_c_jemalloc" >/dev/null 2>&1; then
    echo "consumer: negative control passed: the malloc check cannot see a replaced malloc"; exit 1
  fi
  echo "consumer: negative control: linking libjemalloc.so replaces malloc, and the check caught it"
fi
echo "consumer: all 8 consumers passed"
