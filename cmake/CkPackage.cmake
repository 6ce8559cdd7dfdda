# Installation: headers, both libraries, the CMake package (ckernel::ckernel shared,
# ckernel::ckernel_static static) and a pkg-config file (ckernel.pc; --static for the archive).
include(CMakePackageConfigHelpers)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ckernel
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
install(FILES ${PROJECT_BINARY_DIR}/include/ckernel/config.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ckernel)
install(TARGETS ckernel ckernel_static EXPORT ckernelTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
set(CK_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/ckernel)
install(EXPORT ckernelTargets NAMESPACE ckernel:: DESTINATION ${CK_CMAKE_DIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/ckernelConfig.cmake.in
  ${PROJECT_BINARY_DIR}/ckernelConfig.cmake INSTALL_DESTINATION ${CK_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/ckernelConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/ckernelConfig.cmake
              ${PROJECT_BINARY_DIR}/ckernelConfigVersion.cmake
        DESTINATION ${CK_CMAKE_DIR})

# pkg-config: the prefix is found relative to the .pc file, so the installed tree can move.
file(RELATIVE_PATH CK_PC_TO_PREFIX "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
string(REGEX REPLACE "/$" "" CK_PC_TO_PREFIX "${CK_PC_TO_PREFIX}")
set(CK_PC_LIBS_PRIVATE "-lpthread -lm")
if(CMAKE_DL_LIBS)
  string(APPEND CK_PC_LIBS_PRIVATE " -l${CMAKE_DL_LIBS}")
endif()
set(CK_PC_REQUIRES_PRIVATE "")
if(CK_WITH_TBB)
  # The static archive carries the C++ oneTBB shim.
  set(CK_PC_REQUIRES_PRIVATE "tbb")
  string(APPEND CK_PC_LIBS_PRIVATE " -lstdc++")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/ckernel.pc.in ${PROJECT_BINARY_DIR}/ckernel.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/ckernel.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
