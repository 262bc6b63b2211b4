tar xzf carry/bin.tgz -C carry
export LD_LIBRARY_PATH=$PWD/carry/bin/lib:${LD_LIBRARY_PATH:-} SPK_SOURCE_DIR=$PWD NCCL_NVLS_ENABLE=0
mkdir -p $OUT/r
B=carry/bin
nvidia-smi -L | head -4
SPK_REQUIRE_GPU=1 timeout 200 $B/spk_tests_gpu --gtest_filter='*Amg*:*Galerkin*:*Hierarchy*' > $OUT/r/amg-tests.txt 2>&1; echo "amg tests rc $?"
grep -E "^\[  (PASSED|FAILED) |tests ran" $OUT/r/amg-tests.txt | head -20
grep -B3 -A10 "Failure" $OUT/r/amg-tests.txt | head -40
for n in 400 500 630; do
WEAK="$n:1" PRECONDITIONERS="amg" timeout 200 tools/distributed-runs.sh $B $OUT/r/one$n > $OUT/r/one$n.log 2>&1; echo "one$n rc $?"
grep -h "poisson7-weak-amg | 1 | solver" $OUT/r/one$n/table.md; grep -h "setup memory\|held at\|held after\|times \|rror" $OUT/r/one$n/*.txt | cut -c1-700
grep -ho "setup [0-9.]* ms (eigen[^)]*)" $OUT/r/one$n/*.txt
done
tar czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
