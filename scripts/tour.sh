#!/usr/bin/env bash
# A short tour of the ckernel program (scripts/main.sh runs it after building).
set -uo pipefail
ck=${1:-build/bin/ckernel}
step() { printf '\n$ ckernel %s\n' "$*"; "$ck" "$@"; }
step info
