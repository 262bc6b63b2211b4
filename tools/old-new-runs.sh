#!/usr/bin/env bash
# Old against new binaries on one GPU machine, in one call, each benchmark run with the old
# binaries and then the new ones: the solver loop (bench --solvers), the preconditioners
# (bench --preconditioners at 160^3) and the distributed smoke (tools/distributed-smoke.sh).
# Then tools/old_new_compare.py prints each row's change and exits 1 when one moved more than
# the limit. For a change that must not change speed (a re-layering).
#   tools/old-new-runs.sh OLD_BIN NEW_BIN OUT_DIR [LIMIT]     (LIMIT default 0.03)
set -uo pipefail
cd "$(dirname "$0")/.."
old=${1:?OLD_BIN} new=${2:?NEW_BIN} out=${3:?OUT_DIR} limit=${4:-0.03}
mkdir -p "$out"
export SPK_SOURCE_DIR=$PWD OMP_NUM_THREADS=1
solvers=(bench --solvers --suite default --formats ellpack,ellpack-r --vector-ops cublas,fused
         --values double --graph on --runs 20)
preconditioners=(bench --preconditioners jacobi:ellpack amg:ellpack --sizes 160 --repeat 3)
for side in old new; do
  bin=$old
  [ "$side" = new ] && bin=$new
  LD_LIBRARY_PATH="$(cd "$bin" && pwd)/lib:${LD_LIBRARY_PATH:-}" timeout 240 "$bin"/spkrylov \
    "${solvers[@]}" --csv "$out/solvers-$side.csv" >"$out/solvers-$side.txt" 2>&1 ||
    echo "solvers ($side): exit $?"
  timeout 180 "$bin"/spkrylov "${preconditioners[@]}" --csv "$out/preconditioners-$side.csv" \
    >"$out/preconditioners-$side.txt" 2>&1 || echo "preconditioners ($side): exit $?"
  mkdir -p "$out/smoke-$side"
  timeout 240 tools/distributed-smoke.sh "$bin" "$out/smoke-$side" --set matrix.generate.n=160 \
    >"$out/smoke-$side.txt" 2>&1 || echo "smoke ($side): exit $?"
done
python3 tools/old_new_compare.py "$out" --limit "$limit"
