# Cross build for aarch64 Linux on a Debian x86-64 host (docs/design.md §8; run by
# `bash scripts/test-cross.sh aarch64`, which installs all of it):
#   cmake -S . -B build-aarch64 -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64-linux-gnu.cmake
#
# Debian's cross compilers (gcc-aarch64-linux-gnu, g++-aarch64-linux-gnu) against the arm64
# multiarch packages (dpkg --add-architecture arm64; libtbb-dev:arm64, ...): headers under
# /usr/include, libraries and CMake packages under /usr/lib/aarch64-linux-gnu, so the host's
# root is the sysroot. Programs run under qemu-aarch64-static.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(ck_triple aarch64-linux-gnu)
set(ck_deb_arch arm64)
set(ck_qemu aarch64)
include(${CMAKE_CURRENT_LIST_DIR}/CkCrossMultiarch.cmake)
