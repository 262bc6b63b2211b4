#!/usr/bin/env bash
# solver.vector_ops cublas against fused, same binary, same run: CG per iteration on the
# 7-point 256³ and 27-point 160³ Poisson systems on one GPU, BiCGSTAB on 160³ upwind
# convection-diffusion, and 7-point 256³ on 2 GPUs over
# NCCL when the machine has two. Prints each run's "times" line.
#   tools/vector-ops-runs.sh BIN_DIR LOG_DIR
set -uo pipefail
bin=$1 logs=$2
mkdir -p "$logs"
libraries="$(cd "$bin" && pwd)/lib"
export LD_LIBRARY_PATH="$libraries:${LD_LIBRARY_PATH:-}" NCCL_NVLS_ENABLE=0 OMP_NUM_THREADS=1
gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
for ops in cublas fused; do
  for problem in "n=256 stencil=7 none" "n=160 stencil=27 none" "n=256 stencil=7 jacobi"; do
    read -r n stencil preconditioner <<<"$problem"
    name="${ops}-${n#n=}-${stencil#stencil=}-${preconditioner}"
    timeout 300 "$bin"/spkrylov solve --quiet --set device=gpu --set spmv.format=ellpack-r \
      --set matrix.generate.kind=poisson3d --set matrix.generate."$n" \
      --set matrix.generate."$stencil" --set solver.preconditioner="$preconditioner" \
      --set solver.vector_ops="$ops" >"$logs/$name.txt" 2>&1
    echo "$name: $(grep -E '^iterations' "$logs/$name.txt" | cut -c14-30) $(grep -E '^times' "$logs/$name.txt" | cut -c14-)"
  done
  for preconditioner in none jacobi; do  # BiCGSTAB: upwind convection-diffusion, cell Peclet 0.1
    name="${ops}-bicgstab-convdiff160-${preconditioner}"
    timeout 300 "$bin"/spkrylov solve --quiet --set device=gpu --set spmv.format=ellpack-r \
      --set matrix.generate.kind=convdiff3d --set matrix.generate.n=160 \
      --set matrix.generate.peclet=0.1 --set solver.method=bicgstab \
      --set solver.preconditioner="$preconditioner" --set solver.vector_ops="$ops" \
      >"$logs/$name.txt" 2>&1
    echo "$name: $(grep -E '^iterations' "$logs/$name.txt" | cut -c14-30) $(grep -E '^times' "$logs/$name.txt" | cut -c14-)"
  done
  if [ "$gpus" -ge 2 ]; then
    name="${ops}-256-7-none-2gpu-nccl"
    timeout 300 mpirun --allow-run-as-root --bind-to none -np 2 -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE \
      -x OMP_NUM_THREADS "$bin"/spkrylov solve --quiet --set device=gpu \
      --set spmv.format=ellpack-r --set matrix.generate.kind=poisson3d \
      --set matrix.generate.n=256 --set distributed.transport=nccl \
      --set solver.vector_ops="$ops" >"$logs/$name.txt" 2>&1
    echo "$name: $(grep -E '^iterations' "$logs/$name.txt" | cut -c14-30) $(grep -E '^times' "$logs/$name.txt" | cut -c14-)"
  fi
done
