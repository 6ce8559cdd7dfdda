# Cross build for ppc64le Linux (POWER, little-endian) on a Debian x86-64 host
# (docs/design.md §8; run by `bash scripts/test-cross.sh ppc64le`, which installs all of it):
#   cmake -S . -B build-ppc64le -G Ninja \
#         -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-powerpc64le-linux-gnu.cmake
#
# Debian's cross compilers (powerpc64le-linux-gnu-gcc, -g++) against the ppc64el multiarch
# packages (dpkg --add-architecture ppc64el; libtbb-dev:ppc64el, ...), the host's root as the
# sysroot. Programs run under qemu-ppc64le-static. Debian's ppc64el baseline is POWER8
# (VSX2, the compiler's default -mcpu).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR ppc64le)
set(CMAKE_LIBRARY_ARCHITECTURE powerpc64le-linux-gnu)
set(ck_triple powerpc64le-linux-gnu)
set(ck_deb_arch ppc64el)
set(ck_qemu ppc64le)
include(${CMAKE_CURRENT_LIST_DIR}/CkCrossMultiarch.cmake)
