#!/usr/bin/env bash
# compute-sanitizer over the GPU tests, on a GPU machine (RELIABILITY.md, "Sanitizers").
#   tools/gpu-sanitize.sh BIN_DIR OUT_DIR [RUN...]
# BIN_DIR holds spk_tests_gpu (and, for the distributed part, spk_tests_mpi with
# libspk_distributed.so, and libspk_kernel_trace.so for the reach check; carry/bin or
# build/tests + build/apps). RUN is one or more of (default: label):
#   label       the `sanitize` label, every tool to completion: the spk_tests_gpu filter of
#               tests/gpu/sanitize_filter.txt and, where spk_tests_mpi and mpirun exist, the
#               spk_tests_mpi filter of tests/mpi/sanitize_filter.txt at 2 processes on this
#               GPU, each under memcheck --leak-check full, racecheck, synccheck and initcheck
#               (the four tools run side by side, one process each); then `reach`
#   reach       the label once without a sanitizer, with libspk_kernel_trace.so injected, and
#               tools/kernel_reach.py: every project kernel in the binaries (cuobjdump) must
#               have been launched
#   shard:I/N   memcheck --leak-check full over shard I of N (gtest sharding, I from 0) of the
#               whole GPU suite except the `oom` tests; the tests of tests/gpu/sanitize_slow.txt
#               (minutes each under memcheck) run in processes of their own beside shard 0
#   shards:N    all N shards at once, side by side on this GPU
#   list:FILE   memcheck --leak-check full over the tests FILE names (one per line)
#   oom         ErrorContractGpu.* (out of device memory on purpose) and the device-memory
#               accounting test, alone on the GPU, under memcheck with --report-api-errors no:
#               the failed cudaMalloc calls are the expected result
#   cli         memcheck over two `spkrylov solve` runs (csr and sell)
# Each run writes OUT_DIR/NAME.log and one summary line; a run past its limit
# (SPK_SANITIZE_LIMIT_S, default 540 s) or with any error, hazard, leak or failed test fails
# the script (exit 1).
#
# Races: racecheck sees shared memory. The files whose kernels use it are found, not listed
# (grep __shared__ over the kernel folders, printed in racecheck's log); the label reaches all
# of their kernels (the reach check). The last-block ticket protocol (__threadfence plus an
# atomic counter across blocks) is outside racecheck's model: tests/gpu/test_ticket_reductions
# checks it by bitwise repeatability instead.
# Exclusions: tools/sanitizer-exclude.txt lists the library kernels (cuSPARSE's) a tool does
# not judge, each with its reason; the project's own kernels are never excluded.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
bin=${1:?usage: tools/gpu-sanitize.sh BIN_DIR OUT_DIR [RUN...]}
out=${2:?usage: tools/gpu-sanitize.sh BIN_DIR OUT_DIR [RUN...]}
shift 2
runs=("$@")
[ ${#runs[@]} -eq 0 ] && runs=(label)
mkdir -p "$out"
bin=$(cd "$bin" && pwd)
out=$(cd "$out" && pwd)
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
[ -x "$sanitizer" ] || { echo "gpu-sanitize: compute-sanitizer not found" >&2; exit 2; }
tests=$bin/spk_tests_gpu mpi_tests=$bin/spk_tests_mpi
[ -x "$tests" ] || { echo "gpu-sanitize: $tests is missing" >&2; exit 2; }
cli=$bin/spkrylov
[ -x "$cli" ] || cli=$bin/../apps/spkrylov
export SPK_REQUIRE_GPU=1 SPK_SOURCE_DIR=$PWD SPK_CLI=$cli
export LD_LIBRARY_PATH=$bin:$bin/lib:${LD_LIBRARY_PATH:-}
export OMP_NUM_THREADS=2 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
"$sanitizer" --version 2>&1 | tail -1 >"$out/version.txt"
limit=${SPK_SANITIZE_LIMIT_S:-540}
status=0

# The gtest filter of a sanitize_filter.txt: its non-comment lines joined by ':'.
filter_of() { grep -v '^#' "$1" | grep -v '^[[:space:]]*$' | paste -sd: -; }
gpu_filter=$(filter_of tests/gpu/sanitize_filter.txt)
mpi_filter=$(filter_of tests/mpi/sanitize_filter.txt)
have_mpi=0
[ -x "$mpi_tests" ] && command -v mpirun >/dev/null && have_mpi=1

# Counts what one finished log reports; prints the summary line; sets status on failure.
judge() {
  local name=$1 log=$2 rc=$3 took=$4
  local summaries errors races hazards leaked failed passed
  summaries=$(grep -cE "(ERROR|RACECHECK) SUMMARY:" "$log")
  errors=$(grep -oE "ERROR SUMMARY: [0-9]+ errors?$" "$log" | awk '{n += $3} END {print n + 0}')
  races=$(grep -oE "RACECHECK SUMMARY: [0-9]+ hazards? displayed \([0-9]+" "$log" |
    awk -F'(' '{n += $2} END {print n + 0}')
  hazards=$(grep -cE "(Error|Warning): Race reported" "$log")
  leaked=$(grep -oE "LEAK SUMMARY: *[0-9]+ bytes" "$log" | grep -oE "[0-9]+" |
    awk '{n += $1} END {print n + 0}')
  failed=$(grep -cE "^\[  FAILED  \] [A-Za-z]" "$log")
  passed=$(grep -c "^\[       OK \]" "$log")
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    echo "[$name] TIMED OUT after $took s ($passed tests passed so far; running:" \
      "$(grep -E '^\[ RUN      \]' "$log" | tail -1 | cut -c14-)); log $log"
    status=1
    return
  fi
  if [ "$summaries" -eq 0 ]; then
    echo "[$name] exit $rc after $took s: no sanitizer summary in $log (did not finish)"
    status=1
    return
  fi
  echo "[$name] $passed tests passed, $failed failed; errors $((errors + races)), hazards" \
    "$hazards, leaked $leaked bytes ($summaries summaries); exit $rc after $took s"
  if [ $((errors + races + hazards + leaked + failed)) -ne 0 ] || [ "$rc" -ne 0 ]; then
    grep -E "^========= (Invalid|Program hit|Leaked|LEAK SUMMARY|Error|Warning|Uninitialized|$(
      )Barrier|  +at |Target)|^\[  FAILED  \]" "$log" | head -30
    status=1
  fi
}

# start NAME COMMAND...: runs COMMAND in the background under the time limit, log OUT/NAME.log.
declare -A pids started
start() {
  local name=$1
  shift
  started[$name]=$SECONDS
  (timeout -k 10 "$limit" "$@" >"$out/$name.log" 2>&1; echo $? >"$out/$name.rc"
    echo $SECONDS >"$out/$name.end") &
  pids[$name]=$!
}
finish_all() {
  local name
  for name in "${!pids[@]}"; do
    wait "${pids[$name]}"
    judge "$name" "$out/$name.log" "$(cat "$out/$name.rc")" \
      $(($(cat "$out/$name.end") - started[$name]))
  done
  pids=() started=()
}

tool_args() {
  case $1 in
    memcheck) echo "--tool memcheck --leak-check full" ;;
    racecheck) echo "--tool racecheck" ;;
    synccheck) echo "--tool synccheck" ;;
    initcheck) echo "--tool initcheck" ;;
  esac
  # The reviewed library kernels this tool does not judge (tools/sanitizer-exclude.txt).
  local tool substring
  while read -r tool substring _; do
    [ "$tool" = "$1" ] && echo "--kernel-name-exclude kns=$substring"
  done < <(grep -v '^#' tools/sanitizer-exclude.txt | grep -v '^[[:space:]]*$')
}

run_label() {
  echo "racecheck: shared memory in $(grep -l "__shared__" core/*.cuh spmv/*/*.cu \
    spmv/*/*.cuh solver/*.cu solver/*.cuh solver/*/*.cu solver/*/*.cuh distributed/*.cu \
    distributed/*.cuh 2>/dev/null | sort -u | tr '\n' ' ')" | tee "$out/shared-memory-files.txt"
  local tool
  for tool in memcheck racecheck synccheck initcheck; do
    # shellcheck disable=SC2046
    start "label-$tool" "$sanitizer" --error-exitcode 1 --print-limit 100 $(tool_args $tool) \
      "$tests" --gtest_filter="$gpu_filter" --gtest_color=no --gtest_output=xml:"$out/label-$tool.xml"
  done
  finish_all
  if [ "$have_mpi" -eq 1 ]; then
    for tool in memcheck racecheck synccheck initcheck; do
      # shellcheck disable=SC2046
      start "label-mpi-$tool" mpirun --oversubscribe --allow-run-as-root -np 2 \
        "$sanitizer" --error-exitcode 1 --print-limit 100 $(tool_args $tool) \
        "$mpi_tests" --gtest_filter="$mpi_filter" --gtest_color=no
    done
    finish_all
  else
    echo "[label-mpi] skipped: no spk_tests_mpi in $bin or no mpirun"
  fi
}

run_reach() {
  local trace=$out/kernels-launched.txt lib=$bin/libspk_kernel_trace.so
  [ -f "$lib" ] || { echo "[reach] $lib is missing"; status=1; return; }
  rm -f "$trace"
  CUDA_INJECTION64_PATH=$lib SPK_KERNEL_TRACE=$trace "$tests" --gtest_filter="$gpu_filter" \
    >"$out/reach-gpu.log" 2>&1 || { echo "[reach] the label failed: $out/reach-gpu.log"; status=1; }
  local binaries=(--binary "$tests")
  [ "$have_mpi" -eq 1 ] && binaries+=(--binary "$mpi_tests")
  if [ "$have_mpi" -eq 1 ]; then
    mpirun --oversubscribe --allow-run-as-root -np 2 -x CUDA_INJECTION64_PATH="$lib" \
      -x SPK_KERNEL_TRACE="$trace" "$mpi_tests" --gtest_filter="$mpi_filter" \
      >"$out/reach-mpi.log" 2>&1 || { echo "[reach] the mpi label failed"; status=1; }
    for library in "$bin"/libspk_distributed*.so*; do
      [ -f "$library" ] && binaries+=(--binary "$library")
    done
  fi
  "$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)" -symbols "$tests" 2>&1 |
    head -40 >"$out/cuobjdump-sample.txt"
  python3 tools/kernel_reach.py "${binaries[@]}" --trace "$trace" \
    --report "$out/kernel-reach.txt" | tail -2 | sed 's/^/[reach] /'
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
}

# The whole suite but the tests that need the GPU to themselves: ErrorContractGpu (out of memory
# on purpose) and the device-memory accounting test, which counts every process's allocations
# (cudaMemGetInfo) and so fails beside other shards; both run alone in `oom`.
alone='ErrorContractGpu.*:SolverApiGpu.RepeatedSolvesAllocateNoDeviceMemory'
# The tests that take minutes under memcheck (thousands of launches) run each in a process of
# its own beside the shards, so that no shard waits on them (tests/gpu/sanitize_slow.txt).
slow=$(filter_of tests/gpu/sanitize_slow.txt)
suite_filter="-$alone${slow:+:$slow}"
run_slow() {
  local test
  for test in ${slow//:/ }; do
    start "memcheck-slow-${test//[^A-Za-z0-9]/_}" "$sanitizer" --error-exitcode 1 \
      --print-limit 100 --tool memcheck --leak-check full "$tests" --gtest_filter="$test" \
      --gtest_color=no
  done
}
run_shard() {  # run_shard INDEX COUNT
  start "memcheck-shard-$1-of-$2" env GTEST_SHARD_INDEX="$1" GTEST_TOTAL_SHARDS="$2" \
    "$sanitizer" --error-exitcode 1 --print-limit 100 --tool memcheck --leak-check full \
    "$tests" --gtest_filter="$suite_filter" --gtest_color=no --gtest_output=xml:"$out/memcheck-shard-$1-of-$2.xml"
}

for run in "${runs[@]}"; do
  case $run in
    label) run_label; run_reach ;;
    reach) run_reach ;;
    shard:*/*)  # shard 0 also runs the slow tests, each in its own process
      spec=${run#shard:}
      run_shard "${spec%/*}" "${spec#*/}"
      [ "${spec%/*}" = 0 ] && run_slow
      finish_all
      ;;
    shards:*)
      count=${run#shards:}
      for ((index = 0; index < count; ++index)); do run_shard "$index" "$count"; done
      run_slow
      finish_all
      ;;
    list:*)  # memcheck over the tests named in a file, one per line (e.g. a shard's rest)
      start "memcheck-list" "$sanitizer" --error-exitcode 1 --print-limit 100 --tool memcheck \
        --leak-check full "$tests" --gtest_filter="$(grep -v '^#' "${run#list:}" | paste -sd: -)" \
        --gtest_color=no
      finish_all
      ;;
    oom)
      start memcheck-oom "$sanitizer" --error-exitcode 1 --tool memcheck --leak-check full \
        --report-api-errors no --target-processes application-only \
        "$tests" --gtest_filter="$alone" --gtest_color=no
      finish_all
      ;;
    cli)
      for format in csr sell; do
        start "memcheck-cli-$format" "$sanitizer" --error-exitcode 1 --tool memcheck \
          --leak-check full "$cli" solve --quiet --set device=gpu --set matrix.generate.n=32 \
          --set spmv.format=$format
      done
      finish_all
      ;;
    *) echo "gpu-sanitize: unknown run '$run' (label, reach, shard:I/N, shards:N, list:FILE, oom, cli)" >&2
       exit 2 ;;
  esac
done
exit $status
