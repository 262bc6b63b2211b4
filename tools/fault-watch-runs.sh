#!/usr/bin/env bash
# Device check of the fault watch (tools/fault-watch-runs.sh BIN_DIR OUT_DIR): the rank-failure tests over NCCL (2 GPUs, 2 processes) and
# the mpi transport (3 processes sharing 2 GPUs), then 256^3 CG over nccl with the watch on/off.
set -u
cd "$(dirname "$0")/.."
b=${1:?usage: tools/fault-watch-runs.sh BIN_DIR OUT_DIR}
OUT=${2:?usage: tools/fault-watch-runs.sh BIN_DIR OUT_DIR}
mkdir -p "$OUT"
nvidia-smi -L
command -v mpirun && mpirun --version | head -1
ldd $b/spk_tests_mpi_faults | grep "not found"
export LD_LIBRARY_PATH=$PWD/$b/lib:${LD_LIBRARY_PATH:-} OMP_NUM_THREADS=4 NCCL_NVLS_ENABLE=0 SPK_SOURCE_DIR=$PWD
if ! ldconfig -p | grep -q libnccl.so.2; then
  export SPK_NCCL_LIBRARY=$(python3 -c 'import nvidia.nccl,os;print(os.path.join(list(nvidia.nccl.__path__)[0],"lib","libnccl.so.2"))')
fi
echo "SPK_NCCL_LIBRARY=${SPK_NCCL_LIBRARY:-}"
m="mpirun --allow-run-as-root --oversubscribe --bind-to none -x LD_LIBRARY_PATH -x OMP_NUM_THREADS -x NCCL_NVLS_ENABLE -x SPK_SOURCE_DIR -x SPK_NCCL_LIBRARY -x SPK_REQUIRE_GPU=1"
for np in 2 3; do
  start=$SECONDS
  timeout 240 $m -np $np $b/spk_tests_mpi_faults --gtest_filter='RankFailureGpu.*' >$OUT/faults-gpu-$np.txt 2>&1
  echo "faults np=$np exit $? after $((SECONDS - start)) s"
  grep -E "OK|FAILED|PASSED|failure|Skipped" $OUT/faults-gpu-$np.txt | head -30
done
for w in true false true false true false; do
  timeout 120 $m -np 2 $b/spkrylov solve configs/quickstart.yaml --set device=gpu \
    --set matrix.generate.n=256 --set distributed.transport=nccl \
    --set distributed.watch_faults=$w 2>&1 | grep -E "^device|^status|^times" | sed "s/^/watch=$w /"
done
