tar xzf carry/bin.tgz -C carry
export LD_LIBRARY_PATH=$PWD/carry/bin/lib:${LD_LIBRARY_PATH:-} SPK_SOURCE_DIR=$PWD NCCL_NVLS_ENABLE=0
mkdir -p $OUT/r
B=carry/bin
nvidia-smi -L | head -4
(CUDA_VISIBLE_DEVICES=0 SPK_REQUIRE_GPU=1 timeout 120 $B/spk_tests_gpu --gtest_filter='ZZAutoDebug.*' > $OUT/r/auto-debug.txt 2>&1; echo "debug rc $?" >> $OUT/r/auto-debug.txt) 
grep -c "OK its" $OUT/r/auto-debug.txt; grep -A1 "FAIL" $OUT/r/auto-debug.txt | head -20; grep -o "| [a-z-]*/[a-z]* |" $OUT/r/auto-debug.txt | sort | uniq -c
RB="amg solver.preconditioner_options.resetup=rebuild"
ONE_GPU=0 SIZES=800 PROCESSES=4 PRECONDITIONERS="$RB" timeout 150 tools/distributed-runs.sh $B $OUT/r/four800 > $OUT/r/four800.log 2>&1; echo "four800 rc $?"
grep -h "mpirun" $OUT/r/four800/table.md; grep -h -A5 "rank     total" $OUT/r/four800/*.txt | head -6; grep -h "held at\|held after\|rror\|setup memory" $OUT/r/four800/*.txt | cut -c1-1500 | head -5
ONE_GPU=0 SIZES=1000 PROCESSES=4 PRECONDITIONERS="$RB" timeout 200 tools/distributed-runs.sh $B $OUT/r/four1000 > $OUT/r/four1000.log 2>&1; echo "four1000 rc $?"
grep -h "mpirun" $OUT/r/four1000/table.md; grep -h -A5 "rank     total" $OUT/r/four1000/*.txt | head -6; grep -h "held at\|held after\|rror\|setup memory" $OUT/r/four1000/*.txt | cut -c1-1500 | head -5
tar czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
