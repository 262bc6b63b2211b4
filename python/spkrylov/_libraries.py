"""Where spkrylov's CUDA libraries come from, loaded before the extension module.

The extension module (``_core``) links cuBLAS (``libcublas.so.13``, which needs
``libcublasLt.so.13``) and cuSPARSE (``libcusparse.so.12``, which needs ``libnvJitLink.so.13``)
of CUDA 13; the CUDA runtime is linked into it statically. An installed package (a wheel, or
``pip install .``) takes them from NVIDIA's PyPI packages (nvidia-cublas, nvidia-cusparse,
nvidia-nvjitlink), which put them in ``site-packages/nvidia/cu13/lib``. ``preload()`` loads
them from there by full path before ``_core`` is imported: the dynamic loader resolves the
module's NEEDED entries by soname against the libraries already loaded, so these copies are
used whatever LD_LIBRARY_PATH or the loader cache hold. A library already loaded in the process
(by CuPy or PyTorch, say) is used as it is. Without the packages the loader's own search (a
CUDA 13 toolkit on LD_LIBRARY_PATH or in its cache) is the fallback. The module of a CMake build
tree links the toolkit it was built with (RUNPATH), and nothing is preloaded for it.

``libraries()`` says which files the process actually mapped (from ``/proc/self/maps``).
"""
from __future__ import annotations

import ctypes
import os
import sys

# In dependency order: each one's needs are loaded before it.
CUDA_LIBRARIES = (("nvJitLink", "libnvJitLink.so.13"), ("cublasLt", "libcublasLt.so.13"),
                  ("cublas", "libcublas.so.13"), ("cusparse", "libcusparse.so.12"))
# The folder of NVIDIA's CUDA 13 packages, under a site-packages folder.
PACKAGE_LIBRARY_DIR = os.path.join("nvidia", "cu13", "lib")
# What libraries() reports: the CUDA libraries, and yaml-cpp (a wheel bundles it).
_REPORTED = CUDA_LIBRARIES + (("yaml-cpp", "libyaml-cpp.so"),)


def _library_source() -> str:
    """Where the CUDA libraries come from: "nvidia-packages" (a pip build) or "toolkit" (a
    CMake build tree), as python/CMakeLists.txt wrote into _build_config.py."""
    try:
        from ._build_config import CUDA_LIBRARIES as source
    except ImportError:  # the package run from the source folder: as installed
        return "nvidia-packages"
    return source


def package_library(soname: str, search_path: list[str] | None = None) -> str | None:
    """The first ``<folder>/nvidia/cu13/lib/<soname>`` over the folders of ``search_path``
    (``sys.path`` by default: site-packages, a venv's and those its .pth files add), or None."""
    for folder in sys.path if search_path is None else search_path:
        candidate = os.path.join(folder or os.curdir, PACKAGE_LIBRARY_DIR, soname)
        if os.path.isfile(candidate):
            return os.path.abspath(candidate)
    return None


def _mapped_files() -> list[str]:
    """The files mapped into this process, in /proc/self/maps order (empty where there is none)."""
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            fields = (line.split(None, 5) for line in maps)
            return list(dict.fromkeys(f[5].strip() for f in fields if len(f) == 6 and
                                      f[5].startswith("/")))
    except OSError:
        return []


def _loaded(files: list[str], soname: str) -> str | None:
    """The mapped file named ``soname``, or a renamed copy of it (auditwheel's bundled copies
    carry a hash: libyaml-cpp-1a2b3c4d.so.0.7); None where there is none."""
    stem = soname.split(".so")[0]
    for path in files:
        name = os.path.basename(path)
        if name == soname or name.startswith(stem + "-") or name.startswith(stem + ".so"):
            return path
    return None


def preload(search_path: list[str] | None = None) -> dict[str, str]:
    """Loads cuBLAS and cuSPARSE (and what they need) from NVIDIA's packages, where an installed
    spkrylov takes them from; returns {name: path} of those it loaded. Raises ImportError, with
    what to install, where a library is neither in the packages nor found by the loader."""
    if _library_source() != "nvidia-packages":
        return {}
    already = _mapped_files()
    loaded = {}
    for name, soname in CUDA_LIBRARIES:
        if any(os.path.basename(path) == soname for path in already):
            continue
        path = package_library(soname, search_path)
        try:
            ctypes.CDLL(path or soname)
        except OSError as error:
            raise ImportError(
                f"spkrylov needs {soname} of CUDA 13 ({name}): install NVIDIA's packages "
                "(pip install nvidia-cublas nvidia-cusparse nvidia-nvjitlink; they are the "
                "dependencies of the spkrylov wheel) or put a CUDA 13 toolkit's lib folder on "
                f"LD_LIBRARY_PATH. Looked in <site-packages>/{PACKAGE_LIBRARY_DIR} and the "
                f"loader's path: {error}") from error
        if path is not None:
            loaded[name] = path
    return loaded


def libraries() -> dict[str, str]:
    """The files this process loaded cuBLAS, cuBLASLt, cuSPARSE, nvJitLink and yaml-cpp from,
    as /proc/self/maps names them (a library not loaded is left out).

    Example::

        >>> spkrylov.libraries()["cublas"]
        '/venv/lib/python3.12/site-packages/nvidia/cu13/lib/libcublas.so.13'
    """
    files = _mapped_files()
    found = {name: _loaded(files, soname) for name, soname in _REPORTED}
    return {name: path for name, path in found.items() if path is not None}


preload()  # on import: spkrylov/__init__.py imports this module before _core
