tar xzf carry/bin.tgz -C carry
export LD_LIBRARY_PATH=$PWD/carry/bin/lib:${LD_LIBRARY_PATH:-} SPK_SOURCE_DIR=$PWD NCCL_NVLS_ENABLE=0
mkdir -p $OUT/r
B=carry/bin
nvidia-smi -L | head -4
MPI="mpirun --allow-run-as-root --oversubscribe -x SPK_REQUIRE_GPU -x SPK_SOURCE_DIR -x LD_LIBRARY_PATH -x OMP_NUM_THREADS -x NCCL_NVLS_ENABLE -x CUDA_VISIBLE_DEVICES -x SPK_TEST_TRANSPORT=nccl"
clean() { sed 's/\x1b\[[0-9;]*m//g' "$1" | grep -E "PASSED|FAILED  \]|tests ran|SKIPPED \]" | sort | uniq -c | head -8; grep -B2 -A10 "Failure" "$1" | head -30; }
(CUDA_VISIBLE_DEVICES=3 SPK_REQUIRE_GPU=1 timeout 330 $B/spk_tests_gpu > $OUT/r/gpu-suite.txt 2>&1; echo "suite rc $?" > $OUT/r/suite.rc) &
CUDA_VISIBLE_DEVICES=0,1 SPK_REQUIRE_GPU=1 OMP_NUM_THREADS=4 timeout 200 $MPI -np 2 $B/spk_tests_mpi --gtest_filter='*AmgDevice*:*DistributedGpu*:*BlockJacobiGpu*:*Amg*:DeviceGridRowsMpi.*:ProcessThreads.*' > $OUT/r/mpi-np2.txt 2>&1; echo "mpi np2 rc $?"; clean $OUT/r/mpi-np2.txt
CUDA_VISIBLE_DEVICES=0,1,2 SPK_REQUIRE_GPU=1 timeout 120 $B/spk_tests_mpirun_cli --gtest_filter='MpirunCliGpu.*' > $OUT/r/cli-gpu.txt 2>&1; echo "cli gpu rc $?"; clean $OUT/r/cli-gpu.txt
wait
cat $OUT/r/suite.rc; clean $OUT/r/gpu-suite.txt
ONE_GPU=0 SIZES=1000 PROCESSES=4 PRECONDITIONERS="amg" timeout 200 tools/distributed-runs.sh $B $OUT/r/four1000 > $OUT/r/four1000.log 2>&1; echo "four1000 rc $?"
grep -h "mpirun" $OUT/r/four1000/table.md; grep -h "times  \|setup memory" $OUT/r/four1000/*.txt | cut -c1-200
SPK_TRACE=1 ONE_GPU=0 SIZES=1000 PROCESSES=4 PRECONDITIONERS="amg" timeout 200 tools/distributed-runs.sh $B $OUT/r/trace1000 > $OUT/r/trace1000.log 2>&1; echo "trace1000 rc $?"
grep -h "mpirun" $OUT/r/trace1000/table.md
WEAK="500:1" PRECONDITIONERS="amg" timeout 120 tools/distributed-runs.sh $B $OUT/r/one500 > $OUT/r/one500.log 2>&1; echo "one500 rc $?"
grep -h "solver\|mpirun" $OUT/r/one500/table.md | tail -2
tar czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
