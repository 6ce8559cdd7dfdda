#!/usr/bin/env bash
# The README's test command: installs what is missing, builds everything into build/ (the
# library, shared and static, the JIT plugin, the program and every test; after
# scripts/main.sh, whose configuration this is, only what main.sh left out), and runs the
# whole test suite with ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
ctest --test-dir build -j"$(nproc)" --output-on-failure
