#!/usr/bin/env bash
# Times one problem on 1 GPU and under mpirun on the GPU path with each transport, graph
# and overlap setting; prints each run's "times" and "processes" lines.
#   tools/distributed-smoke.sh BIN_DIR LOG_DIR [--set key=value ...]
set -uo pipefail
bin=$1 logs=$2
shift 2
libraries="$(cd "$bin" && pwd)/lib"
export LD_LIBRARY_PATH="$libraries:${LD_LIBRARY_PATH:-}" NCCL_NVLS_ENABLE=0 OMP_NUM_THREADS=1
mpi=(timeout 300 mpirun --allow-run-as-root --oversubscribe -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE
     -x OMP_NUM_THREADS -x NCCL_DEBUG)
run() {  # NAME LAUNCHER... -- extra sets
  local name=$1
  shift
  echo "== $name"
  "$@" >"$logs/$name.log" 2>&1
  grep -E "^(times|processes|iterations|status|device|format) " "$logs/$name.log" || tail -5 "$logs/$name.log"
}
common=(solve --quiet --set device=gpu "$@")
run one-gpu "$bin"/spkrylov "${common[@]}"
run np1-nccl "${mpi[@]}" -np 1 "$bin"/spkrylov "${common[@]}" --set distributed.transport=nccl
run np2-nccl "${mpi[@]}" -np 2 "$bin"/spkrylov "${common[@]}" --set distributed.transport=nccl
run np2-nccl-nobind "${mpi[@]}" --bind-to none -np 2 "$bin"/spkrylov "${common[@]}" --set distributed.transport=nccl
run np2-nccl-nobind-nograph "${mpi[@]}" --bind-to none -np 2 "$bin"/spkrylov "${common[@]}" --set distributed.transport=nccl --set solver.cuda_graph=false
run np2-nccl-nobind-nooverlap "${mpi[@]}" --bind-to none -np 2 "$bin"/spkrylov "${common[@]}" --set distributed.transport=nccl --set distributed.overlap=false
run np2-mpi "${mpi[@]}" --bind-to none -np 2 "$bin"/spkrylov "${common[@]}" --set distributed.transport=mpi
