tar xzf carry/bin.tgz -C carry
export LD_LIBRARY_PATH=$PWD/carry/bin/lib:${LD_LIBRARY_PATH:-} SPK_SOURCE_DIR=$PWD NCCL_NVLS_ENABLE=0
mkdir -p $OUT/r
B=carry/bin
nvidia-smi -L | head -4
MPI="mpirun --allow-run-as-root --oversubscribe -x SPK_REQUIRE_GPU -x SPK_SOURCE_DIR -x LD_LIBRARY_PATH -x OMP_NUM_THREADS -x NCCL_NVLS_ENABLE -x SPK_TEST_TRANSPORT=nccl"
FILTER='*AmgDevice*:*DistributedGpu*:*BlockJacobiGpu*:*Amg*:DeviceGridRowsMpi.*:ProcessThreads.*'
(CUDA_VISIBLE_DEVICES=0 SPK_REQUIRE_GPU=1 timeout 200 $B/spk_tests_gpu --gtest_filter='Gmres*:*Amg*:*Strength*' > $OUT/r/gpu-gmres-amg.txt 2>&1; echo "gmres-amg rc $?" > $OUT/r/ga.rc; CUDA_VISIBLE_DEVICES=0 SPK_REQUIRE_GPU=1 timeout 100 $B/spk_tests_gpu --gtest_filter=GmresGpu.EveryFormatGivesTheCpuCount --gtest_repeat=40 > $OUT/r/gmres-repeat.txt 2>&1; echo "repeat rc $?" > $OUT/r/repeat.rc) &
SPK_REQUIRE_GPU=1 OMP_NUM_THREADS=4 timeout 200 $MPI -np 4 $B/spk_tests_mpi --gtest_filter="$FILTER" > $OUT/r/mpi-np4.txt 2>&1; echo "mpi np4 rc $?"
sed 's/\x1b\[[0-9;]*m//g' $OUT/r/mpi-np4.txt | grep -E "PASSED|FAILED  \]|tests ran" | sort | uniq -c | head
grep -B2 -A8 "Failure" $OUT/r/mpi-np4.txt | head -30
wait
cat $OUT/r/ga.rc $OUT/r/repeat.rc
for f in gpu-gmres-amg gmres-repeat; do sed 's/\x1b\[[0-9;]*m//g' $OUT/r/$f.txt | grep -E "PASSED|FAILED  \]|tests ran" | sort | uniq -c | head -6; done
RB="amg solver.preconditioner_options.resetup=rebuild"
ONE_GPU=0 SIZES=1000 PROCESSES=4 PRECONDITIONERS="$RB" timeout 220 tools/distributed-runs.sh $B $OUT/r/four1000 > $OUT/r/four1000.log 2>&1; echo "four1000 rc $?"
grep -h "mpirun" $OUT/r/four1000/table.md; grep -h -A5 "rank     total" $OUT/r/four1000/*.txt | head -6; grep -h "held at\|held after\|rror\|setup memory\|times  " $OUT/r/four1000/*.txt | cut -c1-1500 | head -6
ONE_GPU=0 SIZES=800 PROCESSES=4 PRECONDITIONERS="$RB" timeout 150 tools/distributed-runs.sh $B $OUT/r/four800 > $OUT/r/four800.log 2>&1; echo "four800 rc $?"
grep -h "mpirun" $OUT/r/four800/table.md; grep -h -A5 "rank     total" $OUT/r/four800/*.txt | head -6; grep -h "held at\|rror\|setup memory" $OUT/r/four800/*.txt | cut -c1-1500 | head -4
tar czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
