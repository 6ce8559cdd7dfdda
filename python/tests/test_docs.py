"""python/tests/test_docs.py: the Python examples of docs/python.md and README.md run: each
file's ```python blocks in order, in one namespace (their asserts check the values they
show). A block that imports numba is skipped without Numba, saying so.
"""
import contextlib
import importlib.util
import io
import os
import re

import pytest

from conftest import SOURCE_DIR

BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def blocks(name):
    with open(os.path.join(SOURCE_DIR, name)) as f:
        return BLOCK.findall(f.read())


@pytest.mark.parametrize("name", ["docs/python.md", "README.md"])
def test_examples_run(name):
    found = blocks(name)
    assert found, "no python examples in " + name
    namespace = {"__name__": "docs_example"}
    skipped = []
    for i, code in enumerate(found):
        if "import numba" in code or "from numba" in code:
            if importlib.util.find_spec("numba") is None:
                skipped.append(i)
                continue
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(code, "%s block %d" % (name, i + 1), "exec"), namespace)
    # A registered callable lives for good, and a Numba function keeps its module's globals:
    # drop them, so that the arrays the examples made go.
    namespace.clear()
    if skipped:
        pytest.skip("%s: blocks %s need numba (Debian: python3-numba)" % (name, skipped))
