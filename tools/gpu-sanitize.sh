#!/usr/bin/env bash
# compute-sanitizer over the GPU test suite and the CLI, on a GPU machine (RELIABILITY.md).
#   tools/gpu-sanitize.sh BIN_DIR OUT_DIR
# BIN_DIR holds spk_tests_gpu and spkrylov (carry/bin, or build/tests + build/apps: a
# spkrylov next to the tests is used first, else BIN_DIR/../apps/spkrylov). Runs:
#   memcheck-tests   memcheck --leak-check full over every GPU test except ErrorContractGpu.*
#   memcheck-oom     the same over ErrorContractGpu.*, which run out of device memory on
#                    purpose: --report-api-errors no there, since the failed cudaMalloc calls
#                    are the expected result (the tests check the exception), and only the test
#                    process is instrumented (the CLI child must print one clean line)
#   racecheck-*      racecheck over the suites whose kernels use __shared__; no kernel in
#                    spmv/ or solver/ does today, so it is a capped run over the whole
#                    suite (a smoke: a run cut off by its cap is not a failure)
#   memcheck-cli-FMT memcheck --leak-check full over `spkrylov solve` (poisson3d n=32, GPU)
#                    with spmv.format csr and hyb
# Each run has its own time limit (limit_* below: at most about 5.7 minutes in all, 6 with a
# shared-memory kernel; device-run gives the script 420 s) and writes OUT_DIR/NAME.log. One
# summary line per run, with its ERROR SUMMARY count; exit 1 if any run reported an error,
# failed a test, or (memcheck) did not finish.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
bin=${1:?usage: tools/gpu-sanitize.sh BIN_DIR OUT_DIR}
out=${2:?usage: tools/gpu-sanitize.sh BIN_DIR OUT_DIR}
mkdir -p "$out"
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
if [ ! -x "$sanitizer" ]; then
  echo "gpu-sanitize: compute-sanitizer not found (PATH or /usr/local/cuda/bin)" >&2
  exit 2
fi
tests=$bin/spk_tests_gpu
cli=$bin/spkrylov
[ -x "$cli" ] || cli=$bin/../apps/spkrylov
for binary in "$tests" "$cli"; do
  [ -x "$binary" ] || { echo "gpu-sanitize: $binary is missing" >&2; exit 2; }
done
cli=$(cd "$(dirname "$cli")" && pwd)/spkrylov  # absolute: the CLI tests run it from a temp dir
export SPK_REQUIRE_GPU=1 SPK_SOURCE_DIR=$PWD SPK_CLI=$cli
"$sanitizer" --version 2>&1 | tail -1 >"$out/version.txt"

# Time limits (seconds) of the runs; the environment may raise them. Unsanitized, the GPU suite
# takes about 100 s on an H100 (benchmarks/h100-2026-11-23/gpu-tests.txt), so under memcheck
# memcheck-tests may reach its limit: the line then says how far it got.
limit_tests=${SPK_SANITIZE_TESTS_S:-200} limit_oom=${SPK_SANITIZE_OOM_S:-80}
limit_race=${SPK_SANITIZE_RACE_S:-30} limit_cli=${SPK_SANITIZE_CLI_S:-15}
# The whole suite under memcheck does not fit one 10-minute device call: SPK_SANITIZE_FILTER
# (a gtest filter, default: every suite but ErrorContractGpu, which has its own run) and
# SPK_SANITIZE_RUNS (a comma list of tests,oom,race,cli; default all) split it over calls.
tests_filter=${SPK_SANITIZE_FILTER:--ErrorContractGpu.*}
runs=${SPK_SANITIZE_RUNS:-tests,oom,race,cli}
wanted() { [[ ",$runs," == *",$1,"* ]]; }
status=0
# sanitize NAME LIMIT_S CAPPED(0|1) SANITIZER_ARGS... -- COMMAND...
sanitize() {
  local name=$1 limit=$2 capped=$3
  shift 3
  local args=()
  while [ "$1" != "--" ]; do args+=("$1"); shift; done
  shift
  local log=$out/$name.log start=$SECONDS rc=0
  timeout -k 10 "$limit" "$sanitizer" --error-exitcode 1 "${args[@]}" "$@" >"$log" 2>&1 || rc=$?
  local took=$((SECONDS - start))
  # One "ERROR SUMMARY: N errors" per instrumented process; racecheck also prints "RACECHECK
  # SUMMARY: H hazards displayed (E errors, W warnings)". Add them all up.
  local summaries errors races hazards leaked
  summaries=$(grep -cE "(ERROR|RACECHECK) SUMMARY:" "$log")
  errors=$(grep -oE "ERROR SUMMARY: [0-9]+" "$log" | awk '{n += $3} END {print n + 0}')
  races=$(grep -oE "RACECHECK SUMMARY: [0-9]+ hazards? displayed \([0-9]+" "$log" |
    awk -F'(' '{n += $2} END {print n + 0}')
  errors=$((errors + races))
  hazards=$(grep -cE "(Error|Warning): Race reported" "$log")
  # --leak-check full also prints "LEAK SUMMARY: N bytes leaked in K allocations".
  leaked=$(grep -oE "LEAK SUMMARY: *[0-9]+ bytes" "$log" | grep -oE "[0-9]+" |
    awk '{n += $1} END {print n + 0}')
  local tests_line passed last reports
  tests_line=$(grep -E "^\[  (PASSED|FAILED)  \]" "$log" | tr '\n' ' ')
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    passed=$(grep -c "^\[       OK \]" "$log")
    last=$(grep -E "^\[ RUN      \]" "$log" | tail -1 | sed 's/^\[ RUN      \] //')
    # Cut off before its ERROR SUMMARY: count the reports printed so far.
    reports=$(grep -cE "^========= (Invalid|Program hit|Leaked|Misaligned|Out-of-range|$(
      )Illegal|Malloc|Hardware|Error:|Warning:)" "$log")
    echo "[$name] $passed tests passed before the limit; running: ${last:-none}"
    if [ "$capped" -eq 1 ] && [ $((errors + leaked + reports)) -eq 0 ]; then
      echo "[$name] capped at ${limit} s: no ERROR SUMMARY; 0 error reports before the cap"
      return 0
    fi
    echo "[$name] TIMED OUT after ${limit} s: no ERROR SUMMARY; $reports error reports so far;" \
      "log $log"
    status=1
    return 0
  fi
  if [ "$summaries" -eq 0 ]; then
    echo "[$name] exit $rc after $took s: no ERROR SUMMARY in $log (the sanitizer did not finish)"
    status=1
    return 0
  fi
  echo "[$name] ERROR SUMMARY: $errors errors ($summaries summary lines), $leaked bytes leaked," \
    "exit $rc after $took s ${tests_line}"
  if [ $((errors + hazards + leaked)) -ne 0 ] || [ "$rc" -ne 0 ]; then
    grep -E "^========= (Invalid|Program hit|Leaked|LEAK SUMMARY|Error|Warning|  +at |Target)" \
      "$log" | head -20
    status=1
  fi
  return 0
}

memcheck=(--tool memcheck --leak-check full)
wanted tests && sanitize memcheck-tests "$limit_tests" 0 "${memcheck[@]}" -- \
  "$tests" --gtest_filter="$tests_filter" --gtest_output=xml:"$out/memcheck-tests.xml"
wanted oom && sanitize memcheck-oom "$limit_oom" 0 "${memcheck[@]}" --report-api-errors no \
  --target-processes application-only -- \
  "$tests" --gtest_filter='ErrorContractGpu.*' --gtest_output=xml:"$out/memcheck-oom.xml"
wanted race || { wanted cli || exit $status; }

# racecheck only looks at shared memory: the suites of the kernels that declare __shared__.
shared=$(grep -l "__shared__" spmv/*/*.cu spmv/*/*.cuh solver/*.cu solver/*.cuh \
  2>/dev/null | sort -u)
filter="" unmapped=""
for file in $shared; do
  case "$(basename "$file")" in
    csr* | aligned_csr*) filter+=":*CsrSpmv.*:CsrFamily*:CsrVector*" ;;
    ell*) filter+=":*EllSpmv.*:Ell*" ;;
    hyb* | coo*) filter+=":*HybOverflow.*:*EllSpmv.*" ;;
    krylov* | device_space*) filter+=":SolversGpu.*:SolverApiGpu.*:Heat3dGpu.*" ;;
    *) unmapped+=" $file" ;;
  esac
done
racecheck=(--tool racecheck --report-api-errors no --target-processes application-only)
if ! wanted race; then
  :
elif [ -z "$shared" ]; then
  echo "racecheck: no __shared__ in the spmv or solver kernels; capped run over the whole suite"
  sanitize racecheck-all "$limit_race" 1 "${racecheck[@]}" -- "$tests"
elif [ -n "$unmapped" ]; then
  echo "racecheck: __shared__ in$unmapped (no suite mapped here); capped run over the whole suite"
  sanitize racecheck-all $((limit_race * 2)) 1 "${racecheck[@]}" -- "$tests"
else
  echo "racecheck: __shared__ in $(echo "$shared" | tr '\n' ' ')"
  sanitize racecheck-shared $((limit_race * 2)) 0 "${racecheck[@]}" -- "$tests" \
    --gtest_filter="${filter#:}"
fi

wanted cli && for format in csr hyb; do
  sanitize "memcheck-cli-$format" "$limit_cli" 0 "${memcheck[@]}" -- \
    "$cli" solve --quiet --set device=gpu --set matrix.generate.n=32 --set spmv.format=$format
done
exit $status
