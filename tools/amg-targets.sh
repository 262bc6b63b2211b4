#!/usr/bin/env bash
# The issue-15 AMG table in one go, on a GPU machine: CG with Jacobi (the best fixed format)
# against CG with AMG (every level's format named, so no tuning enters setup) on the 7-point
# Poisson system at several n, then AMG with `format: auto` twice (cold and warm tuning
# cache), heat3d with AMG (re-setup every step), and CuPy's cg with Jacobi.
#   tools/amg-targets.sh BIN_DIR LOG_DIR [N ...]     (default N: 64 128 160 256)
set -uo pipefail
bin=$1
logs=$2
shift 2
sizes=("$@")
[ $# -eq 0 ] && sizes=(64 128 160 256)
mkdir -p "$logs"
jacobi_format=ellpack
level_format=ellpack-r
summary() {  # label, file
  printf '%-26s %s | %s | %s | %s\n' "$1" "$(grep -m1 '^iterations' "$2" | cut -c14-40)" \
    "$(grep -m1 '^times' "$2" | sed 's/^times *//')" "$(grep -m1 '^residual' "$2" | cut -c14-60)" \
    "$(grep -m1 -o 'operator_complexity=[0-9.]*' "$2")"
}
solve() {  # label, n, then --set overrides
  local label=$1 n=$2
  shift 2
  local sets=()
  for s in "$@"; do sets+=(--set "$s"); done
  timeout 300 "$bin"/spkrylov solve -q --set matrix.generate.kind=poisson3d \
    --set "matrix.generate.n=$n" --set rhs=ones --set solver.tolerance=1e-8 \
    --set solver.max_iterations=20000 --set "output.report=$logs/$label.json" "${sets[@]}" \
    >"$logs/$label.txt" 2>&1
  summary "$label" "$logs/$label.txt"
}
for n in "${sizes[@]}"; do
  solve "jacobi-$n" "$n" solver.preconditioner=jacobi "spmv.format=$jacobi_format"
  solve "amg-$n" "$n" solver.preconditioner=amg "spmv.format=$level_format" \
    "solver.preconditioner_options={level_formats: [$level_format, $level_format, $level_format, $level_format, $level_format, $level_format]}"
done
rm -f "$logs/tuning-cache.txt"
for pass in cold warm; do
  solve "amg-auto-$pass-160" 160 solver.preconditioner=amg spmv.format=auto \
    "spmv.tune_cache=$logs/tuning-cache.txt"
done
timeout 300 "$bin"/heat3d --n 160 --steps 4 --device gpu --format "$level_format" \
  --preconditioner amg >"$logs/heat3d-amg-160.txt" 2>&1
tail -4 "$logs/heat3d-amg-160.txt"
timeout 300 "$bin"/heat3d --n 160 --steps 4 --device gpu --format "$jacobi_format" \
  --preconditioner jacobi >"$logs/heat3d-jacobi-160.txt" 2>&1
tail -2 "$logs/heat3d-jacobi-160.txt"
if [ -x tools/cupy_cg_time.py ]; then
  timeout 300 python3 tools/cupy_cg_time.py --n 160 --json "$logs/cupy.json" 2>&1 | tail -2
fi
