tar xzf carry/bin.tgz -C carry
export LD_LIBRARY_PATH=$PWD/carry/bin/lib:${LD_LIBRARY_PATH:-} SPK_SOURCE_DIR=$PWD NCCL_NVLS_ENABLE=0
mkdir -p $OUT/r
nvidia-smi -L | head -2
start=$(date +%s)
SPK_REQUIRE_GPU=1 timeout 540 carry/bin/spk_tests_gpu --gtest_color=no > $OUT/r/gpu-suite.txt 2>&1; echo "gpu suite rc $?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED  \]|tests ran" $OUT/r/gpu-suite.txt | head -20
echo "elapsed $(( $(date +%s) - start ))"
tar czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
