#!/usr/bin/python3
"""bench/compare_numpy.py: ckernel and NumPy side by side, on the same buffers.

Each workload (named as in `ckernel bench`) allocates its NumPy arrays once; ckernel wraps
those very buffers (ck_array_wrap, through ctypes) and assigns with ck_assign in nocheck
mode, NumPy with np.copyto(dst, src, casting="unsafe"), which is also unchecked. Samples
alternate between the two (ckernel, NumPy, ckernel, ...) so that both see the same machine
state; each figure is the median of its samples, in ns per element. ck_assign builds its
kernel on every call (under 100 ns, allocation-free): a negligible part of a 10 Mi-element
sample, and what a host calling ckernel per operation pays. After timing, each workload is
run once more by both into separate destinations, which must agree bit for bit (exit 1
otherwise); sources hold values both define alike (in range for float64 -> int32).

    bench/compare_numpy.py [--lib PATH] [--size N] [--repeat N] [--quick] [--filter S]
                           [--json FILE] [--plot FILE.png|FILE.svg]
    bench/compare_numpy.py --from-bench-json FILE --plot FILE.png|FILE.svg

--from-bench-json draws the "x memcpy" and "x loop" ratios of a `ckernel bench --json`
file instead. Plots need python3-matplotlib (exit 2 without it). Debian's /usr/bin/python3
has NumPy (scripts/install-deps.sh installs python3-numpy and python3-matplotlib).
"""
import argparse
import ctypes as C
import json
import os
import statistics
import sys
import time

CK_OK = 0
CK_ERRMODE_NOCHECK = 0
MI = 1 << 20


class EvalCtx(C.Structure):
    """ckernel/eval.h: ck_eval_ctx."""
    _fields_ = [("errmode", C.c_int), ("flags", C.c_uint), ("max_threads", C.c_int),
                ("reserved_int", C.c_int * 5), ("grain_bytes", C.c_size_t),
                ("reserved_size", C.c_size_t * 3)]


def find_lib(given):
    """--lib, else $CKERNEL_LIB, else the build tree next to this script."""
    if given:
        return given
    if os.environ.get("CKERNEL_LIB"):
        return os.environ["CKERNEL_LIB"]
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(here, "..", "build", "src", "libckernel.so")


def load(path):
    lib = C.CDLL(path)
    p, i = C.c_void_p, C.c_int
    for name, res, args in [
            ("ck_type_parse", i, [C.c_char_p, C.POINTER(p)]),
            ("ck_type_decref", None, [p]),
            ("ck_array_wrap", i, [p, p, p, p, C.POINTER(p)]),
            ("ck_array_free", None, [p]),
            ("ck_assign", i, [p, p, C.POINTER(EvalCtx)]),
            ("ck_last_error", C.c_char_p, []),
            ("ck_version_string", C.c_char_p, []),
            ("ck_get_streaming_threshold", C.c_size_t, [])]:
        fn = getattr(lib, name, None)
        if fn is None and name == "ck_get_streaming_threshold":
            continue  # a library from before streaming stores: compared all the same
        fn.restype, fn.argtypes = res, args
    return lib


class Wrapped:
    """A ckernel array over an ndarray's own buffer; free() releases the wrapper only."""

    def __init__(self, lib, arr):
        import numpy as np
        self.lib = lib
        names = {np.dtype(np.int32): "int32", np.dtype(np.float64): "float64",
                 np.dtype(np.float32): "float32", np.dtype(np.float16): "float16"}
        shape = "".join("%d * " % n for n in arr.shape)
        self.t = C.c_void_p()
        if lib.ck_type_parse((shape + names[arr.dtype]).encode(), C.byref(self.t)) != CK_OK:
            raise RuntimeError(lib.ck_last_error().decode())
        self.meta = (C.c_ssize_t * (2 * arr.ndim))()
        for k, (n, s) in enumerate(zip(arr.shape, arr.strides)):
            self.meta[2 * k], self.meta[2 * k + 1] = n, s
        self.a = C.c_void_p()
        if lib.ck_array_wrap(self.t, C.cast(self.meta, C.c_void_p), arr.ctypes.data, None,
                             C.byref(self.a)) != CK_OK:
            lib.ck_type_decref(self.t)
            raise RuntimeError(lib.ck_last_error().decode())

    def free(self):
        self.lib.ck_array_free(self.a)
        self.lib.ck_type_decref(self.t)


def make_workloads(np, n):
    """name -> (source array, destination factory). Sizes follow `ckernel bench` (2-D:
    1000 rows; the transposed source is a C-order cols x rows buffer seen transposed)."""
    rng = np.random.default_rng(12345)
    rows = 1000
    cols = max(1, n // rows)

    def ints(count):
        return rng.integers(-2**31, 2**31, size=count, dtype=np.int32)

    def in_range_doubles(count):
        return rng.uniform(-2.0e9, 2.0e9, size=count)  # float64 -> int32 defined alike

    def halves(count):
        return rng.uniform(-60000.0, 60000.0, size=count).astype(np.float32)

    w = {}
    w["contig/int32->float64"] = (ints(n), lambda: np.empty(n, np.float64))
    w["contig/float64->int32"] = (in_range_doubles(n), lambda: np.empty(n, np.int32))
    w["contig/float64->float32"] = (rng.standard_normal(n) * 1e6, lambda: np.empty(n, np.float32))
    w["contig/float32->float16"] = (halves(n), lambda: np.empty(n, np.float16))
    w["contig/float64->float64"] = (rng.standard_normal(n), lambda: np.empty(n, np.float64))
    w["strided/int32->float64"] = (ints(2 * n)[::2], lambda: np.empty(n, np.float64))
    w["2d/c-order/int32->float64"] = (ints(rows * cols).reshape(rows, cols),
                                      lambda: np.empty((rows, cols), np.float64))
    w["2d/transposed/int32->float64"] = (ints(rows * cols).reshape(cols, rows).T,
                                         lambda: np.empty((rows, cols), np.float64))
    return w


def time_pair(lib, np, src, dst, repeat):
    """Alternating samples; returns (ckernel ns/elem, NumPy ns/elem) medians."""
    ws, wd = Wrapped(lib, src), Wrapped(lib, dst)
    ctx = EvalCtx(errmode=CK_ERRMODE_NOCHECK)
    ck_times, np_times = [], []
    try:
        for k in range(repeat + 1):  # the first round warms both up and is not counted
            t0 = time.perf_counter_ns()
            rc = lib.ck_assign(wd.a, ws.a, C.byref(ctx))
            t1 = time.perf_counter_ns()
            if rc != CK_OK:
                raise RuntimeError("ck_assign: " + lib.ck_last_error().decode())
            np.copyto(dst, src, casting="unsafe")
            t2 = time.perf_counter_ns()
            if k > 0:
                ck_times.append((t1 - t0) / dst.size)
                np_times.append((t2 - t1) / dst.size)
    finally:
        ws.free()
        wd.free()
    return statistics.median(ck_times), statistics.median(np_times)


def same_result(lib, np, src, make_dst):
    """Both write their own destination; bit-for-bit equal?"""
    a, b = make_dst(), make_dst()
    a.fill(0)
    b.fill(0)
    ws, wd = Wrapped(lib, src), Wrapped(lib, a)
    try:
        rc = lib.ck_assign(wd.a, ws.a, C.byref(EvalCtx(errmode=CK_ERRMODE_NOCHECK)))
    finally:
        ws.free()
        wd.free()
    np.copyto(b, src, casting="unsafe")
    return rc == CK_OK and a.tobytes() == b.tobytes()


def compare(args):
    import numpy as np
    lib = load(find_lib(args.lib))
    repeat = args.repeat or (3 if args.quick else 11)
    rows = []
    failed = []
    for name, (src, make_dst) in make_workloads(np, args.size).items():
        if args.filter and args.filter not in name:
            continue
        dst = make_dst()
        ck_ns, np_ns = time_pair(lib, np, src, dst, repeat)
        ok = same_result(lib, np, src, make_dst)
        if not ok:
            failed.append(name)
        rows.append({"workload": name, "elements": int(dst.size), "ckernel_ns": ck_ns,
                     "numpy_ns": np_ns, "ratio": ck_ns / np_ns if np_ns > 0 else None,
                     "same_bytes": ok})
    threshold = (lib.ck_get_streaming_threshold()
                 if hasattr(lib, "ck_get_streaming_threshold") else None)
    print("ckernel %s (%s) vs NumPy %s, %d samples each, alternating; ns per element, medians"
          % (lib.ck_version_string().decode(), os.path.realpath(find_lib(args.lib)),
             np.__version__, repeat))
    if threshold is not None:
        print("streaming stores from %s bytes" % (threshold if threshold < 2**63 else "never"))
    print("%-32s %10s %10s %10s %14s" % ("workload", "elements", "ckernel", "NumPy",
                                         "ckernel/NumPy"))
    for r in rows:
        print("%-32s %10d %10.3f %10.3f %14.2f%s" % (
            r["workload"], r["elements"], r["ckernel_ns"], r["numpy_ns"], r["ratio"],
            "" if r["same_bytes"] else "  RESULTS DIFFER"))
    result = {"ckernel_version": lib.ck_version_string().decode(), "numpy_version": np.__version__,
              "repeat": repeat, "size": args.size, "streaming_min_bytes": threshold,
              "results": rows}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    if args.plot:
        plot([(r["workload"], r["ratio"]) for r in rows], [],
             "ckernel time / NumPy time (same buffers; < 1: ckernel faster)", args.plot)
    if failed:
        print("FAILED: ckernel and NumPy results differ for: " + ", ".join(failed))
        return 1
    return 0


def from_bench_json(args):
    """Ratios of a `ckernel bench --json` file (fields "ratio_memcpy" and "ratio_loop")."""
    with open(args.from_bench_json) as f:
        bench = json.load(f)
    memcpy, loop = [], []
    for r in bench["results"]:
        label = r["workload"] + ("" if r.get("threads", 1) == 1 else " (%d thr)" % r["threads"])
        if r.get("target"):
            label += " [%s]" % r["target"]
        if r.get("ratio_memcpy") is not None:
            memcpy.append((label, r["ratio_memcpy"]))
        if r.get("ratio_loop") is not None:
            loop.append((label, r["ratio_loop"]))
    if not args.plot:
        print("--from-bench-json needs --plot", file=sys.stderr)
        return 2
    plot(loop, memcpy, "ckernel time / plain C loop (bars), / memcpy (dots); < 1: faster",
         args.plot)
    return 0


def plot(bars, dots, title, path):
    """Horizontal bars of ratios, a line at 1.0, each bar labelled with its value."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("--plot needs python3-matplotlib (scripts/install-deps.sh installs it)",
              file=sys.stderr)
        sys.exit(2)
    labels = [b[0] for b in bars]
    fig, ax = plt.subplots(figsize=(9, 0.35 * max(len(labels), 4) + 1.2))
    ys = range(len(labels))
    ax.barh(list(ys), [b[1] for b in bars], color="#4c72b0")
    for y, (_, v) in zip(ys, bars):
        ax.text(v, y, " %.2f" % v, va="center", fontsize=8)
    where = {label: y for y, label in enumerate(labels)}
    pts = [(v, where[label]) for label, v in dots if label in where]
    if pts:
        ax.plot([p[0] for p in pts], [p[1] for p in pts], "o", color="#dd8452", markersize=4)
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_yticks(list(ys))
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lib", help="libckernel.so (default: $CKERNEL_LIB or build/src/)")
    ap.add_argument("--size", type=int, default=10 * MI, help="elements (default 10 Mi)")
    ap.add_argument("--repeat", type=int, default=0, help="samples (default 11, --quick 3)")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--filter", help="only workloads whose name contains this")
    ap.add_argument("--json", help="write the results as JSON")
    ap.add_argument("--plot", help="draw the ratios (.png or .svg)")
    ap.add_argument("--from-bench-json", help="plot a `ckernel bench --json` file instead")
    args = ap.parse_args()
    if args.size < 1:
        ap.error("--size must be positive")
    sys.exit(from_bench_json(args) if args.from_bench_json else compare(args))


if __name__ == "__main__":
    main()
