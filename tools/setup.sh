#!/usr/bin/env bash
# Installs what spkrylov needs to build, from Debian/Ubuntu packages, if it is missing.
# The CUDA toolkit (nvcc, cuBLAS, cuSPARSE) must already be installed (CUDA >= 12).
set -euo pipefail
packages=(cmake ninja-build g++ libyaml-cpp-dev libgtest-dev libcli11-dev)
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
if ! command -v nvcc >/dev/null 2>&1; then
  if [ -x /usr/local/cuda/bin/nvcc ]; then
    echo "setup: nvcc is not on PATH; add /usr/local/cuda/bin (export PATH=/usr/local/cuda/bin:\$PATH)" >&2
  else
    echo "setup: the CUDA toolkit (nvcc) is not installed; install CUDA >= 12 first" >&2
  fi
  exit 1
fi
