tar xzf carry/bin.tgz -C carry
export LD_LIBRARY_PATH=$PWD/carry/bin/lib:${LD_LIBRARY_PATH:-} SPK_SOURCE_DIR=$PWD NCCL_NVLS_ENABLE=0
mkdir -p $OUT/r
B=carry/bin
nvidia-smi -L | head -4
clean() { sed 's/\x1b\[[0-9;]*m//g' "$1" | grep -E "PASSED|FAILED  \]|tests ran|SKIPPED \]" | sort | uniq -c | head -8; grep -B2 -A10 "Failure" "$1" | head -30; }
SPK_REQUIRE_GPU=1 timeout 380 $B/spk_tests_gpu > $OUT/r/gpu-suite.txt 2>&1; echo "suite rc $?"; clean $OUT/r/gpu-suite.txt
SPK_REQUIRE_GPU=1 timeout 180 $B/spk_tests_mpirun_cli --gtest_filter='MpirunCliGpu.*' > $OUT/r/cli-gpu.txt 2>&1; echo "cli gpu rc $?"; clean $OUT/r/cli-gpu.txt
grep "processes:" $OUT/r/cli-gpu.txt | head
tar czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
