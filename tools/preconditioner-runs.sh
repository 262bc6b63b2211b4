#!/usr/bin/env bash
# Whole solves of one generated system with each preconditioner, through the CLI, one line
# per run (iterations, setup, solve, per-iteration time, true residual): the issue-15 table.
#   tools/preconditioner-runs.sh BIN_DIR LOG_DIR [n=160] [format=ellpack-r] [extra label=value...]
# Each run's text report is kept in LOG_DIR/precond-<label>.txt.
set -uo pipefail
bin=$1
logs=$2
n=${3:-160}
format=${4:-ellpack-r}
mkdir -p "$logs"
run() {  # label, then --set overrides
  local label=$1
  shift
  local sets=()
  for s in "$@"; do sets+=(--set "$s"); done
  "$bin"/spkrylov solve -q --set matrix.generate.kind=poisson3d --set "matrix.generate.n=$n" \
    --set rhs=ones --set "spmv.format=$format" --set solver.tolerance=1e-8 \
    --set solver.max_iterations=20000 "${sets[@]}" >"$logs/precond-$label.txt" 2>&1
  local rc=$?
  printf '%-28s rc=%d  %s | %s | %s\n' "$label" "$rc" \
    "$(grep -m1 '^iterations' "$logs/precond-$label.txt")" \
    "$(grep -m1 '^times' "$logs/precond-$label.txt")" \
    "$(grep -m1 '^residual' "$logs/precond-$label.txt")"
}
run none solver.preconditioner=none
run jacobi solver.preconditioner=jacobi
for degree in 2 3 4 6; do
  run "chebyshev-$degree" solver.preconditioner=chebyshev \
    "solver.preconditioner_options={degree: $degree}"
done
run chebyshev-3-gershgorin solver.preconditioner=chebyshev \
  "solver.preconditioner_options={degree: 3, eigen_estimate: gershgorin}"
run ic0 solver.preconditioner=ic0
run ilu0-bicgstab solver.preconditioner=ilu0 solver.method=bicgstab
run jacobi-bicgstab solver.preconditioner=jacobi solver.method=bicgstab
