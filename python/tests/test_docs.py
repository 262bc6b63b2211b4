"""The documentation keeps up with the code: every key the config reader accepts has a row in
docs/config.md's tables, and the README stays a guide (under 400 lines)."""
import os
import pathlib
import re
import subprocess

import pytest

SOURCE = pathlib.Path(os.environ.get("SPK_SOURCE_DIR", pathlib.Path(__file__).parents[2]))
CONFIG_MD = SOURCE / "docs" / "config.md"
README = SOURCE / "README.md"

# The top-level keys whose value is a scalar; the others are sections (maps, or compare's list).
SCALAR_KEYS = {"precision", "device"}
# --print-config shows the keys of the chosen variant only, so the test asks for each variant:
# matrix.generate (the default) and matrix.file; each rhs form; each preconditioner kind that
# has options; a compare entry.
VARIANTS = [
    [],
    ["matrix.file=data/bcsstk13.mtx", "rhs.file=data/bcsstk13.mtx"],
    ["rhs.from_solution=random", "solver.preconditioner=chebyshev"],
    ["solver.preconditioner=ic0"],
    ["solver.preconditioner=amg", "compare=[{format: hyb}]"],
]


def cli_path():
    if os.environ.get("SPK_CLI"):
        return pathlib.Path(os.environ["SPK_CLI"])
    return SOURCE / "build" / "apps" / "spkrylov"


def yaml_key_paths(text):
    """Dotted key paths of --print-config's YAML (block style, 2-space indents, lists of maps
    written `- key: value`): every mapping key, list entries as `name[]`."""
    paths, stack = set(), []  # stack: (indent, name) of the open maps
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        indent = len(line) - len(line.lstrip(" "))
        body = line.strip()
        in_list = body.startswith("- ")
        if in_list:
            body = body[2:]
            indent += 2
        match = re.match(r"([A-Za-z_][A-Za-z0-9_]*):(\s|$)", body)
        while stack and stack[-1][0] >= indent:
            stack.pop()
        if in_list and stack:
            stack[-1] = (stack[-1][0], stack[-1][1].rstrip("[]") + "[]")
        if not match:
            continue
        path = ".".join([name for _, name in stack] + [match.group(1)])
        paths.add(path)
        stack.append((indent, match.group(1)))
    return paths


def reader_keys():
    cli = cli_path()
    if not cli.exists():
        pytest.skip(f"spkrylov CLI not found at {cli} (set SPK_CLI)")
    keys = set()
    for sets in VARIANTS:
        command = [str(cli), "solve", "--print-config"]
        for item in sets:
            command += ["--set", item]
        run = subprocess.run(command, cwd=SOURCE, capture_output=True, text=True, timeout=60)
        assert run.returncode == 0, f"{' '.join(command)}: {run.stderr}"
        keys |= yaml_key_paths(run.stdout)
    try:  # the module's own lists of the solver: and spmv: keys, where it is importable
        from spkrylov import _core

        keys |= {"solver." + key for key in _core.solver_keys()}
        keys |= {"spmv." + key for key in _core.spmv_keys()}
    except ImportError:
        pass
    return keys


def documented_keys():
    """(section heading, first cell's key) of every table row in docs/config.md."""
    rows, heading, fence = set(), "", False
    for line in CONFIG_MD.read_text().splitlines():
        if line.startswith("```"):
            fence = not fence
        if fence:
            continue
        if line.startswith("#"):
            heading = line.lstrip("#").strip()
        elif line.startswith("|"):
            cell = line.split("|")[1]
            key = re.match(r"\s*`([^`]+)`", cell)
            if key:
                rows.add((heading, key.group(1)))
    return rows


def test_every_config_key_is_in_the_config_reference():
    keys = reader_keys()
    rows = documented_keys()
    first_cells = {key for _, key in rows}
    missing = []
    for path in sorted(keys):
        top = path.split(".")[0].rstrip("[]")
        if path.startswith("solver.preconditioner_options."):
            continue  # per kind: the next test
        if path.startswith("compare[]."):
            entry_key = path.split(".", 1)[1]
            if f"compare[i].{entry_key}" not in first_cells and f"spmv.{entry_key}" not in first_cells:
                missing.append(path)
        elif top in SCALAR_KEYS or "." in path:
            if path not in first_cells:
                missing.append(path)
        elif not any(cell == top or cell.startswith(top + ".") or cell.startswith(top + "[")
                     for cell in first_cells):
            missing.append(path)
    assert not missing, f"keys the config reader accepts but docs/config.md's tables lack: {missing}"


def test_preconditioner_options_of_each_kind_are_documented_under_it():
    """Each kind's options (--print-config with that kind) have rows under a heading naming
    the kind (`chebyshev`, `ic0`, `amg`) in docs/config.md."""
    cli = cli_path()
    if not cli.exists():
        pytest.skip(f"spkrylov CLI not found at {cli} (set SPK_CLI)")
    rows = documented_keys()
    missing = []
    for kind in ("chebyshev", "ic0", "amg"):
        run = subprocess.run([str(cli), "solve", "--print-config", "--set",
                              f"solver.preconditioner={kind}"],
                             cwd=SOURCE, capture_output=True, text=True, timeout=60)
        assert run.returncode == 0, run.stderr
        options = {path.split(".")[2] for path in yaml_key_paths(run.stdout)
                   if path.startswith("solver.preconditioner_options.")}
        assert options, f"--print-config shows no options for {kind}"
        for option in sorted(options):
            if not any(f"`{kind}`" in heading and key == option for heading, key in rows):
                missing.append(f"{kind}: {option}")
    assert not missing, f"docs/config.md lacks preconditioner options: {missing}"


def test_readme_is_a_guide_under_400_lines():
    lines = README.read_text().count("\n")
    assert lines < 400, f"README.md has {lines} lines; the reference belongs in docs/"
