tar xzf carry/bin.tgz -C carry
export LD_LIBRARY_PATH=$PWD/carry/bin/lib:${LD_LIBRARY_PATH:-} SPK_SOURCE_DIR=$PWD NCCL_NVLS_ENABLE=0
mkdir -p $OUT/r
B=carry/bin
nvidia-smi -L | head -4
MPI="mpirun --allow-run-as-root --oversubscribe -x SPK_REQUIRE_GPU -x SPK_SOURCE_DIR -x LD_LIBRARY_PATH -x OMP_NUM_THREADS -x NCCL_NVLS_ENABLE -x SPK_TEST_TRANSPORT=nccl"
clean() { sed 's/\x1b\[[0-9;]*m//g' "$1" | grep -E "PASSED|FAILED  \]|tests ran|SKIPPED \]" | sort | uniq -c | head -8; grep -B2 -A10 "Failure" "$1" | head -30; }
SPK_REQUIRE_GPU=1 timeout 60 $B/spk_tests_gpu --gtest_filter='DeviceLayouts*:DeviceBlockStats*:DeviceGridRows*' > $OUT/r/changed-gpu.txt 2>&1; echo "changed gpu rc $?"; clean $OUT/r/changed-gpu.txt
ONE_GPU=0 SIZES=800 PROCESSES=4 PRECONDITIONERS="amg" timeout 150 tools/distributed-runs.sh $B $OUT/r/four800 > $OUT/r/four800.log 2>&1; echo "four800 rc $?"
grep -h "mpirun" $OUT/r/four800/table.md; grep -h "times  \|setup memory" $OUT/r/four800/*.txt | cut -c1-220
SPK_REQUIRE_GPU=1 OMP_NUM_THREADS=4 timeout 120 $MPI -np 4 $B/spk_tests_mpi --gtest_filter='*AmgDevice*:*DistributedGpu*:*BlockJacobiGpu*:*Amg*:DeviceGridRowsMpi.*:ProcessThreads.*:WholeRows.*' > $OUT/r/mpi-np4.txt 2>&1; echo "mpi np4 rc $?"; clean $OUT/r/mpi-np4.txt
tar czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
