tar xzf carry/bin.tgz -C carry
export LD_LIBRARY_PATH=$PWD/carry/bin/lib:${LD_LIBRARY_PATH:-} SPK_SOURCE_DIR=$PWD NCCL_NVLS_ENABLE=0
mkdir -p $OUT/r
B=carry/bin
nvidia-smi -L | head -4; free -g | head -2
WEAK="500:1" PRECONDITIONERS="amg" timeout 100 tools/distributed-runs.sh $B $OUT/r/one500 > $OUT/r/one500.log 2>&1; echo "one500 rc $?"
grep -h "solver" $OUT/r/one500/table.md | grep converged
ONE_GPU=0 SIZES=800 PROCESSES=4 PRECONDITIONERS="amg" timeout 200 tools/distributed-runs.sh $B $OUT/r/four800 > $OUT/r/four800.log 2>&1; echo "four800 rc $?"
grep -h "mpirun" $OUT/r/four800/table.md; grep -h -A5 "rank     total" $OUT/r/four800/*.txt | head -6; grep -h "held at\|held after\|rror" $OUT/r/four800/*.txt | cut -c1-1500 | head -6
ONE_GPU=0 SIZES=1000 PROCESSES=4 PRECONDITIONERS="amg" timeout 200 tools/distributed-runs.sh $B $OUT/r/four1000 > $OUT/r/four1000.log 2>&1; echo "four1000 rc $?"
grep -h "mpirun" $OUT/r/four1000/table.md; grep -h -A5 "rank     total" $OUT/r/four1000/*.txt | head -6; grep -h "held at\|held after\|rror" $OUT/r/four1000/*.txt | cut -c1-1500 | head -6
tar czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
