"""The README's Python example runs as written (between its python-example markers)."""
import os
import pathlib
import re

README = pathlib.Path(os.environ.get("SPK_SOURCE_DIR", pathlib.Path(__file__).parents[2])) / "README.md"


def test_readme_python_example_runs():
    text = README.read_text()
    match = re.search(r"<!-- python-example -->\s*```python\n(.*?)```", text, re.S)
    assert match, "README.md has no <!-- python-example --> block"
    exec(compile(match.group(1), "README.md python example", "exec"), {})
