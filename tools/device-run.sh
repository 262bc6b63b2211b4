#!/usr/bin/env bash
# One GPU-machine session: the whole GPU test suite, the default solve, a format comparison
# with its plot, the SpMV benchmark, the solver benchmark and the SciPy/CuPy peer check.
# Each step has its own time limit so one slow step cannot starve the others.
#   tools/device-run.sh BIN_DIR OUT_DIR [STEPS]   (STEPS: tests,solve,bench,solvers,peers)
set -uo pipefail
cd "$(dirname "$0")/.."
bin=${1:?BIN_DIR}
out=${2:?OUT_DIR}
steps=${3:-tests,solve,bench,solvers,peers}
mkdir -p "$out"
export SPK_SOURCE_DIR=$PWD
status=0
step() { [[ ",$steps," == *",$1,"* ]]; }
run() {  # run NAME SECONDS COMMAND...
  local name=$1 limit=$2
  shift 2
  local start=$SECONDS
  timeout "$limit" "$@" >"$out/$name.txt" 2>&1
  local rc=$?
  echo "[$name] exit $rc after $((SECONDS - start)) s"
  [ $rc -ne 0 ] && status=1
  return 0
}
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv >"$out/gpu.txt" 2>&1
ldd "$bin/spkrylov" | grep -E "not found|cublas|cusparse" >"$out/ldd.txt"
step tests && { run gpu-tests 200 tools/gpu-test.sh "$bin" "$out"; tail -5 "$out/gpu-tests.txt"; }
if step solve; then
  run solve 60 "$bin/spkrylov" solve --quiet --set output.report="$out/solve.json"
  run compare 120 "$bin/spkrylov" solve configs/compare-formats.yaml --quiet \
    --set output.plot="$out/compare.svg" --set output.history="$out/compare-history.csv" \
    --set output.report="$out/compare.json"
fi
step bench && run bench 240 "$bin/spkrylov" bench --x-cache ldg,texture --csv "$out/bench.csv" \
  --json "$out/bench.json"
step solvers && run solvers 240 "$bin/spkrylov" bench --solvers --csv "$out/solvers.csv"
step peers && run peers 120 python3 tools/peer_check.py --spkrylov "$bin/spkrylov" --out "$out"
# The device tool brings back at most 8 files: pack everything into one archive.
tar -C "$out" -czf /tmp/device-logs.tar.gz . && find "$out" -mindepth 1 -delete &&
  mv /tmp/device-logs.tar.gz "$out/logs.tar.gz"
exit $status
