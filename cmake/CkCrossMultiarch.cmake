# What every cross toolchain file on a Debian x86-64 host shares (cmake/toolchain-*.cmake):
# the target's multiarch packages at the host's own paths, never the host's libraries. Set
# ck_triple (the compiler prefix), CMAKE_LIBRARY_ARCHITECTURE (the multiarch folder) and
# ck_deb_arch (Debian's name: arm64, i386) first.

set(CMAKE_C_COMPILER ${ck_triple}-gcc)
set(CMAKE_CXX_COMPILER ${ck_triple}-g++)

# Only the target's libraries, headers and packages: the multiarch folder, never the host's.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_IGNORE_PATH /usr/lib/x86_64-linux-gnu /lib/x86_64-linux-gnu)
# libffi has only a pkg-config file: the target's one.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/pkgconfig:/usr/share/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")

# The static library's `ld -r` and symbol localization (src/CMakeLists.txt) need the
# target's binutils, not the host's.
set(CK_LD /usr/bin/${ck_triple}-ld.bfd CACHE FILEPATH "ld for the target")
set(CK_OBJCOPY /usr/bin/${ck_triple}-objcopy CACHE FILEPATH "objcopy for the target")
set(CK_NM /usr/bin/${ck_triple}-nm CACHE FILEPATH "nm for the target")

# The JIT plugin needs the target's LLVM 15, and Debian's llvm-15-dev cannot be installed for
# another architecture beside the host's (it is not Multi-Arch: same): composed kernels only.
set(CK_WITH_JIT OFF CACHE STRING "no ${ck_deb_arch} LLVM 15 here")
