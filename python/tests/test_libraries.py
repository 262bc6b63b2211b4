"""Where the module's CUDA libraries come from (spkrylov/_libraries.py): the search of NVIDIA's
package folder, the report of the loaded files, and the message when cuBLAS is nowhere."""
import os

import pytest

import spkrylov
from spkrylov import _libraries


def _fake_package(folder, soname):
    library = folder / "nvidia" / "cu13" / "lib" / soname
    library.parent.mkdir(parents=True, exist_ok=True)
    library.write_bytes(b"")
    return str(library)


def test_package_library_takes_the_first_folder_that_has_it(tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    in_second = _fake_package(second, "libcublas.so.13")
    folders = [str(first), str(second)]
    assert _libraries.package_library("libcublas.so.13", folders) == in_second
    in_first = _fake_package(first, "libcublas.so.13")
    assert _libraries.package_library("libcublas.so.13", folders) == in_first
    assert _libraries.package_library("libcusparse.so.12", folders) is None


def test_libraries_names_the_loaded_cublas_and_cusparse():
    loaded = spkrylov.libraries()
    for name, soname in (("cublas", "libcublas.so.13"), ("cusparse", "libcusparse.so.12")):
        assert os.path.basename(loaded[name]) == soname
        assert os.path.isfile(loaded[name])


def test_an_installed_module_takes_them_from_nvidia_packages():
    if _libraries._library_source() != "nvidia-packages":
        pytest.skip("a CMake build tree's module links the toolkit's libraries (RUNPATH)")
    loaded = spkrylov.libraries()
    for name, soname in _libraries.CUDA_LIBRARIES:
        packaged = _libraries.package_library(soname)
        if packaged is None:
            pytest.skip(f"{soname}: no NVIDIA package installed; the loader found {loaded[name]}")
        assert os.path.realpath(loaded[name]) == os.path.realpath(packaged), name


def test_a_missing_library_is_an_import_error_that_says_what_to_install(monkeypatch):
    monkeypatch.setattr(_libraries, "_library_source", lambda: "nvidia-packages")
    monkeypatch.setattr(_libraries, "CUDA_LIBRARIES", (("cublas", "libspk-absent.so.13"),))
    with pytest.raises(ImportError, match="pip install nvidia-cublas nvidia-cusparse"):
        _libraries.preload(search_path=[])
