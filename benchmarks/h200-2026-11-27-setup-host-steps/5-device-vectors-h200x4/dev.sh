tar xzf carry/bin.tgz -C carry
export LD_LIBRARY_PATH=$PWD/carry/bin/lib:${LD_LIBRARY_PATH:-} SPK_SOURCE_DIR=$PWD NCCL_NVLS_ENABLE=0
mkdir -p $OUT/r
B=carry/bin
nvidia-smi -L | head -4
export SPK_REQUIRE_GPU=1 OMP_NUM_THREADS=2
X="--allow-run-as-root --oversubscribe -x SPK_REQUIRE_GPU -x SPK_SOURCE_DIR -x LD_LIBRARY_PATH -x OMP_NUM_THREADS -x NCCL_NVLS_ENABLE"
F='*AmgDevice*:*DistributedGpu*:*BlockJacobiGpu*:*Amg*:DeviceGridRowsMpi.*:ProcessThreads.*'
timeout 150 mpirun -np 4 $X -x SPK_TEST_TRANSPORT=nccl $B/spk_tests_mpi --gtest_filter="$F" > $OUT/r/all-nccl-np4.log 2>&1; echo "all nccl np4 rc $?"; grep -E "PASSED|FAILED|tests ran" $OUT/r/all-nccl-np4.log | head -8
(CUDA_VISIBLE_DEVICES=3 timeout 330 $B/spk_tests_gpu > $OUT/r/gpu-suite.log 2>&1; echo "gpu suite rc $?" > $OUT/r/gpu-suite.rc) &
(CUDA_VISIBLE_DEVICES=1,2 timeout 200 mpirun -np 2 $X -x SPK_TEST_TRANSPORT=nccl -x CUDA_VISIBLE_DEVICES $B/spk_tests_mpi --gtest_filter="$F" > $OUT/r/all-nccl-np2.log 2>&1; echo "all nccl np2 rc $?" > $OUT/r/all-nccl-np2.rc) &
CUDA_VISIBLE_DEVICES=0 timeout 250 mpirun -np 3 $X -x CUDA_VISIBLE_DEVICES $B/spk_tests_mpi --gtest_filter="$F" > $OUT/r/all-onegpu-np3.log 2>&1; echo "all one gpu np3 rc $?"; grep -E "PASSED|FAILED|tests ran" $OUT/r/all-onegpu-np3.log | head -8
wait
cat $OUT/r/all-nccl-np2.rc; grep -E "PASSED|FAILED|tests ran" $OUT/r/all-nccl-np2.log | head -6
cat $OUT/r/gpu-suite.rc; grep -E "PASSED|FAILED|tests ran" $OUT/r/gpu-suite.log | head -8
unset SPK_REQUIRE_GPU OMP_NUM_THREADS
ONE_GPU=0 SIZES=400 PROCESSES=4 EXTRA="steps=10 step_values=device" PRECONDITIONERS="amg;jacobi" timeout 200 tools/distributed-runs.sh $B $OUT/r/loop4 > $OUT/r/loop4.log 2>&1; echo "loop4 rc $?"
SPK_TRACE=1 ONE_GPU=0 SIZES=400 PROCESSES=4 PRECONDITIONERS="amg" timeout 150 tools/distributed-runs.sh $B $OUT/r/trace4 > $OUT/r/trace4.log 2>&1; echo "trace4 rc $?"
for d in loop4 trace4; do grep -E "^\| poisson" $OUT/r/$d/table.md ; done
grep -h "warm-up (rank 0)" $OUT/r/trace4/*amg*.txt
tar czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
