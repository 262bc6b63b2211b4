tar xzf carry/bin.tgz -C carry; gunzip -c carry/t.gz > carry/bin/spk_tests_gpu; chmod +x carry/bin/spk_tests_gpu
export LD_LIBRARY_PATH=$PWD/carry/bin/lib:${LD_LIBRARY_PATH:-} SPK_SOURCE_DIR=$PWD
mkdir -p $OUT/r
B=carry/bin
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
echo "sanitizer: $CS"
SPK_REQUIRE_GPU=1 timeout 250 $CS --tool initcheck --print-limit 4 $B/spk_tests_gpu --gtest_filter='GmresGpu.EveryFormatGivesTheCpuCount' > $OUT/r/initcheck.txt 2>&1; echo "initcheck rc $?"
grep -E "Uninitialized|at .*device_basis|ERROR SUMMARY|by thread" $OUT/r/initcheck.txt | head -30
tar czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
