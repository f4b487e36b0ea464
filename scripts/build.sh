#!/usr/bin/env bash
# Configures and builds coralsim into ./build (incremental; safe to re-run).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
build_dir=${CORALSIM_BUILD_DIR:-build}
if [ ! -f "$build_dir/build.ninja" ]; then
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=${CORALSIM_BUILD_TYPE:-RelWithDebInfo}
fi
cmake --build "$build_dir" --parallel "$(nproc)"
