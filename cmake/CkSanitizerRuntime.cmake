# ck_asan_runtime(<var>): the AddressSanitizer runtime that an uninstrumented host program (a
# Python interpreter) preloads (LD_PRELOAD) to load code built with CK_SANITIZE=address: gcc's
# libasan.so, or clang's libclang_rt.asan-<arch>.so, which carries UBSan's handlers too.
function(ck_asan_runtime var)
  if(CMAKE_C_COMPILER_ID MATCHES "Clang")
    set(name libclang_rt.asan-${CMAKE_SYSTEM_PROCESSOR}.so)
  else()
    set(name libasan.so)
  endif()
  execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=${name}
                  OUTPUT_VARIABLE rt OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(${var} "${rt}" PARENT_SCOPE)
endfunction()
