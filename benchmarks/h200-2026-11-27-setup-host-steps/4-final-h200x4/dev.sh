tar xzf carry/bin.tgz -C carry
export LD_LIBRARY_PATH=$PWD/carry/bin/lib:${LD_LIBRARY_PATH:-} SPK_SOURCE_DIR=$PWD NCCL_NVLS_ENABLE=0
mkdir -p $OUT/r
B=carry/bin
nvidia-smi -L | head -4
export SPK_REQUIRE_GPU=1 OMP_NUM_THREADS=2
X="--allow-run-as-root --oversubscribe -x SPK_REQUIRE_GPU -x SPK_SOURCE_DIR -x LD_LIBRARY_PATH -x OMP_NUM_THREADS -x NCCL_NVLS_ENABLE"
F='*AmgDevice*:*DistributedGpu*:*BlockJacobiGpu*:*Amg*:DeviceGridRowsMpi.*:ProcessThreads.*'
for np in 4 3; do
timeout 150 mpirun -np $np $X -x SPK_TEST_TRANSPORT=nccl $B/spk_tests_mpi --gtest_filter="$F" > $OUT/r/all-nccl-np$np.log 2>&1; echo "all nccl np$np rc $?"; grep -E "PASSED|FAILED|tests ran|agglomeration on|agglomerate_rows 60" $OUT/r/all-nccl-np$np.log | head -12
done
unset SPK_REQUIRE_GPU OMP_NUM_THREADS
WEAK="252:1" PRECONDITIONERS="amg;jacobi" timeout 100 tools/distributed-runs.sh $B $OUT/r/one252 > $OUT/r/one252.log 2>&1; echo "one252 rc $?"
SPK_TRACE=1 ONE_GPU=0 SIZES=400 PROCESSES=4 PRECONDITIONERS="amg" timeout 150 tools/distributed-runs.sh $B $OUT/r/trace4 > $OUT/r/trace4.log 2>&1; echo "trace4 rc $?"
ONE_GPU=0 SIZES=400 PROCESSES=4 PRECONDITIONERS="amg;jacobi" timeout 150 tools/distributed-runs.sh $B $OUT/r/plain4 > $OUT/r/plain4.log 2>&1; echo "plain4 rc $?"
ONE_GPU=0 SIZES=400 PROCESSES=4 EXTRA="steps=10 step_values=device" PRECONDITIONERS="amg;jacobi" timeout 200 tools/distributed-runs.sh $B $OUT/r/loop4 > $OUT/r/loop4.log 2>&1; echo "loop4 rc $?"
for d in one252 trace4 plain4 loop4; do grep -E "^\| poisson" $OUT/r/$d/table.md ; done
cat $OUT/r/loop4/table.md | grep -iE "step|loop" | head -12
grep -ho "setup [0-9.]* ms (eigen[^)]*)" $OUT/r/trace4/*amg*.txt $OUT/r/plain4/*amg*.txt $OUT/r/one252/*amg*.txt
grep "setup (rank 0)\|amg phase\|warm-up (rank 0)\|level operator" $OUT/r/trace4/*amg*.txt | sed 's/.*spk trace: //' | head -80 | paste -sd'|'
tar czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
