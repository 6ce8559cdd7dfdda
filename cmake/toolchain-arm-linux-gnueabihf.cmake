# Cross build for 32-bit Arm Linux (ARMv7, hard float) on a Debian x86-64 host
# (docs/design.md §8; run by `bash scripts/test-cross.sh armhf`, which installs all of it):
#   cmake -S . -B build-armhf -G Ninja \
#         -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-arm-linux-gnueabihf.cmake
#
# Debian's cross compilers (arm-linux-gnueabihf-gcc, -g++) against the armhf multiarch
# packages (dpkg --add-architecture armhf; libtbb-dev:armhf, ...), the host's root as the
# sysroot. Programs run under qemu-arm-static. Debian's armhf baseline is ARMv7-A with
# VFPv3-D16 and Thumb-2 (the compiler's defaults); NEON is a dispatch target.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR armv7l)
set(CMAKE_LIBRARY_ARCHITECTURE arm-linux-gnueabihf)
set(ck_triple arm-linux-gnueabihf)
set(ck_deb_arch armhf)
set(ck_qemu arm)
include(${CMAKE_CURRENT_LIST_DIR}/CkCrossMultiarch.cmake)
