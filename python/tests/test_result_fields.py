"""One field list for a solve's result (frontend/result_fields.hpp): the Python result, the
type stubs and the JSON report's schema all name the same fields, so a field added in C++ is
added everywhere or this test says where it is missing."""
import ast
import json
import pathlib

import numpy as np
import scipy.sparse as sp

import spkrylov
from spkrylov import _core

from conftest import DATA

SOURCE = DATA.parent


def stub_fields(class_name: str) -> set[str]:
    tree = ast.parse((SOURCE / "python" / "spkrylov" / "__init__.pyi").read_text())
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            return {item.target.id for item in node.body if isinstance(item, ast.AnnAssign)}
    raise AssertionError(f"no class {class_name} in __init__.pyi")


def test_the_field_list_is_the_python_result_the_stubs_and_the_schema():
    names = list(_core.result_field_names())
    assert names[:2] == ["status", "breakdown"] and "true_residual" in names
    A = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(20, 20), format="csr")
    _, result = spkrylov.Solver(A, device="cpu").solve(np.ones(20))
    missing = [name for name in names if not hasattr(result, name)]
    assert not missing, f"SolveResult lacks {missing}"
    missing = sorted(set(names) - stub_fields("SolveResult"))
    assert not missing, f"__init__.pyi's SolveResult lacks {missing}"
    run = json.loads((SOURCE / "frontend" / "report.schema.json").read_text())["$defs"]["run"]
    missing = [name for name in names if name not in run["properties"]]
    assert not missing, f"report.schema.json's run lacks {missing}"
    missing = [name for name in names if name not in run["required"]]
    assert not missing, f"report.schema.json's run does not require {missing}"
