# Cross build for 32-bit x86 Linux (i386) on a Debian x86-64 host (docs/design.md §8; run by
# scripts/test-cross.sh i386, which installs all of it):
#   cmake -S . -B build-i386 -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-i686-linux-gnu.cmake
#
# Debian's i686 cross compilers against the i386 multiarch packages (dpkg --add-architecture
# i386; libtbb-dev:i386, ...), the host's root as the sysroot. The programs run natively (an
# x86-64 kernel runs i386 binaries), so there is no emulator. Every object is compiled with
# SSE2 and -mfpmath=sse: x87's excess precision would change the bits (and the library
# refuses to initialise on a CPU without SSE2).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR i686)
set(CMAKE_LIBRARY_ARCHITECTURE i386-linux-gnu)
set(ck_triple i686-linux-gnu)

set(CMAKE_C_FLAGS_INIT "-msse2 -mfpmath=sse")
set(CMAKE_CXX_FLAGS_INIT "-msse2 -mfpmath=sse")

set(ck_deb_arch i386)
set(ck_qemu "") # an x86-64 kernel runs its programs
include(${CMAKE_CURRENT_LIST_DIR}/CkCrossMultiarch.cmake)
