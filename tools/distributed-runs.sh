#!/usr/bin/env bash
# The distributed solver's setup and solve on 1, 2 and 4 processes (issue 32), in one call:
# 7-point Poisson, CG, fp64, b = ones, tolerance 1e-8, each (size, preconditioner) solved on
# one GPU without mpirun (the one-process Solver, whose setup is the reference), then under
# mpirun on each process count, one GPU per process. The table gives the iterations, the setup
# (total and each phase, the largest over the processes), the solve, ms/iteration and the true
# residual.
#   tools/distributed-runs.sh BIN_DIR LOG_DIR
#   SIZES            grid sizes n (n³ rows), default "256"
#   PROCESSES        process counts under mpirun, default "1 2 4" (capped by nvidia-smi -L)
#   PRECONDITIONERS  ;-separated preconditioners, each a name and optional config keys,
#                    default "none;jacobi;amg", e.g.
#                    "jacobi;chebyshev solver.preconditioner_options.degree=3"
#   TRANSPORT        distributed.transport of the mpirun runs, default nccl (auto, mpi)
#   FORMAT           spmv.format, default ellpack-r
#   METHOD           solver.method, default cg
#   EXTRA            more config keys for every run, space-separated (e.g. solver.max_iterations=5;
#                    steps=10: a time loop of 10 solves with update_values, its own table)
#   WEAK             weak scaling instead of SIZES x PROCESSES: "n:processes" pairs, e.g.
#                    "256:1 322:2 406:4" (1: the one-process Solver; more: mpirun)
#   NCCL_*           passed to every process (e.g. NCCL_MAX_NCHANNELS=2, to see what NCCL's
#                    channels cost the communicator and warm-up phases; NCCL_NVLS_ENABLE=0 unless set)
#   ONE_GPU=0        SIZES mode without the one-GPU run (the mpirun runs only)
#   SPK_TRACE=1      each process prints its setup's step times (core/step_trace.hpp) into NAME.txt
#   OMP_NUM_THREADS  host threads per process (unset: each process's share of the host's CPUs)
#   DISTRIBUTED_TEST=1  a test of this pipeline on the CPU path at n = 24 (no GPU needed)
# Each run writes LOG_DIR/NAME.json (the report) and LOG_DIR/NAME.txt (its output); runs.tsv
# lists them (appended to), in tools/scaling-run.sh's columns, and tools/scaling_table.py
# LOG_DIR prints both tables (scaling, and setup by phase), also into LOG_DIR/table.md.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:?usage: tools/distributed-runs.sh BIN_DIR LOG_DIR}
log=${2:?usage: tools/distributed-runs.sh BIN_DIR LOG_DIR}
spk=$bin/spkrylov
[ -x "$spk" ] || { echo "error: $spk is not an executable" >&2; exit 1; }
mkdir -p "$log"

if [ "${DISTRIBUTED_TEST:-0}" = 1 ]; then
  device=cpu available=4 sizes=${SIZES:-24}
  export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}  # oversubscribed processes: one thread each
else
  device=gpu available=$(nvidia-smi -L 2>/dev/null | wc -l)
  sizes=${SIZES:-256}
fi
process_counts=""
for p in ${PROCESSES:-1 2 4}; do
  if [ "$p" -le "$available" ]; then process_counts+="$p "; else echo "note: $p processes skipped ($available GPUs)"; fi
done
IFS=';' read -r -a preconditioners <<<"${PRECONDITIONERS:-none;jacobi;amg}"
transport=${TRANSPORT:-nccl}
[ "$device" = cpu ] && transport=mpi
format=${FORMAT:-ellpack-r}
method=${METHOD:-cg}
libraries="$(cd "$bin" && pwd)/lib"
export LD_LIBRARY_PATH="$libraries:${LD_LIBRARY_PATH:-}" NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-0}
{
  echo "device $device, gpus available $available, sizes $sizes, processes $process_counts"
  echo "preconditioners ${PRECONDITIONERS:-none;jacobi;amg}, transport $transport, format $format"
  compgen -e | grep '^NCCL_' | while read -r variable; do echo "$variable=${!variable}"; done
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
  "$spk" --version
  mpirun --version | head -1
} >>"$log/machine.txt" 2>&1
nvidia-smi topo -m >"$log/topo.txt" 2>&1

manifest=$log/runs.tsv
[ -f "$manifest" ] ||
  printf 'name\tcase\tgpus\tprocesses\ttransport\toverlap\texit\tseconds\n' >"$manifest"
status=0

# run NAME CASE N PROCESSES LAUNCH PRECONDITIONER_TEXT: one solve, its report, its line in
# runs.tsv. LAUNCH: solver (one process, no mpirun) or mpirun.
run() {
  local name=$1 case_name=$2 n=$3 processes=$4 launch=$5 text=$6
  local start rc key gpus=$4 args=() words=()
  read -r -a words <<<"$text"
  local keys=(matrix.generate.kind=poisson3d matrix.generate.n="$n" matrix.generate.stencil=7
    solver.method="$method" spmv.format="$format" precision=double device="$device"
    solver.tolerance=1e-8 solver.max_iterations=20000 solver.preconditioner="${words[0]}"
    "${words[@]:1}" ${EXTRA:-} output.report="$log/$name.json")
  [ "$launch" = mpirun ] && keys+=(distributed.transport="$transport")
  for key in "${keys[@]}"; do args+=(--set "$key"); done
  [ "$device" = cpu ] && gpus=0
  start=$SECONDS
  rm -f "$log/$name.json"
  if [ "$launch" = mpirun ]; then
    local exports=(-x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE) variable
    [ -n "${OMP_NUM_THREADS:-}" ] && exports+=(-x OMP_NUM_THREADS)
    [ -n "${SPK_TRACE:-}" ] && exports+=(-x SPK_TRACE)  # step times on stderr (step_trace.hpp)
    # NCCL's own settings set for the call (NCCL_MAX_NCHANNELS=2, NCCL_DEBUG=INFO, ...)
    for variable in $(compgen -e | grep '^NCCL_' | grep -v '^NCCL_NVLS_ENABLE$'); do
      exports+=(-x "$variable")
    done
    # --bind-to none: each process's OpenMP threads (host-side setup) may use every core
    timeout 600 mpirun -np "$processes" --allow-run-as-root --oversubscribe --bind-to none \
      "${exports[@]}" "$spk" solve --quiet "${args[@]}" >"$log/$name.txt" 2>&1
  else
    timeout 600 "$spk" solve --quiet "${args[@]}" >"$log/$name.txt" 2>&1
  fi
  rc=$?
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$case_name" "$gpus" "$processes" \
    "$([ "$launch" = mpirun ] && echo "$transport" || echo -)" \
    "$([ "$launch" = mpirun ] && echo true || echo -)" "$rc" "$((SECONDS - start))" >>"$manifest"
  echo "[$name] exit $rc after $((SECONDS - start)) s"
  # 2: a solve status other than converged (a max_iterations in EXTRA) is still a row; 1 (bad
  # input, an error) and a timeout or signal are failures
  [ "$rc" -ne 0 ] && [ "$rc" -ne 2 ] && status=1
  return 0
}

# The case's name starts with the generator: poisson7, or the kind EXTRA sets (convdiff3d, ...).
problem=poisson7
for key in ${EXTRA:-}; do
  case $key in matrix.generate.kind=*) problem=${key#matrix.generate.kind=} ;; esac
done
# WEAK: each (n, processes) pair, the case named by the pair's processes' share
if [ -n "${WEAK:-}" ]; then
  for pair in $WEAK; do
    n=${pair%%:*} processes=${pair##*:}
    [ "$processes" -le "$available" ] || { echo "note: $pair skipped ($available GPUs)"; continue; }
    for text in "${preconditioners[@]}"; do
      read -r -a words <<<"$text"
      [ ${#words[@]} -eq 0 ] && continue
      case_name="$problem-weak-${words[0]}"
      if [ "$processes" = 1 ]; then
        run "$case_name-$n-solver" "$case_name" "$n" 1 solver "$text"
      else
        run "$case_name-$n-mpirun$processes" "$case_name" "$n" "$processes" mpirun "$text"
      fi
    done
  done
  sizes=""
fi
for n in $sizes; do
  for text in "${preconditioners[@]}"; do
    read -r -a words <<<"$text"
    [ ${#words[@]} -eq 0 ] && continue
    label=${words[0]}  # the name, then each key's last part and value: chebyshev-degree=3
    for key in "${words[@]:1}"; do label+="-${key##*.}"; done
    label=$(echo "$label" | tr -c 'A-Za-z0-9_=\n' '-')
    case_name="$problem-$n-$label"
    [ "${ONE_GPU:-1}" = 0 ] || run "$case_name-solver" "$case_name" "$n" 1 solver "$text"
    for processes in $process_counts; do
      run "$case_name-mpirun$processes" "$case_name" "$n" "$processes" mpirun "$text"
    done
  done
done

python3 "$here/scaling_table.py" "$log" | tee "$log/table.md"
exit $status
