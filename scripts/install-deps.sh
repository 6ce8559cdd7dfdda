#!/usr/bin/env bash
# Installs every build and test dependency of ckernel from Debian packages.
# Idempotent: when everything is present it only runs dpkg-query and exits.
set -euo pipefail

packages=(
  cmake make ninja-build pkg-config binutils
  gcc g++ clang lld libclang-rt-dev llvm
  libjemalloc-dev libgtest-dev libtbb-dev libcpu-features-dev
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
