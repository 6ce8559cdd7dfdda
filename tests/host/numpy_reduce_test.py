"""tests/host/numpy_reduce_test.py: reductions (ck_reduce, ckernel/callable.h) and the
elementwise minimum, maximum, logical_and, logical_or, called through ctypes on NumPy arrays
in place (ck_array_wrap over each ndarray's own buffer); NumPy on the same buffers is the
reference, and math.fsum the exact one for float sums.

Checks:
  1. sum, prod, min, max, all, any of every scalar type over every axis set (None, (), each
     subset, in any order) of random 0- to 4-d views (C order, strided, reversed, transposed,
     sizes 0 to 4), with and without keepdims: the result type is NumPy's dtype, the shape
     is NumPy's, integers and bools are equal, min and max are equal (NaN where NumPy's is
     NaN), float and complex sums and products agree within a bound of their rounding; the
     destination is written inside its guard bytes only and the source is untouched; min and
     max of zero elements are refused (CK_ERR_INVALID) exactly where NumPy raises;
  2. explicit destinations (NumPy's out=, whose dtype the accumulator takes);
  3. float64 sums against math.fsum: within the pairwise bound on random and adversarial
     data, and on the whole at least as accurate as NumPy's;
  4. minimum, maximum, logical_and, logical_or of every type bit for bit against NumPy
     (ties of 0 and -0, NaN, inf), and the result type of every pair of scalars;
  5. ragged data (var dimensions at every level, which NumPy lacks) and options (NA, which
     NumPy lacks) against a reference written here over nested Python lists: a reduced var
     axis folds each row (an empty row gives the identity; min and max refuse it), an axis
     above a var one folds the rows left-aligned (the result row as long as the longest),
     with keepdims; NA propagates, or with skipna is left out (min and max give NA where no
     element is left); values are integers (in float64 too), so every result is exact;
  6. cumsum, cumprod, cummin, cummax (NumPy's cumsum, cumprod, minimum.accumulate,
     maximum.accumulate) of every type along every axis of random 1- to 4-d views: the
     result type is NumPy's and every element is NumPy's bit for bit (both accumulate in
     order), NaN against NaN; a complex cumprod against the product formula in order, which
     is NumPy's except where NumPy fuses its strided complex multiply (AVX-512);
  7. dot (core dimensions) of every pair of scalar types but float16, rows of C-order,
     strided and transposed views, against NumPy's dot of each row: the result type is
     NumPy's, integers and bools equal (wrapping alike), floats and complex values within a
     bound of their rounding; float64 rows against math.fsum of the products.

usage: python3 numpy_reduce_test.py PATH_TO_LIBCKERNEL_SO   (last line: "N passed, M failed")
"""
import ctypes as C
import itertools
import json
import math
import os
import sys
import time
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy_test as nt  # noqa: E402  (guarded buffers, Wrapped, load, Checker)

warnings.simplefilter("ignore")
np.seterr(all="ignore")

SCALARS = nt.SCALARS
CK_OK, CK_ERR_INVALID = 0, 2
REDUCE_KEEPDIMS, REDUCE_SKIPNA = 0x1, 0x2
REDUCTIONS = {"sum": np.sum, "prod": np.prod, "min": np.min, "max": np.max, "all": np.all,
              "any": np.any}


class ReduceSpec(C.Structure):  # include/ckernel/callable.h
    _fields_ = [("callable", C.c_void_p), ("axes", C.POINTER(C.c_int)), ("naxes", C.c_int),
                ("flags", C.c_uint)]


def load(path):
    lib = nt.load(path)
    p, i, pp = C.c_void_p, C.c_int, C.POINTER(C.c_void_p)
    sigs = {
        "ck_reduction_lookup": (i, [C.c_char_p, pp]),
        "ck_lookup": (i, [C.c_char_p, pp]),
        "ck_callable_decref": (None, [p]),
        "ck_reduce": (i, [C.POINTER(ReduceSpec), p, p, p]),
        "ck_reduce_result_type": (i, [C.POINTER(ReduceSpec), p, p, pp]),
        "ck_call": (i, [p, p, i, p, p]),
        "ck_call_result_type": (i, [p, i, p, p, pp]),
        "ck_reduce_new": (i, [C.POINTER(ReduceSpec), p, p, pp]),
        "ck_accumulation_lookup": (i, [C.c_char_p, pp]),
        "ck_accumulate": (i, [C.POINTER(ReduceSpec), p, p, p]),
    }
    for name, (res, args) in sigs.items():
        fn = getattr(lib, name)
        fn.restype = res
        fn.argtypes = args
    return lib


class Reducer:
    """A reduction spec over a callable looked up once."""

    def __init__(self, lib, name):
        self.lib = lib
        self.c = C.c_void_p()
        rc = lib.ck_reduction_lookup(name.encode(), C.byref(self.c))
        assert rc == CK_OK, name

    def spec(self, axes, flags):
        s = ReduceSpec()
        s.callable = self.c
        if axes is None:
            s.axes, s.naxes = None, 0
        else:
            self._axes = (C.c_int * max(1, len(axes)))(*axes)  # kept alive with the spec
            s.axes, s.naxes = C.cast(self._axes, C.POINTER(C.c_int)), len(axes)
        s.flags = flags
        return s

    def free(self):
        self.lib.ck_callable_decref(self.c)


def result_type_name(lib, spec, src_wrapped):
    out = C.c_void_p()
    if lib.ck_reduce_result_type(C.byref(spec), src_wrapped.t, None, C.byref(out)) != CK_OK:
        return None
    text = nt.formatted(lib, lib.ck_type_format, out)
    lib.ck_type_decref(out)
    return text


# ---------------------------------------------------------------------------------------
# Values

def random_values(rng, dtype, n, op):
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.integers(0, 2, n).astype(bool)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        if op == "prod":
            return rng.integers(max(info.min, -3), 4, n).astype(dt)
        if op in ("all", "any"):
            return (rng.integers(0, 3, n) * rng.integers(-50, 50, n)).astype(dt)
        return rng.integers(info.min, info.max, n, endpoint=True, dtype=dt)
    if op == "prod":
        re = rng.uniform(0.8, 1.25, n)  # long products stay finite, even in float16
    elif op in ("all", "any"):
        re = rng.integers(0, 3, n) * rng.uniform(-2, 2, n)
    else:
        re = rng.uniform(-4, 4, n)
    if dt.kind == "c":
        im = rng.uniform(-1, 1, n) if op != "prod" else rng.uniform(-0.2, 0.2, n)
        v = (re + 1j * im).astype(dt)
    else:
        v = re.astype(dt)
    if op in ("min", "max", "sum") and n > 0 and rng.random() < 0.2:
        v[rng.integers(0, n)] = np.nan  # NaN propagates
    if op in ("min", "max") and n > 1 and dt.kind == "f" and rng.random() < 0.3:
        v[rng.integers(0, n)] = np.inf if rng.random() < 0.5 else -np.inf
    return v


def views(rng, dtype, op):
    """(name, array) of 0- to 4-d views over fresh buffers."""
    out = []
    for nd in range(5):
        for k in range(2 if nd else 1):
            shape = tuple(int(rng.integers(0 if k else 1, 5)) for _ in range(nd))
            n = int(np.prod(shape, dtype=np.int64))
            base = random_values(rng, dtype, max(n, 1) * 4, op)
            if nd == 0:
                out.append(("0-d", base[:1].reshape(())))
                continue
            style = ["c", "strided", "reversed", "transposed"][(nd + k) % 4]
            if style == "c":
                a = base[:n].reshape(shape)
            elif style == "strided":
                a = base[:2 * n:2].reshape(shape) if n else base[:0].reshape(shape)
            elif style == "reversed":
                a = base[:n][::-1].reshape(shape)[..., ::-1] if n else base[:0].reshape(shape)
            else:
                a = base[:n].reshape(shape[::-1]).T
            out.append(("%s-%s" % (style, "x".join(map(str, shape)) or "scalar"), a))
    return out


def axis_sets(nd):
    sets = [None, ()]
    for r in range(1, nd + 1):
        for c in itertools.combinations(range(nd), r):
            sets.append(c)
    if nd >= 2:
        sets.append((-1, 0))  # negative and out of order
    return sets


def unit_roundoff(dt):
    """2^-p of a float type, or of a complex type's component."""
    dt = np.dtype(dt)
    return {2: 2.0 ** -11, 4: 2.0 ** -24, 8: 2.0 ** -53}[
        dt.itemsize if dt.kind == "f" else dt.itemsize // 2]


def sum_bound(a, axes, dt):
    """A bound of the rounding error of both pairwise sums (ckernel's and NumPy's), per result
    element: a few times (block length + tree depth) roundings of the sum of magnitudes."""
    k = 8 + math.log2(a.size + 1) + 6
    mag = np.sum(np.abs(a.astype(np.complex128 if np.dtype(dt).kind == "c" else np.float64)),
                 axis=axes)
    return k * unit_roundoff(dt) * (mag + 1e-300) * 4


def compare(ck, name, op, a, axes, keepdims, got, want, dt):
    what = lambda: "%s %s %s axes=%s keepdims=%s: got %r, NumPy %r" % (
        op, name, a.dtype, axes, keepdims, got, want)
    if got.shape != want.shape:
        return ck.check(False, what)
    kind = np.dtype(dt).kind
    if kind in "biu" or op in ("min", "max", "all", "any"):
        if kind in "fc":
            same = (got == want) | (np.isnan(got) & np.isnan(want))
            return ck.check(bool(np.all(same)), what)
        return ck.check(bool(np.array_equal(got, want)), what)
    if op == "prod":
        g = got.astype(np.complex128 if kind == "c" else np.float64)
        w = want.astype(np.complex128 if kind == "c" else np.float64)
        tol = (a.size + 4) * unit_roundoff(dt) * 4 * np.abs(w) + 1e-300
        ok = (np.abs(g - w) <= tol) | (np.isnan(g) & np.isnan(w))
        return ck.check(bool(np.all(ok)), what)
    bound = sum_bound(a, axes, dt)
    if keepdims:
        bound = np.reshape(bound, want.shape)
    g = got.astype(np.complex128 if kind == "c" else np.float64)
    w = want.astype(np.complex128 if kind == "c" else np.float64)
    nan = np.isnan(w) if kind == "f" else (np.isnan(w.real) | np.isnan(w.imag))
    gnan = np.isnan(g) if kind == "f" else (np.isnan(g.real) | np.isnan(g.imag))
    ok = (np.abs(g - w) <= bound) | (nan & gnan)
    return ck.check(bool(np.all(ok)), what)


def run_reduction(lib, ck, reducer, op, name, a, axes, keepdims):
    dt_expected = None
    np_fn = REDUCTIONS[op]
    refused = False
    try:
        want = np.asarray(np_fn(a, axis=axes, keepdims=keepdims))
        dt_expected = want.dtype
    except ValueError:
        refused = True
    src = nt.Wrapped(lib, a)
    before = a.copy()
    spec = reducer.spec(axes, REDUCE_KEEPDIMS if keepdims else 0)
    rtype = result_type_name(lib, spec, src)
    if not ck.check(rtype is not None, lambda: "%s %s %s axes=%s: no result type: %s" % (
            op, name, a.dtype, axes, ck.error())):
        src.free()
        return
    out_dtype = np.dtype(rtype.split(" * ")[-1])
    if refused:
        shape = np.sum(a.astype(np.int64) if a.dtype.kind != "c" else a.real.astype(np.int64),
                       axis=axes, keepdims=keepdims).shape
    else:
        shape = want.shape
        ck.check(out_dtype == dt_expected, lambda: "%s %s: result type %s, NumPy %s" % (
            op, a.dtype, rtype, dt_expected))
    buf, dst, mask = nt.guarded(shape, out_dtype, nt.c_strides(shape, out_dtype.itemsize))
    d = nt.Wrapped(lib, dst)
    rc = lib.ck_reduce(C.byref(spec), d.a, src.a, None)
    if refused:
        ck.check(rc == CK_ERR_INVALID and "has no identity" in ck.error(),
                 lambda: "%s %s %s axes=%s: NumPy refuses, ckernel %s %s" % (
                     op, name, a.dtype, axes, ck.status(rc), ck.error()))
        ck.count("refused")
    elif ck.check(rc == CK_OK, lambda: "%s %s %s axes=%s keepdims=%s: %s %s" % (
            op, name, a.dtype, axes, keepdims, ck.status(rc), ck.error())):
        compare(ck, name, op, a, axes, keepdims, dst.copy(), want, out_dtype)
        ck.count(op)
    ck.check(np.all(buf[~mask] == nt.GUARD), lambda: "%s %s: a guard byte was written" % (op, name))
    ck.check(np.array_equal(before, a, equal_nan=a.dtype.kind in "fc"),
             lambda: "%s %s: the source changed" % (op, name))
    d.free()
    src.free()


def reductions(lib, ck):
    rng = np.random.default_rng(2024)
    for op in REDUCTIONS:
        reducer = Reducer(lib, op)
        for t in SCALARS:
            for name, a in views(rng, t, op):
                for axes in axis_sets(a.ndim):
                    for keepdims in (False, True):
                        run_reduction(lib, ck, reducer, op, name, a, axes, keepdims)
        reducer.free()


def explicit_destinations(lib, ck):
    rng = np.random.default_rng(7)
    cases = [("sum", "int32", "float64"), ("sum", "int8", "int8"), ("sum", "float32", "float64"),
             ("max", "int8", "int64"), ("prod", "uint8", "uint16"), ("min", "float32", "float64")]
    for op, src_t, dst_t in cases:
        a = random_values(rng, src_t, 60, op).reshape(5, 12)
        reducer = Reducer(lib, op)
        for axes in ((0,), (1,), None):
            want = REDUCTIONS[op](a, axis=axes, out=None, dtype=dst_t) if op in ("sum", "prod") \
                else REDUCTIONS[op](a, axis=axes).astype(dst_t)
            want = np.asarray(want)
            buf, dst, mask = nt.guarded(want.shape, dst_t, nt.c_strides(want.shape,
                                                                        np.dtype(dst_t).itemsize))
            src, d = nt.Wrapped(lib, a), nt.Wrapped(lib, dst)
            spec = reducer.spec(axes, 0)
            ctx = nt.eval_ctx()
            ctx.errmode = 0  # nocheck: NumPy's casting="unsafe" of the elements
            rc = lib.ck_reduce(C.byref(spec), d.a, src.a, C.byref(ctx))
            if ck.check(rc == CK_OK, lambda: "%s %s into %s: %s" % (op, src_t, dst_t, ck.error())):
                compare(ck, "out", op, a, axes, False, dst.copy(), want, dst_t)
            d.free()
            src.free()
        reducer.free()


# ---------------------------------------------------------------------------------------
# Float sums against math.fsum

def ck_sum(lib, reducer, x):
    out = np.zeros((), dtype=np.float64)
    src, d = nt.Wrapped(lib, x), nt.Wrapped(lib, out)
    spec = reducer.spec(None, 0)
    rc = lib.ck_reduce(C.byref(spec), d.a, src.a, None)
    d.free()
    src.free()
    return float(out) if rc == CK_OK else None


def accuracy(lib, ck):
    reducer = Reducer(lib, "sum")
    rng = np.random.default_rng(11)
    eps = 2.0 ** -53
    ck_err = np_err = 0.0
    worse = 0
    cases = []
    for trial in range(60):
        n = int(rng.integers(1000, 200000))
        kind = trial % 4
        if kind == 0:
            x = rng.standard_normal(n)
        elif kind == 1:
            x = rng.uniform(0, 1, n) * 2.0 ** rng.integers(-30, 30, n)
        elif kind == 2:
            x = np.sort(rng.uniform(0, 1, n))  # sorted: a running sum's error grows
        else:
            x = rng.standard_normal(n) * 1e8 + rng.uniform(-1, 1, n)
        cases.append(("random-%d" % kind, x))
    # adversarial: a large value with many small ones, cancelling pairs, a long run of
    # equal values (the worst case of a running sum)
    big = np.ones(1 << 20)
    big[0] = 2.0 ** 53
    cases.append(("large-then-small", big))
    cases.append(("small-then-large", big[::-1].copy()))
    cancel = np.empty(300000)
    cancel[0::3] = 1e10 + np.arange(100000)
    cancel[1::3] = 0.1
    cancel[2::3] = -(1e10 + np.arange(100000))
    cases.append(("cancelling", cancel))
    cases.append(("tenths", np.full(1 << 21, 0.1)))
    cases.append(("strided", rng.standard_normal(400000)[::3]))
    for name, x in cases:
        exact = math.fsum(x.tolist())
        got = ck_sum(lib, reducer, x)
        if not ck.check(got is not None, lambda: "sum of %s failed: %s" % (name, ck.error())):
            continue
        npv = float(np.sum(x))
        e_ck, e_np = abs(got - exact), abs(npv - exact)
        bound = (8 + math.log2(x.size / 128 + 1) + 5) * eps * float(np.sum(np.abs(x)))
        ck.check(e_ck <= bound, lambda: "sum of %s (n=%d): error %g above the bound %g" % (
            name, x.size, e_ck, bound))
        ck_err += e_ck
        np_err += e_np
        worse += e_ck > e_np
    ck.check(ck_err <= np_err, "float64 sums: total error %g against fsum, NumPy's %g" % (
        ck_err, np_err))
    print("float64 sums against math.fsum over %d arrays: total error %.3g (NumPy %.3g); "
          "ckernel worse than NumPy on %d" % (len(cases), ck_err, np_err, worse))
    reducer.free()


# ---------------------------------------------------------------------------------------
# The elementwise callables

ELEMENTWISE = {"minimum": np.minimum, "maximum": np.maximum, "logical_and": np.logical_and,
               "logical_or": np.logical_or}


def special_values(rng, t, n):
    dt = np.dtype(t)
    if dt.kind == "b":
        return rng.integers(0, 2, n).astype(bool)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        v = rng.integers(info.min, info.max, n, endpoint=True, dtype=dt)
        v[::5] = 0
        v[1::7] = info.min
        v[2::11] = info.max
        return v
    pool = [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 2.5, -2.5, 1e-30, 65504.0]
    if dt.kind == "c":
        re = rng.choice(pool, n)
        im = rng.choice(pool, n)
        return (re + 1j * im).astype(dt)
    return rng.choice(pool, n).astype(dt)


def elementwise(lib, ck):
    rng = np.random.default_rng(5)
    for op, fn in ELEMENTWISE.items():
        c = C.c_void_p()
        assert lib.ck_lookup(op.encode(), C.byref(c)) == CK_OK
        for t in SCALARS:
            a, b = special_values(rng, t, 257), special_values(rng, t, 257)
            want = fn(a, b)
            buf, dst, mask = nt.guarded(want.shape, want.dtype, (want.dtype.itemsize,))
            wa, wb, wd = nt.Wrapped(lib, a), nt.Wrapped(lib, b), nt.Wrapped(lib, dst)
            srcs = (C.c_void_p * 2)(wa.a, wb.a)
            rc = lib.ck_call(c, wd.a, 2, srcs, None)
            if ck.check(rc == CK_OK, lambda: "%s %s: %s" % (op, t, ck.error())):
                got = dst.copy()
                if want.dtype.kind in "fc":
                    # bit for bit, but a NaN against a NaN (payloads are NumPy's business)
                    wn = np.isnan(want) if want.dtype.kind == "f" else \
                        np.isnan(want.real) | np.isnan(want.imag)
                    gn = np.isnan(got) if want.dtype.kind == "f" else \
                        np.isnan(got.real) | np.isnan(got.imag)
                    same = (got.view(np.uint8).reshape(got.size, -1) ==
                            want.view(np.uint8).reshape(want.size, -1)).all(axis=1)
                    ok = (same & ~wn) | (wn & gn)
                    bad = np.nonzero(~ok)[0]
                    ck.check(bad.size == 0, lambda: "%s %s: element %d: %r op %r gave %r, "
                             "NumPy %r" % (op, t, bad[0], a[bad[0]], b[bad[0]], got[bad[0]],
                                           want[bad[0]]))
                else:
                    ck.check(np.array_equal(got, want), lambda: "%s %s: %r, NumPy %r" % (
                        op, t, got, want))
            ck.check(np.all(buf[~mask] == nt.GUARD), "%s %s: a guard byte" % (op, t))
            for w in (wa, wb, wd):
                w.free()
        # the result type of every pair
        for ta in SCALARS:
            for tb in SCALARS:
                want = fn(np.zeros(1, ta), np.zeros(1, tb)).dtype
                ts = (C.c_void_p * 2)()
                types = []
                for k, tn in enumerate((ta, tb)):
                    t = C.c_void_p()
                    lib.ck_type_parse(tn.encode(), C.byref(t))
                    types.append(t)
                    ts[k] = t
                out = C.c_void_p()
                rc = lib.ck_call_result_type(c, 2, ts, None, C.byref(out))
                got = nt.formatted(lib, lib.ck_type_format, out) if rc == CK_OK else None
                if rc == CK_OK:
                    lib.ck_type_decref(out)
                ck.check(got == want.name, lambda: "%s(%s, %s): %s, NumPy %s" % (
                    op, ta, tb, got, want.name))
                for t in types:
                    lib.ck_type_decref(t)
        lib.ck_callable_decref(c)


# ---------------------------------------------------------------------------------------
# Ragged data against a reference over nested lists

IDENTITY = {"sum": 0, "prod": 1, "min": None, "max": None, "all": True, "any": False}


class EmptyRow(Exception):
    pass


def py_reduce(x, kinds, sizes, axes, op, keepdims, skipna=False):
    """The reduction of nested lists x whose levels are kinds ('f' fixed, 'v' var) of sizes
    (fixed) over `axes`, as docs/design.md §14 defines it; None is NA (an option's)."""
    nd = len(kinds)
    na_start = skipna and IDENTITY[op] is None  # min, max: NA until the first element
    nothing = object()  # an accumulator of min or max with no element yet

    def f(a, b):
        if a is nothing or b is nothing:
            if a is nothing:
                return nothing if b is None and skipna else b
            return a
        if a is None or b is None:
            if skipna:
                return b if a is None else a  # an NA element is left out
            return None  # NA propagates
        return {"sum": lambda: a + b, "prod": lambda: a * b, "min": lambda: min(a, b),
                "max": lambda: max(a, b), "all": lambda: a and b,
                "any": lambda: a or b}[op]()

    def start(d):
        """The accumulators of the kept levels from d on: fixed ones repeated, var ones
        empty; None where a start value is missing (min, max)."""
        if d == nd:
            return nothing if IDENTITY[op] is None else IDENTITY[op]
        if d in axes:
            inner = start(d + 1)
            return [inner] if keepdims else inner
        return [] if kinds[d] == "v" else [start(d + 1) for _ in range(sizes[d])]

    def combine(a, b, d):
        """Folds the result b of the levels from d on into a (kept lists left-aligned: where
        a has no element yet, b's folds into a fresh start)."""
        while d < nd and d in axes and not keepdims:
            d += 1
        if d == nd:
            return f(a, b)
        if d in axes:  # keepdims: a list of one
            return [combine(a[0], b[0], d + 1)]
        return [combine(a[i] if i < len(a) else start(d + 1), b[i], d + 1)
                for i in range(len(b))] + a[len(b):]

    def red(v, d):
        if d == nd:
            return None if v is None else (bool(v) if op in ("all", "any") else v)
        if d not in axes:
            return [red(c, d + 1) for c in v]
        if len(v) == 0 and IDENTITY[op] is None and not na_start:
            raise EmptyRow()
        acc = start(d + 1)
        for c in v:
            acc = combine(acc, red(c, d + 1), d + 1)
        return [acc] if keepdims else acc

    def settle(v):
        """No element left (skipna): NA."""
        return [settle(c) for c in v] if isinstance(v, list) else (None if v is nothing else v)

    return settle(red(x, 0))


def random_ragged(rng, kinds, sizes, na, d=0):
    if d == len(kinds):
        return None if na and rng.random() < 0.2 else int(rng.integers(-3, 4))
    n = sizes[d] if kinds[d] == "f" else int(rng.integers(0, 4))
    return [random_ragged(rng, kinds, sizes, na, d + 1) for _ in range(n)]


def literal(data):
    """The ckernel literal of nested lists (None is NA)."""
    return json.dumps(data).replace("null", "NA")


def ragged(lib, ck):
    rng = np.random.default_rng(17)
    shapes = [("fv", (3, 0)), ("vv", (0, 0)), ("fvf", (2, 0, 2)), ("vf", (0, 3)),
              ("fvv", (3, 0, 0)), ("vfv", (0, 2, 0)), ("v", (0,))]
    cases = 0
    for kinds, sizes in shapes:
        for trial in range(4):
            na = trial >= 2
            data = random_ragged(rng, kinds, sizes, na)
            for elem in (("?int32", "?float64") if na else ("int32", "float64")):
                dims = " * ".join("var" if k == "v" else str(n) for k, n in zip(kinds, sizes))
                type_text = "%s * %s" % (dims, elem)
                t = C.c_void_p()
                assert lib.ck_type_parse(type_text.encode(), C.byref(t)) == CK_OK
                a = C.c_void_p()
                rc = lib.ck_array_parse(t, literal(data).encode(), C.byref(a))
                assert rc == CK_OK, (type_text, data, ck.error())
                for op in REDUCTIONS:
                    reducer = Reducer(lib, op)
                    for axes in axis_sets(len(kinds))[1:]:  # None is all of them
                        axes = tuple(x % len(kinds) for x in axes) if axes else axes
                        for keepdims, skipna in itertools.product((False, True), repeat=2):
                            if skipna and not na:
                                continue
                            ax = set(range(len(kinds))) if axes is None else set(axes)
                            try:
                                want = py_reduce(data, kinds, sizes, ax, op, keepdims, skipna)
                                refused = False
                            except EmptyRow:
                                refused = True
                            spec = reducer.spec(list(axes), (REDUCE_KEEPDIMS if keepdims else 0) |
                                                (REDUCE_SKIPNA if skipna else 0))
                            out = C.c_void_p()
                            rc = lib.ck_reduce_new(C.byref(spec), a, None, C.byref(out))
                            what = "%s %s of %s %s keepdims=%s skipna=%s" % (
                                op, axes, type_text, literal(data), keepdims, skipna)
                            if refused:
                                ck.check(rc == CK_ERR_INVALID and "no elements" in ck.error(),
                                         lambda: "%s: want a refusal, got %s %s" % (
                                             what, ck.status(rc), ck.error()))
                                continue
                            if not ck.check(rc == CK_OK, lambda: "%s: %s %s" % (
                                    what, ck.status(rc), ck.error())):
                                continue
                            text = nt.formatted(lib, lib.ck_array_format, out)
                            lib.ck_array_free(out)
                            got = json.loads(text.replace("NA", "null"))
                            ck.check(got == want, lambda: "%s: got %s, want %s" % (
                                what, text, json.dumps(want)))
                            cases += 1
                    reducer.free()
                lib.ck_array_free(a)
                lib.ck_type_decref(t)
    ck.count("ragged")
    print("ragged reductions against the nested-list reference: %d" % cases)


# ---------------------------------------------------------------------------------------
# Accumulations

# A complex cumprod's reference is the product formula in order (numpy_test.complex_cumprod):
# NumPy's own differs from it on an AVX-512 machine, where its strided multiply is fused.
ACCUMULATIONS = {"cumsum": np.cumsum,
                 "cumprod": lambda a, axis: (nt.complex_cumprod(a, axis) if a.dtype.kind == "c"
                                             else np.cumprod(a, axis=axis)),
                 "cummin": lambda a, axis: np.minimum.accumulate(a, axis=axis),
                 "cummax": lambda a, axis: np.maximum.accumulate(a, axis=axis)}


def accumulations(lib, ck):
    rng = np.random.default_rng(31)
    count = 0
    for op, fn in ACCUMULATIONS.items():
        c = C.c_void_p()
        assert lib.ck_accumulation_lookup(op.encode(), C.byref(c)) == CK_OK
        reducer = Reducer(lib, "add")  # its spec, with this callable
        reducer.free()
        reducer.c = c
        for t in SCALARS:
            for name, a in views(rng, t, "prod" if op == "cumprod" else "sum"):
                for axis in range(-a.ndim, a.ndim):
                    want = np.asarray(fn(a, axis=axis))
                    src = nt.Wrapped(lib, a)
                    spec = reducer.spec([axis], 0)
                    buf, dst, mask = nt.guarded(want.shape, want.dtype,
                                                nt.c_strides(want.shape, want.dtype.itemsize))
                    d = nt.Wrapped(lib, dst)
                    rc = lib.ck_accumulate(C.byref(spec), d.a, src.a, None)
                    what = lambda: "%s %s %s axis=%d: %s %s" % (op, name, a.dtype, axis,
                                                                ck.status(rc), ck.error())
                    if ck.check(rc == CK_OK, what):
                        got = dst.copy()
                        if want.dtype.kind in "fc":
                            isz = want.dtype.itemsize
                            same = (got.reshape(-1).view(np.uint8).reshape(-1, isz) ==
                                    want.reshape(-1).view(np.uint8).reshape(-1, isz)).all(
                                axis=1).reshape(want.shape)
                            nan = np.isnan(want) & np.isnan(got)
                            ok = bool(np.all(same | nan))
                        else:
                            ok = np.array_equal(got, want)
                        ck.check(ok, lambda: "%s %s %s axis=%d: got %r, NumPy %r" % (
                            op, name, a.dtype, axis, got, want))
                        count += 1
                    ck.check(np.all(buf[~mask] == nt.GUARD), "%s %s: a guard byte" % (op, name))
                    d.free()
                    src.free()
        lib.ck_callable_decref(c)
    print("accumulations against NumPy: %d" % count)


# ---------------------------------------------------------------------------------------
# dot: core dimensions

def dot_case(rng, ta, tb, style):
    r, n = int(rng.integers(1, 5)), int(rng.integers(0, 300))
    base = random_values(rng, ta, max(r * n, 1) * 2, "sum")
    if style == 0:
        x = base[:r * n].reshape(r, n)
    elif style == 1:
        x = base[:2 * r * n:2].reshape(r, n) if n else base[:0].reshape(r, n)
    else:
        x = base[:r * n].reshape(n, r).T  # rows strided across columns
    y = random_values(rng, tb, n, "sum")
    if style == 2:
        y = np.broadcast_to(y, (r, n)).copy()[:, ::-1][:, ::-1]
    return x, y


def dots(lib, ck):
    rng = np.random.default_rng(41)
    c = C.c_void_p()
    assert lib.ck_lookup(b"dot", C.byref(c)) == CK_OK
    types = [t for t in SCALARS if t != "float16"]  # float16 selects float32 (NumPy: float16)
    count = 0
    ck_err = np_err = 0.0
    for ta in types:
        for tb in types:
            for style in range(3 if ta == tb else 1):
                x, y = dot_case(rng, ta, tb, style)
                yy = np.broadcast_to(y, x.shape)
                want = np.array([np.dot(x[i], yy[i]) for i in range(x.shape[0])])
                want = want.astype(np.result_type(x.dtype, y.dtype)) if want.size else want
                # the result type is NumPy's
                ts = (C.c_void_p * 2)()
                wx, wy = nt.Wrapped(lib, x), nt.Wrapped(lib, y)
                ts[0], ts[1] = wx.t, wy.t
                out = C.c_void_p()
                rc = lib.ck_call_result_type(c, 2, ts, None, C.byref(out))
                got_t = nt.formatted(lib, lib.ck_type_format, out) if rc == CK_OK else None
                if rc == CK_OK:
                    lib.ck_type_decref(out)
                want_t = "%d * %s" % (x.shape[0], want.dtype.name)
                ck.check(got_t == want_t, lambda: "dot(%s, %s): type %s, NumPy %s" % (
                    ta, tb, got_t, want_t))
                buf, dst, mask = nt.guarded(want.shape, want.dtype, (want.dtype.itemsize,))
                wd = nt.Wrapped(lib, dst)
                srcs = (C.c_void_p * 2)(wx.a, wy.a)
                rc = lib.ck_call(c, wd.a, 2, srcs, None)
                what = lambda: "dot(%s, %s) style %d %r: %s %s" % (ta, tb, style, x.shape,
                                                                    ck.status(rc), ck.error())
                if ck.check(rc == CK_OK, what):
                    got = dst.copy()
                    if want.dtype.kind in "fc":
                        mag = np.abs(x.astype(want.dtype) * yy.astype(want.dtype)).sum(
                            axis=1).astype(np.float64)
                        eps = unit_roundoff(want.dtype)
                        bound = (x.shape[1] + 20) * eps * mag
                        nan = np.isnan(got) & np.isnan(want)
                        err = np.abs(got.astype(np.complex128) - want.astype(np.complex128))
                        ok = bool(np.all(nan | (err <= bound)))
                    else:
                        ok = np.array_equal(got, want)
                    ck.check(ok, lambda: "dot(%s, %s) style %d: got %r, NumPy %r" % (
                        ta, tb, style, got, want))
                    count += 1
                ck.check(np.all(buf[~mask] == nt.GUARD), "dot %s %s: a guard byte" % (ta, tb))
                for w in (wx, wy, wd):
                    w.free()
    # float64 rows against the exact dot of the rounded products (math.fsum)
    eps = 2.0 ** -53
    for trial in range(20):
        n = int(rng.integers(1000, 100000))
        x = rng.standard_normal(n) * (1e6 if trial % 2 else 1.0)
        y = rng.standard_normal(n)
        p = (x * y).tolist()
        exact = math.fsum(p)
        out = np.zeros((), np.float64)
        wx, wy, wd = nt.Wrapped(lib, x), nt.Wrapped(lib, y), nt.Wrapped(lib, out)
        srcs = (C.c_void_p * 2)(wx.a, wy.a)
        rc = lib.ck_call(c, wd.a, 2, srcs, None)
        if ck.check(rc == CK_OK, lambda: "dot of %d: %s" % (n, ck.error())):
            e = abs(float(out) - exact)
            bound = (8 + math.log2(n / 128 + 1) + 5) * eps * math.fsum(abs(v) for v in p)
            ck.check(e <= bound, lambda: "dot of %d: error %g above %g" % (n, e, bound))
            ck_err += e
            np_err += abs(float(np.dot(x, y)) - exact)
        for w in (wx, wy, wd):
            w.free()
    lib.ck_callable_decref(c)
    print("dot against NumPy: %d cases; float64 rows against math.fsum of the products: total "
          "error %.3g (NumPy's dot %.3g)" % (count, ck_err, np_err))


def main():
    if len(sys.argv) != 2:
        print("usage: numpy_reduce_test.py PATH_TO_LIBCKERNEL_SO")
        return 2
    t0 = time.monotonic()
    lib = load(sys.argv[1])
    ck = nt.Checker(lib)
    reductions(lib, ck)
    explicit_destinations(lib, ck)
    accuracy(lib, ck)
    elementwise(lib, ck)
    ragged(lib, ck)
    accumulations(lib, ck)
    dots(lib, ck)
    ck.check(ck.live() == 0, "%d ckernel blocks still live at the end" % ck.live())
    print("reductions run: %s" % ", ".join("%s %d" % kv for kv in sorted(ck.counts.items())))
    print("ckernel %s, numpy %s; %.1f s" % (lib.ck_version_string().decode(), np.__version__,
                                           time.monotonic() - t0))
    print("%d passed, %d failed" % (ck.passed, ck.failed))
    return 0 if ck.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
