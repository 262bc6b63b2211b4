#!/usr/bin/env bash
# Runs the whole GPU test suite (and the CPU suite) on a GPU machine. A test that would
# skip for lack of a GPU fails instead (SPK_REQUIRE_GPU=1).
#   tools/gpu-test.sh [BIN_DIR] [LOG_DIR]    (default BIN_DIR: build/tests or carry/bin)
set -uo pipefail
cd "$(dirname "$0")/.."
bin=${1:-}
if [ -z "$bin" ]; then
  if [ -x build/tests/spk_tests_gpu ]; then bin=build/tests; else bin=carry/bin; fi
fi
logs=${2:-.}
export SPK_SOURCE_DIR=$PWD SPK_REQUIRE_GPU=1
status=0
"$bin"/spk_tests_gpu --gtest_output=xml:"$logs"/gpu-tests.xml >"$logs"/gpu-tests.log 2>&1 || status=1
grep -E "^\[  (PASSED|FAILED|SKIPPED) |tests? from .* ran|FAILED  \]" "$logs"/gpu-tests.log
"$bin"/spk_tests_cpu --gtest_output=xml:"$logs"/cpu-tests.xml >"$logs"/cpu-tests.log 2>&1 || status=1
grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED  \]" "$logs"/cpu-tests.log
exit $status
