# Installation: headers, both libraries, the CMake package and pkg-config files.
#
#   find_package(ckernel)   ckernel::ckernel (shared; needs nothing else at build time) and,
#                           when oneTBB's CMake package is found too, ckernel::ckernel_static
#                           (its dependencies travel with it). COMPONENTS static requires it.
#   pkg-config ckernel        the shared library
#   pkg-config ckernel-static the archive by file name (-l:libckernel.a) and its dependencies
#                             (a .pc file cannot pick the archive when the shared library sits
#                             in the same folder: pkg-config --static only appends the private
#                             part after -lckernel, and the linker has bound the .so by then)
include(CMakePackageConfigHelpers)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ckernel
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
install(FILES ${PROJECT_BINARY_DIR}/include/ckernel/config.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ckernel)
install(TARGETS ckernel EXPORT ckernelTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS ckernel_static EXPORT ckernelStaticTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
set(CK_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/ckernel)
install(EXPORT ckernelTargets NAMESPACE ckernel:: DESTINATION ${CK_CMAKE_DIR})
install(EXPORT ckernelStaticTargets NAMESPACE ckernel:: DESTINATION ${CK_CMAKE_DIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/ckernelConfig.cmake.in
  ${PROJECT_BINARY_DIR}/ckernelConfig.cmake INSTALL_DESTINATION ${CK_CMAKE_DIR})
# 0.x: a minor release may change the ABI (the soname is libckernel.so.0.MINOR), so a
# consumer asking for 0.1 accepts 0.1.x only.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/ckernelConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/ckernelConfig.cmake
              ${PROJECT_BINARY_DIR}/ckernelConfigVersion.cmake
        DESTINATION ${CK_CMAKE_DIR})

# pkg-config: the prefix is found relative to the .pc file, so the installed tree can move.
file(RELATIVE_PATH CK_PC_TO_PREFIX "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
string(REGEX REPLACE "/$" "" CK_PC_TO_PREFIX "${CK_PC_TO_PREFIX}")
set(CK_PC_STATIC_LIBS "-lpthread -lm")
if(CMAKE_DL_LIBS)
  string(APPEND CK_PC_STATIC_LIBS " -l${CMAKE_DL_LIBS}")
endif()
# The archive's C++ (the number text over fast_float and double-conversion, which it carries
# inside, and the oneTBB shim) needs the C++ runtime; with oneTBB, oneTBB too.
string(APPEND CK_PC_STATIC_LIBS " -lstdc++")
# The transcendental functions' vector kernels call SLEEF.
set(CK_PC_STATIC_REQUIRES "sleef")
if(CK_WITH_TBB)
  string(APPEND CK_PC_STATIC_REQUIRES " tbb")
endif()
if(CK_FFI)
  # Native calls (callables/native.c): the archive references libffi.
  string(APPEND CK_PC_STATIC_REQUIRES " libffi")
  string(STRIP "${CK_PC_STATIC_REQUIRES}" CK_PC_STATIC_REQUIRES)
endif()
foreach(pc ckernel ckernel-static)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/${pc}.pc.in ${PROJECT_BINARY_DIR}/${pc}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/${pc}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endforeach()
