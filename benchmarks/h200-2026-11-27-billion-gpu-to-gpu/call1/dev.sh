tar xzf carry/bin.tgz -C carry
export LD_LIBRARY_PATH=$PWD/carry/bin/lib:${LD_LIBRARY_PATH:-} SPK_SOURCE_DIR=$PWD NCCL_NVLS_ENABLE=0
mkdir -p $OUT/r
B=carry/bin
start=$(date +%s)
nvidia-smi -L | head -4
MPI="mpirun --allow-run-as-root --oversubscribe -x SPK_REQUIRE_GPU -x SPK_SOURCE_DIR -x LD_LIBRARY_PATH -x OMP_NUM_THREADS -x NCCL_NVLS_ENABLE -x SPK_TEST_TRANSPORT=nccl"
clean() { sed 's/\x1b\[[0-9;]*m//g' "$1" | grep -E "PASSED|FAILED  \]|tests ran|SKIPPED \]" | sort | uniq -c | head -8; grep -B2 -A10 "Failure" "$1" | head -30; }
SPK_REQUIRE_GPU=1 OMP_NUM_THREADS=4 timeout 90 $MPI -np 4 $B/spk_tests_mpi --gtest_filter='DistributedAmgDeviceAlgebra.*' > $OUT/r/algebra-np4.txt 2>&1; echo "algebra np4 rc $?"; clean $OUT/r/algebra-np4.txt
ONE_GPU=0 SIZES=1000 PROCESSES=4 PRECONDITIONERS="amg" timeout 150 tools/distributed-runs.sh $B $OUT/r/four1000 > $OUT/r/four1000.log 2>&1; echo "four1000 rc $?"
grep -h "mpirun" $OUT/r/four1000/table.md; grep -h "times  \|setup memory\|^iterations" $OUT/r/four1000/*.txt | cut -c1-220
grep -h "galerkin_product\|setup per process" -A5 $OUT/r/four1000/*.txt | grep -o "setup [0-9.]* ms (eigen.*" | head -2
ONE_GPU=0 SIZES=1000 PROCESSES=4 PRECONDITIONERS="amg solver.preconditioner_options.precision=single" timeout 150 tools/distributed-runs.sh $B $OUT/r/fp32 > $OUT/r/fp32.log 2>&1; echo "fp32 rc $?"
grep -h "mpirun" $OUT/r/fp32/table.md; grep -h "times  \|^iterations" $OUT/r/fp32/*.txt | cut -c1-220
echo "elapsed $(( $(date +%s) - start ))"
SPK_REQUIRE_GPU=1 OMP_NUM_THREADS=4 timeout 170 $MPI -np 4 $B/spk_tests_mpi --gtest_filter='*AmgDevice*:*DistributedGpu*:*BlockJacobiGpu*:*Amg*:DeviceGridRowsMpi.*:ProcessThreads.*:WholeRows.*' > $OUT/r/mpi-np4.txt 2>&1; echo "mpi np4 rc $?"; clean $OUT/r/mpi-np4.txt
echo "elapsed $(( $(date +%s) - start ))"
if [ $(( $(date +%s) - start )) -lt 380 ]; then
SPK_TRACE=1 ONE_GPU=0 SIZES=1000 PROCESSES=4 PRECONDITIONERS="amg" timeout 120 tools/distributed-runs.sh $B $OUT/r/trace1000 > $OUT/r/trace1000.log 2>&1; echo "trace1000 rc $?"
grep -h "mpirun" $OUT/r/trace1000/table.md
fi
tar czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
