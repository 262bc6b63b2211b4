tar xzf carry/bin.tgz -C carry
export LD_LIBRARY_PATH=$PWD/carry/bin/lib:${LD_LIBRARY_PATH:-} SPK_SOURCE_DIR=$PWD NCCL_NVLS_ENABLE=0
mkdir -p $OUT/r
B=carry/bin
nvidia-smi -L | head -4
MPI="mpirun --allow-run-as-root --oversubscribe -x SPK_REQUIRE_GPU -x SPK_SOURCE_DIR -x LD_LIBRARY_PATH -x OMP_NUM_THREADS -x NCCL_NVLS_ENABLE -x SPK_TEST_TRANSPORT=nccl"
clean() { sed 's/\x1b\[[0-9;]*m//g' "$1" | grep -E "PASSED|FAILED  \]|tests ran|SKIPPED \]" | sort | uniq -c | head -8; grep -B2 -A10 "Failure" "$1" | head -30; }
ONE_GPU=0 SIZES=1000 PROCESSES=4 PRECONDITIONERS="amg" timeout 200 tools/distributed-runs.sh $B $OUT/r/four1000 > $OUT/r/four1000.log 2>&1; echo "four1000 rc $?"
grep -h "mpirun" $OUT/r/four1000/table.md; grep -h "times  \|setup memory" $OUT/r/four1000/*.txt | cut -c1-200
SPK_TRACE=1 ONE_GPU=0 SIZES=1000 PROCESSES=4 PRECONDITIONERS="amg" timeout 200 tools/distributed-runs.sh $B $OUT/r/trace1000 > $OUT/r/trace1000.log 2>&1; echo "trace1000 rc $?"
grep -h "mpirun" $OUT/r/trace1000/table.md
grep -h "spk trace" $OUT/r/trace1000.log $OUT/r/trace1000/*.txt 2>/dev/null | grep "rank 1" | grep "warm-up\|ghost rows of P\|sent and merged\|renumbered" | head -20
SPK_REQUIRE_GPU=1 OMP_NUM_THREADS=4 timeout 150 $MPI -np 4 $B/spk_tests_mpi --gtest_filter='*AmgDevice*:*DistributedGpu*:*BlockJacobiGpu*:*Amg*:DeviceGridRowsMpi.*:ProcessThreads.*' > $OUT/r/mpi-np4.txt 2>&1; echo "mpi np4 rc $?"; clean $OUT/r/mpi-np4.txt
tar czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
