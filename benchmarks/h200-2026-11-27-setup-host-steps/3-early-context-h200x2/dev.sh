tar xzf carry/bin.tgz -C carry
export LD_LIBRARY_PATH=$PWD/carry/bin/lib:${LD_LIBRARY_PATH:-} SPK_SOURCE_DIR=$PWD NCCL_NVLS_ENABLE=0
mkdir -p $OUT/r
B=carry/bin
nvidia-smi -L | head -4
WEAK="252:1" PRECONDITIONERS="amg;jacobi" timeout 100 tools/distributed-runs.sh $B $OUT/r/one252 > $OUT/r/one252.log 2>&1; echo "one252 rc $?"
SPK_TRACE=1 ONE_GPU=0 SIZES=318 PROCESSES=2 PRECONDITIONERS="amg;jacobi" timeout 200 tools/distributed-runs.sh $B $OUT/r/trace2 > $OUT/r/trace2.log 2>&1; echo "trace2 rc $?"
ONE_GPU=0 SIZES=318 PROCESSES=2 PRECONDITIONERS="amg;jacobi" timeout 200 tools/distributed-runs.sh $B $OUT/r/plain2 > $OUT/r/plain2.log 2>&1; echo "plain2 rc $?"
for d in one252 trace2 plain2; do grep -E "^\| poisson" $OUT/r/$d/table.md ; done
grep "setup (rank 0)\|amg phase\|warm-up (rank 0)" $OUT/r/trace2/*amg*.txt | sed 's/.*spk trace: //' | paste -sd'|'
grep -h "rank   start" -A3 $OUT/r/plain2/*.txt
tar czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
