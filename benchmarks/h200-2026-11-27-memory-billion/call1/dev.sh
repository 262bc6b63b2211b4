tar xzf carry/bin.tgz -C carry
export LD_LIBRARY_PATH=$PWD/carry/bin/lib:${LD_LIBRARY_PATH:-} SPK_SOURCE_DIR=$PWD NCCL_NVLS_ENABLE=0
mkdir -p $OUT/r
B=carry/bin
nvidia-smi -L | head -4; nvidia-smi --query-gpu=memory.total,memory.used --format=csv
WEAK="400:1" PRECONDITIONERS="amg" timeout 200 tools/distributed-runs.sh $B $OUT/r/one400 > $OUT/r/one400.log 2>&1; echo "one400 rc $?"
cat $OUT/r/one400/table.md; grep -h "setup memory\|held at\|held after\|load\|level " $OUT/r/one400/*.txt | head -30
WEAK="500:1" PRECONDITIONERS="amg" timeout 300 tools/distributed-runs.sh $B $OUT/r/one500 > $OUT/r/one500.log 2>&1; echo "one500 rc $?"
cat $OUT/r/one500/table.md; grep -h "setup memory\|held at\|held after\|load\|level \|error\|memory" $OUT/r/one500/*.txt | head -30
tar czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
