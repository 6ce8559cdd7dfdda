#!/usr/bin/env bash
# Installs what the aarch64 cross build and its emulated test run need (docs/design.md §8):
# Debian's aarch64 cross compilers, qemu's user-mode emulator, and the arm64 builds of the
# libraries ckernel links (multiarch, beside the host's). Called by scripts/test-aarch64.sh.
# Idempotent: when everything is present it only runs dpkg-query.
#
# Not installed: an arm64 LLVM 15. llvm-15-dev is not Multi-Arch: same, so its arm64 build
# cannot sit beside the host's (which the x86 JIT plugin needs); the aarch64 build leaves
# the JIT plugin out and its composed kernels serve (as with CK_WITH_JIT=OFF).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)

# The host's own dependencies first (cmake, ninja, fast_float's headers, jemalloc's source).
bash "$repo/scripts/install-deps.sh"

packages=(
  gcc-aarch64-linux-gnu g++-aarch64-linux-gnu qemu-user-static
  libtbb-dev:arm64 libcpu-features-dev:arm64 libgtest-dev:arm64 libffi-dev:arm64
  libdouble-conversion-dev:arm64 libsleef-dev:arm64
)

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
added_arch=0
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
  echo "install-deps-aarch64: dpkg --add-architecture arm64" >&2
  "${sudo_cmd[@]}" dpkg --add-architecture arm64
  added_arch=1
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -ne 0 ]; then
  echo "install-deps-aarch64: installing ${missing[*]}" >&2
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
elif [ "$added_arch" -eq 1 ]; then
  "${sudo_cmd[@]}" apt-get update -qq
fi
