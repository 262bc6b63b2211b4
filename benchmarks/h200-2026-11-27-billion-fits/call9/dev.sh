tar xzf carry/bin.tgz -C carry
export LD_LIBRARY_PATH=$PWD/carry/bin/lib:${LD_LIBRARY_PATH:-} SPK_SOURCE_DIR=$PWD NCCL_NVLS_ENABLE=0
mkdir -p $OUT/r
B=carry/bin
nvidia-smi -L | head -4
MPI="mpirun --allow-run-as-root --oversubscribe -x SPK_REQUIRE_GPU -x SPK_SOURCE_DIR -x LD_LIBRARY_PATH -x OMP_NUM_THREADS -x NCCL_NVLS_ENABLE -x CUDA_VISIBLE_DEVICES -x SPK_TEST_TRANSPORT=nccl"
FILTER='*AmgDevice*:*DistributedGpu*:*BlockJacobiGpu*:*Amg*:DeviceGridRowsMpi.*:ProcessThreads.*'
(CUDA_VISIBLE_DEVICES=2 SPK_REQUIRE_GPU=1 timeout 200 $B/spk_tests_gpu --gtest_filter='*Amg*:*Strength*:*ErrorContract*:Gmres*' > $OUT/r/gpu-subset.txt 2>&1; echo "subset rc $?" > $OUT/r/subset.rc) &
CUDA_VISIBLE_DEVICES=0,1 SPK_REQUIRE_GPU=1 OMP_NUM_THREADS=4 timeout 200 $MPI -np 2 $B/spk_tests_mpi --gtest_filter="$FILTER" > $OUT/r/mpi-np2.txt 2>&1; echo "mpi np2 rc $?"
sed 's/\x1b\[[0-9;]*m//g' $OUT/r/mpi-np2.txt | grep -E "PASSED|FAILED  \]|tests ran|SKIPPED \] [0-9]" | sort | uniq -c | head
wait
cat $OUT/r/subset.rc; sed 's/\x1b\[[0-9;]*m//g' $OUT/r/gpu-subset.txt | grep -E "PASSED|FAILED  \]|tests ran" | sort | uniq -c | head -5
unset CUDA_VISIBLE_DEVICES
RB="amg solver.preconditioner_options.resetup=rebuild"
ONE_GPU=0 SIZES=800 PROCESSES=4 PRECONDITIONERS="$RB" timeout 150 tools/distributed-runs.sh $B $OUT/r/four800 > $OUT/r/four800.log 2>&1; echo "four800 rc $?"
grep -h "mpirun" $OUT/r/four800/table.md; grep -h -A5 "rank     total" $OUT/r/four800/*.txt | head -6; grep -h "rror\|setup memory\|times  " $OUT/r/four800/*.txt | cut -c1-700 | head -4
tar czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
