#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, and runs every CTest suite
# (labels unit, corpus, e2e, fuzz). Corpus-driven tests read ../shared/corpus and ../shared/golden
# (or $CORALSIM_CORPUS / $CORALSIM_GOLDEN) and skip loudly when they are absent.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
build_dir=${CORALSIM_BUILD_DIR:-build}
ctest --test-dir "$build_dir" --output-on-failure --parallel "$(nproc)" "$@"
