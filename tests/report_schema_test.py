#!/usr/bin/env python3
"""The JSON report of `spkrylov solve` against its schema, frontend/report.schema.json.

Runs a few small solves on the CPU path (converged, not converged, with a known solution),
validates each report, and checks that the validator refuses the report types of old
("rows": "512", "structurally_symmetric": "true", a missing solution_error).

  tests/report_schema_test.py SPKRYLOV_BINARY [LAUNCHER ...]

With a launcher (e.g. `mpirun --oversubscribe -np`), a distributed run's report on 3 processes is
validated too: its "distributed" object with a row per process.

Standard library only: the validator below implements the part of JSON Schema (2020-12)
the schema uses and refuses any other keyword, so nothing in the schema is silently skipped.
Exit code 0 pass, 1 fail, 77 skipped (CTest's SKIP_RETURN_CODE).
"""
import copy
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEMA_PATH = os.path.join(ROOT, "frontend", "report.schema.json")
ANNOTATIONS = {"$schema", "$id", "title", "description", "$defs"}
CHECKED = {"$ref", "oneOf", "type", "enum", "required", "properties", "additionalProperties",
           "items", "minimum"}


def type_matches(value, name):
    if name == "null":
        return value is None
    if name == "boolean":
        return isinstance(value, bool)
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if name == "string":
        return isinstance(value, str)
    if name == "array":
        return isinstance(value, list)
    if name == "object":
        return isinstance(value, dict)
    raise ValueError(f"schema: unknown type {name!r}")


def errors(value, schema, root, path="$"):
    """The list of ways `value` breaks `schema` (empty: valid)."""
    unknown = set(schema) - ANNOTATIONS - CHECKED
    if unknown:
        raise ValueError(f"schema at {path}: keywords this checker does not implement: {unknown}")
    found = []
    if "$ref" in schema:
        reference = schema["$ref"]
        if not reference.startswith("#/$defs/"):
            raise ValueError(f"schema: only local #/$defs/ references, got {reference}")
        found += errors(value, root["$defs"][reference[len("#/$defs/"):]], root, path)
    if "oneOf" in schema:
        results = [errors(value, s, root, path) for s in schema["oneOf"]]
        matching = sum(1 for problems in results if not problems)
        if matching != 1:
            found.append(f"{path}: matches {matching} of the oneOf alternatives, not 1")
            if matching == 0:  # why each alternative failed
                found += [f"{path}: alternative {i}: {p}" for i, problems in enumerate(results)
                          for p in problems]
    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(type_matches(value, name) for name in names):
            found.append(f"{path}: {json.dumps(value)[:60]} is not of type {' or '.join(names)}")
            return found
    if "enum" in schema and value not in schema["enum"]:
        found.append(f"{path}: {json.dumps(value)[:60]} is not one of {schema['enum']}")
    if "minimum" in schema and type_matches(value, "number") and value < schema["minimum"]:
        found.append(f"{path}: {value} < minimum {schema['minimum']}")
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                found.append(f"{path}: required key {key!r} missing")
        properties = schema.get("properties", {})
        for key, item in value.items():
            if key in properties:
                found += errors(item, properties[key], root, f"{path}.{key}")
            elif schema.get("additionalProperties") is False:
                found.append(f"{path}: unexpected key {key!r}")
            elif isinstance(schema.get("additionalProperties"), dict):
                found += errors(item, schema["additionalProperties"], root, f"{path}.{key}")
    if isinstance(value, list) and "items" in schema:
        for index, item in enumerate(value):
            found += errors(item, schema["items"], root, f"{path}[{index}]")
    return found


def solve_report(binary, directory, name, settings, launcher=()):
    """Runs `spkrylov solve` with --set settings on the CPU path; returns the JSON report."""
    path = os.path.join(directory, name + ".json")
    command = list(launcher) + [binary, "solve", "--quiet", "--set", "device=cpu", "--set",
                                "output.report=" + path]
    for setting in settings:
        command += ["--set", setting]
    run = subprocess.run(command, capture_output=True, text=True, timeout=300)
    if run.returncode not in (0, 2):
        raise RuntimeError(f"{' '.join(command)} failed ({run.returncode}): {run.stderr}")
    with open(path) as f:
        return json.load(f)


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 1
    binary = sys.argv[1]
    launcher = sys.argv[2:]
    with open(SCHEMA_PATH) as f:
        schema = json.load(f)
    failures = []

    def expect_valid(label, report):
        problems = errors(report, schema, schema)
        print(f"{label}: {'valid' if not problems else 'INVALID'}")
        failures.extend(f"{label}: {p}" for p in problems)

    def expect_invalid(label, report, fragment):
        problems = errors(report, schema, schema)
        print(f"{label}: {'refused' if problems else 'ACCEPTED'} {problems[:1]}")
        if not any(fragment in p for p in problems):
            failures.append(f"{label}: expected a problem mentioning {fragment!r}, got {problems}")

    with tempfile.TemporaryDirectory() as directory:
        small = ["matrix.generate.n=8"]
        converged = solve_report(binary, directory, "converged", small)
        limited = solve_report(binary, directory, "max_iterations",
                               small + ["solver.max_iterations=3"])
        known = solve_report(binary, directory, "from_solution",
                             small + ["rhs.from_solution=random", "solver.preconditioner=jacobi",
                                      "solver.method=bicgstab"])
        multilevel = solve_report(binary, directory, "amg",
                                  small + ["solver.preconditioner=amg",
                                           "solver.preconditioner_options.max_coarse_rows=40"])
        block_jacobi = solve_report(binary, directory, "block_jacobi",
                                    small + ["solver.preconditioner=block_jacobi",
                                             "solver.preconditioner_options.local=ic0"])
        # compare: on the CPU path: one solve, a row per format asked for, said so.
        cpu_compare = solve_report(binary, directory, "cpu_compare",
                                   small + ["compare=[{format: hyb}, {format: ellpack-r}]"])
        # steps: a time loop of three solves, update_values before the second and third
        stepped = solve_report(binary, directory, "steps",
                               small + ["solver.preconditioner=amg", "steps=3"])
        distributed = distributed_steps = None
        if launcher:
            distributed = solve_report(binary, directory, "distributed",
                                       small + ["solver.preconditioner=jacobi"],
                                       launcher + ["3"])
            distributed_steps = solve_report(binary, directory, "distributed_steps",
                                             small + ["solver.preconditioner=amg", "steps=3"],
                                             launcher + ["3"])
    expect_valid("converged run", converged)
    expect_valid("amg run", multilevel)
    expect_valid("block_jacobi run", block_jacobi)
    blocks = block_jacobi["preconditioner"]
    if (blocks["name"], blocks.get("local"), block_jacobi["status"]) != \
            ("block_jacobi", "ic0", "converged") or "factor_nnz" not in blocks:
        failures.append(f"block_jacobi run: preconditioner {blocks}")
    if distributed is not None:
        expect_valid("distributed run", distributed)
        shares = distributed["distributed"]["per_process"] if distributed["distributed"] else []
        if [p["rank"] for p in shares] != [0, 1, 2] or \
                sum(p["rows"] for p in shares) != distributed["matrix"]["rows"] or \
                distributed["matrix"]["numerically_symmetric"] is not None:
            failures.append(f"distributed run: per-process fields {distributed['distributed']}")
    if converged["distributed"] is not None:
        failures.append("one process: distributed is not null")
    if converged["steps"] is not None:
        failures.append("one solve: steps is not null")

    def check_steps(label, report):
        expect_valid(label, report)
        loop = report["steps"] or {}
        after = loop.get("after_the_first", [])
        if loop.get("count") != 3 or [s["step"] for s in after] != [2, 3] or \
                any(s["status"] != "converged" or s["relative_true_residual"] > 1e-8
                    for s in after) or loop["loop_ms"] < loop["update_ms"]:
            failures.append(f"{label}: steps {loop}")
        return [report["iterations"]] + [s["iterations"] for s in after]
    one_process = check_steps("steps run", stepped)
    if distributed_steps is not None:
        several = check_steps("distributed steps run", distributed_steps)
        if any(b > 1.3 * a for a, b in zip(one_process, several)):
            failures.append(f"distributed steps: iterations {several} against {one_process}")
    expect_valid("max_iterations run", limited)
    expect_valid("from_solution run", known)
    expect_valid("compare report", {"compare": [converged, limited]})
    expect_valid("CPU compare report", cpu_compare)
    rows = cpu_compare.get("compare", [])
    if [row.get("requested_format") for row in rows] != ["hyb", "ellpack-r"] or \
            any("same CSR product" not in row.get("note", "") for row in rows) or \
            len({row["iterations"] for row in rows}) != 1:
        failures.append(f"CPU compare: rows {[(r.get('requested_format'), r.get('note')) for r in rows]}")

    # Spot checks of the types the schema exists for.
    matrix = converged["matrix"]
    if not (matrix["rows"] == 512 and matrix["structurally_symmetric"] is True
            and matrix["first_zero_diagonal_row"] is None):
        failures.append(f"converged run: matrix fields {matrix}")
    if converged["status"] != "converged" or limited["status"] != "max_iterations":
        failures.append("statuses: " + converged["status"] + ", " + limited["status"])
    amg = multilevel["preconditioner"]
    if not (multilevel["status"] == "converged" and amg["name"] == "amg"
            and len(amg["levels"]) >= 2 and amg["levels"][0]["rows"] == 512
            and isinstance(amg["operator_complexity"], float)
            and "galerkin_product" in amg["setup_phases_ms"]):
        failures.append(f"amg run: preconditioner {amg}")
    none = converged["preconditioner"]
    if (none["name"], none["setup_phases_ms"], none["levels"]) != ("none", {}, []):
        failures.append(f"converged run: preconditioner {converged['preconditioner']}")
    if converged["solution_error"] is not None or not isinstance(known["solution_error"], float):
        failures.append("solution_error: null without a known solution, a number with one")

    # The validator refuses what the reports used to hold.
    old = copy.deepcopy(converged)
    old["matrix"]["rows"] = "512"
    expect_invalid("rows as a string", old, "$.matrix.rows")
    old = copy.deepcopy(converged)
    old["matrix"]["structurally_symmetric"] = "true"
    expect_invalid("boolean as a string", old, "$.matrix.structurally_symmetric")
    old = copy.deepcopy(converged)
    del old["solution_error"]
    expect_invalid("missing value left out", old, "'solution_error' missing")


    # The CPU path has no device memory; a GPU run's object (the fields the GPU path writes, as
    # frontend/run_report.cpp writes them) is valid, a negative count is not.
    if converged["device_memory"] is not None:
        failures.append("CPU run: device_memory is not null")
    gpu = copy.deepcopy(converged)
    gpu["device_memory"] = {"total_bytes": 85000000000, "free_bytes": 84000000000,
                            "free_after_bytes": 80000000000, "peak_bytes": 5000000000,
                            "steady_bytes": 3000000000, "in_use_at_peak_bytes": 6000000000,
                            "largest_bytes": 1000000000,
                            "largest": "AMG A_0 values"}
    expect_valid("GPU run's device_memory", gpu)
    gpu["device_memory"]["peak_bytes"] = -1
    expect_invalid("negative peak", gpu, "peak_bytes")
    if distributed is not None:
        shares = distributed["distributed"]["per_process"]
        if any(p["device_memory"] is not None for p in shares):
            failures.append("CPU distributed run: a process's device_memory is not null")

    for failure in failures:
        print("FAIL " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
