#!/usr/bin/env bash
# Builds every fuzz target with clang's libFuzzer (+ASan/UBSan) into ./build-fuzz and runs each one
# starting from its committed inputs (tests/fuzz/inputs/<target>/), growing a working corpus in
# build-fuzz/fuzz-corpus/<target>/ (kept between runs, never committed).
#
#   scripts/fuzz.sh                          CI-lite: FUZZ_SECONDS (default 30) per target
#   FUZZ_SECONDS=14400 scripts/fuzz.sh       long mode: 4 hours per target (run overnight)
#   scripts/fuzz.sh fuzz_device fuzz_scalar_engine   only the named targets
#   CORALSIM_FUZZ_BUILD_DIR=DIR                       build somewhere else than ./build-fuzz
#
# Prints the executions of every target; exits non-zero if any target crashed, leaked, hit a
# sanitizer report or a broken property (the reproducer is left as build-fuzz/crash-* /
# leak-* / timeout-*; replay it with build-fuzz/tests/fuzz/<target> <file>).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh >/dev/null
seconds=${FUZZ_SECONDS:-30}
bd=${CORALSIM_FUZZ_BUILD_DIR:-build-fuzz}
if [ ! -f "$bd/build.ninja" ]; then
  CXX=clang++ cmake -S . -B "$bd" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCORALSIM_FUZZ=ON -DCORALSIM_BUILD_TESTS=ON -DCORALSIM_BUILD_BENCH=OFF
fi
if [ $# -gt 0 ]; then
  targets=("$@")
else
  mapfile -t targets < <(sed -n 's/^coralsim_fuzz_target(NAME \([a-z_0-9]*\).*/\1/p' tests/fuzz/CMakeLists.txt | sort)
fi
cmake --build "$bd" --parallel "$(nproc)" --target "${targets[@]}"
failed=()
summary=()
for name in "${targets[@]}"; do
  target=$bd/tests/fuzz/$name
  work=$bd/fuzz-corpus/$name
  log=$bd/fuzz-$name.log
  mkdir -p "$work"
  echo "== $name: fuzzing for ${seconds}s (log: $log)"
  set +e
  # SystemC's coroutines run on QuickThreads stacks ASan does not know about: see docs/sanitizers.md.
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_stack_use_after_return=0} \
    "$target" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix="$bd/" "$work" "tests/fuzz/inputs/$name" >"$log" 2>&1
  status=$?
  set -e
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  grep -E '^(==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written)' "$log" || true
  summary+=("$name: ${execs:-?} executions, exit $status")
  if [ "$status" -ne 0 ]; then failed+=("$name"); fi
done
echo "== summary (${seconds}s per target)"
printf '  %s\n' "${summary[@]}"
if [ ${#failed[@]} -ne 0 ]; then
  echo "fuzz: FAILED: ${failed[*]}" >&2
  exit 1
fi
