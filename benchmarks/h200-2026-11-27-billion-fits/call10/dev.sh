tar xzf carry/bin.tgz -C carry
export LD_LIBRARY_PATH=$PWD/carry/bin/lib:${LD_LIBRARY_PATH:-} SPK_SOURCE_DIR=$PWD
mkdir -p $OUT/r
SPK_REQUIRE_GPU=1 timeout 200 carry/bin/spk_tests_gpu --gtest_filter='ErrorContractGpu.*:DeviceMemory*:*Strength*' > $OUT/r/errors.txt 2>&1; echo "rc $?"
sed 's/\x1b\[[0-9;]*m//g' $OUT/r/errors.txt | grep -E "PASSED|FAILED  \]|tests ran" | sort | uniq -c
grep -A3 "Failure" $OUT/r/errors.txt | head
tar czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
