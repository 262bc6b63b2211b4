#!/usr/bin/env bash
# Checks the spkrylov wheel (tools/build-wheel.sh) on a GPU machine whose Python already has
# NVIDIA's CUDA 13 packages (nvidia-cublas, nvidia-cusparse, nvidia-nvjitlink) and CuPy:
#
#   tools/wheel-check.sh [WHEEL]     (default: build/wheelhouse/spkrylov-*.whl; PYTHON=python3)
#
# 1. a fresh venv with --system-site-packages, and the wheel installed into it with
#    `pip install --no-index --no-deps` (nothing fetched, nothing compiled). Where PYTHON is
#    itself a venv's (the GPU image's python3 is), --system-site-packages reaches past it to the
#    base interpreter, so a .pth file adds PYTHON's own site-packages;
# 2. an environment with no compiler: PATH is the venv's bin and a folder of links to the few
#    commands the check runs (`command -v nvcc gcc cc c++ g++ clang` must find nothing), and every
#    LD_LIBRARY_PATH folder that holds cuBLAS or cuSPARSE (the toolkit's) is taken off;
# 3. in it: the pytest suite (python/tests, the CuPy tests included), then a CG solve of 3-D
#    Poisson 160^3 (4,096,000 rows) on the GPU, which reports the GPU, and spkrylov.libraries():
#    cuBLAS, cuBLASLt, cuSPARSE and nvJitLink must be the files NVIDIA's packages installed
#    (their RECORD), not the toolkit's; /proc/self/maps lines are printed as well.
# Logs go to $OUT (where set) or build/wheel-check. Exit 0 only when every step passed.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python="$(command -v "${PYTHON:-python3}")"
wheel="${1:-$(ls "$root"/build/wheelhouse/spkrylov-*.whl 2>/dev/null | head -1)}"
logs="${OUT:-$root/build/wheel-check}"
mkdir -p "$logs"
work="$(mktemp -d)"
venv="$work/venv"
summary="$logs/summary.txt"
: >"$summary"
failed=0
step() {  # step NAME STATUS: one line of the summary
  echo "$1: $([ "$2" -eq 0 ] && echo passed || echo "FAILED (exit $2)")" | tee -a "$summary"
  [ "$2" -eq 0 ] || failed=1
}
if [ ! -f "$wheel" ]; then
  echo "wheel-check: no wheel (give its path, or run tools/build-wheel.sh)" >&2
  exit 1
fi
echo "wheel: $wheel ($(du -h "$wheel" | cut -f1))" | tee -a "$summary"

# 1. The venv and the wheel.
{ "$python" -m venv --system-site-packages "$venv" ||
  "$python" -m venv --without-pip --system-site-packages "$venv"; } >"$logs/install.log" 2>&1
venv_site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
"$python" - "$venv_site/spk_parent_site.pth" <<'EOF'
import site, sys
if sys.prefix != sys.base_prefix:  # a venv's interpreter: its site-packages for the new venv
    with open(sys.argv[1], "w") as pth:
        pth.write("\n".join(site.getsitepackages()) + "\n")
EOF
if [ -x "$venv/bin/pip" ]; then
  "$venv/bin/python" -m pip install --no-index --no-deps "$wheel" >>"$logs/install.log" 2>&1
else
  "$python" -m pip --python "$venv/bin/python" install --no-index --no-deps "$wheel" \
    >>"$logs/install.log" 2>&1
fi
step "install (pip install --no-index --no-deps)" $?
# The GPU code in the module (before the toolkit leaves PATH): sm_80 and sm_90 machine code,
# compute_90 PTX.
core="$(ls "$venv_site"/spkrylov/_core*.so 2>/dev/null | head -1)"
if command -v cuobjdump >/dev/null && [ -n "$core" ]; then
  { cuobjdump --list-elf "$core"; cuobjdump --list-ptx "$core"; } 2>&1 |
    grep -o 'sm_[0-9a-z]*\.\(cubin\|ptx\)' | sort | uniq -c | tee -a "$summary"
fi

# 2. No compiler, no toolkit libraries on the loader path.
bin="$work/bin"
mkdir -p "$bin"
for tool in bash sh env cat grep sed head tail ls readlink tee uname nvidia-smi mkdir rm sort \
            awk date du cut timeout dirname basename ldconfig; do
  found="$(command -v "$tool" || true)"
  [ -n "$found" ] && ln -s "$found" "$bin/$tool"
done
library_path=""
IFS=: read -r -a folders <<<"${LD_LIBRARY_PATH:-}"
for folder in "${folders[@]}"; do
  [ -n "$folder" ] || continue
  if ls "$folder"/libcublas.so* "$folder"/libcusparse.so* >/dev/null 2>&1; then
    echo "off LD_LIBRARY_PATH: $folder" | tee -a "$summary"
  else
    library_path="${library_path:+$library_path:}$folder"
  fi
done
export PATH="$venv/bin:$bin" LD_LIBRARY_PATH="$library_path" SPK_SOURCE_DIR="$root"
export OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1
unset SPK_CLI PYTHONPATH
compilers="$(command -v nvcc gcc cc c++ g++ clang clang++ || true)"
echo "compilers on PATH: ${compilers:-none}" | tee -a "$summary"
[ -z "$compilers" ]
step "no compiler on PATH" $?
{ echo "PATH=$PATH"; echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"; nvidia-smi -L
  ldconfig -p 2>/dev/null | grep -E 'libcublas|libcusparse' ||
    echo "ldconfig: no cuBLAS/cuSPARSE in the loader cache"
} >"$logs/environment.log" 2>&1

# 3. The tests and the solve, from a folder where the source tree's package is not importable.
cd "$work"
timeout "${PYTEST_TIMEOUT:-480}" python -m pytest -q -p no:cacheprovider -rfEs \
  "$root/python/tests" >"$logs/pytest.log" 2>&1
step "pytest python/tests" $?
sed -n '/short test summary/,$p' "$logs/pytest.log" | tee -a "$summary"

python - >"$logs/solve.log" 2>&1 <<'EOF'
import importlib.metadata, os, time
import numpy as np, scipy.sparse as sp
import spkrylov

print("spkrylov", spkrylov.__file__)
n = 160
line = sp.diags([-np.ones(n - 1), 2 * np.ones(n), -np.ones(n - 1)], [-1, 0, 1], format="csr")
A = sp.kronsum(sp.kronsum(line, line, format="csr"), line, format="csr")  # 7-point 3-D Poisson
b = np.ones(A.shape[0])
start = time.perf_counter()
solver = spkrylov.Solver(A, method="cg", preconditioner="none", device="gpu", rtol=1e-8)
x, result = solver.solve(b)
info = solver.setup_info
relative = np.linalg.norm(b - A @ x) / np.linalg.norm(b)
print(f"cg: {A.shape[0]} rows, {A.nnz} nonzeros on {info['device']}: {info['device_name']}")
print(f"cg: {result.status} in {result.iterations} iterations, solve {result.solve_s:.3f} s, "
      f"||b - Ax|| / ||b|| = {relative:.3e} (NumPy), {time.perf_counter() - start:.2f} s in all")
x2, code = spkrylov.cg(A, b, rtol=1e-8, device="gpu")
print(f"spkrylov.cg: info {code}, ||b - Ax|| / ||b|| = "
      f"{np.linalg.norm(b - A @ x2) / np.linalg.norm(b):.3e}")
assert info["device"] == "gpu" and result.status == "converged" and relative <= 1.1e-8 and code == 0

loaded = spkrylov.libraries()
packages = {"cublas": "nvidia-cublas", "cublasLt": "nvidia-cublas",
            "cusparse": "nvidia-cusparse", "nvJitLink": "nvidia-nvjitlink"}
sonames = dict(spkrylov._libraries.CUDA_LIBRARIES)
for name, package in packages.items():
    installed = importlib.metadata.distribution(package)
    expected = installed.locate_file(f"nvidia/cu13/lib/{sonames[name]}")
    same = os.path.realpath(loaded[name]) == os.path.realpath(expected)
    print(f"{name}: {loaded[name]} ({'from' if same else 'NOT from'} {package} "
          f"{installed.version})")
    assert same, name
print(f"yaml-cpp: {loaded.get('yaml-cpp')}")
with open("/proc/self/maps") as maps:
    lines = sorted({line.split(None, 5)[5].strip() for line in maps
                    if any(s in line for s in ("libcublas", "libcusparse", "libnvJitLink",
                                               "libyaml-cpp", "libcudart"))})
print("/proc/self/maps:", *lines, sep="\n  ")
EOF
step "cg on 160^3 (4,096,000 rows) on the GPU, libraries from NVIDIA's packages" $?
cat "$logs/solve.log"
echo "logs: $logs" | tee -a "$summary"
rm -rf "$work"
exit "$failed"
