#!/usr/bin/env bash
# GMRES on the GPU against CuPy's gmres(restart=30) (issue 31), one machine, one call: the
# 1M-row convection-diffusion system (convdiff3d n=100, central, cell Peclet 10), b = ones,
# tolerance 1e-8, true residual checked.
#   1. the copy bandwidth and the SpMV of csr (csr-vector), csr-scalar, sell, ellpack,
#      ellpack-r and cuSPARSE on it (spkrylov bench);
#   2. CuPy's gmres(30), no preconditioner (tools/cupy_gmres_time.py: warm median of 3);
#   3. spkrylov GMRES(30), no preconditioner: solver.orthogonalization cgs2 and selective,
#      formats csr, sell and ellpack-r;
#   4. candidates for the best setup: restarts 5/10/20/50, precision mixed, Jacobi,
#      Chebyshev, ILU(0) (shift auto), FGMRES + the fp32 AMG cycle, BiCGSTAB (none, ILU(0),
#      Jacobi with vector_ops fused);
#   5. Nsight Compute kernel times of one GMRES(30) cycle (30 iterations), cgs2 and selective.
# Each spkrylov line: status, iterations (and the steps with a second Gram-Schmidt pass),
# solve ms (one cold solve: graph captures included), ms per iteration, true relative
# residual, and CuPy's median over spkrylov's solve time.
#   tools/gmres-runs.sh BIN_DIR LOG_DIR
set -uo pipefail
bin=$1 logs=$2
mkdir -p "$logs"
here=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH="$(cd "$bin" && pwd)/lib:${LD_LIBRARY_PATH:-}" OMP_NUM_THREADS=4
system="kind=convdiff3d,n=100,peclet=10,convection=central"
matrix=/tmp/gmres-runs-convdiff3d-100.mtx  # 1M rows: kept out of LOG_DIR
generate=(--set matrix.generate.kind=convdiff3d --set matrix.generate.n=100
  --set matrix.generate.peclet=10 --set matrix.generate.convection=central)

[ -s "$matrix" ] || timeout 120 "$bin"/spkrylov info --generate "$system" --write "$matrix" \
  >"$logs/generate.txt" 2>&1
timeout 120 "$bin"/spkrylov bench --suite none --matrix "$matrix" \
  --formats csr-vector,csr-scalar,sell,ellpack,ellpack-r,cusparse --x-cache ldg --runs 20 \
  --warmup 3 >"$logs/bench.txt" 2>&1
grep -E '^(device|copy|backend|(csr|sell|ellpack|cusparse)[-a-z]*/)' "$logs/bench.txt" | cut -c1-100
timeout 180 python3 "$here/cupy_gmres_time.py" "$matrix" --runs 3 >"$logs/cupy.txt" 2>&1
cat "$logs/cupy.txt"
cupy_ms=$(sed -n 's/.*median_ms \([0-9.]*\).*/\1/p' "$logs/cupy.txt")

# run NAME KEY=VALUE...: one spkrylov solve of the system on the GPU, its line.
run() {
  local name=$1 sets=()
  shift
  for key in "$@"; do sets+=(--set "$key"); done
  timeout 120 "$bin"/spkrylov solve --quiet --set device=gpu "${generate[@]}" \
    --set solver.max_iterations=20000 --set output.report="$logs/$name.json" "${sets[@]}" \
    >"$logs/$name.txt" 2>&1
  local status iterations passes solve per residual
  status=$(sed -n 's/^status *//p' "$logs/$name.txt")
  iterations=$(sed -n 's/^iterations *\([0-9]*\).*/\1/p' "$logs/$name.txt")
  passes=$(sed -n 's/^iterations.*, \([0-9]*\) with a second.*/\1/p' "$logs/$name.txt")
  solve=$(sed -n 's/^times.*solve \([0-9.]*\) ms.*/\1/p' "$logs/$name.txt")
  per=$(sed -n 's/^times.*, \([0-9.]*\) ms per iteration.*/\1/p' "$logs/$name.txt")
  residual=$(sed -n 's/^residual.*relative \([0-9.e+-]*\);.*/\1/p' "$logs/$name.txt")
  printf '%-34s %-14s it %6s 2nd %5s  solve %8s ms  %7s ms/it  rel %9s  cupy/this %s\n' \
    "$name" "${status:-error}" "${iterations:--}" "${passes:--}" "${solve:--}" "${per:--}" \
    "${residual:--}" "$(awk -v c="${cupy_ms:-0}" -v s="${solve:-0}" \
      'BEGIN { if (c > 0 && s > 0) printf "%.2f", c / s; else print "-" }')"
  [ -n "$status" ] || tail -3 "$logs/$name.txt"
}

m=solver.method o=solver.orthogonalization p=solver.preconditioner f=spmv.format
for format in csr sell ellpack-r; do
  for orthogonalization in cgs2 selective; do
    run "gmres30-$orthogonalization-$format" $m=gmres $o=$orthogonalization $f=$format
  done
done
for restart in 5 10 20 50; do
  run "gmres$restart-selective-ellpack-r" $m=gmres solver.restart=$restart $f=ellpack-r
done
for restart in 10 30; do  # fp32 matrix values (iterative refinement), the SpMV's bytes cut
  run "gmres$restart-mixed-ellpack-r" $m=gmres solver.restart=$restart $f=ellpack-r precision=mixed
done
run gmres30-jacobi-ellpack-r $m=gmres $p=jacobi $f=ellpack-r
run gmres30-chebyshev-ellpack-r $m=gmres $p=chebyshev $f=ellpack-r
# ILU(0) on central differences at cell Peclet 10 (not diagonally dominant): on 16^3 on the CPU
# GMRES(30) + ILU(0) stalls at a relative residual of 0.77 and BiCGSTAB + ILU(0) diverges, so
# these stop at 3000.
run gmres30-ilu0-ellpack-r $m=gmres $p=ilu0 $f=ellpack-r solver.max_iterations=3000
run bicgstab-ilu0-ellpack-r $m=bicgstab $p=ilu0 $f=ellpack-r solver.max_iterations=3000
run fgmres30-amg-single-ellpack-r $m=fgmres $p=amg solver.preconditioner_options.precision=single \
  $f=ellpack-r solver.max_iterations=3000
run bicgstab-none-ellpack-r $m=bicgstab $f=ellpack-r
run bicgstab-jacobi-fused-ellpack-r $m=bicgstab $p=jacobi solver.vector_ops=fused $f=ellpack-r

# Kernel times of one cycle (30 iterations) under Nsight Compute, inside the "spk solve" range.
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null |
  head -1)
if [ -n "$ncu" ]; then
  for orthogonalization in cgs2 selective; do
    timeout 120 "$ncu" --clock-control none --nvtx --nvtx-include "spk solve/" \
      --metrics gpu__time_duration.sum --csv "$bin"/spkrylov solve --quiet --set device=gpu \
      "${generate[@]}" --set solver.method=gmres --set spmv.format=ellpack-r \
      --set solver.orthogonalization=$orthogonalization --set solver.max_iterations=30 \
      >"$logs/ncu-$orthogonalization.csv" 2>"$logs/ncu-$orthogonalization.err"
    echo "== ncu, gmres30 $orthogonalization, ellpack-r, 30 iterations"
    python3 "$here/ncu_kernel_summary.py" "$logs/ncu-$orthogonalization.csv" --top 12
  done
else
  echo "no ncu on this machine"
fi
