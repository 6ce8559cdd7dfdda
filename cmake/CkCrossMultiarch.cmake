# What every cross toolchain file on a Debian x86-64 host shares (cmake/toolchain-*.cmake):
# the target's multiarch packages at the host's own paths, never the host's libraries. Set
# ck_triple (the compiler prefix), CMAKE_LIBRARY_ARCHITECTURE (the multiarch folder),
# ck_deb_arch (Debian's name: arm64, i386, armhf, ppc64el, s390x) and ck_qemu (qemu's name
# for the architecture, empty for one the host runs natively) first.

set(CMAKE_C_COMPILER ${ck_triple}-gcc)
set(CMAKE_CXX_COMPILER ${ck_triple}-g++)
# (read by cmake/CkJemalloc.cmake: jemalloc's configure --host)
set(CMAKE_C_COMPILER_TARGET ${ck_triple})
set(CMAKE_CXX_COMPILER_TARGET ${ck_triple})

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

# The build runs programs it built (the docs' example extractor, the tests): under qemu's
# user-mode emulator, whose dynamic loader and libraries are the target's multiarch ones at
# the same paths (no -L prefix needed); QEMU_CPU (read by qemu) chooses the emulated CPU,
# scripts/test-cross.sh sets it per target. A host that runs the target's programs itself
# (i386 on x86-64) starts them directly: the "emulator" is env.
if(ck_qemu)
  find_program(CK_QEMU NAMES qemu-${ck_qemu}-static qemu-${ck_qemu})
  if(NOT CK_QEMU)
    message(FATAL_ERROR "no qemu-${ck_qemu}-static (Debian: qemu-user-static; "
                        "scripts/install-deps-cross.sh)")
  endif()
  set(CMAKE_CROSSCOMPILING_EMULATOR ${CK_QEMU})
else()
  set(CMAKE_CROSSCOMPILING_EMULATOR /usr/bin/env)
endif()
