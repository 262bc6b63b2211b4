#!/usr/bin/env bash
# AMG for systems on the clamped beam (beam3d, issue 30): whole CG solves through the CLI, one
# line per run (iterations, setup, solve, true residual, operator complexity), for Jacobi-PCG,
# AMG with block_size 3 and the 3 block-constant vectors, and with the 6 rigid-body modes;
# b = the gravity load, tolerance 1e-8.
#   tools/systems-runs.sh BIN_DIR LOG_DIR [sizes="16 32 48"] [device=gpu] [extra --set ...]
# beam3d n: 8n x n x n hexahedra, 3 (8n)(n+1)^2 unknowns (n=16: 110,976; 32: 836,352;
# 48: 2,765,952). Each run's text report is kept in LOG_DIR/systems-<label>.txt.
set -uo pipefail
bin=$1
logs=$2
sizes=${3:-16 32 48}
device=${4:-gpu}
shift $(($# < 4 ? $# : 4))
mkdir -p "$logs"
run() {  # label, n, then --set overrides
  local label=$1 n=$2
  shift 2
  local sets=()
  for s in "$@"; do sets+=(--set "$s"); done
  "$bin"/spkrylov solve --set matrix.generate.kind=beam3d --set "matrix.generate.n=$n" \
    --set rhs=load --set "device=$device" --set solver.tolerance=1e-8 \
    --set solver.max_iterations=50000 "${sets[@]}" >"$logs/systems-$label-$n.txt" 2>&1
  local rc=$?
  printf '%-22s n=%-3s rc=%d  %s | %s | %s | %s\n' "$label" "$n" "$rc" \
    "$(grep -m1 '^iterations' "$logs/systems-$label-$n.txt")" \
    "$(grep -m1 '^times' "$logs/systems-$label-$n.txt")" \
    "$(grep -m1 '^residual' "$logs/systems-$label-$n.txt")" \
    "$(grep -m1 -o 'operator_complexity[^,]*' "$logs/systems-$label-$n.txt")"
}
for n in $sizes; do
  run jacobi "$n" solver.preconditioner=jacobi
  run amg-constant-3 "$n" solver.preconditioner=amg \
    "solver.preconditioner_options={near_nullspace: constant}"
  run amg-rigid-body "$n" solver.preconditioner=amg \
    "solver.preconditioner_options={near_nullspace: rigid_body}"
done
