tar xzf carry/bin.tgz -C carry
export LD_LIBRARY_PATH=$PWD/carry/bin/lib:${LD_LIBRARY_PATH:-} SPK_SOURCE_DIR=$PWD
mkdir -p $OUT/r
B=carry/bin
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
echo "sanitizer: $CS"
SPK_REQUIRE_GPU=1 timeout 250 $CS --tool initcheck --print-limit 20 $B/spk_tests_gpu --gtest_filter='GmresGpu.EveryFormatGivesTheCpuCount' > $OUT/r/initcheck.txt 2>&1; echo "initcheck rc $?"
grep -E "Uninitialized|ERROR SUMMARY|at 0x|by thread|Host Frame|PASSED|FAILED" $OUT/r/initcheck.txt | head -40
tar czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
