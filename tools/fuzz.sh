#!/usr/bin/env bash
# Runs one libFuzzer target for a given time.
#   tools/fuzz.sh TARGET SECONDS [LIBFUZZER_ARGS...]
#     TARGET   matrix_market | config
#     SECONDS  total fuzzing time (e.g. 30 for the CI smoke, 600 before a release)
# Builds the target with clang++ in build-fuzz/ (SPK_BUILD_FUZZERS=ON; another folder with
# SPK_FUZZ_BUILD_DIR=DIR, e.g. the CI smoke's build-fuzz-ci), seeds a working
# corpus from the committed edge cases (fuzz/corpus/TARGET) plus the real inputs (data/*.mtx
# for matrix_market; configs/*.yaml and the rhs/vector files for config), and fuzzes with
# AddressSanitizer and UBSan. The working corpus (BUILD/corpus/TARGET) persists between
# runs; a crashing input is written to BUILD/artifacts/TARGET/DATE-TIME/ and the script
# exits 1 (BUILD: build-fuzz, or $SPK_FUZZ_BUILD_DIR).
# The last line is a summary: "fuzz TARGET: N runs in S s, K corpus inputs, 0 crashes".
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: tools/fuzz.sh matrix_market|config SECONDS [libFuzzer args]}
seconds=${2:?usage: tools/fuzz.sh TARGET SECONDS}
shift 2
case "$target" in
  matrix_market) max_len=8192 ;;
  config) max_len=4096 ;;
  *) echo "fuzz: unknown target '$target' (matrix_market or config)" >&2; exit 2 ;;
esac
command -v clang++ >/dev/null || { echo "fuzz: clang++ is missing (Debian/Ubuntu: apt-get install clang)" >&2; exit 2; }
export PATH=/usr/local/cuda/bin:$PATH

build=${SPK_FUZZ_BUILD_DIR:-build-fuzz}
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DSPK_BUILD_FUZZERS=ON -DSPK_BUILD_TESTS=OFF >/dev/null
fi
if ! cmake --build "$build" --target "${target}_fuzzer" -j2 >"$build/build-$target.log" 2>&1; then
  tail -30 "$build/build-$target.log" >&2
  echo "fuzz $target: build failed; log $build/build-$target.log" >&2
  exit 2
fi

corpus=$build/corpus/$target
artifacts=$build/artifacts/$target/$(date +%Y%m%d-%H%M%S)
mkdir -p "$corpus" "$artifacts"
cp -n fuzz/corpus/"$target"/* "$corpus"/ 2>/dev/null || true
if [ "$target" = matrix_market ]; then
  cp -n data/*.mtx "$corpus"/
else
  cp -n configs/*.yaml "$corpus"/
fi

log=$build/fuzz-$target.log
status=0
# The config loader looks up matrix.file/rhs.file relative to the current directory: run
# from the repository root so the shipped configs' data/ paths exist.
"$build/fuzz/${target}_fuzzer" "$corpus" -max_total_time="$seconds" -max_len="$max_len" \
  -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 -print_final_stats=1 \
  -dict="fuzz/$target.dict" -artifact_prefix="$artifacts/" "$@" >"$log" 2>&1 || status=$?

runs=$(grep -oE "^stat::number_of_executed_units: *[0-9]+" "$log" | grep -oE "[0-9]+$" || true)
[ -n "$runs" ] || runs=$(grep -oE "Done [0-9]+ runs" "$log" | grep -oE "[0-9]+" | tail -1 || true)
took=$(grep -oE "Done [0-9]+ runs in [0-9]+ second" "$log" | grep -oE "in [0-9]+" | grep -oE "[0-9]+" || true)
inputs=$(ls "$corpus" | wc -l)
crashes=$(find "$artifacts" -type f | wc -l)
if [ "$status" -ne 0 ]; then
  grep -E "ERROR|fuzz finding|SUMMARY|Test unit written" "$log" | head -20 >&2 || true
  echo "fuzz $target: FAILED (exit $status) after ${runs:-?} runs; log $log; inputs in $artifacts" >&2
  exit 1
fi
echo "fuzz $target: ${runs:-?} runs in ${took:-$seconds} s, $inputs corpus inputs, $crashes crashes"
[ "$crashes" -eq 0 ]
