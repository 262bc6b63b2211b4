tar xzf carry/bin.tgz -C carry
export LD_LIBRARY_PATH=$PWD/carry/bin/lib:${LD_LIBRARY_PATH:-} SPK_SOURCE_DIR=$PWD NCCL_NVLS_ENABLE=0
mkdir -p $OUT/r
B=carry/bin
nvidia-smi -L | head -2
SPK_REQUIRE_GPU=1 timeout 150 $B/spk_tests_gpu > $OUT/r/gpu-suite.txt 2>&1; echo "gpu suite rc $?"
sed 's/\x1b\[[0-9;]*m//g' $OUT/r/gpu-suite.txt | grep -E "^\[  PASSED|^\[  FAILED|tests ran" | head -8
grep -B2 -A8 "Failure" $OUT/r/gpu-suite.txt | head -20
WEAK="500:1" PRECONDITIONERS="amg" timeout 45 tools/distributed-runs.sh $B $OUT/r/one500 > $OUT/r/one500.log 2>&1; echo "one500 rc $?"
grep -h "solver" $OUT/r/one500/table.md | grep -v "^setup"; grep -h "setup memory\|held at\|rror" $OUT/r/one500/*.txt | cut -c1-900 | head -4
tar czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
