#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, and runs every CTest suite
# (labels unit, corpus, e2e, fuzz). Corpus-driven tests read ../shared/corpus and ../shared/golden
# (or $CORALSIM_CORPUS / $CORALSIM_GOLDEN) and skip loudly when they are absent.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
build_dir=${CORALSIM_BUILD_DIR:-build}
ctest --test-dir "$build_dir" --output-on-failure --parallel "$(nproc)" "$@"
# Opt-in: the ASan+UBSan build of the unit and fuzz labels after the normal suite
# (CORALSIM_TEST_SANITIZERS=1). CI (.ci/run) runs the whole sanitizer matrix,
# scripts/test-sanitizers.sh, after this script; figures in docs/sanitizers.md.
if [ "${CORALSIM_TEST_SANITIZERS:-0}" = 1 ]; then
  SANITIZERS=asan SANITIZER_LABELS='unit|fuzz' scripts/test-sanitizers.sh
fi
