#!/usr/bin/env bash
# Builds the Python module for another interpreter (default: pyenv's 3.12, the GPU machine's
# Python) in build-py312/, and copies the package plus the shared yaml-cpp it links into a
# folder that travels to the GPU machine. Usage:
#   tools/python-device-build.sh [CARRY_DIR=carry/py312] [PYTHON=~/.pyenv/versions/3.12.1/bin/python]
# There: PYTHONPATH=CARRY_DIR LD_LIBRARY_PATH=CARRY_DIR python3 -m pytest python/tests
set -euo pipefail
cd "$(dirname "$0")/.."
carry=${1:-carry/py312}
python=${2:-$HOME/.pyenv/versions/3.12.1/bin/python}
"$python" -c "import nanobind" 2>/dev/null || "$python" -m pip install -q nanobind
export PATH=/usr/local/cuda/bin:$PATH
cmake -S . -B build-py312 -G Ninja -DCMAKE_BUILD_TYPE=Release -DPython_EXECUTABLE="$python" \
  -DSPK_BUILD_TESTS=OFF -DSPK_WITH_MPI=OFF >/dev/null
cmake --build build-py312 -j2 --target _core spk_python_package
rm -rf "$carry" && mkdir -p "$carry"
cp -r build-py312/python/spkrylov "$carry/"
yaml=$(ldd "$carry"/spkrylov/_core*.so | awk '/libyaml-cpp/ {print $3}')
[ -n "$yaml" ] && cp -L "$yaml" "$carry/"
strip --strip-unneeded "$carry"/spkrylov/_core*.so
echo "module: $(ls "$carry"/spkrylov/_core*.so)"
ldd "$carry"/spkrylov/_core*.so | grep -v "linux-vdso\|ld-linux" | awk '{print "  needs " $1 " -> " $3}'
du -sh "$carry"
