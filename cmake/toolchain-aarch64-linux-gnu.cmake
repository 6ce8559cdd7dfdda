# Cross build for aarch64 Linux on a Debian x86-64 host (docs/design.md §8; run by
# scripts/test-aarch64.sh, whose helper scripts/install-deps-aarch64.sh installs all of it):
#   cmake -S . -B build-aarch64 -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64-linux-gnu.cmake
#
# Debian's cross compilers (gcc-aarch64-linux-gnu, g++-aarch64-linux-gnu) against the arm64
# multiarch packages (dpkg --add-architecture arm64; libtbb-dev:arm64, ...): headers under
# /usr/include, libraries and CMake packages under /usr/lib/aarch64-linux-gnu, so the host's
# root is the sysroot. Programs run under qemu-aarch64-static (qemu-user-static); their
# dynamic loader and libraries are the arm64 multiarch ones at the same paths, so qemu needs
# no -L prefix. QEMU_CPU (read by qemu) chooses the emulated CPU: scripts/test-aarch64.sh
# sets it per target.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(ck_triple aarch64-linux-gnu)

set(CMAKE_C_COMPILER_TARGET ${ck_triple})
set(CMAKE_CXX_COMPILER_TARGET ${ck_triple})

find_program(CK_QEMU_AARCH64 NAMES qemu-aarch64-static qemu-aarch64)
if(NOT CK_QEMU_AARCH64)
  message(FATAL_ERROR "no qemu-aarch64-static (Debian: qemu-user-static; scripts/install-deps-aarch64.sh)")
endif()
set(CMAKE_CROSSCOMPILING_EMULATOR ${CK_QEMU_AARCH64})

set(ck_deb_arch arm64)
include(${CMAKE_CURRENT_LIST_DIR}/CkCrossMultiarch.cmake)
