tar xzf carry/bin.tgz -C carry
export LD_LIBRARY_PATH=$PWD/carry/bin/lib:${LD_LIBRARY_PATH:-} SPK_SOURCE_DIR=$PWD NCCL_NVLS_ENABLE=0
mkdir -p $OUT/r
B=carry/bin
nvidia-smi -L | head -4
WEAK="252:1" PRECONDITIONERS="amg" timeout 100 tools/distributed-runs.sh $B $OUT/r/one252 > $OUT/r/one252.log 2>&1; echo "one252 rc $?"
SPK_TRACE=1 ONE_GPU=0 SIZES=318 PROCESSES=2 PRECONDITIONERS="amg" timeout 150 tools/distributed-runs.sh $B $OUT/r/trace2 > $OUT/r/trace2.log 2>&1; echo "trace2 rc $?"
cat $OUT/r/one252/table.md $OUT/r/trace2/table.md
grep -A4 "rank   start" $OUT/r/trace2/*.txt
grep "setup (rank\|amg phase\|galerkin setup" $OUT/r/trace2/*.txt | grep "rank 0\|amg phase" | head -60
tar czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
