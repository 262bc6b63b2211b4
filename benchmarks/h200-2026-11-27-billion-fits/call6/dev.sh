tar xzf carry/bin.tgz -C carry; gunzip -c carry/t.gz > carry/bin/spk_tests_gpu; chmod +x carry/bin/spk_tests_gpu
export LD_LIBRARY_PATH=$PWD/carry/bin/lib:${LD_LIBRARY_PATH:-} SPK_SOURCE_DIR=$PWD
B=carry/bin
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
for z in 1 2 3 4; do
SPK_DEBUG_ZERO=$z SPK_REQUIRE_GPU=1 timeout 100 $CS --tool initcheck --print-limit 1 $B/spk_tests_gpu --gtest_filter='GmresGpu.EveryFormatGivesTheCpuCount' 2>&1 | grep -E "ERROR SUMMARY|at .*cu:" | head -3 | sed "s/^/zero=$z: /"
done
SPK_REQUIRE_GPU=1 $B/spk_tests_gpu --gtest_filter='GmresGpu.EveryFormatGivesTheCpuCount' 2>&1 | grep -i "restart\|OK\|FAIL" | head -3
