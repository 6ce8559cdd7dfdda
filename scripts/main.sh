#!/usr/bin/env bash
# The README's main job: installs what is missing, builds what the tour runs (libckernel.so,
# its JIT plugin libckernel-jit.so, the ckernel program and the Python package; not the
# static archive or the tests) into build/, and runs the ckernel program's tour. The configuration is
# scripts/test.sh's (scripts/build.sh), so the test command rebuilds none of it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# ck_tour: the program (it links libckernel.so, which depends on the plugin) and the Python
# package when this machine builds it.
bash scripts/build.sh ck_tour
exec bash scripts/tour.sh build/bin/ckernel
