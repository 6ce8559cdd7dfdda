# ck_add_private_jemalloc(<target>): builds jemalloc 5.3.0 from Debian's source package
# (fetched into .deps/ by scripts/install-deps.sh) as ckernel's private allocator, and
# defines <target>, an imported static library (its PIC archive) with its headers.
#
# Configured so that it can live inside a library that hosts dlopen:
#   --with-jemalloc-prefix=ck__je_        every public function is ck__je_* (mallocx ->
#                                         ck__je_mallocx through jemalloc.h's macros): it
#                                         cannot replace or be confused with the host's malloc
#   --with-private-namespace=ck__jei_     every internal symbol is ck__jei_*
#   --disable-initial-exec-tls            its thread-locals use the dynamic TLS model, so
#                                         the library carries no STATIC_TLS flag
#   --without-export --disable-cxx        nothing exported, no operator new/delete
#   --disable-libdl --disable-prof        no profiling hooks, no dlsym lookups
# Its environment variable is CK__JE_MALLOC_CONF, never the host's MALLOC_CONF.
set(CK_JEMALLOC_SOURCE_DIR "${PROJECT_SOURCE_DIR}/.deps/jemalloc-5.3.0" CACHE PATH
    "jemalloc 5.3.0 source (scripts/install-deps.sh fetches Debian's source package here)")

function(ck_add_private_jemalloc target)
  if(NOT EXISTS "${CK_JEMALLOC_SOURCE_DIR}/configure")
    message(FATAL_ERROR
      "ckernel: no jemalloc source in ${CK_JEMALLOC_SOURCE_DIR}. Run scripts/install-deps.sh "
      "(it fetches Debian's jemalloc 5.3.0 source package), set CK_JEMALLOC_SOURCE_DIR, or "
      "configure with -DCK_WITH_JEMALLOC=OFF to use the C library's malloc.")
  endif()
  include(ExternalProject)
  set(bin ${CMAKE_CURRENT_BINARY_DIR}/jemalloc)
  set(archive ${bin}/lib/libjemalloc_pic.a)
  cmake_host_system_information(RESULT ncpu QUERY NUMBER_OF_LOGICAL_CORES)
  # A cross build (cmake/toolchain-*.cmake) configures for the target: its ar and nm
  # (--host), and a page size configure cannot measure by running a program there. aarch64
  # and ppc64le kernels use 4, 16 or 64 KiB pages: 64 KiB serves them all (Debian's arm64
  # and ppc64el jemalloc do the same); the others' pages are 4 KiB.
  set(cross "")
  if(CMAKE_CROSSCOMPILING)
    set(cross --host=${CMAKE_C_COMPILER_TARGET})
    if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64|ppc64le)$")
      list(APPEND cross --with-lg-page=16)
    endif()
  endif()
  # Its own flags only: the project's sanitizer and warning flags are not jemalloc's business
  # (sanitized builds use the system allocator anyway).
  ExternalProject_Add(ck_jemalloc_build
    SOURCE_DIR ${CK_JEMALLOC_SOURCE_DIR}
    BINARY_DIR ${bin}
    CONFIGURE_COMMAND ${CMAKE_COMMAND} -E env CC=${CMAKE_C_COMPILER} CFLAGS=-g
      <SOURCE_DIR>/configure --quiet
      --with-jemalloc-prefix=ck__je_ --with-private-namespace=ck__jei_
      --disable-initial-exec-tls --without-export --disable-cxx
      --disable-libdl --disable-prof --disable-doc --disable-shared --enable-static ${cross}
    # Two makes, for speed only (the archive is the same). jemalloc compiles every source
    # twice: once for `nm` to list its global symbols into private_namespace.h (what gives
    # them the ck__jei_ prefix), then into the archive. Those first objects are only read
    # for symbol names, so they are made without debug information (EXTRA_CFLAGS=-g0 goes
    # last on jemalloc's command lines); the list is the same. Then only the PIC archive
    # ckernel links: build_lib_static would compile every source a third time, for a
    # non-PIC libjemalloc.a that nothing uses.
    BUILD_COMMAND make -s -j${ncpu} EXTRA_CFLAGS=-g0 include/jemalloc/internal/private_namespace.h
          COMMAND make -s -j${ncpu} lib/libjemalloc_pic.a
    INSTALL_COMMAND ""
    BUILD_BYPRODUCTS ${archive}
    STEP_TARGETS configure
    LOG_CONFIGURE ON LOG_BUILD ON LOG_OUTPUT_ON_FAILURE ON)
  # The include folder must exist at configure time for the imported target.
  file(MAKE_DIRECTORY ${bin}/include)
  add_library(${target} STATIC IMPORTED GLOBAL)
  set_target_properties(${target} PROPERTIES
    IMPORTED_LOCATION ${archive}
    INTERFACE_INCLUDE_DIRECTORIES ${bin}/include
    INTERFACE_LINK_LIBRARIES "Threads::Threads;m")
  if(CMAKE_GENERATOR MATCHES "Ninja")
    # Compiling against jemalloc needs only the headers its configure step writes; links
    # need the archive, and Ninja knows the build step makes it (a byproduct the link
    # lines name). So everything compiles while jemalloc builds, rather than after it.
    add_dependencies(${target} ck_jemalloc_build-configure)
  else()
    # Make has no rule for the archive outside this target: wait for the whole build.
    add_dependencies(${target} ck_jemalloc_build)
  endif()
endfunction()
