#!/usr/bin/env bash
# Builds every fuzz target with clang's libFuzzer (+ASan/UBSan) into ./build-fuzz and runs each one
# for FUZZ_SECONDS (default 60) starting from its committed inputs. Long mode: FUZZ_SECONDS=14400.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
seconds=${FUZZ_SECONDS:-60}
if [ ! -f build-fuzz/build.ninja ]; then
  CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCORALSIM_FUZZ=ON -DCORALSIM_BUILD_TESTS=ON -DCORALSIM_BUILD_BENCH=OFF
fi
cmake --build build-fuzz --parallel "$(nproc)"
for target in $(find build-fuzz/tests/fuzz -maxdepth 1 -type f -executable -name 'fuzz_*' | sort); do
  name=$(basename "$target")
  work=build-fuzz/fuzz-corpus/$name
  mkdir -p "$work"
  echo "== $name: fuzzing for ${seconds}s"
  "$target" -max_total_time="$seconds" -print_final_stats=1 "$work" "tests/fuzz/inputs/$name" 2>&1 |
    grep -E 'stat::number_of_executed_units|ERROR|SUMMARY|Done' || true
done
