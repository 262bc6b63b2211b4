tar xzf carry/bin.tgz -C carry
export LD_LIBRARY_PATH=$PWD/carry/bin/lib:${LD_LIBRARY_PATH:-} SPK_SOURCE_DIR=$PWD NCCL_NVLS_ENABLE=0
mkdir -p $OUT/r
B=carry/bin
nvidia-smi -L | head -4
MPI="mpirun --allow-run-as-root --oversubscribe -x SPK_REQUIRE_GPU -x SPK_SOURCE_DIR -x LD_LIBRARY_PATH -x OMP_NUM_THREADS -x NCCL_NVLS_ENABLE"
clean() { sed 's/\x1b\[[0-9;]*m//g' "$1" | grep -E "PASSED|FAILED  \]|tests ran|SKIPPED \]" | sort | uniq -c | head; grep -B2 -A10 "Failure" "$1" | head -40; }
SPK_REQUIRE_GPU=1 timeout 120 $B/spk_tests_gpu --gtest_filter='DeviceGridRows*:DeviceBlockStats*' > $OUT/r/new-gpu.txt 2>&1; echo "new gpu rc $?"; clean $OUT/r/new-gpu.txt
SPK_REQUIRE_GPU=1 OMP_NUM_THREADS=4 timeout 150 $MPI -np 2 $B/spk_tests_mpi --gtest_filter='DeviceGridRowsMpi.*' > $OUT/r/new-mpi2.txt 2>&1; echo "new mpi np2 rc $?"; clean $OUT/r/new-mpi2.txt
SPK_REQUIRE_GPU=1 OMP_NUM_THREADS=4 timeout 150 $MPI -np 3 $B/spk_tests_mpi --gtest_filter='DeviceGridRowsMpi.*' > $OUT/r/new-mpi3.txt 2>&1; echo "new mpi np3 rc $?"; clean $OUT/r/new-mpi3.txt
SPK_REQUIRE_GPU=1 timeout 200 $B/spk_tests_mpirun_cli --gtest_filter='MpirunCliGpu.*' > $OUT/r/cli-gpu.txt 2>&1; echo "cli gpu rc $?"; clean $OUT/r/cli-gpu.txt
grep "processes:" $OUT/r/cli-gpu.txt | head -20
SPK_REQUIRE_GPU=1 timeout 330 $B/spk_tests_gpu > $OUT/r/gpu-suite.txt 2>&1; echo "suite rc $?"; clean $OUT/r/gpu-suite.txt
tar czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
