# ck_target_warnings(<target>): the project's warning set; errors when CK_WERROR is ON.
set(CK_C_WARNINGS -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes
    -Wpointer-arith -Wcast-qual -Wwrite-strings -Wformat=2 -Wundef -Wvla -Wconversion
    -Wno-sign-conversion)
set(CK_CXX_WARNINGS -Wall -Wextra -Wpedantic -Wshadow -Wpointer-arith -Wformat=2 -Wundef)

function(ck_target_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:C>:${CK_C_WARNINGS}>
    $<$<COMPILE_LANGUAGE:CXX>:${CK_CXX_WARNINGS}>
    $<$<BOOL:${CK_WERROR}>:-Werror>)
endfunction()
