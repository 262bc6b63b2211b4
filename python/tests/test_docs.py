"""The documentation keeps up with the code: every key the config reader accepts has a row in
docs/config.md's tables, the README stays a guide (under 400 lines), and the example reports
of the README and docs/several-gpus.md are what the program prints (numbers aside)."""
import os
import pathlib
import re
import shutil
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


NUMBER = re.compile(r"\d+(?:\.\d+)?(?:e[+-]?\d+)?")


def report_lines(text):
    """(label, shape) per line of a `spkrylov solve` report: the 13-character label column (a
    continuation line takes its label's), the rest with every number as '#' and its spaces
    folded (table columns are as wide as their numbers)."""
    lines, label = [], ""
    for line in text.splitlines():
        if line.startswith("notice:") or not line.strip():
            continue
        if line[:13].strip():
            label = line[:13].strip()
        lines.append((label, " ".join(NUMBER.sub("#", line[13:]).split())))
    return lines


def readme_block(heading):
    """The first ``` block after README's `heading`."""
    text = README.read_text()
    start = text.index(heading)
    match = re.search(r"```\n(.*?)```", text[start:], re.S)
    assert match, f"README.md: no example block after {heading!r}"
    return match.group(1)


def test_readme_report_example_is_what_the_program_prints():
    """README "Reading the report" shows command one on a machine without a GPU: the program's
    report has the same lines, labels and wording (numbers aside)."""
    cli = cli_path()
    if not cli.exists():
        pytest.skip(f"no CLI at {cli}")
    environment = {name: value for name, value in os.environ.items()
                   if name != "OMP_NUM_THREADS"}  # the README shows the default thread choice
    run = subprocess.run([str(cli), "solve", "--quiet"], capture_output=True, text=True,
                         env=environment, timeout=600)
    if "no usable CUDA GPU" not in run.stderr:
        pytest.skip("this machine has a GPU: the README's example is the CPU path's report")
    assert run.returncode == 0, run.stderr
    ours = report_lines(run.stdout)
    documented = report_lines(readme_block("## Reading the report"))
    assert [label for label, _ in ours] == [label for label, _ in documented]
    for (label, shape), (_, documented_shape) in zip(ours, documented):
        if label in ("device", "iterations"):  # thread count and executed iterations vary
            shape, documented_shape = shape.split("(")[0], documented_shape.split("(")[0]
        assert shape == documented_shape, f"{label}: program {shape!r}, README {documented_shape!r}"


def test_several_gpus_example_is_what_mpirun_prints():
    """docs/several-gpus.md shows a 4-process report: the program's has the same lines and the
    same per-process table (numbers aside), on a smaller grid."""
    cli = cli_path()
    mpirun = shutil.which("mpirun")
    if not cli.exists() or mpirun is None:
        pytest.skip("needs the CLI and mpirun")
    environment = dict(os.environ, OMP_NUM_THREADS="1", OMPI_ALLOW_RUN_AS_ROOT="1",
                       OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    run = subprocess.run([mpirun, "-q", "--oversubscribe", "-np", "4", str(cli), "solve",
                          "configs/quickstart.yaml", "--quiet", "--set", "device=cpu", "--set",
                          "matrix.generate.n=24"],
                         capture_output=True, text=True, env=environment, timeout=300,
                         cwd=SOURCE)
    if run.returncode != 0 and "plugin" in run.stderr:
        pytest.skip("built without the MPI plugin")
    assert run.returncode == 0, run.stderr
    text = (SOURCE / "docs" / "several-gpus.md").read_text()
    block = re.search(r"## What a run does.*?```\n(.*?)```", text, re.S).group(1)
    documented, ours = report_lines(block), report_lines(run.stdout)
    assert [label for label, _ in ours] == [label for label, _ in documented]
    for (label, shape), (_, documented_shape) in zip(ours, documented):
        assert shape == documented_shape, f"{label}: program {shape!r}, docs {documented_shape!r}"
