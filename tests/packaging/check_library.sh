#!/usr/bin/env bash
# tests/packaging/check_library.sh SHARED STATIC [NM]: what a host that loads or links the
# built libraries relies on, read off the files with readelf and nm (NM: the target's, for a
# cross build; the host's nm may not read another architecture's archive):
#   libckernel.so  no STATIC_TLS flag (a dlopen'ed library may not reserve static TLS; a
#                  thread-local must use the dynamic model), no text relocations, NODELETE,
#                  a soname, and only the public API (ck_ but not ck__) exported
#   libckernel.a   defines no global symbol but the public API, foreign C++ weak definitions
#                  and i386's PIC thunks (__x86.get_pc_thunk.*: hidden, in COMDAT groups,
#                  one per program whoever defines them), and no malloc-family symbol under
#                  any name a host uses
set -euo pipefail
so=$1 ar=$2 nm=${3:-nm}
fails=0 checks=0
check() { # description, command...
  local what=$1
  shift
  checks=$((checks + 1))
  if "$@"; then echo "ok:     $what"; else echo "FAILED: $what"; fails=$((fails + 1)); fi
}
dyn=$(readelf -dW "$so")
no_static_tls() { ! grep -q 'STATIC_TLS' <<<"$dyn"; }
no_textrel() { ! grep -Eq 'TEXTREL|FLAGS.*TEXTREL' <<<"$dyn"; }
nodelete() { grep -Eq 'FLAGS_1.*NODELETE' <<<"$dyn"; }
soname() { grep -q 'SONAME.*libckernel\.so\.' <<<"$dyn"; }
tls_is_dynamic() { # no initial-exec TLS relocation in the dynamic relocations
  local relocs
  relocs=$(readelf -rW "$so")
  ! grep -Eq 'R_X86_64_TPOFF(64|32)|R_AARCH64_TLS_TPREL|R_386_TLS_(TPOFF|TPOFF32|IE)|R_ARM_TLS_TPOFF32|R_ARM_TLS_IE32|R_PPC64_TPREL|R_390_TLS_TPOFF' <<<"$relocs"
}
exports_only_api() {
  local bad
  bad=$("$nm" -D --defined-only "$so" | awk '$3 !~ /^ck_[^_]/ {print $3}')
  [ -z "$bad" ] || { echo "  exported: $bad" | head -5; return 1; }
}
archive_only_api() {
  local bad
  bad=$("$nm" -g --defined-only "$ar" 2>/dev/null | awk 'NF == 3 && $2 !~ /^[VWu]$/ && $3 !~ /^ck_[^_]/ && $3 !~ /^__x86\.get_pc_thunk\./ {print $3}')
  [ -z "$bad" ] || { echo "  global in the archive: $(head -5 <<<"$bad" | tr '\n' ' ')"; return 1; }
}
archive_no_malloc() {
  local names
  names=$("$nm" -g --defined-only "$ar" 2>/dev/null | awk '{print $3}')
  ! grep -Eq '^(malloc|calloc|realloc|free|mallocx|rallocx|dallocx|nallocx|je_.*|ck__je_.*)$' <<<"$names"
}
check "libckernel.so has no STATIC_TLS flag" no_static_tls
check "libckernel.so needs no initial-exec TLS relocation" tls_is_dynamic
check "libckernel.so has no text relocations" no_textrel
check "libckernel.so is NODELETE (dlclose leaves its threads' code mapped)" nodelete
check "libckernel.so has a soname" soname
check "libckernel.so exports only the public API" exports_only_api
check "libckernel.a defines only the public API globally" archive_only_api
check "libckernel.a defines no malloc-family symbol" archive_no_malloc
echo "$((checks - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]
