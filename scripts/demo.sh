#!/usr/bin/env bash
# The README's main-job command: installs what is missing, builds, then runs the simulator on the
# embedded demo program (written with coralsim's own assembler) and, when ../shared/corpus is
# present, classifies its cat.bmp with a real compiled model (MobileNet, its CPU twin found beside
# it) and checks the top classes against the hardware ground truth; without the corpus that part is
# skipped with a message.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh >/dev/null
build_dir=${CORALSIM_BUILD_DIR:-build}
exec "$build_dir/coralsim" demo "$@"
