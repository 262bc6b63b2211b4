tar xzf carry/bin.tgz -C carry
export LD_LIBRARY_PATH=$PWD/carry/bin/lib:${LD_LIBRARY_PATH:-} SPK_SOURCE_DIR=$PWD NCCL_NVLS_ENABLE=0
mkdir -p $OUT/r
B=carry/bin
nvidia-smi -L | head -4
git log --oneline -1 2>/dev/null
MPI="mpirun --allow-run-as-root --oversubscribe -x SPK_REQUIRE_GPU -x SPK_SOURCE_DIR -x LD_LIBRARY_PATH -x OMP_NUM_THREADS -x NCCL_NVLS_ENABLE -x SPK_TEST_TRANSPORT=nccl"
FILTER='*AmgDevice*:*DistributedGpu*:*Amg*'
SPK_REQUIRE_GPU=1 OMP_NUM_THREADS=4 timeout 150 $MPI -np 4 $B/spk_tests_mpi --gtest_filter="$FILTER" > $OUT/r/mpi-np4.txt 2>&1; rc=$?; echo "mpi np4 rc $rc"
sed 's/\x1b\[[0-9;]*m//g' $OUT/r/mpi-np4.txt | grep -E "PASSED|FAILED  \]|tests ran" | sort | uniq -c | head
grep -B2 -A8 "Failure" $OUT/r/mpi-np4.txt | head -20
if [ $rc -eq 0 ]; then
RB="amg solver.preconditioner_options.resetup=rebuild"
ONE_GPU=0 SIZES=1000 PROCESSES=4 PRECONDITIONERS="$RB" timeout 150 tools/distributed-runs.sh $B $OUT/r/four1000 > $OUT/r/four1000.log 2>&1; echo "four1000 rc $?"
grep -h "mpirun" $OUT/r/four1000/table.md; grep -h -A5 "rank     total" $OUT/r/four1000/*.txt | head -6; grep -h "rror\|setup memory\|times  \|amg:" $OUT/r/four1000/*.txt | grep -o "error.*\|setup memory.*\|times.*\|setup [0-9.]* ms (.*" | cut -c1-400 | head -5
fi
tar czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
