#!/usr/bin/env bash
# Fused CG against pipelined CG (solver.method: pipecg, issue 31), time per iteration on 1..4
# GPUs, in one call: 7-point Poisson at 128³ and 256³, fp64, b = ones, tolerance 1e-8, each
# case solved with solver.method cg + solver.vector_ops fused and with pipecg, on 1 GPU
# without mpirun and on 2..4 processes (one GPU each) under mpirun over NCCL.
#   tools/pipecg-runs.sh BIN_DIR LOG_DIR
#   SIZES            grid sizes n (n³ rows), default "128 256"
#   GPUS             process counts, default 1 up to min(4, nvidia-smi -L)
#   PRECONDITIONERS  default "none jacobi" (pipecg folds Jacobi into its pass, as fused CG does)
#   FORMAT           spmv.format, default ellpack-r
#   REPEAT           solves per row, the fastest kept (default 2)
#   PIPECG_TEST=1    a test of this pipeline on the CPU path at n = 16, 24 (no GPU needed)
# Each run writes LOG_DIR/NAME.json (the report) and NAME.txt (its output); runs.tsv lists
# them (appended to), and tools/pipecg_table.py LOG_DIR prints the table (ms/iteration of
# both, pipecg/CG ratio, counts and their difference, the time the sums were waited for),
# also into LOG_DIR/table.md. The issue's target: 4 GPUs at 128³, pipecg <= 0.9x fused CG's
# time per iteration with the count within 2%.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:?usage: tools/pipecg-runs.sh BIN_DIR LOG_DIR}
log=${2:?usage: tools/pipecg-runs.sh BIN_DIR LOG_DIR}
spk=$bin/spkrylov
[ -x "$spk" ] || { echo "error: $spk is not an executable" >&2; exit 1; }
mkdir -p "$log"

if [ "${PIPECG_TEST:-0}" = 1 ]; then
  device=cpu available=4 sizes=${SIZES:-16 24}
else
  device=gpu available=$(nvidia-smi -L 2>/dev/null | wc -l)
  sizes=${SIZES:-128 256}
fi
[ "$available" -gt 4 ] && available=4
gpu_counts=${GPUS:-$(seq -s ' ' 1 "$available")}
preconditioners=${PRECONDITIONERS:-none jacobi}
format=${FORMAT:-ellpack-r}
repeat=${REPEAT:-2}
libraries="$(cd "$bin" && pwd)/lib"
export LD_LIBRARY_PATH="$libraries:${LD_LIBRARY_PATH:-}" NCCL_NVLS_ENABLE=0
{
  echo "device $device, gpus available $available, sizes $sizes, format $format"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
  "$spk" --version
  mpirun --version | head -1
} >>"$log/machine.txt" 2>&1

manifest=$log/runs.tsv
[ -f "$manifest" ] ||
  printf 'name\tn\tprocesses\tpreconditioner\tmethod\trepeat\texit\tseconds\n' >"$manifest"
status=0

# run NAME N PROCESSES PRECONDITIONER METHOD REPEAT: one solve, its report, its line in runs.tsv
run() {
  local name=$1 n=$2 processes=$3 preconditioner=$4 method=$5 k=$6
  local start rc args=()
  local keys=(matrix.generate.kind=poisson3d matrix.generate.n="$n" matrix.generate.stencil=7
    spmv.format="$format" precision=double device="$device" solver.tolerance=1e-8
    solver.max_iterations=20000 solver.preconditioner="$preconditioner"
    output.report="$log/$name.json")
  if [ "$method" = cg ]; then
    keys+=(solver.method=cg solver.vector_ops=fused)
  else
    keys+=(solver.method=pipecg)
  fi
  for key in "${keys[@]}"; do args+=(--set "$key"); done
  [ "$processes" -gt 1 ] && [ "$device" = gpu ] && args+=(--set distributed.transport=nccl)
  start=$SECONDS
  rm -f "$log/$name.json"
  if [ "$processes" -gt 1 ]; then
    local exports=(-x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE=0)
    [ -n "${OMP_NUM_THREADS:-}" ] && exports+=(-x OMP_NUM_THREADS)
    # --bind-to none: each process's OpenMP threads (host-side setup) may use every core
    timeout 300 mpirun -np "$processes" --allow-run-as-root --oversubscribe --bind-to none \
      "${exports[@]}" "$spk" solve --quiet "${args[@]}" >"$log/$name.txt" 2>&1
  else
    timeout 300 "$spk" solve --quiet "${args[@]}" >"$log/$name.txt" 2>&1
  fi
  rc=$?
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$n" "$processes" "$preconditioner" \
    "$method" "$k" "$rc" "$((SECONDS - start))" >>"$manifest"
  echo "[$name] exit $rc after $((SECONDS - start)) s"
  [ "$rc" -ne 0 ] && status=1
  return 0
}

[ "$device" = cpu ] && export OMP_NUM_THREADS=1
for n in $sizes; do
  for processes in $gpu_counts; do
    for preconditioner in $preconditioners; do
      for k in $(seq 1 "$repeat"); do
        for method in cg pipecg; do  # alternating, so drift of the machine hits both alike
          run "n$n-p$processes-$preconditioner-$method-$k" "$n" "$processes" "$preconditioner" \
            "$method" "$k"
        done
      done
    done
  done
done

python3 "$here/pipecg_table.py" "$log" | tee "$log/table.md"
exit $status
