#!/usr/bin/env bash
# Installs what the cross build for ARCH and its test runs need (docs/design.md §8): the
# host's own dependencies (scripts/install-deps.sh), Debian's cross compilers for ARCH,
# qemu's user-mode emulators (not for i386, whose programs an x86-64 kernel runs), and
# ARCH's builds of the libraries ckernel links, as multiarch packages beside the host's.
# Called by scripts/test-cross.sh. Idempotent: when everything is present it only runs
# dpkg-query.
#   bash scripts/install-deps-cross.sh ARCH      (aarch64, i386, armhf, ppc64le, s390x)
#
# Not installed: ARCH's LLVM 15. llvm-15-dev is not Multi-Arch: same, so another
# architecture's build cannot sit beside the host's (which the x86-64 JIT plugin needs);
# cross builds leave the JIT plugin out and their composed kernels serve.
# Not on s390x: cpu_features (Debian builds it for no s390x), which a baseline-only
# architecture does not need.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
arch=${1:?usage: install-deps-cross.sh ARCH (aarch64, i386, armhf, ppc64le, s390x)}

# ARCH -> Debian's architecture name and the cross compilers' triple.
case $arch in
  aarch64) deb=arm64 triple=aarch64-linux-gnu ;;
  i386) deb=i386 triple=i686-linux-gnu ;;
  armhf) deb=armhf triple=arm-linux-gnueabihf ;;
  ppc64le) deb=ppc64el triple=powerpc64le-linux-gnu ;;
  s390x) deb=s390x triple=s390x-linux-gnu ;;
  *) echo "install-deps-cross: unknown ARCH '$arch' (aarch64, i386, armhf, ppc64le, s390x)" >&2
     exit 2 ;;
esac

bash "$repo/scripts/install-deps.sh"

packages=(gcc-"$triple" g++-"$triple")
[ "$arch" = i386 ] || packages+=(qemu-user-static)
for lib in libtbb-dev libgtest-dev libffi-dev libdouble-conversion-dev libsleef-dev; do
  packages+=("$lib:$deb")
done
[ "$arch" = s390x ] || packages+=("libcpu-features-dev:$deb")

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
added_arch=0
if ! dpkg --print-foreign-architectures | grep -qx "$deb"; then
  echo "install-deps-cross: dpkg --add-architecture $deb" >&2
  "${sudo_cmd[@]}" dpkg --add-architecture "$deb"
  added_arch=1
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -ne 0 ]; then
  echo "install-deps-cross: installing ${missing[*]}" >&2
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
elif [ "$added_arch" -eq 1 ]; then
  "${sudo_cmd[@]}" apt-get update -qq
fi
