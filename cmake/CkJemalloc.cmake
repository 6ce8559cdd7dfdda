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
  # Its own flags only: the project's sanitizer and warning flags are not jemalloc's business
  # (sanitized builds use the system allocator anyway).
  ExternalProject_Add(ck_jemalloc_build
    SOURCE_DIR ${CK_JEMALLOC_SOURCE_DIR}
    BINARY_DIR ${bin}
    CONFIGURE_COMMAND ${CMAKE_COMMAND} -E env CC=${CMAKE_C_COMPILER} CFLAGS=-g
      <SOURCE_DIR>/configure --quiet
      --with-jemalloc-prefix=ck__je_ --with-private-namespace=ck__jei_
      --disable-initial-exec-tls --without-export --disable-cxx
      --disable-libdl --disable-prof --disable-doc --disable-shared --enable-static
    BUILD_COMMAND make -s -j${ncpu} build_lib_static
    INSTALL_COMMAND ""
    BUILD_BYPRODUCTS ${archive}
    LOG_CONFIGURE ON LOG_BUILD ON LOG_OUTPUT_ON_FAILURE ON)
  # The include folder must exist at configure time for the imported target.
  file(MAKE_DIRECTORY ${bin}/include)
  add_library(${target} STATIC IMPORTED GLOBAL)
  set_target_properties(${target} PROPERTIES
    IMPORTED_LOCATION ${archive}
    INTERFACE_INCLUDE_DIRECTORIES ${bin}/include
    INTERFACE_LINK_LIBRARIES "Threads::Threads;m")
  add_dependencies(${target} ck_jemalloc_build)
endfunction()
