"""pytest setup: the CPU path (tests run where there is no GPU), and the repository's data."""
import os
import pathlib

import pytest

DATA = pathlib.Path(os.environ.get("SPK_SOURCE_DIR", pathlib.Path(__file__).parents[2])) / "data"


@pytest.fixture
def data_dir():
    return DATA
