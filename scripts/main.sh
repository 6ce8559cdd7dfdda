#!/usr/bin/env bash
# The README's main job: installs what is missing, builds ckernel (release) into build/, and
# runs the ckernel program's tour.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
exec bash scripts/tour.sh build/bin/ckernel
