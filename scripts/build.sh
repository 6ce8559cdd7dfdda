#!/usr/bin/env bash
# The one build configuration of the README's two commands: configures build/ (Release,
# warnings as errors) and builds the given targets, or everything when none is given.
# scripts/main.sh builds only what its tour runs; scripts/test.sh then builds the rest in
# the same build/, with the same configuration, so it reuses every object main.sh built.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCK_WERROR=ON >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build build -j"$(nproc)" "${targets[@]}"
