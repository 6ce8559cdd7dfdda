"""tests/host/compare_tool_test.py: bench/compare_numpy.py, run as a user would, on small
sizes: every workload runs, ckernel and NumPy agree bit for bit (the tool exits 1
otherwise), its JSON holds one consistent row per workload, and both plots are written
(from its own results and from a real `ckernel bench --json` file).

    compare_tool_test.py LIBCKERNEL CKERNEL_CLI
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, "..", "..", "bench", "compare_numpy.py")
WORKLOADS = ["contig/int32->float64", "contig/float64->int32", "contig/float64->float32",
             "contig/float32->float16", "contig/float64->float64", "strided/int32->float64",
             "2d/c-order/int32->float64", "2d/transposed/int32->float64"]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAILED: " + what)


def run(args):
    p = subprocess.run([sys.executable, TOOL] + args, capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def main():
    lib, cli = sys.argv[1], sys.argv[2]
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print("FAILED: no python3-matplotlib: run scripts/install-deps.sh")
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        out_json, png, svg = (os.path.join(tmp, n) for n in ("r.json", "r.png", "r.svg"))
        rc, text = run(["--lib", lib, "--size", "65536", "--repeat", "3", "--json", out_json,
                        "--plot", png])
        check(rc == 0, "the tool exits 0 on small sizes: %d\n%s" % (rc, text))
        with open(out_json) as f:
            res = json.load(f)
        rows = res["results"]
        check([r["workload"] for r in rows] == WORKLOADS, "one row per workload, in order")
        for r in rows:
            name = r["workload"]
            check(r["same_bytes"] is True, name + ": same bytes")
            want = 65000 if name.startswith("2d/") else 65536  # 1000 rows x 65 columns
            check(r["elements"] == want, "%s: %d elements" % (name, r["elements"]))
            check(r["ckernel_ns"] > 0 and r["numpy_ns"] > 0, name + ": positive times")
            check(abs(r["ratio"] - r["ckernel_ns"] / r["numpy_ns"]) < 1e-9, name + ": ratio")
            check(name in text, name + " printed in the table")
        with open(png, "rb") as f:
            check(f.read(8) == b"\x89PNG\r\n\x1a\n", "the plot is a PNG")
        rc, text = run(["--lib", lib, "--size", "4096", "--repeat", "1", "--filter", "contig/int32",
                        "--plot", svg])
        check(rc == 0, "the filtered run exits 0: " + text)
        with open(svg) as f:
            content = f.read()
        check("<svg" in content and "contig/int32-&gt;float64" in content,
              "the SVG names the workload")
        check("2d/" not in text, "--filter keeps only matching workloads")
        bench_json, bench_png = os.path.join(tmp, "b.json"), os.path.join(tmp, "b.png")
        p = subprocess.run([cli, "bench", "--quick", "--filter", "incache/int32", "--json",
                            bench_json], capture_output=True, text=True)
        check(p.returncode == 0, "ckernel bench ran: " + p.stdout + p.stderr)
        rc, text = run(["--from-bench-json", bench_json, "--plot", bench_png])
        check(rc == 0, "--from-bench-json exits 0: " + text)
        check(os.path.getsize(bench_png) > 1000, "the bench plot is written")
        rc, text = run(["--from-bench-json", bench_json])
        check(rc == 2 and "needs --plot" in text, "--from-bench-json without --plot is refused")
    print("%d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
