#!/usr/bin/env bash
# Builds the sanitizer presets of CMakePresets.json and runs the tests under them:
#   asan  ASan + UBSan (UB fatal) over the suite: every label by default, or the labels named in
#         $SANITIZER_LABELS (a ctest -L regex, e.g. 'unit|fuzz' — what scripts/test.sh uses);
#   tsan  ThreadSanitizer over the threaded tests (USB/IP server and client, the Device's
#         simulator thread, the in-process transport) when $SANITIZERS contains tsan.
# $SANITIZERS picks the presets (default "asan tsan"). Runtime options and the suppression files
# (scripts/sanitizers/*.supp, each entry explained in docs/sanitizers.md) come from the test
# presets. Exit status: non-zero when a build fails or any test fails or reports.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh >/dev/null
sanitizers=${SANITIZERS:-asan tsan}
labels=${SANITIZER_LABELS:-}
status=0
for preset in $sanitizers; do
  case "$preset" in
    asan|tsan) ;;
    *) echo "test-sanitizers: unknown preset '$preset' (asan, tsan)" >&2; exit 2 ;;
  esac
  echo "== $preset: configure + build"
  cmake --preset "$preset" >/dev/null
  if [ "$preset" = tsan ]; then
    # Only the threaded tests run under TSan: build just their binaries.
    cmake --build --preset tsan --target e2e_usbip e2e_usbip_sim unit_device unit_in_process
  else
    cmake --build --preset "$preset"
  fi
  echo "== $preset: test"
  args=(--preset "$preset")
  if [ "$preset" = asan ] && [ -n "$labels" ]; then args+=(-L "$labels"); fi
  ctest "${args[@]}" || status=1
done
exit $status
