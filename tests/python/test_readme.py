"""The README's Python example runs as written."""

import pathlib
import re

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def test_readme_python_example(queue, capsys):  # queue: the example needs pyopencl and a device
    text = README.read_text()
    match = re.search(r"<!-- readme-python-example-begin -->\n```python\n(.*?)```\n<!-- readme-python-example-end -->",
                      text, re.S)
    assert match, "README.md has no Python example between its markers"
    exec(compile(match.group(1), str(README), "exec"), {})
    assert "CLG_ERR_INDEX_OUT_OF_RANGE" in capsys.readouterr().out
