"""python/tests/test_bench.py: bench/python_overhead.py runs as a user runs it (--quick, small
sizes): it prints a row per call and size, and ckernel's results equal NumPy's bit for bit
(the script's own check, its exit status). Nothing here looks at the times."""
import json
import os
import subprocess
import sys

import pytest

from conftest import SANITIZED, SOURCE_DIR


@pytest.mark.skipif(SANITIZED, reason="a speed tool: not run under sanitizers")
def test_python_overhead_runs_and_agrees_with_numpy(tmp_path):
    script = os.path.join(SOURCE_DIR, "bench", "python_overhead.py")
    out = tmp_path / "figures.json"
    run = subprocess.run([sys.executable, script, "--quick", "--sizes", "10,1Ki,3",
                          "--json", str(out)], capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert lines[1].split()[-4:] == ["ckernel", "NumPy", "ratio", "target"]
    rows = [l for l in lines[2:] if l.startswith(("ck.call", "ck.assign"))]
    assert len(rows) == 6 and any(", 1 Ki " in l for l in rows)
    figures = json.loads(out.read_text())["results"]
    assert [(r["op"], r["elements"]) for r in figures] == \
        [("add", 10), ("assign", 10), ("add", 1024), ("assign", 1024), ("add", 3), ("assign", 3)]
    assert all(r["ckernel_ns"] > 0 and r["numpy_ns"] > 0 for r in figures)


def test_python_overhead_usage_errors():
    script = os.path.join(SOURCE_DIR, "bench", "python_overhead.py")
    run = subprocess.run([sys.executable, script, "--sizes", "0"], capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 2 and "--sizes" in run.stderr
