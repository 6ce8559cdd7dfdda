# ck_read_version(<header> <out-var>): reads CK_VERSION_MAJOR/MINOR/PATCH from version.h, the
# single place the version is written.
function(ck_read_version header out)
  file(STRINGS "${header}" lines REGEX "^#define CK_VERSION_(MAJOR|MINOR|PATCH) [0-9]+$")
  foreach(part MAJOR MINOR PATCH)
    string(REGEX MATCH "CK_VERSION_${part} ([0-9]+)" _ "${lines}")
    set(value "${CMAKE_MATCH_1}")
    if(NOT value MATCHES "^[0-9]+$")
      message(FATAL_ERROR "cannot read CK_VERSION_${part} from ${header}")
    endif()
    set(${part} ${value})
  endforeach()
  set(${out} "${MAJOR}.${MINOR}.${PATCH}" PARENT_SCOPE)
endfunction()
