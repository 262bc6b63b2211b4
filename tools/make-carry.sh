#!/usr/bin/env bash
# Builds here (no GPU needed) and copies the binaries into carry/bin, the folder that
# travels to the GPU machine (carry/ is git-ignored). Usage: tools/make-carry.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j2
rm -rf carry/bin && mkdir -p carry/bin
cp "$build"/apps/spkrylov "$build"/tests/spk_tests_cpu "$build"/tests/spk_tests_gpu carry/bin/
for extra in "$build"/apps/heat3d "$build"/apps/libspk_distributed.so "$build"/tests/spk_tests_mpi \
  "$build"/tests/spk_tests_mpi_faults "$build"/tests/spk_tests_mpirun_cli \
  "$build"/distributed/spk_nccl_pattern; do
  [ -e "$extra" ] && cp "$extra" carry/bin/
done
# The MPI plugin links the shared yaml-cpp 0.7 (Debian's); the GPU machine's Ubuntu has
# another version or none: it travels in carry/bin/lib (tools/gpu-test.sh puts it on the
# library path).
if [ -e "$build"/apps/libspk_distributed.so ]; then
  mkdir -p carry/bin/lib
  yaml=$(ldd "$build"/apps/libspk_distributed.so | awk '/libyaml-cpp/ {print $3}')
  [ -n "$yaml" ] && cp -L "$yaml" carry/bin/lib/
fi
# The kernel-reach tracer (tools/gpu-sanitize.sh reach) with the CUPTI it was built against.
if [ -e "$build"/tests/libspk_kernel_trace.so ]; then
  cp "$build"/tests/libspk_kernel_trace.so carry/bin/
  mkdir -p carry/bin/lib
  cupti=$(ldd "$build"/tests/libspk_kernel_trace.so | awk '/libcupti/ {print $3}')
  [ -n "$cupti" ] && cp -L "$cupti" carry/bin/lib/
fi
strip carry/bin/* carry/bin/lib/* 2>/dev/null || true
du -sh carry/bin
