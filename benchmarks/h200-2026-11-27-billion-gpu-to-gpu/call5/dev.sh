tar xzf carry/bin.tgz -C carry
export LD_LIBRARY_PATH=$PWD/carry/bin/lib:${LD_LIBRARY_PATH:-} SPK_SOURCE_DIR=$PWD NCCL_NVLS_ENABLE=0
mkdir -p $OUT/r
B=carry/bin
nvidia-smi -L | head -4
ONE_GPU=0 SIZES=800 PROCESSES=4 PRECONDITIONERS="amg" timeout 150 tools/distributed-runs.sh $B $OUT/r/four800 > $OUT/r/four800.log 2>&1; echo "four800 rc $?"
grep -h "mpirun" $OUT/r/four800/table.md; grep -h "times  \|setup memory\|^iterations\|residual  " $OUT/r/four800/*.txt | cut -c1-240
grep -h -o "setup [0-9.]* ms (eigen.*" $OUT/r/four800/*.txt | head -2
tar czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
