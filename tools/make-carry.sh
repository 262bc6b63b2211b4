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
for extra in "$build"/apps/heat3d; do [ -x "$extra" ] && cp "$extra" carry/bin/; done
strip carry/bin/* 2>/dev/null || true
du -sh carry/bin
