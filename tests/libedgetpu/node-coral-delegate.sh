#!/bin/sh
# node-coral-delegate.sh WORK_DIR LIBEDGETPU_DIR GOLDEN_DIR CORPUS_DIR — the JavaScript stack:
# npm installs tfjs-tflite-node@0.0.2 and coral-tflite-delegate into WORK_DIR (the build tree,
# cached), then coral_delegate_check.js runs corpus models through them with coralsim's
# libedgetpu.so.1 first on LD_LIBRARY_PATH. Exit 77 (CTest: skipped) when node, npm, the network or
# the corpus is missing.
set -u
WORK=$1; LIB=$2
# $CORALSIM_GOLDEN / $CORALSIM_CORPUS override the build's defaults, as for the C++ tests.
GOLDEN=${CORALSIM_GOLDEN:-$3}; CORPUS=${CORALSIM_CORPUS:-$4}
HERE=$(cd "$(dirname "$0")" && pwd)
skip() { echo "*** SKIPPED: $1. The Node stack (tfjs-tflite-node + coral-tflite-delegate) is NOT tested. ***"; exit 77; }
[ -z "${CORALSIM_SANITIZE:-}" ] || skip "libedgetpu.so.1 is built with -fsanitize=$CORALSIM_SANITIZE, whose runtime must be loaded first in the process; node is not instrumented (the normal build runs this test)"
command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || skip "node/npm not found"
[ -d "$GOLDEN" ] && [ -d "$CORPUS" ] || skip "corpus or golden data not found"
mkdir -p "$WORK" || exit 1
if [ ! -f "$WORK/node_modules/tfjs-tflite-node/build/Release/node_tflite_binding.node" ]; then
  (cd "$WORK" && timeout 600 npm install --no-audit --no-fund --silent tfjs-tflite-node@0.0.2 coral-tflite-delegate@0.0.1 \
      @tensorflow/tfjs-core @tensorflow/tfjs-backend-cpu) || skip "npm install failed (no network?)"
fi
[ -f "$WORK/node_modules/tfjs-tflite-node/build/Release/node_tflite_binding.node" ] || skip "the tfjs-tflite-node addon was not built"
cp "$HERE/coral_delegate_check.js" "$WORK/" || exit 1
cd "$WORK" && LD_LIBRARY_PATH="$LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" exec node coral_delegate_check.js "$GOLDEN" "$CORPUS" \
  google-coral+test_data__mobilenet_v1_0.25_128_quant ricardodeazambuja+LibrEdgeTPU__dense_256 \
  iwatake2222+EdgeTPU_Analysis__model_padding_64x64x3
