#!/usr/bin/env bash
# Runs the whole GPU test suite (and the CPU suite) on a GPU machine. A test that would
# skip for lack of a GPU fails instead (SPK_REQUIRE_GPU=1).
#   tools/gpu-test.sh [BIN_DIR] [LOG_DIR]    (default BIN_DIR: build/tests or carry/bin)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
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

# The distributed solver under mpirun: 1 process (NCCL) and 2-4 processes sharing the GPU
# (the mpi transport), plus the CPU path's tests, which run in the same binary.
if [ -x "$bin"/spk_tests_mpi ]; then
  if command -v mpirun >/dev/null; then
    libraries="$(cd "$bin" && pwd)/lib"
    export LD_LIBRARY_PATH="$libraries:${LD_LIBRARY_PATH:-}" OMP_NUM_THREADS=1 NCCL_NVLS_ENABLE=0
    for np in 1 2 3 4; do
      timeout 900 mpirun --allow-run-as-root --oversubscribe -np "$np" -x SPK_REQUIRE_GPU \
        -x SPK_SOURCE_DIR -x LD_LIBRARY_PATH -x OMP_NUM_THREADS -x NCCL_NVLS_ENABLE \
        "$bin"/spk_tests_mpi --gtest_color=no >"$logs"/mpi-tests-np"$np".log 2>&1 || status=1
      echo "mpirun -np $np spk_tests_mpi:"
      grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED  \]|^\[rank" "$logs"/mpi-tests-np"$np".log | head -40
    done
    # A rank failing mid-solve (tests/mpi/test_rank_failure*.cpp): 2-4 processes on this GPU
    # (the mpi transport); on several GPUs the GPU cases use NCCL. Each run must end in 120 s.
    if [ -x "$bin"/spk_tests_mpi_faults ]; then
      for np in 2 3 4; do
        timeout 120 mpirun --allow-run-as-root --oversubscribe -np "$np" -x SPK_REQUIRE_GPU \
          -x SPK_SOURCE_DIR -x LD_LIBRARY_PATH -x OMP_NUM_THREADS -x NCCL_NVLS_ENABLE \
          "$bin"/spk_tests_mpi_faults --gtest_color=no >"$logs"/mpi-faults-np"$np".log 2>&1 ||
          status=1
        echo "mpirun -np $np spk_tests_mpi_faults:"
        grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED  \]|^\[rank" "$logs"/mpi-faults-np"$np".log |
          head -20
      done
    fi
    # `mpirun -np N spkrylov solve` on the GPU (grid rows made on each GPU), against one process
    if [ -x "$bin"/spk_tests_mpirun_cli ]; then
      SPK_REQUIRE_GPU=1 timeout 600 "$bin"/spk_tests_mpirun_cli --gtest_filter='MpirunCliGpu.*' \
        --gtest_color=no >"$logs"/mpirun-cli-gpu.log 2>&1 || status=1
      echo "spk_tests_mpirun_cli (MpirunCliGpu):"
      grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED  \]" "$logs"/mpirun-cli-gpu.log | head -20
    fi
  else
    echo "mpirun not found: the distributed tests did not run"
    status=1
  fi
fi
exit $status
