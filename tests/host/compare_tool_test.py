"""tests/host/compare_tool_test.py: bench/compare_numpy.py, run as a user would, on small
sizes: every workload runs and ckernel agrees with NumPy bit for bit (the tool exits 1
otherwise, and its check is shown to catch a wrong or missing write), the JSON holds one
consistent row per workload (the expr/... ones with numexpr's and Numba's columns when
they are installed, the /jit ones run or skipped with the reason), the table and the plots (PNG, SVG, and from a real
`ckernel bench --json` file) are written, and without matplotlib --plot exits 2 after the
table. Exits 77 (ctest's SKIP_RETURN_CODE) when NumPy or matplotlib is missing.

    compare_tool_test.py LIBCKERNEL CKERNEL_CLI
"""
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.normpath(os.path.join(HERE, "..", "..", "bench"))
TOOL = os.path.join(BENCH, "compare_numpy.py")
# Written out rather than read from the tool: a renamed or dropped workload must fail.
WORKLOADS = ["contig/int32->float64", "contig/float64->int32", "contig/float64->float32",
             "contig/float32->float16", "contig/float64->float64", "strided/int32->float64",
             "2d/c-order/int32->float64", "2d/transposed/int32->float64",
             "text/cast/U32->float64", "text/cast/float64->U32", "text/cast/int64->U21",
             "text/cast/U21->int64", "text/cast/string->float64",
             "text/cast/datetime64[s]->U32", "text/cast/U32->datetime64[s]",
             "text/equal/string",
             "reduce/sum/float64", "reduce/min/float64", "reduce/sum/float64/axis0",
             "accumulate/cumsum/float64", "call/dot/float64"]
EXPRESSIONS = ["expr/fma3/composed", "expr/fma3/jit", "expr/poly/jit", "expr/mixed/composed",
               "expr/linear/composed", "expr/linear/jit", "expr/trig/composed", "expr/trig/jit",
               "expr/trig/jit/2threads", "expr/where/composed", "expr/where/jit",
               "expr/gauss/composed", "expr/gauss/jit", "expr/logic/composed", "expr/logic/jit",
               "expr/dotsum/jit"]
# run, or skipped with the reason
JIT_EXPRESSIONS = [w for w in EXPRESSIONS if "/jit" in w]
MATH = ["math/exp/float64", "math/exp/float64/2threads", "math/sin/float64", "math/cos/float64",
        "math/log/float64", "math/power/float64", "math/exp/float32", "math/sin/float32",
        "math/sqrt/float64", "math/floor/float64", "math/isnan/float64"]
MATH_EXACT = ["math/sqrt/float64", "math/floor/float64", "math/isnan/float64"]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
SKIP = 77
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAILED: " + what)


def run(args, env=None):
    p = subprocess.run([sys.executable, TOOL] + args, capture_output=True, text=True, env=env)
    return p.returncode, p.stdout, p.stderr


def head(path, n):
    if not os.path.exists(path):
        return b""
    with open(path, "rb") as f:
        return f.read(n)


def check_full_run(lib, tmp):
    """All workloads at 64 Ki elements: exit 0, table, JSON values, PNG."""
    out_json, png = os.path.join(tmp, "r.json"), os.path.join(tmp, "r.png")
    rc, out, err = run(["--lib", lib, "--size", "65536", "--repeat", "3", "--json", out_json,
                        "--plot", png])
    check(rc == 0, "the tool exits 0 on all workloads: %d\n%s%s" % (rc, out, err))
    check("built once with ck_make_assign" in out, "the output says the build is not timed")
    with open(out_json) as f:
        res = json.load(f)
    check(res["ckernel_timing"] == "kernel" and res["repeat"] == 3 and res["size"] == 65536,
          "run settings in the JSON: %r" % {k: v for k, v in res.items() if k != "results"})
    check(bool(res["ckernel_version"]) and bool(res["numpy_version"]), "versions in the JSON")
    rows = res["results"]
    skipped = {s["workload"]: s["reason"] for s in res["skipped"]}
    check(all(w in JIT_EXPRESSIONS and why.startswith("the JIT did not compile the expression")
              for w, why in skipped.items()), "only the jit expressions skip, saying why: %r"
          % skipped)
    want_names = WORKLOADS + [w for w in EXPRESSIONS if w not in skipped] + MATH
    check([r["workload"] for r in rows] == want_names, "one row per workload, in bench order: "
          "%r" % [r["workload"] for r in rows])
    for w, why in skipped.items():
        check(any(ln.startswith(w + " ") and ln.endswith(" skipped: " + why)
                  for ln in out.splitlines()), w + ": the skip is in the table")
    others = [m for m in ("numexpr", "numba") if importlib.util.find_spec(m) is not None]
    for r in rows:
        name = r["workload"]
        # 2d/: bench's 1000 rows, 10000 columns scaled to the size: 65536 * 10000 // 10 Mi.
        want = 1000 * 62 if name.startswith("2d/") or name.endswith("/axis0") else 65536
        if name == "call/dot/float64":  # 1000 rows of 65536 // 1000 columns
            want = 1000 * 65
        if name.startswith("text/"):  # 1 Mi values at the default 10 Mi: size // 10
            want = 65536 // 10
        check(r["elements"] == want, "%s: %d elements, not %d" % (name, r["elements"], want))
        if name.startswith("math/"):
            check_math_row(r, out, others)
            continue
        # Exact rows: NumPy's bytes; with sin, cos, exp (another library's) or a sum (another
        # order): within the tool's bound ("agrees").
        exact = not any(f in name for f in ("trig", "gauss", "dotsum"))
        check(r["same_bytes"] is True if exact else r["agrees"] is True,
              name + ": same bytes as NumPy (or within the bound)")
        ck, nq = r["ckernel_ns_per_elem"], r["numpy_ns_per_elem"]
        check(0 < ck < 1e4 and 0 < nq < 1e4, "%s: plausible times %r %r" % (name, ck, nq))
        check(abs(r["ratio"] - ck / nq) < 1e-9 * r["ratio"], name + ": ratio = ckernel / NumPy")
        line = [ln for ln in out.splitlines() if ln.startswith(name + " ")]
        if not name.startswith("expr/"):
            check(len(line) == 1 and line[0].split()[-1] == "%.2f" % r["ratio"],
                  name + ": one table line ending with its ratio: %r" % line)
            continue
        # The expressions' table: the ratio, then a column per other contestant.
        check(len(line) == 1 and line[0].split()[4] == "%.2f" % r["ratio"],
              name + ": one table line with its ratio: %r" % line)
        labels = sorted(r["others"])
        # (Numba's @vectorize has no reductions: no column for expr/dotsum.)
        want = (["numexpr 1 thr"] if "numexpr" in others else []) + \
               (["Numba @vectorize"] if "numba" in others and "dotsum" not in name else [])
        check([k for k in labels if not k.endswith("(wall)")] == sorted(want) and
              len(labels) == len(want) + ("numexpr" in others),
              name + ": numexpr's and Numba's columns when installed: %r" % labels)
        for k, v in r["others"].items():
            check(0 < v["ns_per_elem"] < 1e4 and v["agrees_with_ckernel"] is True,
                  "%s: %s: plausible time, same bytes as ckernel: %r" % (name, k, v))
    check(head(png, 8) == PNG_MAGIC and os.path.getsize(png) > 1000, "the plot is a PNG")


def check_math_row(r, out, others):
    """A math/ row: NumPy's bits for the exact functions, agreement within the bounds for
    the others, ckernel within its 1 ULP of mpmath where mpmath is installed, its times and
    its table line (the NumPy/ckernel column is 1 / ratio), Numba's column when installed."""
    name = r["workload"]
    check(r["elements"] == 65536, "%s: %d elements" % (name, r["elements"]))
    check(r["agrees"] is True, name + ": agrees with NumPy")
    check(r["same_bytes"] is (True if name in MATH_EXACT else r["same_bytes"]),
          name + ": the exact functions give NumPy's bytes")
    check(r["threads"] == (2 if name.endswith("/2threads") else 1), name + ": threads")
    ck, nq = r["ckernel_ns_per_elem"], r["numpy_ns_per_elem"]
    check(0 < ck < 1e4 and 0 < nq < 1e4, "%s: plausible times %r %r" % (name, ck, nq))
    check(abs(r["ratio"] - ck / nq) < 1e-9 * r["ratio"], name + ": ratio = ckernel / NumPy")
    rounds = name not in MATH_EXACT
    if rounds and importlib.util.find_spec("mpmath") is not None:
        check(r["ckernel_max_ulp"] is not None and r["ckernel_max_ulp"] <= 1.0 and
              r["numpy_max_ulp"] is not None,
              "%s: ULP errors against mpmath: %r" % (name, r["ckernel_max_ulp"]))
    else:
        check(r["ckernel_max_ulp"] is None, name + ": no ULP figure for an exact function")
    line = [ln for ln in out.splitlines() if ln.startswith(name + " ")]
    check(len(line) == 1 and line[0].split()[5] == "%.2f" % (1 / r["ratio"]),
          name + ": one table line with NumPy/ckernel: %r" % line)
    want = ["Numba @vectorize"] if "numba" in others else []
    check(sorted(r["others"]) == want, name + ": Numba's column when installed")
    for k, v in r["others"].items():
        check(0 < v["ns_per_elem"] < 1e4, "%s: %s: plausible time %r" % (name, k, v))


def check_filtered_svg(lib, tmp):
    """--filter, --per-call-build, SVG output."""
    svg, out_json = os.path.join(tmp, "r.svg"), os.path.join(tmp, "f.json")
    rc, out, err = run(["--lib", lib, "--size", "4096", "--repeat", "1", "--filter",
                        "contig/int32", "--per-call-build", "--json", out_json, "--plot", svg])
    check(rc == 0, "the filtered run exits 0: " + out + err)
    with open(out_json) as f:
        res = json.load(f)
    check([r["workload"] for r in res["results"]] == ["contig/int32->float64"],
          "--filter keeps only the matching workload")
    check(res["ckernel_timing"] == "per_call_build" and "ck_assign per sample" in out,
          "--per-call-build is said in the JSON and the output")
    content = head(svg, 1 << 20).decode("utf-8", "replace")
    check(content.startswith("<?xml") and "<svg" in content and
          "contig/int32-&gt;float64" in content, "the SVG is written and names the workload")


def check_without_matplotlib(lib, tmp):
    """A matplotlib package that fails to import hides the real one: the table is still
    printed, --plot exits 2 with a message and writes nothing."""
    fake = os.path.join(tmp, "nompl", "matplotlib")
    os.makedirs(fake)
    with open(os.path.join(fake, "__init__.py"), "w") as f:
        f.write('raise ImportError("hidden by compare_tool_test.py")\n')
    env = dict(os.environ, PYTHONPATH=os.path.dirname(fake))
    png = os.path.join(tmp, "none.png")
    rc, out, err = run(["--lib", lib, "--size", "4096", "--repeat", "1", "--filter", "strided",
                        "--plot", png], env=env)
    check(rc == 2, "without matplotlib --plot exits 2: %d" % rc)
    check("needs python3-matplotlib" in err, "without matplotlib, a clear message: " + err)
    check(any(ln.startswith("strided/int32->float64 ") for ln in out.splitlines()),
          "without matplotlib, the table is still printed: " + out)
    check(not os.path.exists(png), "without matplotlib, no plot file")


def check_from_bench_json(cli, tmp):
    bench_json, png = os.path.join(tmp, "b.json"), os.path.join(tmp, "b.png")
    p = subprocess.run([cli, "bench", "--quick", "--filter", "incache/int32", "--json",
                        bench_json], capture_output=True, text=True)
    check(p.returncode == 0, "ckernel bench ran: " + p.stdout + p.stderr)
    with open(bench_json) as f:
        rows = json.load(f)["results"]
    # The fields the tool reads: a rename in cmd_bench.c must show here.
    check(len(rows) > 0 and all("workload" in r and "ratio_memcpy" in r and "ratio_loop" in r
                                for r in rows), "bench JSON rows have the plotted fields")
    rc, out, err = run(["--from-bench-json", bench_json, "--plot", png])
    check(rc == 0, "--from-bench-json exits 0: " + out + err)
    check(head(png, 8) == PNG_MAGIC and os.path.getsize(png) > 1000, "the bench plot is a PNG")
    rc, out, err = run(["--from-bench-json", bench_json])
    check(rc == 2 and "needs --plot" in err, "--from-bench-json without --plot is refused")


def check_the_check(np):
    """same_result must see a wrong element and an unwritten one, not only agreement;
    the 2d shape at the default size must be bench/workloads.c's."""
    sys.path.insert(0, BENCH)
    import compare_numpy as tool

    class Honest:
        def run(self, dst, src):
            np.copyto(dst, src, casting="unsafe")

    class OneWrong:
        def run(self, dst, src):
            np.copyto(dst, src, casting="unsafe")
            dst[7] += 1

    class Lazy:
        def run(self, dst, src):
            np.copyto(dst[:-1], src[:-1], casting="unsafe")

    src = np.arange(100, dtype=np.int32)
    make = lambda: np.empty(100, np.float64)  # noqa: E731
    check(tool.same_result(np, Honest(), src, make), "the check accepts equal results")
    check(not tool.same_result(np, OneWrong(), src, make), "the check sees a wrong element")
    check(not tool.same_result(np, Lazy(), src, make), "the check sees an unwritten element")
    with open(os.path.join(BENCH, "workloads.c")) as f:
        text = f.read()
    dims = tuple(int(re.search(r"#define %s (\d+)" % d, text).group(1))
                 for d in ("ROWS_2D", "COLS_2D"))
    check(tool.shape_2d(tool.DEFAULT_SIZE) == dims,
          "2d shape at 10 Mi %r is bench's %r" % (tool.shape_2d(tool.DEFAULT_SIZE), dims))


def main():
    lib, cli = sys.argv[1], sys.argv[2]
    try:
        import numpy as np
        import matplotlib  # noqa: F401
    except ImportError as e:
        print("skipped: %s (scripts/install-deps.sh installs python3-numpy and "
              "python3-matplotlib)" % e)
        return SKIP
    with tempfile.TemporaryDirectory() as tmp:
        check_full_run(lib, tmp)
        check_filtered_svg(lib, tmp)
        check_without_matplotlib(lib, tmp)
        check_from_bench_json(cli, tmp)
    check_the_check(np)
    print("%d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
