#!/usr/bin/env bash
# The scaling measurement of issue 14, in one call, with the same binaries: each case solved
# (fp64, b = ones, tolerance 1e-8, no preconditioner) on 1 GPU without mpirun, then on 2
# processes under mpirun with distributed.transport nccl (overlap on, then off) and mpi.
#   tools/scaling-run.sh BIN_DIR LOG_DIR
#   FORMAT         spmv.format of every run (default ellpack-r)
#   CASES          the cases, a space list (default: poisson7-256 poisson27-160 convdiff-160
#                  weak7), e.g. to split the work over two calls into the same LOG_DIR
#   SCALING_TEST=1 a test of this pipeline on the CPU path at small sizes (no GPU needed)
# Cases: Poisson 7-point 256³ CG; Poisson 27-point 160³ CG; convection-diffusion 160³ upwind,
# cell Péclet 0.1, BiCGSTAB (the system of BENCHMARKS.md's solver table); weak scaling, Poisson
# 7-point about 8.49M rows per GPU: 204³ on 1 GPU, 257³ (1.0000 x 2 x 204³ rows) on 2 (the
# generator makes cubes only).
# With one GPU (nvidia-smi -L) the 2-process mpi rows still run, sharing it (correctness only);
# the nccl rows are skipped (NCCL refuses two ranks on one GPU), as they are with a binary
# whose config has no distributed.transport.
# Each run writes LOG_DIR/NAME.json (the report) and LOG_DIR/NAME.txt (its output); runs.tsv
# lists them (appended to), and tools/scaling_table.py LOG_DIR prints the table, also into
# LOG_DIR/table.md.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:?usage: tools/scaling-run.sh BIN_DIR LOG_DIR}
log=${2:?usage: tools/scaling-run.sh BIN_DIR LOG_DIR}
format=${FORMAT:-ellpack-r}
cases=${CASES:-poisson7-256 poisson27-160 convdiff-160 weak7}
spk=$bin/spkrylov
[ -x "$spk" ] || { echo "error: $spk is not an executable" >&2; exit 1; }
mkdir -p "$log"

if [ "${SCALING_TEST:-0}" = 1 ]; then
  device=cpu gpus=0 n7=16 n27=10 nconv=12 nweak1=12 nweak2=15
else
  device=gpu gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
  n7=256 n27=160 nconv=160 nweak1=204 nweak2=257
fi
# the binaries' own libraries (tools/make-carry.sh: the plugin's yaml-cpp), for every process
libraries="$(cd "$bin" && pwd)/lib"
export LD_LIBRARY_PATH="$libraries:${LD_LIBRARY_PATH:-}" NCCL_NVLS_ENABLE=0
keys=0  # does this binary know distributed.transport and distributed.overlap?
config=$("$spk" solve --print-config 2>/dev/null)
[[ $config == *$'\n  transport:'* ]] && keys=1
{
  echo "gpus $gpus, device $device, format $format, distributed keys $keys"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
  "$spk" --version
  mpirun --version | head -1
} >>"$log/machine.txt" 2>&1
nvidia-smi topo -m >"$log/topo.txt" 2>&1
[ $keys = 1 ] || echo "note: $spk has no distributed.transport key: nccl rows skipped"

manifest=$log/runs.tsv
[ -f "$manifest" ] ||
  printf 'name\tcase\tgpus\tprocesses\ttransport\toverlap\texit\tseconds\n' >"$manifest"
status=0

# case_sets CASE PROCESSES: the case's generator keys and solver
case_sets() {
  case $1 in
    poisson7-256) echo "matrix.generate.kind=poisson3d matrix.generate.n=$n7 matrix.generate.stencil=7 solver.method=cg" ;;
    poisson27-160) echo "matrix.generate.kind=poisson3d matrix.generate.n=$n27 matrix.generate.stencil=27 solver.method=cg" ;;
    convdiff-160) echo "matrix.generate.kind=convdiff3d matrix.generate.n=$nconv matrix.generate.peclet=0.1 matrix.generate.convection=upwind solver.method=bicgstab" ;;
    weak7)
      local n=$nweak1
      [ "$2" -gt 1 ] && n=$nweak2
      echo "matrix.generate.kind=poisson3d matrix.generate.n=$n matrix.generate.stencil=7 solver.method=cg" ;;
    *) return 1 ;;
  esac
}

# run NAME CASE GPUS PROCESSES TRANSPORT OVERLAP: one solve, its report, its line in runs.tsv
run() {
  local name=$1 case_name=$2 gpus=$3 processes=$4 transport=$5 overlap=$6
  local sets key start rc args=()
  sets=$(case_sets "$case_name" "$processes") || {
    echo "error: unknown case $case_name" >&2
    status=1
    return 0
  }
  for key in $sets spmv.format="$format" precision=double device="$device" \
    solver.tolerance=1e-8 solver.max_iterations=20000 solver.preconditioner=none \
    output.report="$log/$name.json"; do
    args+=(--set "$key")
  done
  if [ "$processes" -gt 1 ] && [ $keys = 1 ]; then
    args+=(--set distributed.transport="$transport" --set distributed.overlap="$overlap")
  fi
  start=$SECONDS
  rm -f "$log/$name.json"
  if [ "$processes" -gt 1 ]; then
    # --bind-to none: each process's OpenMP threads (host-side setup) may use every core
    timeout 600 mpirun -np "$processes" --allow-run-as-root --oversubscribe --bind-to none \
      -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE=0 \
      "$spk" solve --quiet "${args[@]}" >"$log/$name.txt" 2>&1
  else
    timeout 600 "$spk" solve --quiet "${args[@]}" >"$log/$name.txt" 2>&1
  fi
  rc=$?
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$case_name" "$gpus" "$processes" \
    "$transport" "$overlap" "$rc" "$((SECONDS - start))" >>"$manifest"
  echo "[$name] exit $rc after $((SECONDS - start)) s"
  [ "$rc" -ne 0 ] && status=1
  return 0
}

for case_name in $cases; do
  if [ "$device" = cpu ]; then  # the pipeline test: one process, then two over MPI
    run "$case_name-cpu" "$case_name" 0 1 - -
    run "$case_name-cpu-2proc-mpi" "$case_name" 0 2 mpi true
    continue
  fi
  run "$case_name-1gpu" "$case_name" 1 1 - -
  if [ "$gpus" -ge 2 ]; then
    if [ $keys = 1 ]; then
      run "$case_name-2gpu-nccl" "$case_name" 2 2 nccl true
      run "$case_name-2gpu-nccl-no-overlap" "$case_name" 2 2 nccl false
    fi
    run "$case_name-2gpu-mpi" "$case_name" 2 2 mpi true
  else  # both processes on the one GPU: correctness of the mpi transport only
    run "$case_name-1gpu-2proc-mpi" "$case_name" 1 2 mpi true
  fi
done

python3 "$here/scaling_table.py" "$log" | tee "$log/table.md"
exit $status
