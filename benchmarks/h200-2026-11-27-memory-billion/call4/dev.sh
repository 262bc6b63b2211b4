tar xzf carry/bin.tgz -C carry
export LD_LIBRARY_PATH=$PWD/carry/bin/lib:${LD_LIBRARY_PATH:-} SPK_SOURCE_DIR=$PWD NCCL_NVLS_ENABLE=0
mkdir -p $OUT/r
B=carry/bin
nvidia-smi -L | head -4
SPK_REQUIRE_GPU=1 timeout 100 $B/spk_tests_gpu --gtest_filter='*RowHash*' 2>&1 | grep -E "DEBUG|Failure|OK|FAILED" | head -20
export SPK_REQUIRE_GPU=1 OMP_NUM_THREADS=4
timeout 250 mpirun -np 2 --allow-run-as-root --oversubscribe -x SPK_REQUIRE_GPU -x SPK_SOURCE_DIR -x LD_LIBRARY_PATH -x OMP_NUM_THREADS -x NCCL_NVLS_ENABLE -x SPK_TEST_TRANSPORT=nccl $B/spk_tests_mpi --gtest_filter='*AmgDevice*:*DistributedGpu*:*BlockJacobiGpu*:*Amg*:DeviceGridRowsMpi.*:ProcessThreads.*' > $OUT/r/mpi-np2.txt 2>&1; echo "mpi np2 rc $?"
grep -E "^\[  (PASSED|FAILED) |tests ran" $OUT/r/mpi-np2.txt | sort | uniq -c | head
grep -B2 -A8 "Failure" $OUT/r/mpi-np2.txt | head -30
unset SPK_REQUIRE_GPU
ONE_GPU=0 SIZES=400 PROCESSES=2 PRECONDITIONERS="amg" timeout 150 tools/distributed-runs.sh $B $OUT/r/two400 > $OUT/r/two400.log 2>&1; echo "two400 rc $?"
grep -h "poisson7-400-amg\|poisson7" $OUT/r/two400/table.md | head -4
grep -h -A4 "rank     total" $OUT/r/two400/*.txt | head -6; grep -h "held at\|held after" $OUT/r/two400/*.txt | cut -c1-600
tar czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
