#!/usr/bin/env bash
# Installs the built library into a scratch prefix, builds tests/consumer (a project that
# knows only find_package(spkrylov)) against it and runs it; also checks that the README's
# "Embedding" program is exactly tests/consumer/minimal.cpp. Usage: tools/consumer-check.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
prefix=$PWD/$build/install-check
rm -rf "$prefix" "$build/consumer"
cmake --install "$build" --prefix "$prefix" >/dev/null
cmake -S tests/consumer -B "$build/consumer" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$build/consumer" >/dev/null
"$build/consumer/minimal"
python3 - <<'PY'
import re, sys
readme = open("README.md").read()
blocks = re.findall(r"<!-- embedding-example -->\n```cpp\n(.*?)```", readme, re.S)
program = open("tests/consumer/minimal.cpp").read()
if not blocks or blocks[0] != program:
    sys.exit("README.md: the Embedding example differs from tests/consumer/minimal.cpp")
print("README Embedding example == tests/consumer/minimal.cpp")
PY
