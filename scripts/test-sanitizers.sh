#!/usr/bin/env bash
# Builds the sanitizer presets of CMakePresets.json and runs the tests under them:
#   asan  ASan + UBSan (UB fatal) over the suite (the QEMU kernel tests excepted: they run a guest,
#         not our code under ASan; and seven corpus golden sweeps whose programs other corpus tests
#         run under ASan: the asan test preset's exclude filter, docs/sanitizers.md): every label by default, or the labels named in
#         $SANITIZER_LABELS (a ctest -L regex, e.g. 'unit|fuzz');
#   tsan  ThreadSanitizer over the threaded tests (USB/IP server and client, the Device's
#         simulator thread, the in-process transport, the soak, the USB/IP session fuzz replay)
#         when $SANITIZERS contains tsan.
# Sanitizer builds are -O1 -g1 (CMakePresets.json) and build no benchmarks and no libFuzzer
# engines (the fuzz targets are built as replays of their committed inputs). Each stage prints
# its build and test wall time. The soak runs CORALSIM_SOAK_CYCLES=200 cycles under sanitizers.
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
  started=$(date +%s)
  cmake --preset "$preset" >/dev/null
  if [ "$preset" = tsan ]; then
    # Only the threaded tests run under TSan (the test preset's filter): build just their binaries.
    cmake --build --preset tsan --target e2e_usbip e2e_usbip_sim e2e_usbip_limits e2e_soak unit_device \
      unit_device_limits unit_in_process fuzz_usbip_session
  else
    cmake --build --preset "$preset"
  fi
  built=$(date +%s)
  echo "== $preset: test"
  args=(--preset "$preset")
  if [ "$preset" = asan ] && [ -n "$labels" ]; then args+=(-L "$labels"); fi
  ctest "${args[@]}" || status=1
  echo "== $preset: build $((built - started)) s, test $(($(date +%s) - built)) s"
done
exit $status
