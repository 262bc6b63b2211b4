#!/usr/bin/env python3
"""SciPy's own iterative-solver tests, run against spkrylov's cg, bicgstab and gmres.

The installed SciPy's ``scipy/sparse/linalg/_isolve/tests/test_iterative.py`` is copied into a
temporary folder, its test code unchanged; two lines of its header are rewritten:
  - after SciPy's solver import, ``from spkrylov_shim import cg, bicgstab, gmres`` rebinds the
    three names to spkrylov's (spkrylov_shim.py beside it: ``device="cpu"`` unless --device
    says otherwise, and a record of each call: which solver, whether an input was complex);
  - ``_SOLVERS``, the list its parametrized tests run over, becomes those three.
A conftest.py beside it names a solver parameter by the function's name (``test_atol[cg]``
rather than ``test_atol[solver0]``). The other solvers' own tests (``test_show``: tfqmr,
``TestQMR``) still run SciPy's code and are not counted.

A case belongs to a solver by its id (``-cg]``, ``[gmres]``, ``TestGMRES``;
``test_precond_inverse`` runs all three in one case); it is complex when a call of the case
had a complex input (the shim's record). Prints the SciPy version, the cases collected per
solver, the real-valued cases passed and failed, and whether every complex case raised
spkrylov's documented TypeError ("spkrylov solves real systems"). Exits 1 when fewer than
--min-pass (default 0.95) of the real-valued cases pass, when a real-valued case fails that
is not on the expected-failure list (tools/scipy_suite_xfail.txt: ``test id  # reason``), or
when a complex case fails any other way.

  python3 tools/scipy_suite.py [--device cpu|gpu|auto] [--min-pass 0.95] [--junit FILE] [-v]
"""
import argparse
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree

SOLVERS = ("cg", "bicgstab", "gmres")
IMPORT = re.compile(r"from scipy\.sparse\.linalg\._isolve import \([^)]*\)\n")
SOLVER_LIST = re.compile(r"_SOLVERS = \[[^\]]*\]\n")
COMPLEX_ERROR = "spkrylov solves real systems"  # spkrylov's documented TypeError

SHIM = '''\
"""spkrylov's cg, bicgstab and gmres under SciPy's names (tools/scipy_suite.py)."""
import functools
import json
import os

import numpy as np
import spkrylov

DEVICE = {device!r}
LOG = os.environ["SPK_SCIPY_SUITE_LOG"]


def _complex(value):
    dtype = getattr(value, "dtype", None)
    if dtype is None and isinstance(value, (list, tuple)):
        dtype = np.asarray(value).dtype
    return dtype is not None and np.dtype(dtype).kind == "c"


def _bind(method):
    @functools.wraps(method)
    def solve(*args, **kwargs):
        inputs = list(args[:3]) + [kwargs.get(name) for name in ("x0", "M")]
        test = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" ", 1)[0]
        with open(LOG, "a") as log:
            log.write(json.dumps({{"test": test, "solver": method.__name__,
                                  "complex": any(_complex(v) for v in inputs)}}) + "\\n")
        kwargs.setdefault("device", DEVICE)
        return method(*args, **kwargs)
    return solve


cg = _bind(spkrylov.cg)
bicgstab = _bind(spkrylov.bicgstab)
gmres = _bind(spkrylov.gmres)
'''

CONFTEST = '''\
"""Solver parameters named by the function (tools/scipy_suite.py)."""


def pytest_make_parametrize_id(config, val, argname):
    return getattr(val, "__name__", None) if callable(val) else None
'''


def suite_source(text: str) -> str:
    match = IMPORT.search(text)
    if not match or not SOLVER_LIST.search(text):
        sys.exit("scipy_suite: test_iterative.py's solver import or _SOLVERS list not found "
                 "(SciPy's file changed shape)")
    rebound = match.group(0) + "from spkrylov_shim import " + ", ".join(SOLVERS) + "\n"
    text = text[:match.start()] + rebound + text[match.end():]
    return SOLVER_LIST.sub("_SOLVERS = [" + ", ".join(SOLVERS) + "]\n", text, count=1)


def solvers_of(test_id: str) -> tuple[str, ...]:
    if "TestGMRES" in test_id:
        return ("gmres",)
    if test_id.startswith("test_precond_inverse"):
        return SOLVERS  # one case runs the three
    return tuple(name for name in SOLVERS if re.search(rf"(\[|-){name}(\]|-)", test_id))


def expected_failures(path: pathlib.Path) -> dict[str, str]:
    failures = {}
    for line in path.read_text().splitlines() if path.exists() else []:
        entry, _, reason = line.partition("#")
        if entry.strip():
            failures[entry.strip()] = reason.strip()
    return failures


def run_suite(device: str, junit: str | None) -> tuple[list[dict], str, str]:
    """Runs the rewritten file; the cases (id, outcome, message) and the complex tests."""
    import scipy.sparse.linalg._isolve.tests as scipy_tests
    source = pathlib.Path(scipy_tests.__file__).parent / "test_iterative.py"
    with tempfile.TemporaryDirectory(prefix="spk-scipy-suite-") as folder:
        work = pathlib.Path(folder)
        (work / "test_iterative.py").write_text(suite_source(source.read_text()))
        (work / "spkrylov_shim.py").write_text(SHIM.format(device=device))
        (work / "conftest.py").write_text(CONFTEST)
        report, log = work / "report.xml", work / "calls.jsonl"
        log.write_text("")
        # the caller's PYTHONPATH made absolute: pytest runs in the temporary folder
        paths = [str(pathlib.Path(p).resolve())
                 for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
        environment = dict(os.environ, PYTHONPATH=os.pathsep.join([folder] + paths),
                           SPK_SCIPY_SUITE_LOG=str(log))
        where = subprocess.run([sys.executable, "-c", "import spkrylov; print(spkrylov.__file__)"],
                               cwd=folder, env=environment, capture_output=True, text=True)
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o",
                   "addopts=", "-W", "ignore::pytest.PytestUnknownMarkWarning", "--junitxml",
                   str(report), "test_iterative.py"]
        run = subprocess.run(command, cwd=folder, env=environment, capture_output=True, text=True)
        if not report.exists() or run.returncode not in (0, 1):
            print(run.stdout[-4000:], run.stderr[-4000:])
            sys.exit(f"scipy_suite: pytest exited with {run.returncode}")
        if junit:
            pathlib.Path(junit).write_bytes(report.read_bytes())
        complex_tests = set()
        for line in log.read_text().splitlines():
            call = json.loads(line)
            if call["complex"]:
                complex_tests.add(call["test"].split("::", 1)[1])
        cases = []
        for case in ElementTree.parse(report).getroot().iter("testcase"):
            classname = case.get("classname", "").split(".")[-1]
            test_id = ("" if classname == "test_iterative" else classname + "::") + case.get("name")
            outcome, message = "passed", ""
            for child in case:
                if child.tag in ("failure", "error"):
                    outcome = "failed"
                    message = (child.get("message") or child.text or "").strip().splitlines()
                    message = message[0] if message else ""
                elif child.tag == "skipped":
                    outcome, message = "skipped", child.get("message") or ""
            cases.append(dict(id=test_id, solvers=solvers_of(test_id), outcome=outcome,
                              message=message, complex=test_id in complex_tests))
    return cases, where.stdout.strip() or where.stderr.strip(), run.stdout.strip().splitlines()[-1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--min-pass", type=float, default=0.95)
    parser.add_argument("--junit", help="keep pytest's JUnit XML report here")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()

    import scipy
    xfail_path = pathlib.Path(__file__).with_name("scipy_suite_xfail.txt")
    xfail = expected_failures(xfail_path)
    cases, module, summary = run_suite(args.device, args.junit)
    ours = [c for c in cases if c["solvers"]]
    ran = [c for c in ours if c["outcome"] != "skipped"]
    complex_cases = [c for c in ran if c["complex"]]
    real = [c for c in ran if not c["complex"]]
    passed = [c for c in real if c["outcome"] == "passed"]
    failed = [c for c in real if c["outcome"] == "failed"]
    per_solver = ", ".join(f"{s} {sum(1 for c in ours if s in c['solvers'])}" for s in SOLVERS)
    print(f"SciPy {scipy.__version__} test_iterative.py against {module} (device {args.device})")
    print(f"pytest: {summary}")
    print(f"cases for {', '.join(SOLVERS)}: {len(ours)} ({per_solver}; test_precond_inverse's "
          f"run all three); {len(ours) - len(ran)} skipped or xfailed by SciPy's own marks")
    rate = len(passed) / max(1, len(real))
    print(f"real-valued: {len(passed)} of {len(real)} passed ({100 * rate:.1f}%), "
          f"{len(failed)} failed")
    documented = [c for c in complex_cases if COMPLEX_ERROR in c["message"]]
    other_complex = [c for c in complex_cases if c not in documented]
    print(f"complex: {len(complex_cases)} cases, {len(documented)} raised the documented "
          f"TypeError, {len(other_complex)} did something else")
    unexpected = []
    for c in failed:
        reason = xfail.get(c["id"])
        print(f"  failed {c['id']}: {c['message'][:150]}" +
              (f"\n      expected: {reason}" if reason else ""))
        if reason is None:
            unexpected.append(c["id"])
    for c in other_complex:
        print(f"  complex {c['id']} {c['outcome']}: {c['message'][:150]}")
    for test_id in xfail:
        if any(c["id"] == test_id and c["outcome"] == "passed" for c in ours):
            print(f"  expected failure now passes: {test_id} (remove it from {xfail_path.name})")
        elif not any(c["id"] == test_id for c in ours):
            print(f"  expected failure not collected: {test_id}")
    if args.verbose:
        for c in ours:
            kind = "complex" if c["complex"] else "real"
            print(f"  {c['outcome']:8} {kind:7} {c['id']}")
    if rate < args.min_pass or unexpected or other_complex:
        print(f"scipy_suite: FAILED ({len(unexpected)} unexpected failure(s), "
              f"{len(other_complex)} complex case(s) without the TypeError, pass rate "
              f"{100 * rate:.1f}% against {100 * args.min_pass:.0f}%)")
        return 1
    print("scipy_suite: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
