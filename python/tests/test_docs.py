"""python/tests/test_docs.py: the Python examples of docs/python.md and README.md run: each
file's ```python blocks in order, in one namespace (their asserts check the values they
show). A block that imports Numba or Dask is skipped without it, saying so.
"""
import contextlib
import importlib.util
import io
import os
import re

import pytest

from conftest import SOURCE_DIR

OPTIONAL = ["numba", "dask"]  # a block importing one is skipped without it
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
        needs = [m for m in OPTIONAL if "import " + m in code or "from " + m + " " in code]
        if any(importlib.util.find_spec(m) is None for m in needs):
            skipped.append(i)
            continue
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(code, "%s block %d" % (name, i + 1), "exec"), namespace)
    # A registered callable lives for good, and a Numba function keeps its module's globals:
    # drop them, so that the arrays the examples made go.
    namespace.clear()
    if skipped:
        pytest.skip("%s: blocks %s need %s (Debian: python3-numba, python3-dask)"
                    % (name, skipped, " or ".join(OPTIONAL)))
