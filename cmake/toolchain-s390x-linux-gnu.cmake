# Cross build for s390x Linux (IBM Z, big-endian) on a Debian x86-64 host
# (docs/design.md §8; run by `bash scripts/test-cross.sh s390x`, which installs all of it):
#   cmake -S . -B build-s390x -G Ninja \
#         -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-s390x-linux-gnu.cmake
#
# Debian's cross compilers (s390x-linux-gnu-gcc, -g++) against the s390x multiarch packages
# (dpkg --add-architecture s390x; libtbb-dev:s390x, ...), the host's root as the sysroot.
# Programs run under qemu-s390x-static. Debian's s390x baseline (the compiler's defaults) is
# the one target: the byte order is what is tested.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR s390x)
set(CMAKE_LIBRARY_ARCHITECTURE s390x-linux-gnu)
set(ck_triple s390x-linux-gnu)
set(ck_deb_arch s390x)
set(ck_qemu s390x)
include(${CMAKE_CURRENT_LIST_DIR}/CkCrossMultiarch.cmake)
