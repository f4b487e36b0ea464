#!/bin/sh
# check-abi-layout.sh CXX TFLITE_DIR SOURCE_DIR — compiles abi_layout_check.cc against the TFLite
# 2.9 headers fetched by fetch-tflite.sh; exit 77 (CTest: skipped) when they are absent.
CXX=$1; TFLITE=$2; SRC=$3
if [ ! -f "$TFLITE/include/tensorflow/lite/c/common.h" ]; then
  echo "*** SKIPPED: TFLite 2.9 headers not found in $TFLITE/include (fetch failed: no network?). ABI layout NOT checked."
  exit 77
fi
exec "$CXX" -std=c++20 -fsyntax-only -Wall -Werror -Wno-invalid-offsetof -I"$TFLITE/include" -I"$SRC" \
  "$SRC/tests/libedgetpu/abi_layout_check.cc"
