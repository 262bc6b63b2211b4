tar xzf carry/bin.tgz -C carry
export LD_LIBRARY_PATH=$PWD/carry/bin/lib:${LD_LIBRARY_PATH:-} SPK_SOURCE_DIR=$PWD NCCL_NVLS_ENABLE=0
mkdir -p $OUT/r
B=carry/bin
nvidia-smi -L | head -4
SPK_REQUIRE_GPU=1 OMP_NUM_THREADS=4 timeout 250 mpirun -np 2 --allow-run-as-root --oversubscribe -x SPK_REQUIRE_GPU -x SPK_SOURCE_DIR -x LD_LIBRARY_PATH -x OMP_NUM_THREADS -x NCCL_NVLS_ENABLE -x SPK_TEST_TRANSPORT=nccl $B/spk_tests_mpi --gtest_filter='*AmgDevice*:*DistributedGpu*:*BlockJacobiGpu*:*Amg*:DeviceGridRowsMpi.*:ProcessThreads.*' > $OUT/r/mpi-np2.txt 2>&1; echo "mpi np2 rc $?"
sed 's/\x1b\[[0-9;]*m//g' $OUT/r/mpi-np2.txt | grep -E "^\[  (PASSED|FAILED|SKIPPED) \]|tests ran" | sort | uniq -c
grep -B2 -A8 "Failure" $OUT/r/mpi-np2.txt | head -30
ONE_GPU=0 SIZES=318 PROCESSES=2 PRECONDITIONERS="amg" EXTRA="steps=3" timeout 150 tools/distributed-runs.sh $B $OUT/r/two318 > $OUT/r/two318.log 2>&1; echo "two318 rc $?"
grep -h "mpirun" $OUT/r/two318/table.md
grep -h -A3 "rank     total" $OUT/r/two318/*.txt | head -5; grep -h "held at\|held after" $OUT/r/two318/*.txt | cut -c1-1200
WEAK="500:1" PRECONDITIONERS="amg" timeout 150 tools/distributed-runs.sh $B $OUT/r/one500 > $OUT/r/one500.log 2>&1; echo "one500 rc $?"
grep -h "held at\|held after" $OUT/r/one500/*.txt | cut -c1-1200
tar czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
