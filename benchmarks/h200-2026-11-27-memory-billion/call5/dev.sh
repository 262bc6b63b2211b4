tar xzf carry/bin.tgz -C carry
export LD_LIBRARY_PATH=$PWD/carry/bin/lib:${LD_LIBRARY_PATH:-} SPK_SOURCE_DIR=$PWD NCCL_NVLS_ENABLE=0
mkdir -p $OUT/r
B=carry/bin
nvidia-smi -L | head -4
(CUDA_VISIBLE_DEVICES=0 SPK_REQUIRE_GPU=1 timeout 400 $B/spk_tests_gpu > $OUT/r/gpu-suite.txt 2>&1; echo "gpu suite rc $?" > $OUT/r/gpu-suite.rc) &
CUDA_VISIBLE_DEVICES=1 ONE_GPU=1 WEAK="252:1" PRECONDITIONERS="amg" timeout 100 tools/distributed-runs.sh $B $OUT/r/one252 > $OUT/r/one252.log 2>&1; echo "one252 rc $?"
wait
cat $OUT/r/gpu-suite.rc; grep -E "PASSED|FAILED|SKIPPED|tests ran" $OUT/r/gpu-suite.txt | sed 's/\x1b\[[0-9;]*m//g' | tail -12
grep -B3 -A12 "Failure" $OUT/r/gpu-suite.txt | head -50
ONE_GPU=0 SIZES=318 PROCESSES=2 PRECONDITIONERS="amg;jacobi" timeout 200 tools/distributed-runs.sh $B $OUT/r/two318 > $OUT/r/two318.log 2>&1; echo "two318 rc $?"
cat $OUT/r/one252/table.md | grep "solver"; grep -h "setup [0-9.]* ms (eigen" -o $OUT/r/one252/*.txt
grep -h "mpirun" $OUT/r/two318/table.md
grep -h -A4 "rank     total" $OUT/r/two318/*.txt | head -12
tar czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
