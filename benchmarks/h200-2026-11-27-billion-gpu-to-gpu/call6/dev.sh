tar xzf carry/bin.tgz -C carry
export LD_LIBRARY_PATH=$PWD/carry/bin/lib:${LD_LIBRARY_PATH:-} SPK_SOURCE_DIR=$PWD NCCL_NVLS_ENABLE=0
mkdir -p $OUT/r
B=carry/bin
start=$(date +%s)
nvidia-smi -L | head -4
MPI="mpirun --allow-run-as-root --oversubscribe -x SPK_REQUIRE_GPU -x SPK_SOURCE_DIR -x LD_LIBRARY_PATH -x OMP_NUM_THREADS -x NCCL_NVLS_ENABLE -x SPK_TEST_TRANSPORT=nccl"
clean() { sed 's/\x1b\[[0-9;]*m//g' "$1" | grep -E "PASSED|FAILED  \]|tests ran|SKIPPED \]" | sort | uniq -c | head -8; grep -B2 -A10 "Failure" "$1" | head -30; }
t() { echo "elapsed $(( $(date +%s) - start ))"; }
SPK_REQUIRE_GPU=1 OMP_NUM_THREADS=4 timeout 150 $MPI -np 4 $B/spk_tests_mpi --gtest_filter='*AmgDevice*:*DistributedGpu*:*BlockJacobiGpu*:*Amg*:DeviceGridRowsMpi.*:ProcessThreads.*:WholeRows.*' > $OUT/r/mpi-np4.txt 2>&1; echo "mpi np4 rc $?"; clean $OUT/r/mpi-np4.txt; t
SPK_REQUIRE_GPU=1 timeout 100 $B/spk_tests_mpirun_cli --gtest_filter='MpirunCliGpu.*' > $OUT/r/cli-gpu.txt 2>&1; echo "cli gpu rc $?"; clean $OUT/r/cli-gpu.txt; t
SPK_REQUIRE_GPU=1 timeout 300 $B/spk_tests_gpu --gtest_color=no > $OUT/r/gpu-suite.txt 2>&1; echo "gpu suite rc $?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED  \]" $OUT/r/gpu-suite.txt | head -12; t
tar czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
