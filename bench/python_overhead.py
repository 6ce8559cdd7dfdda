#!/usr/bin/python3
"""bench/python_overhead.py: what a call through the Python package costs, beside NumPy.

Per-call time of
    ck.call("add", a, b, out=o)    against   np.add(a, b, out=o)
    ck.assign(d, s)                against   np.copyto(d, s)
on contiguous float64 arrays of 10, 1000 and 10 Mi elements, allocated once (no timed call
allocates). Targets (docs/python.md §11): at most 1.5x NumPy's time at 10 elements (the
package's own overhead: argument parsing, the kernel cache) and 1.05x at 10 Mi (the C
kernel's speed).

Times are CPU time of the process (time.process_time_ns: every thread), not wall time, so
that other work on a shared machine does not count; ckernel runs on one thread, as NumPy's
ufuncs do (--threads N for more: the CPU time of all of them is counted). A sample is a loop
of calls lasting at least --min-ms of CPU (calibrated first); samples alternate ckernel,
NumPy, ckernel, ... so that both see the same machine; a first round warms both up (and
ckernel's kernel cache) and is not counted; each figure is the median of --repeat samples.
After timing, ckernel's and NumPy's results on the same inputs must be equal bit for bit
(exit 1 otherwise). Timing never fails the script: the table says where a target is missed.

    bench/python_overhead.py [--sizes 10,1000,10Mi] [--repeat N] [--min-ms MS]
                             [--threads N] [--quick] [--json FILE]

The package is imported from PYTHONPATH, else from build/python beside this script's tree
(the README's build). Exit status: 0, 1 (results differ), 2 (usage; no package or NumPy).
"""
import argparse
import json
import os
import statistics
import sys
import time

MI = 1 << 20
TARGETS = {10: 1.5, 10 * MI: 1.05}  # ckernel's time / NumPy's, at most


def die(message):
    print("python_overhead: " + message, file=sys.stderr)
    sys.exit(2)


def import_packages():
    try:
        import numpy as np
    except ImportError:
        die("NumPy is missing (Debian: python3-numpy)")
    try:
        import ckernel as ck
    except ImportError:
        here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        sys.path.insert(0, os.path.join(here, "build", "python"))
        try:
            import ckernel as ck
        except ImportError as e:
            die("cannot import ckernel (%s): build it (bash scripts/main.sh) or set PYTHONPATH "
                "to its directory" % e)
    return np, ck


def parse_size(text):
    text = text.strip()
    scale = 1
    for suffix, s in (("Mi", MI), ("Ki", 1 << 10)):
        if text.endswith(suffix):
            text, scale = text[:-len(suffix)], s
    n = int(text) * scale
    if n < 1:
        raise ValueError("a size is at least 1")
    return n


def size_name(n):
    for suffix, s in (("Mi", MI), ("Ki", 1 << 10)):
        if n >= s and n % s == 0:
            return "%d %s" % (n // s, suffix)
    return str(n)


def cpu_ns_per_call(fn, calls):
    t0 = time.process_time_ns()
    for _ in range(calls):
        fn()
    return (time.process_time_ns() - t0) / calls


def calibrate(fn, min_ns):
    """Calls per sample: doubled until a loop takes min_ns of CPU."""
    calls = 1
    while cpu_ns_per_call(fn, calls) * calls < min_ns and calls < 1 << 24:
        calls *= 2
    return calls


def measure(ck_fn, np_fn, repeat, min_ns):
    ck_calls, np_calls = calibrate(ck_fn, min_ns), calibrate(np_fn, min_ns)
    ck_t, np_t = [], []
    for i in range(repeat + 1):
        c = cpu_ns_per_call(ck_fn, ck_calls)
        n = cpu_ns_per_call(np_fn, np_calls)
        if i > 0:  # the first round warms up
            ck_t.append(c)
            np_t.append(n)
    return statistics.median(ck_t), statistics.median(np_t)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="10,1000,10Mi", help="elements, comma-separated (Ki, Mi)")
    ap.add_argument("--repeat", type=int, default=15, help="samples per figure (median)")
    ap.add_argument("--min-ms", type=float, default=20.0, help="CPU time of one sample, at least")
    ap.add_argument("--threads", type=int, default=1, help="ckernel's threads (0: all)")
    ap.add_argument("--quick", action="store_true", help="3 samples of 2 ms: a smoke run")
    ap.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = ap.parse_args(argv)
    try:
        sizes = [parse_size(s) for s in args.sizes.split(",")]
    except ValueError as e:
        ap.error("--sizes: %s" % e)
    if args.quick:
        args.repeat, args.min_ms = 3, 2.0
    if args.repeat < 1 or args.min_ms <= 0 or args.threads < 0:
        ap.error("--repeat and --min-ms are positive, --threads is 0 or more")
    np, ck = import_packages()
    ck.set_num_threads(args.threads)

    rng = np.random.default_rng(1)
    rows, bad = [], []
    for n in sizes:
        a, b = rng.standard_normal(n), rng.standard_normal(n)
        o, d = np.empty(n), np.empty(n)
        ops = [("add", lambda: ck.call("add", a, b, out=o), lambda: np.add(a, b, out=o)),
               ("assign", lambda: ck.assign(d, a), lambda: np.copyto(d, a))]
        for name, ck_fn, np_fn in ops:
            ck_ns, np_ns = measure(ck_fn, np_fn, args.repeat, args.min_ms * 1e6)
            ratio = ck_ns / np_ns
            target = TARGETS.get(n)
            rows.append({"op": name, "elements": n, "ckernel_ns": ck_ns, "numpy_ns": np_ns,
                         "ratio": ratio, "target": target})
        # The results, bit for bit: both write fresh destinations from the same inputs.
        mine, numpys = np.full(n, np.nan), np.full(n, -1.0)
        ck.call("add", a, b, out=mine)
        np.add(a, b, out=numpys)
        if mine.tobytes() != numpys.tobytes():
            bad.append("add at %d elements" % n)
        mine, numpys = np.full(n, np.nan), np.full(n, -1.0)
        ck.assign(mine, a)
        np.copyto(numpys, a)
        if mine.tobytes() != numpys.tobytes():
            bad.append("assign at %d elements" % n)

    print("ckernel %s, NumPy %s; CPU time per call (process, median of %d), ckernel on %d "
          "thread(s)" % (ck.__version__, np.__version__, args.repeat, ck.get_num_threads()))
    print("%-34s %10s %10s %8s %8s" % ("call (float64, contiguous)", "ckernel", "NumPy", "ratio",
                                      "target"))
    for r in rows:
        label = ("ck.call(\"add\", a, b, out=o)" if r["op"] == "add" else "ck.assign(d, s)")
        verdict = "-" if r["target"] is None else \
            ("<= %.2f" % r["target"]) + ("" if r["ratio"] <= r["target"] else " MISSED")
        print("%-34s %10s %10s %7.2fx %8s" % ("%s, %s" % (label, size_name(r["elements"])),
                                              fmt_ns(r["ckernel_ns"]), fmt_ns(r["numpy_ns"]),
                                              r["ratio"], verdict))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"settings": {"repeat": args.repeat, "min_ms": args.min_ms,
                                    "threads": ck.get_num_threads(), "clock": "process_time"},
                       "results": rows}, f, indent=1)
    if bad:
        print("python_overhead: ckernel and NumPy differ: " + ", ".join(bad), file=sys.stderr)
        return 1
    return 0


def fmt_ns(ns):
    if ns < 1e4:
        return "%.0f ns" % ns
    if ns < 1e6:
        return "%.1f us" % (ns / 1e3)
    return "%.2f ms" % (ns / 1e6)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
