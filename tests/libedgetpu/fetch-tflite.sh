#!/bin/sh
# fetch-tflite.sh DEST — Google's TensorFlow Lite 2.9.0 C library for the libedgetpu tests, from
# the npm package tfjs-tflite-node@0.0.2 (as ../shared/tools/tflite-ref/setup.sh does), cached in
# DEST (the build tree; never committed). Exit 0 with a loud message when it cannot be fetched:
# the tests then skip and say so.
set -u
DEST=$1
LIB="$DEST/libtensorflowlite_c.so"
[ -f "$LIB" ] && { echo "TFLite 2.9 C library: $LIB (cached)"; exit 0; }
mkdir -p "$DEST" || exit 1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# npm when present; otherwise the same tarball from the registry's download URL (python3 is a
# build dependency anyway).
TARBALL=https://registry.npmjs.org/tfjs-tflite-node/-/tfjs-tflite-node-0.0.2.tgz
if command -v npm >/dev/null 2>&1; then
  (cd "$TMP" && timeout 180 npm pack --silent tfjs-tflite-node@0.0.2 >/dev/null 2>"$TMP/fetch.err")
else
  timeout 180 python3 -c 'import sys, urllib.request; urllib.request.urlretrieve(sys.argv[1], sys.argv[2])' \
    "$TARBALL" "$TMP/tfjs-tflite-node-0.0.2.tgz" 2>"$TMP/fetch.err"
fi
if [ ! -s "$TMP/tfjs-tflite-node-0.0.2.tgz" ]; then
  echo "*** WARNING: cannot fetch npm tfjs-tflite-node@0.0.2 (no network?): $(tail -n 2 "$TMP/fetch.err" 2>/dev/null)"
  echo "*** The libedgetpu TFLite tests will SKIP."
  exit 0
fi
tar xzf "$TMP"/tfjs-tflite-node-0.0.2.tgz -C "$TMP" package/cc_deps/linux_amd64 package/cc_deps/include || exit 1
# The 2.9.0 library of tfjs-tflite-node@0.0.2 (the one the golden reference runner used; its
# README abbreviates the hash).
EXPECTED=dc89b4cd86d956516570bd483668e6dd98907f49901d0567dedc69a29a56b7f7
SUM=$(sha256sum "$TMP/package/cc_deps/linux_amd64/libtensorflowlite_c.so" | cut -c1-64)
if [ "$SUM" != "$EXPECTED" ]; then
  echo "*** ERROR: libtensorflowlite_c.so has sha256 $SUM, expected $EXPECTED"
  exit 1
fi
cp "$TMP/package/cc_deps/linux_amd64/libexternal_delegate_obj.so" "$DEST/" 2>/dev/null || true
rm -rf "$DEST/include" && cp -r "$TMP/package/cc_deps/include" "$DEST/include"
cp "$TMP/package/cc_deps/linux_amd64/libtensorflowlite_c.so" "$LIB.tmp" && mv "$LIB.tmp" "$LIB"
echo "TFLite 2.9 C library fetched: $LIB"
