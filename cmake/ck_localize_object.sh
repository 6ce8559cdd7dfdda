#!/usr/bin/env bash
# cmake/ck_localize_object.sh NM OBJCOPY OBJECT: makes every defined global symbol of the
# relocatable OBJECT (libckernel.a's single member) local, except
#   - the public API: ck_ followed by anything but a second underscore, and
#   - weak definitions that are not ckernel's own (C++ inline functions, template
#     instantiations and type_info objects of oneTBB and the C++ library, in COMDAT groups):
#     a C++ consumer compiles the same groups, the linker keeps one copy and discards ours,
#     and a local symbol into a discarded group is a link error;
#   - 32-bit x86's __x86.get_pc_thunk.* (PIC's program-counter thunks, global in a COMDAT
#     group in every object, the consumer's too): the same reason.
set -euo pipefail
nm=$1 objcopy=$2 obj=$3
list=$(mktemp)
trap 'rm -f "$list"' EXIT
"$nm" -g --defined-only "$obj" | awk '
  $2 ~ /^[VWu]$/ && $3 !~ /^ck_/ { next }            # foreign weak or unique: keep global
  $3 ~ /^ck_[^_]/ { next }                           # the public API
  $3 ~ /^__x86\.get_pc_thunk\./ { next }             # i386 PIC thunks (COMDAT)
  { print $3 }' >"$list"
"$objcopy" --localize-symbols="$list" "$obj"
