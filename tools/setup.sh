#!/usr/bin/env bash
# Installs what spkrylov needs to build, from Debian/Ubuntu packages, if it is missing, and
# NumPy and SciPy for the peer-check test (CTest PeerCheck.ScipyOnTheCpuPath) and PyAMG for the
# AMG peer check (CTest AmgPeerCheck.PyamgOnTheCpuPath) from PyPI.
# The CUDA toolkit (nvcc, cuBLAS, cuSPARSE) must already be installed (CUDA >= 12).
set -euo pipefail
packages=(cmake ninja-build g++ libyaml-cpp-dev libgtest-dev libcli11-dev libopenmpi-dev openmpi-bin)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  echo "setup: installing ${missing[*]}"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# NumPy and SciPy, for the python3 on PATH: the interpreter CMake's find_package(Python3)
# finds and the peer check runs with. Debian's python3-numpy/python3-scipy serve only the
# system interpreter (/usr/bin/python3), which may not be that one (pyenv, a venv, conda),
# so they come from PyPI with that interpreter's pip; only when the import fails. Where that
# interpreter is the system's and pip cannot install into it (no pip, or an "externally
# managed" environment), the Debian packages are the ones for it. Without them the peer check
# is reported as skipped, so a failure here is a warning, not an error.
# nanobind and scikit-build-core build the Python module (python/, `pip install .`), pytest
# runs its tests (CTest Python.Pytest); without them the module is not built.
if command -v python3 >/dev/null 2>&1 && ! python3 -c "import numpy, scipy, pyamg, nanobind, scikit_build_core, pytest" >/dev/null 2>&1; then
  python="$(python3 -c 'import sys; print(sys.executable)')"
  echo "setup: installing numpy, scipy, pyamg, nanobind, scikit-build-core and pytest for $python (pip)"
  if ! python3 -m pip install --quiet numpy scipy pyamg nanobind scikit-build-core pytest; then
    if [ "$python" = /usr/bin/python3 ] || [ "$(readlink -f "$python")" = "$(readlink -f /usr/bin/python3)" ]; then
      sudo_cmd=""
      [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
      echo "setup: pip cannot install for the system python3; installing python3-numpy python3-scipy"
      $sudo_cmd apt-get update -qq
      DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq python3-numpy python3-scipy >/dev/null || true
      DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq python3-pyamg >/dev/null 2>&1 || true
    fi
  fi
  python3 -c "import numpy, scipy" >/dev/null 2>&1 ||
    echo "setup: warning: numpy/scipy are not importable by $python; the peer check (CTest PeerCheck.ScipyOnTheCpuPath) will be skipped" >&2
  python3 -c "import pyamg" >/dev/null 2>&1 ||
    echo "setup: warning: pyamg is not importable by $python; the AMG peer check (CTest AmgPeerCheck.PyamgOnTheCpuPath) will be skipped" >&2
fi
if ! command -v nvcc >/dev/null 2>&1; then
  if [ -x /usr/local/cuda/bin/nvcc ]; then
    echo "setup: nvcc is not on PATH; add /usr/local/cuda/bin (export PATH=/usr/local/cuda/bin:\$PATH)" >&2
  else
    echo "setup: the CUDA toolkit (nvcc) is not installed; install CUDA >= 12 first" >&2
  fi
  exit 1
fi
