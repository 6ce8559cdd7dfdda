#!/usr/bin/env bash
# Installs every build and test dependency of ckernel from Debian packages, and fetches the
# source of the private allocator (Debian's jemalloc 5.3.0 source package) into .deps/,
# where CMake builds it (cmake/CkJemalloc.cmake). Idempotent: when everything is present it
# only runs dpkg-query and tests a file.
#
# The source is fetched with `apt-get source` through a private sources list and state
# directory under .deps/apt: the machine's apt configuration is read (for its mirror and
# keyring) but never changed. CK_DEPS_DIR overrides the .deps/ location.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)

packages=(
  cmake make ninja-build pkg-config binutils
  gcc g++ clang lld libclang-rt-dev llvm
  libgtest-dev libtbb-dev libcpu-features-dev libjemalloc-dev libffi-dev
  libdouble-conversion-dev libfast-float-dev libsleef-dev locales
  llvm-15-dev
  python3 python3-numpy python3-matplotlib python3-numexpr
  python3-dev python3-pytest python3-hypothesis python3-numba python3-dask python3-distributed
  python3-venv python3-setuptools python3-pip
  dpkg-dev bzip2 xz-utils debian-archive-keyring
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
if [ ${#missing[@]} -ne 0 ]; then
  echo "install-deps: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# ---- jemalloc 5.3.0 from Debian's source package ----
deps=${CK_DEPS_DIR:-$repo/.deps}
je_version=5.3.0
je_src=$deps/jemalloc-$je_version
if [ -f "$je_src/configure" ] && grep -q "^$je_version" "$je_src/VERSION"; then
  exit 0
fi
echo "install-deps: fetching Debian's jemalloc $je_version source into $deps" >&2
apt_dir=$deps/apt
rm -rf "$apt_dir" "$je_src"
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/sources.list.d"

# The machine's own Debian mirror and keyring (deb822 or one-line sources), else Debian's.
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
uri="" keyring=""
if [ -f /etc/apt/sources.list.d/debian.sources ]; then
  uri=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources)
  keyring=$(awk '/^Signed-By:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources)
fi
if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
  uri=$(awk '$1 == "deb" && $0 !~ /security/ {for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) {print $i; exit}}' /etc/apt/sources.list)
fi
uri=${uri:-http://deb.debian.org/debian}
keyring=${keyring:-/usr/share/keyrings/debian-archive-keyring.gpg}
cat >"$apt_dir/sources.list.d/ckernel-src.sources" <<SRC
Types: deb-src
URIs: $uri
Suites: $codename
Components: main
Signed-By: $keyring
SRC

apt_private=(
  -o "Dir::Etc::SourceList=/dev/null"
  -o "Dir::Etc::SourceParts=$apt_dir/sources.list.d"
  -o "Dir::State::Lists=$apt_dir/lists"
  -o "Dir::Cache=$apt_dir/cache"
  -o "APT::Sandbox::User=$(id -un)"
)
apt-get "${apt_private[@]}" update -qq
(cd "$deps" && apt-get "${apt_private[@]}" source -qq jemalloc >/dev/null)
if ! [ -f "$je_src/configure" ] || ! grep -q "^$je_version" "$je_src/VERSION"; then
  echo "install-deps: apt-get source did not give jemalloc $je_version in $je_src" >&2
  exit 1
fi
rm -rf "$apt_dir"
