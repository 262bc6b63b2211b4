tar xzf carry/bin.tgz -C carry
export LD_LIBRARY_PATH=$PWD/carry/bin/lib:${LD_LIBRARY_PATH:-} SPK_SOURCE_DIR=$PWD NCCL_NVLS_ENABLE=0
mkdir -p $OUT/r
B=carry/bin
RB="amg solver.preconditioner_options.resetup=rebuild"
SPK_TRACE=1 ONE_GPU=0 SIZES=1000 PROCESSES=4 PRECONDITIONERS="$RB" timeout 200 tools/distributed-runs.sh $B $OUT/r/trace1000 > $OUT/r/trace1000.log 2>&1; echo "trace1000 rc $?"
grep -h "mpirun" $OUT/r/trace1000/table.md | head -2
(CUDA_VISIBLE_DEVICES=3 SPK_REQUIRE_GPU=1 timeout 400 $B/spk_tests_gpu > $OUT/r/gpu-suite.txt 2>&1; echo "suite rc $?" > $OUT/r/suite.rc) &
CUDA_VISIBLE_DEVICES=0 WEAK="630:1" PRECONDITIONERS="$RB" timeout 200 tools/distributed-runs.sh $B $OUT/r/one630 > $OUT/r/one630.log 2>&1; echo "one630 rc $?"
grep -h "poisson" $OUT/r/one630/table.md | head -3; grep -h "rror\|setup memory\|times  " $OUT/r/one630/*.txt | cut -c1-600 | head -4
CUDA_VISIBLE_DEVICES=0 WEAK="500:1" PRECONDITIONERS="$RB" timeout 150 tools/distributed-runs.sh $B $OUT/r/one500 > $OUT/r/one500.log 2>&1; echo "one500 rc $?"
grep -h "poisson" $OUT/r/one500/table.md | head -3; grep -h "rror\|setup memory\|times  " $OUT/r/one500/*.txt | cut -c1-600 | head -4
wait
cat $OUT/r/suite.rc; sed 's/\x1b\[[0-9;]*m//g' $OUT/r/gpu-suite.txt | grep -E "PASSED|FAILED  \]|tests ran|SKIPPED \] [0-9]" | sort | uniq -c | head -8
tar czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
