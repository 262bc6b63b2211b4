tar xzf carry/bin.tgz -C carry
export LD_LIBRARY_PATH=$PWD/carry/bin/lib:${LD_LIBRARY_PATH:-} SPK_SOURCE_DIR=$PWD NCCL_NVLS_ENABLE=0
mkdir -p $OUT/r
B=carry/bin
nvidia-smi -L | head -4
SPK_REQUIRE_GPU=1 OMP_NUM_THREADS=4 timeout 150 mpirun -np 4 --allow-run-as-root --oversubscribe -x SPK_REQUIRE_GPU -x SPK_SOURCE_DIR -x LD_LIBRARY_PATH -x OMP_NUM_THREADS -x NCCL_NVLS_ENABLE -x SPK_TEST_TRANSPORT=nccl $B/spk_tests_mpi --gtest_filter='*AmgDevice*:*DistributedGpu*:*BlockJacobiGpu*:*Amg*:DeviceGridRowsMpi.*:ProcessThreads.*' > $OUT/r/mpi-np4.txt 2>&1; echo "mpi np4 rc $?"
sed 's/\x1b\[[0-9;]*m//g' $OUT/r/mpi-np4.txt | grep -E "PASSED|FAILED  \]|tests ran" | sort | uniq -c | head
grep -B2 -A8 "Failure" $OUT/r/mpi-np4.txt | head -20
CUDA_VISIBLE_DEVICES=0 SPK_REQUIRE_GPU=1 timeout 60 $B/spk_tests_gpu --gtest_filter='*Amg*:*Galerkin*:*Hierarchy*' > $OUT/r/gpu-amg.txt 2>&1; echo "gpu amg rc $?"; sed 's/\x1b\[[0-9;]*m//g' $OUT/r/gpu-amg.txt | grep -E "PASSED|FAILED  \]" | head -3
ONE_GPU=0 SIZES=800 PROCESSES=4 PRECONDITIONERS="amg" timeout 90 tools/distributed-runs.sh $B $OUT/r/four800 > $OUT/r/four800.log 2>&1; echo "four800 rc $?"
grep -h "mpirun" $OUT/r/four800/table.md; grep -h -A5 "rank     total" $OUT/r/four800/*.txt | head -6; grep -h "held at\|held after\|rror" $OUT/r/four800/*.txt | cut -c1-1500 | head -4
ONE_GPU=0 SIZES=1000 PROCESSES=4 PRECONDITIONERS="amg" timeout 100 tools/distributed-runs.sh $B $OUT/r/four1000 > $OUT/r/four1000.log 2>&1; echo "four1000 rc $?"
grep -h "mpirun" $OUT/r/four1000/table.md; grep -h "rror" $OUT/r/four1000/*.txt $OUT/r/four1000.log | cut -c1-1500 | head -4
tar czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
