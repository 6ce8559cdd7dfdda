"""tests/host/numpy_datetime_test.py: NumPy's datetime64 and timedelta64 arrays (int64 counts
of their unit) through ckernel's datetime64[unit] and timedelta64[unit], in place on NumPy's
own buffers (ck_array_wrap, as numpy_text_test.py wraps U and S); NumPy on the same buffers
is the oracle. Cases, each compared byte for byte:
  * datetime64 <- datetime64 for every pair of the ten units, random instants from 1700 to
    2240 and NaT (astype: floored to a coarser unit), strided and reversed sources;
  * timedelta64 <- timedelta64 for every pair of the fixed units, and Y <-> M;
  * text: M8[u] into U and S (astype's text: str()), and U and S back into M8[u], ISO forms
    NumPy reads (date only, 'T' or a space, fractions, NaT, empty text);
  * int64 <-> both kinds (the count as it is);
  * subtract(M8, M8), add(M8, m8), subtract(M8, m8), add(m8, m8) through ck_call for unit
    pairs (instants from 1871 to 2068: differences fit in ns), the result type NumPy's;
  * no ckernel allocation live at the end.

usage: python3 numpy_datetime_test.py PATH_TO_LIBCKERNEL_SO   (last line: "N passed, M failed")
"""
import ctypes as C
import os
import sys
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy_test as nt  # noqa: E402  (load, Checker, eval_ctx)
import numpy_text_test as ntt  # noqa: E402  (Wrapped, assign)

warnings.simplefilter("ignore")

UNITS = ["Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns"]
FIXED = UNITS[2:]
NOCHECK = 0
_text_elem_ds = ntt.elem_ds


def elem_ds(dt):
    """The datashape of a NumPy dtype, datetime64[unit] and timedelta64[unit] included."""
    if dt.kind in "Mm":
        unit = np.datetime_data(dt)[0]
        return "%s[%s]" % ("datetime64" if dt.kind == "M" else "timedelta64", unit)
    return _text_elem_ds(dt)


ntt.elem_ds = elem_ds  # Wrapped describes arrays through it


def instants(rng, n, span=98000):
    """Random datetime64[ns] values within `span` days of 1970 (98000: 1700 to 2240, which
    every unit holds), NaT at 3."""
    days = rng.integers(-span, span, size=n)
    ns = rng.integers(0, 86400 * 10**9, size=n)
    v = (days.astype("m8[D]").astype("m8[ns]") + ns.astype("m8[ns]")).astype("i8")
    t = v.view("M8[ns]").copy()
    t[3] = np.datetime64("NaT")
    return t


def call(lib, callables, op, dst, a, b):
    if op not in callables:
        c = C.c_void_p()
        assert lib.ck_lookup(op.encode(), C.byref(c)) == 0
        callables[op] = c
    wd, wa, wb = ntt.Wrapped(lib, dst), ntt.Wrapped(lib, a), ntt.Wrapped(lib, b)
    srcs = (C.c_void_p * 2)(wa.a, wb.a)
    ctx = nt.eval_ctx()
    rc = lib.ck_call(callables[op], wd.a, 2, srcs, C.byref(ctx))
    err = lib.ck_last_error().decode(errors="replace")
    for w in (wd, wa, wb):
        w.free()
    return rc, err


def main():
    lib = nt.load(sys.argv[1])
    p, i, pp = C.c_void_p, C.c_int, C.POINTER(C.c_void_p)
    for name, (res, args) in {"ck_lookup": (i, [C.c_char_p, pp]),
                              "ck_call": (i, [p, p, i, p, p]),
                              "ck_callable_decref": (None, [p])}.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = res, args
    ck = nt.Checker(lib)
    rng = np.random.default_rng(2027)
    base = instants(rng, 64)

    # datetime64 <- datetime64, every pair of units
    for su in UNITS:
        src = base.astype("M8[%s]" % su)
        for du in UNITS:
            want = src.astype("M8[%s]" % du)
            got = np.zeros(len(src), dtype="M8[%s]" % du)
            rc, err = ntt.assign(lib, got, src)
            ck.check(rc == 0 and got.tobytes() == want.tobytes(),
                     lambda: "M8[%s] <- M8[%s]: %s %s\n got %r\nwant %r" % (du, su, rc, err,
                                                                            got, want))
            got = np.zeros(len(src) // 2, dtype="M8[%s]" % du)
            rc, err = ntt.assign(lib, got, src[::-2])
            ck.check(rc == 0 and got.tobytes() == want[::-2].tobytes(),
                     "M8[%s] <- reversed M8[%s]" % (du, su))

    # timedelta64 <- timedelta64: the fixed units, and years with months
    deltas = rng.integers(-10**12, 10**12, size=64)
    deltas[3] = np.iinfo("i8").min  # NaT
    for su in FIXED:
        src = deltas.view("m8[ns]").astype("m8[%s]" % su)
        for du in FIXED:
            want = src.astype("m8[%s]" % du)
            got = np.zeros(len(src), dtype="m8[%s]" % du)
            rc, err = ntt.assign(lib, got, src, NOCHECK)  # NumPy wraps a product
            ck.check(rc == 0 and got.tobytes() == want.tobytes(),
                     lambda: "m8[%s] <- m8[%s]: %s %s" % (du, su, rc, err))
    months = rng.integers(-10**6, 10**6, size=32)
    for su, du in (("Y", "M"), ("M", "Y")):
        src = months.astype("m8[%s]" % su)
        want = src.astype("m8[%s]" % du)
        got = np.zeros(len(src), dtype="m8[%s]" % du)
        rc, err = ntt.assign(lib, got, src)
        ck.check(rc == 0 and got.tobytes() == want.tobytes(), "m8[%s] <- m8[%s]" % (du, su))

    # text: M8 -> U/S as astype writes it, and back
    for u in UNITS:
        src = base.astype("M8[%s]" % u)
        for kind in ("U", "S"):
            want = src.astype(kind + "40")
            got = np.full(len(src), "#" * 40, dtype=kind + "40")  # the padding is written
            rc, err = ntt.assign(lib, got, src)
            ck.check(rc == 0 and got.tobytes() == want.tobytes(),
                     lambda: "%s40 <- M8[%s]: %s %s %r %r" % (kind, u, rc, err, got[:4],
                                                             want[:4]))
            back = np.zeros(len(src), dtype="M8[%s]" % u)
            rc, err = ntt.assign(lib, back, want)
            ck.check(rc == 0 and back.tobytes() == want.astype("M8[%s]" % u).tobytes(),
                     lambda: "M8[%s] <- %s40: %s %s" % (u, kind, rc, err))
    texts = np.array(["2026-11-25", "2026-11-25T20:31", "2026-11-25 20:31:42.5",
                      "1969-12-31T23:59:59.999999", "NaT", "nat", "", "2000-02-29T00",
                      "1700", "1900-03", "+1678-01-01", "2262-04-11T23:47:16.854775807"],
                     dtype="U40")
    for u in UNITS:
        want = texts.astype("M8[%s]" % u)
        for src in (texts, texts.astype("S40")):
            got = np.zeros(len(texts), dtype="M8[%s]" % u)
            rc, err = ntt.assign(lib, got, src)
            ck.check(rc == 0 and got.tobytes() == want.tobytes(),
                     lambda: "M8[%s] <- %s: %s %s\n got %r\nwant %r" % (u, src.dtype, rc, err,
                                                                        got, want))

    # int64 <-> both kinds
    for kind in ("M8", "m8"):
        src = base.view("i8").copy()
        got = np.zeros(len(src), dtype=kind + "[s]")
        rc, err = ntt.assign(lib, got, src)
        ck.check(rc == 0 and got.tobytes() == src.astype(kind + "[s]").tobytes(),
                 kind + " <- int64")
        back = np.zeros(len(src), dtype="i8")
        rc, err = ntt.assign(lib, back, got)
        ck.check(rc == 0 and back.tobytes() == got.astype("i8").tobytes(), "int64 <- " + kind)

    # add and subtract through ck_call, NumPy's result type and values
    # (differences of instants within 100 years of 1970 fit in nanoseconds)
    base = instants(rng, 64, 36000)
    callables = {}
    pairs = [("s", "D"), ("ms", "s"), ("D", "M"), ("Y", "M"), ("ns", "us"), ("W", "h"),
             ("M", "M"), ("h", "m")]
    for ua, ub in pairs:
        a = base.astype("M8[%s]" % ua)
        b = base[::-1].astype("M8[%s]" % ub)
        tb = (deltas[:64] // 10**9).astype("m8[%s]" % ub) if ub in FIXED else \
            months[:32].repeat(2).astype("m8[%s]" % ub)
        for op, x, y in (("subtract", a, b), ("add", a, tb), ("subtract", a, tb),
                         ("add", tb, tb[::-1])):
            try:
                want = np.add(x, y) if op == "add" else np.subtract(x, y)
            except TypeError:
                continue  # NumPy refuses the pair (years with days): ckernel's test covers it
            got = np.zeros(len(want), dtype=want.dtype)
            rc, err = call(lib, callables, op, got, x, y)
            ck.check(rc == 0 and got.tobytes() == want.tobytes(),
                     lambda: "%s(%s, %s) -> %s: %s %s" % (op, x.dtype, y.dtype, want.dtype,
                                                          rc, err))

    # comparisons through ck_call, every pair of units, into NumPy bool arrays
    ops = {"equal": np.equal, "not_equal": np.not_equal, "less": np.less,
           "less_equal": np.less_equal, "greater": np.greater, "greater_equal": np.greater_equal}
    fixed_delta = deltas.view("m8[ns]")
    for kind, units, values in (("M8", UNITS, base), ("m8", FIXED, fixed_delta),
                                ("m8", ["Y", "M"], months.astype("m8[M]"))):
        for ua in units:
            a = values.astype("%s[%s]" % (kind, ua))
            for ub in units:
                for b in (values.astype("%s[%s]" % (kind, ub)),
                          values[::-1].astype("%s[%s]" % (kind, ub))):
                    weeks = "W" in (ua, ub) and ({ua, ub} & {"Y", "M"})
                    for op, f in ops.items():
                        want = f(a.astype("M8[D]"), b.astype("M8[D]")) if weeks else f(a, b)
                        got = np.zeros(len(a), dtype=bool)
                        rc, err = call(lib, callables, op, got, a, b)
                        ck.check(rc == 0 and np.array_equal(got, want),
                                 lambda: "%s(%s, %s): %s %s\n got %r\nwant %r" % (
                                     op, a.dtype, b.dtype, rc, err, got, want))
    for c in callables.values():
        lib.ck_callable_decref(c)

    ck.check(ck.live() == 0, "allocations live at the end: %d" % ck.live())
    print("%d passed, %d failed" % (ck.passed, ck.failed))
    return 1 if ck.failed else 0


if __name__ == "__main__":
    sys.exit(main())
