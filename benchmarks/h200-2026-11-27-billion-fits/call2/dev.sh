tar xzf carry/bin.tgz -C carry
export LD_LIBRARY_PATH=$PWD/carry/bin/lib:${LD_LIBRARY_PATH:-} SPK_SOURCE_DIR=$PWD NCCL_NVLS_ENABLE=0
mkdir -p $OUT/r
B=carry/bin
nvidia-smi -L | head -4
RB="amg solver.preconditioner_options.resetup=rebuild"
ONE_GPU=0 SIZES=800 PROCESSES=4 PRECONDITIONERS="$RB" timeout 150 tools/distributed-runs.sh $B $OUT/r/four800 > $OUT/r/four800.log 2>&1; echo "four800 rc $?"
grep -h "mpirun" $OUT/r/four800/table.md; grep -h -A5 "rank     total" $OUT/r/four800/*.txt | head -6; grep -h "held at\|held after\|rror\|setup memory" $OUT/r/four800/*.txt | cut -c1-1500 | head -5
WEAK="500:1" PRECONDITIONERS="$RB" timeout 150 tools/distributed-runs.sh $B $OUT/r/one500 > $OUT/r/one500.log 2>&1; echo "one500 rc $?"
grep -h "poisson" $OUT/r/one500/table.md | head -3; grep -h "held at\|held after\|rror\|setup memory" $OUT/r/one500/*.txt | cut -c1-1500 | head -5
tar czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
