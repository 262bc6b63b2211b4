tar xzf carry/bin.tgz -C carry
export LD_LIBRARY_PATH=$PWD/carry/bin/lib:${LD_LIBRARY_PATH:-} SPK_SOURCE_DIR=$PWD NCCL_NVLS_ENABLE=0
mkdir -p $OUT/r
B=carry/bin
nvidia-smi -L | head -4
git log --oneline -1 2>/dev/null
MPI="mpirun --allow-run-as-root --oversubscribe -x SPK_REQUIRE_GPU -x SPK_SOURCE_DIR -x LD_LIBRARY_PATH -x OMP_NUM_THREADS -x NCCL_NVLS_ENABLE -x CUDA_VISIBLE_DEVICES -x SPK_TEST_TRANSPORT=nccl"
FILTER='*AmgDevice*:*DistributedGpu*:*BlockJacobiGpu*:*Amg*:DeviceGridRowsMpi.*:ProcessThreads.*'
(CUDA_VISIBLE_DEVICES=3 SPK_REQUIRE_GPU=1 timeout 420 $B/spk_tests_gpu > $OUT/r/gpu-suite.txt 2>&1; echo "suite rc $?" > $OUT/r/suite.rc) &
(CUDA_VISIBLE_DEVICES=2 SPK_REQUIRE_GPU=1 timeout 200 $B/spk_tests_gpu --gtest_filter=GmresGpu.EveryFormatGivesTheCpuCount --gtest_repeat=40 > $OUT/r/gmres-repeat.txt 2>&1; echo "repeat rc $?" > $OUT/r/repeat.rc) &
CUDA_VISIBLE_DEVICES=0,1 SPK_REQUIRE_GPU=1 OMP_NUM_THREADS=4 timeout 200 $MPI -np 2 $B/spk_tests_mpi --gtest_filter="$FILTER" > $OUT/r/mpi-np2.txt 2>&1; echo "mpi np2 rc $?"
sed 's/\x1b\[[0-9;]*m//g' $OUT/r/mpi-np2.txt | grep -E "PASSED|FAILED  \]|tests ran|SKIPPED \]" | sort | uniq -c | head
grep -B2 -A8 "Failure" $OUT/r/mpi-np2.txt | head -30
unset CUDA_VISIBLE_DEVICES
SPK_REQUIRE_GPU=1 OMP_NUM_THREADS=4 timeout 200 $MPI -np 4 $B/spk_tests_mpi --gtest_filter="$FILTER" > $OUT/r/mpi-np4.txt 2>&1; echo "mpi np4 rc $?"
sed 's/\x1b\[[0-9;]*m//g' $OUT/r/mpi-np4.txt | grep -E "PASSED|FAILED  \]|tests ran" | sort | uniq -c | head
grep -B2 -A8 "Failure" $OUT/r/mpi-np4.txt | head -30
wait
cat $OUT/r/suite.rc $OUT/r/repeat.rc
for f in gpu-suite gmres-repeat; do sed 's/\x1b\[[0-9;]*m//g' $OUT/r/$f.txt | grep -E "PASSED|FAILED  \]|tests ran|YOU HAVE" | sort | uniq -c | head -12; done
grep -B2 -A10 "Failure" $OUT/r/gpu-suite.txt | head -40
grep -h "Rebuild\|SymmetricStrength" $OUT/r/*.txt | grep -E "OK|FAILED" | sort | uniq -c
tar czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
