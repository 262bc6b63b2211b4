#!/usr/bin/env bash
# Installs the built library into a scratch prefix, checks that it holds only the public
# headers of include/spkrylov/ and no yaml-cpp dependency, builds tests/consumer (a project that
# knows only find_package(spkrylov)) against it and runs it; also checks that the README's
# "Embedding" program is exactly tests/consumer/minimal.cpp. Usage: tools/consumer-check.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
prefix=$PWD/$build/install-check
rm -rf "$prefix" "$build/consumer"
cmake --install "$build" --prefix "$prefix" >/dev/null
# The package is the public headers and the libraries: no internal header, no yaml-cpp.
extra=$(cd "$prefix/include" && find . -type f | sed 's#^\./##' | while read -r header; do
  [ -f "$OLDPWD/include/$header" ] || echo "$header"; done)
if [ -n "$extra" ]; then echo "consumer-check: non-public headers installed: $extra" >&2; exit 1; fi
if grep -qi yaml "$prefix"/lib/cmake/spkrylov/*.cmake; then
  echo "consumer-check: the installed package links yaml-cpp" >&2; exit 1
fi
cmake -S tests/consumer -B "$build/consumer" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$build/consumer" >/dev/null
"$build/consumer/minimal"
if [ -x "$build/consumer/distributed" ]; then  # built with MPI: the distributed example too
  OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    timeout 120 mpirun -q --oversubscribe -np 3 "$build/consumer/distributed"
fi
python3 - <<'PY'
import re, sys
readme = open("README.md").read()
blocks = re.findall(r"<!-- embedding-example -->\n```cpp\n(.*?)```", readme, re.S)
program = open("tests/consumer/minimal.cpp").read()
if not blocks or blocks[0] != program:
    sys.exit("README.md: the Embedding example differs from tests/consumer/minimal.cpp")
print("README Embedding example == tests/consumer/minimal.cpp")
PY
