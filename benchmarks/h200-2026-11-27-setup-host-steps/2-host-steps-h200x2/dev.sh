tar xzf carry/bin.tgz -C carry
export LD_LIBRARY_PATH=$PWD/carry/bin/lib:${LD_LIBRARY_PATH:-} SPK_SOURCE_DIR=$PWD NCCL_NVLS_ENABLE=0
mkdir -p $OUT/r
B=carry/bin
nvidia-smi -L | head -4
WEAK="252:1" PRECONDITIONERS="amg" timeout 100 tools/distributed-runs.sh $B $OUT/r/one252 > $OUT/r/one252.log 2>&1; echo "one252 rc $?"
SPK_TRACE=1 ONE_GPU=0 SIZES=318 PROCESSES=2 PRECONDITIONERS="amg" timeout 150 tools/distributed-runs.sh $B $OUT/r/trace2 > $OUT/r/trace2.log 2>&1; echo "trace2 rc $?"
export MALLOC_MMAP_THRESHOLD_=33554432 MALLOC_TRIM_THRESHOLD_=17179869184
SPK_TRACE=1 ONE_GPU=0 SIZES=318 PROCESSES=2 PRECONDITIONERS="amg" timeout 150 tools/distributed-runs.sh $B $OUT/r/trace2m > $OUT/r/trace2m.log 2>&1; echo "trace2m rc $?"
export MALLOC_MMAP_MAX_=0
SPK_TRACE=1 ONE_GPU=0 SIZES=318 PROCESSES=2 PRECONDITIONERS="amg" timeout 150 tools/distributed-runs.sh $B $OUT/r/trace2n > $OUT/r/trace2n.log 2>&1; echo "trace2n rc $?"
unset MALLOC_MMAP_THRESHOLD_ MALLOC_TRIM_THRESHOLD_ MALLOC_MMAP_MAX_
for d in one252 trace2 trace2m trace2n; do tail -n +1 $OUT/r/$d/table.md | grep -E "^\| poisson" ; done
for d in trace2 trace2m trace2n; do echo "== $d"; grep "setup (rank 0)\|amg phase\|galerkin setup.*rank 0\|warm-up (rank 0)" $OUT/r/$d/*.txt | sed 's/.*spk trace: //' | awk 'NR%1==0' | grep -v "rank 1" | head -60 | paste -sd'|' ; done
export SPK_REQUIRE_GPU=1 OMP_NUM_THREADS=2
X="--allow-run-as-root --oversubscribe -x SPK_REQUIRE_GPU -x SPK_SOURCE_DIR -x LD_LIBRARY_PATH -x OMP_NUM_THREADS -x NCCL_NVLS_ENABLE"
F='*AmgDevice*:*DistributedGpu*:*BlockJacobiGpu*:*Amg*:DeviceGridRowsMpi.*:ProcessThreads.*'
SPK_TEST_TRANSPORT=nccl timeout 150 mpirun -np 2 $X -x SPK_TEST_TRANSPORT=nccl $B/spk_tests_mpi --gtest_filter="$F" > $OUT/r/all-nccl-np2.log 2>&1; echo "all nccl np2 rc $?"; grep -E "PASSED|FAILED|tests ran" $OUT/r/all-nccl-np2.log | head -12
(CUDA_VISIBLE_DEVICES=1 timeout 330 $B/spk_tests_gpu > $OUT/r/gpu-suite.log 2>&1; echo "gpu suite rc $?" > $OUT/r/gpu-suite.rc) &
for np in 3 2; do
CUDA_VISIBLE_DEVICES=0 timeout 150 mpirun -np $np $X -x CUDA_VISIBLE_DEVICES $B/spk_tests_mpi --gtest_filter="$F" > $OUT/r/all-onegpu-np$np.log 2>&1; echo "all one gpu np$np rc $?"; grep -E "PASSED|FAILED|tests ran" $OUT/r/all-onegpu-np$np.log | head -12
done
wait
cat $OUT/r/gpu-suite.rc; grep -E "PASSED|FAILED|tests ran" $OUT/r/gpu-suite.log | head -20
tar czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
