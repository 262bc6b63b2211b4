#!/usr/bin/env bash
# One GPU-machine session: the whole GPU test suite, the default solve, a format comparison
# with its plot, the SpMV benchmark, the solver benchmark and the SciPy/CuPy peer check.
# Each step has its own time limit so one slow step cannot starve the others.
#   tools/device-run.sh BIN_DIR OUT_DIR [STEPS]
#   STEPS (comma list, default all but sanitize,profile):
#     tests,solve,auto,bench,solvers,peers,divergence,heat3d,sanitize,profile
set -uo pipefail
cd "$(dirname "$0")/.."
bin=${1:?BIN_DIR}
out=${2:?OUT_DIR}
steps=${3:-tests,solve,auto,bench,solvers,peers,divergence,heat3d}
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
if step auto; then  # spmv.format auto: the first solve tunes, the second reads the cache
  for pass in first second; do
    run auto-$pass 120 "$bin/spkrylov" solve --quiet --set matrix.generate.n=128 \
      --set spmv.format=auto --set spmv.tune_cache="$out/tuning-cache.txt" \
      --set output.report="$out/auto-$pass.json"
  done
fi
step bench && run bench 240 "$bin/spkrylov" bench --x-cache ldg,texture --csv "$out/bench.csv" \
  --json "$out/bench.json"
step solvers && run solvers 240 "$bin/spkrylov" bench --solvers --csv "$out/solvers.csv"
step peers && run peers 180 python3 tools/peer_check.py --spkrylov "$bin/spkrylov" --out "$out"
step divergence && run divergence 120 python3 tools/divergence_table.py --spkrylov "$bin/spkrylov" \
  --device gpu
if step heat3d; then
  run heat3d-gpu 120 "$bin/heat3d" --n 96 --steps 10 --device gpu --format ellpack-r
  run heat3d-gpu-csr 120 "$bin/heat3d" --n 96 --steps 10 --device gpu --format csr-vector
  run heat3d-cpu 120 "$bin/heat3d" --n 48 --steps 3 --device cpu
fi
if step sanitize && [ -x tools/gpu-sanitize.sh ]; then
  run gpu-sanitize 580 tools/gpu-sanitize.sh "$bin" "$out/sanitize" label
fi
if step profile; then  # Nsight Compute on the power-law SpMV: hyb vs cuSPARSE
  ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
  if [ -n "$ncu" ]; then
    run profile 240 "$ncu" --clock-control none --kernel-name-base demangled \
      --kernel-name "regex:(?i)(csr|ell|coo|hyb|spmv)" --launch-skip 2 --launch-count 10 \
      --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy \
      "$bin/spkrylov" bench --only powerlaw --formats cusparse,hyb --x-cache ldg --runs 3 --warmup 1
  else
    echo "no ncu on this machine" >"$out/profile.txt"
  fi
fi
# The device tool brings back at most 8 files: pack everything into one archive.
tar -C "$out" -czf /tmp/device-logs.tar.gz . && find "$out" -mindepth 1 -delete &&
  mv /tmp/device-logs.tar.gz "$out/logs.tar.gz"
exit $status
