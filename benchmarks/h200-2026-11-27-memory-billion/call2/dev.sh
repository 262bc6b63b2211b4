tar xzf carry/bin.tgz -C carry
export LD_LIBRARY_PATH=$PWD/carry/bin/lib:${LD_LIBRARY_PATH:-} SPK_SOURCE_DIR=$PWD NCCL_NVLS_ENABLE=0
mkdir -p $OUT/r
B=carry/bin
nvidia-smi -L | head -4
SPK_REQUIRE_GPU=1 timeout 200 $B/spk_tests_gpu --gtest_filter='*Amg*:*Galerkin*:*Hierarchy*' > $OUT/r/amg-tests.txt 2>&1; echo "amg tests rc $?"
grep -E "^\[  (PASSED|FAILED) |tests ran" $OUT/r/amg-tests.txt | head -20
grep -B3 -A10 "Failure" $OUT/r/amg-tests.txt | head -60
WEAK="400:1" PRECONDITIONERS="amg" timeout 150 tools/distributed-runs.sh $B $OUT/r/one400 > $OUT/r/one400.log 2>&1; echo "one400 rc $?"
grep -h "poisson7-weak-amg | 1 | solver" $OUT/r/one400/table.md; grep -h "setup memory\|held at\|held after\|sparse_products\|times " $OUT/r/one400/*.txt | cut -c1-900
WEAK="500:1" PRECONDITIONERS="amg" timeout 200 tools/distributed-runs.sh $B $OUT/r/one500 > $OUT/r/one500.log 2>&1; echo "one500 rc $?"
grep -h "poisson7-weak-amg | 1 | solver" $OUT/r/one500/table.md; grep -h "setup memory\|held at\|held after\|times " $OUT/r/one500/*.txt | cut -c1-900
grep -ho "setup [0-9.]* ms (eigen[^)]*)" $OUT/r/one*/*.txt
tar czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
