"""tests/host/numpy_call_test.py: the built-in callables add, subtract, multiply and
trunc_divide (C's division; divide, NumPy's true division, and the other ufuncs are
tests/host/numpy_ufunc_test.py's),
called through ctypes on NumPy arrays in place (ck_array_wrap over each ndarray's own buffer,
zero copies); NumPy, or an oracle computed by hand from ckernel's documented semantics, is
the reference.

Reference semantics (src/leaves/numeric/arith.dispatch.c, docs/design.md §7 and §10):
  * one same-type signature per scalar type; bool has add (or), multiply (and) and
    trunc_divide (to int8); bool subtract is refused with CK_ERR_TYPE, as NumPy refuses it;
  * integers wrap modulo 2^n for add/subtract/multiply (NumPy wraps too, same dtype);
    trunc_divide truncates toward zero, INT_MIN / -1 == INT_MIN (oracle: Python ints, never
    np.floor_divide); a zero divisor is CK_ERR_ZERO_DIVISION with the elements before it
    written and the failing one and those after it not;
  * float16/32/64 and complex: IEEE in the type, complex divide by Smith's algorithm as
    NumPy's loops: compared bit for bit with NumPy (NaN: both NaN is enough);
  * mixed argument types: the signature is NumPy's first safe loop (CK_SELECT_FIRST_SAFE),
    which over these same-type signatures is what Numba's ranking of (unsafe, inexact,
    safe, promote) conversion counts, then the fewest bytes of widening, picks (the model
    here, so the two rules are checked against each other); a tie would be
    CK_ERR_AMBIGUOUS; unsafe conversions only with CK_EVAL_ALLOW_UNSAFE. The expectations
    (MIXED below) are rated by hand from the conversion table of docs/design.md §10; for
    every pair of the 14 scalars the result type is NumPy's (computed by NumPy here);
  * an explicit destination of another type gets a result cast in the context's error mode
    (default FRACTIONAL): docs/design.md §7, "a failing element is never written ... Elements
    before it may or may not have been written".

Checks:
  1. same-type calls for every signature (values with wraparound, negatives, zeros,
     extremes, inf/nan, float16 rounding cases, random bit patterns);
  2. layouts: contiguous, strided, reversed, broadcast (m,1)x(1,n), (n,) x (m,n), 0-d with
     an array both ways, 0-d with 0-d, transposed, a permuted 3-d destination with gaps and
     a negative stride, unaligned data, large contiguous; every destination lives inside a
     guarded buffer compared byte for byte with NumPy's result in the same layout; sources
     must be unchanged;
  3. mixed argument types against the hand-rated table: result type (ck_call_result_type,
     ck_call_new), ck_callable_select's rating, values; every pair of every operation
     (with unsafe conversions allowed and not) against NumPy's result type and values; the
     refusal of bool - bool (CK_ERR_TYPE, its message, nothing written); int64 and uint64
     arguments rounded to float64, or CK_ERR_INEXACT in the INEXACT mode;
  4. explicit destinations of another type, and the result cast's error modes;
  5. integer (and bool) division by zero.

usage: python3 numpy_call_test.py PATH_TO_LIBCKERNEL_SO   (last line: "N passed, M failed")
"""
import ctypes as C
import os
import sys
import time
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy_test as nt  # noqa: E402  (guarded buffers, Wrapped, load, Checker)

warnings.simplefilter("ignore")
np.seterr(all="ignore")

GUARD = nt.GUARD
SCALARS = nt.SCALARS

# include/ckernel/status.h
CK_OK, CK_ERR_TYPE, CK_ERR_OVERFLOW, CK_ERR_FRACTIONAL, CK_ERR_INEXACT = 0, 4, 6, 7, 8
CK_ERR_AMBIGUOUS, CK_ERR_ZERO_DIVISION = 13, 14
# include/ckernel/eval.h
CK_ERRMODE_NOCHECK, CK_ERRMODE_OVERFLOW, CK_ERRMODE_FRACTIONAL, CK_ERRMODE_INEXACT = 0, 1, 2, 3
CK_EVAL_ALLOW_UNSAFE = 0x8

OPS = ["add", "subtract", "multiply", "trunc_divide"]
NP_OPS = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply,
          "trunc_divide": np.true_divide}
# Every scalar type in ck_type_id order (include/ckernel/scalar_types.h): NumPy's and
# bfloat16, which NumPy lacks (it takes part in selection; NumPy's values never reach it).
ALL = SCALARS[:SCALARS.index("float16") + 1] + ["bfloat16"] + SCALARS[SCALARS.index("float32"):]
TYPE_ID = {name: i for i, name in enumerate(ALL)}
SIZE = {t: (2 if t == "bfloat16" else np.dtype(t).itemsize) for t in ALL}


def signature_result(op, t):
    """The result type of op's (t, t) signature, docs/design.md §10: t, but bool divide gives
    int8. Every operation has a signature for every type; bool subtract's refuses."""
    return "int8" if (op, t) == ("trunc_divide", "bool") else t


def computes(op, t):
    """All but bool subtract (refused, as NumPy refuses it)."""
    return (op, t) != ("subtract", "bool")


def int_division(op, t):
    """The divides that truncate and refuse a zero divisor: integers' and bool's."""
    return op == "trunc_divide" and np.dtype(t).kind in "biu"


def load(path):
    lib = nt.load(path)
    p, i, pp = C.c_void_p, C.c_int, C.POINTER(C.c_void_p)
    sigs = {
        "ck_lookup": (i, [C.c_char_p, pp]),
        "ck_callable_decref": (None, [p]),
        "ck_callable_signatures": (i, [p, pp]),
        "ck_callable_select": (i, [p, i, C.POINTER(C.c_int), p, C.POINTER(C.c_int), pp]),
        "ck_call": (i, [p, p, i, p, p]),
        "ck_call_new": (i, [p, i, p, p, pp]),
        "ck_call_result_type": (i, [p, i, p, p, pp]),
        "ck_array_type": (p, [p]),
        "ck_type_data_size": (C.c_size_t, [p]),
    }
    for name, (res, args) in sigs.items():
        fn = getattr(lib, name)
        fn.restype = res
        fn.argtypes = args
    return lib


def ctx(errmode=CK_ERRMODE_FRACTIONAL, flags=0):
    c = nt.eval_ctx()
    c.errmode = errmode
    c.flags = flags
    return c


def ptrs(*xs):
    return (C.c_void_p * len(xs))(*xs)


def take_string(lib, out):
    if not out.value:
        return None
    s = C.string_at(out.value).decode()
    lib.ck_free(out)
    return s


# ---------------------------------------------------------------------------------------
# Values.

def int_values(t):
    info = np.iinfo(t)
    n = info.bits
    cands = [0, 1, -1, 2, -2, 3, -3, 5, -7, 10, 100, -100, 127, -128, 255, 256,
             2 ** (n // 2), -2 ** (n // 2), 2 ** (n // 2) + 1,
             info.max, info.max - 1, info.max // 2, info.max // 2 + 1, info.min, info.min + 1,
             info.min // 2]
    out = []
    for c in cands:
        if info.min <= c <= info.max and c not in out:
            out.append(c)
    return out


F16_ROUNDING = [2048.0, 2049.0, 2050.0, 2052.0, 1.0 + 2.0 ** -10, 2.0 ** -11,
                2.0 ** -11 * (1 + 2.0 ** -10), 2.0 ** -24, 2.0 ** -14, 65504.0, 32768.0,
                0.1, 1.0 / 3, 3.0, 7.0, 1e-3]
FLOAT_SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, 1.0 / 3, 0.1, 1e-3, 1e4, -1e30, 1e30,
                 1e300, -1e-300, 5e-324, 2.0 ** -126, 2.0 ** -149, 3.4028234663852886e38,
                 1.7976931348623157e308, np.inf, -np.inf, np.nan]


def float_values(t):
    vals = np.array(F16_ROUNDING + FLOAT_SPECIAL, dtype=np.float64).astype(t)
    fi = np.finfo(t)
    extra = np.array([fi.max, -fi.max, fi.tiny, fi.smallest_subnormal, fi.eps,
                      -fi.smallest_subnormal], dtype=t)
    return dedupe(np.concatenate([vals, extra]))


COMPLEX_PARTS = [0.0, -0.0, 1.0, -1.0, 2.5, -0.5, 1e-3, 1e30, 1e-30, 3e38, 1e300, np.inf,
                 -np.inf, np.nan]


def complex_values(t):
    ft = nt.component_dtype(t)
    parts = dedupe(np.array(COMPLEX_PARTS, dtype=np.float64).astype(ft))
    re, im = np.meshgrid(parts, parts)
    out = np.empty(re.size, dtype=t)
    out.real, out.imag = re.reshape(-1), im.reshape(-1)
    return out


def dedupe(arr):
    seen, keep = set(), []
    for i in range(arr.size):
        k = arr[i:i + 1].tobytes()
        if k not in seen:
            seen.add(k)
            keep.append(i)
    return arr[keep]


def values(t):
    """An array of dtype t with the type's interesting values (and, for floats and complex,
    some ordinary ones whose results round)."""
    kind = np.dtype(t).kind
    if kind == "b":
        return np.array([False, True])
    if kind in "iu":
        return np.array(int_values(t), dtype=t)
    normal = np.random.default_rng(7).standard_normal(64) * 100
    if kind == "f":
        return np.concatenate([float_values(t), normal.astype(t)])
    return np.concatenate([complex_values(t), (normal[:32] + 1j * normal[32:]).astype(t)])


def random_values(t, n, rng):
    """Random bit patterns (any float or complex, NaN and inf included), with every third
    value a small integer (ints) or an ordinary value (floats)."""
    dt = np.dtype(t)
    if dt.kind == "b":
        return rng.integers(0, 2, n).astype(bool)
    raw = rng.integers(0, 256, n * dt.itemsize, dtype=np.uint8)
    out = raw.view(dt).copy()
    if dt.kind in "iu":
        out[::3] = rng.integers(-50 if dt.kind == "i" else 0, 50, out[::3].size)
    elif dt.kind == "f":
        out[::3] = rng.standard_normal(out[::3].size) * 100
    return out


def nonzero_divisors(b):
    b = b.copy()
    b[b == 0] = 1
    return b


def fill(shape, vals, rng):
    n = int(np.prod(shape, dtype=np.int64))
    return vals[rng.integers(0, vals.size, n)].reshape(shape)


# ---------------------------------------------------------------------------------------
# Oracles.

def trunc_div(x, y, t):
    """x / y truncated toward zero on Python ints, wrapped into t (INT_MIN / -1 wraps)."""
    q = abs(x) // abs(y)
    if (x < 0) != (y < 0):
        q = -q
    info = np.iinfo(t)
    q %= 1 << info.bits
    return q - (1 << info.bits) if q > info.max else q


def int_divide(a, b, t):
    a, b = np.broadcast_arrays(np.asarray(a), np.asarray(b))
    xs, ys = a.reshape(-1).tolist(), b.reshape(-1).tolist()
    assert 0 not in ys, "the oracle is not for zero divisors"
    return np.array([trunc_div(int(x), int(y), t) for x, y in zip(xs, ys)],
                    dtype=t).reshape(a.shape)


def expected(op, a, b, t):
    """What op(a, b) gives in the signature type t (a and b already of type t)."""
    kind = np.dtype(t).kind
    if int_division(op, t):
        return int_divide(a, b, signature_result(op, t))
    if op == "multiply" and kind == "c":
        return nt.complex_multiply(a, b, t)
    r = np.asarray(NP_OPS[op](a, b))
    assert r.dtype == np.dtype(t), (op, t, r.dtype)
    return r


def note_numpy_multiply(numpy_result, formula, t, where):
    """NumPy's complex multiply is not a reference for ckernel's (see
    numpy_test.complex_multiply): a difference from the formula is recorded for the summary,
    not failed."""
    if not same_bits(numpy_result, formula)[0]:
        NUMPY_FUSED.add("%s %s" % (t, where))


def numpy_contiguous(op, a, b):
    """NumPy's op on contiguous copies of the broadcast operands."""
    a, b = np.broadcast_arrays(np.asarray(a), np.asarray(b))
    return np.asarray(NP_OPS[op](np.ascontiguousarray(a), np.ascontiguousarray(b)))


def same_bits(got, want):
    """(ok, index of the first mismatch): bytes equal, except that a NaN matches a NaN
    (per component for complex)."""
    g = np.ascontiguousarray(got).reshape(-1)
    w = np.ascontiguousarray(want).reshape(-1)
    if g.dtype != w.dtype or g.shape != w.shape:
        return False, -1
    if g.tobytes() == w.tobytes():
        return True, -1
    dt = g.dtype
    if dt.kind not in "fc":
        bad = np.nonzero(g != w)[0]
        return False, int(bad[0]) if bad.size else -1
    ft = nt.component_dtype(dt.name)
    gc, wc = g.view(ft).reshape(g.size, -1), w.view(ft).reshape(w.size, -1)
    ut = {2: np.uint16, 4: np.uint32, 8: np.uint64}[np.dtype(ft).itemsize]
    differ = (gc.view(ut) != wc.view(ut)) & ~(np.isnan(gc) & np.isnan(wc))
    bad = np.nonzero(differ.any(axis=1))[0]
    return bad.size == 0, int(bad[0]) if bad.size else -1


# ---------------------------------------------------------------------------------------
# One call into a guarded destination.

class Ck:
    def __init__(self, lib):
        self.lib = lib
        self.chk = nt.Checker(lib)
        self.callables = {}
        for op in OPS:
            c = C.c_void_p()
            rc = lib.ck_lookup(op.encode(), C.byref(c))
            if rc != CK_OK:
                raise RuntimeError("ck_lookup(%s): %s" % (op, lib.ck_last_error()))
            self.callables[op] = c

    def check(self, cond, what):
        return self.chk.check(cond, what)

    def count(self, kind):
        self.chk.count(kind)

    def release(self):
        for c in self.callables.values():
            self.lib.ck_callable_decref(c)

    def select(self, op, ta, tb, ectx=None):
        """(status, why, message) of ck_callable_select for scalar types (ta, tb)."""
        ids = (C.c_int * 2)(TYPE_ID[ta], TYPE_ID[tb])
        index, why = C.c_int(-1), C.c_void_p()
        self.lib.ck_clear_error()
        rc = self.lib.ck_callable_select(self.callables[op], 2, ids,
                                         C.byref(ectx) if ectx is not None else None,
                                         C.byref(index), C.byref(why))
        msg = self.chk.error()
        return rc, take_string(self.lib, why), msg

    def call(self, op, dst, srcs, ectx=None):
        """ck_call(op, dst <- srcs) on wrapped ndarrays: (status, message)."""
        ws = []
        wd = None
        try:
            for s in srcs:
                ws.append(nt.Wrapped(self.lib, s))
            wd = nt.Wrapped(self.lib, dst)
            self.check(all(self.lib.ck_array_data(w.a) == s.ctypes.data
                           for w, s in zip(ws, srcs)) and
                       self.lib.ck_array_data(wd.a) == dst.ctypes.data,
                       "%s: a wrapped array is not over the ndarray's own buffer" % op)
            self.lib.ck_clear_error()
            rc = self.lib.ck_call(self.callables[op], wd.a, len(srcs),
                                  ptrs(*[w.a for w in ws]),
                                  C.byref(ectx) if ectx is not None else None)
            return rc, self.chk.error()
        finally:
            if wd is not None:
                wd.free()
            for w in ws:
                w.free()


def guarded_like(shape, dtype, strides_elems=None, misalign=0):
    """nt.guarded with strides in elements (C order when None)."""
    isz = np.dtype(dtype).itemsize
    if strides_elems is None:
        bstrides = nt.c_strides(shape, isz)
    else:
        bstrides = tuple(s * isz for s in strides_elems)
    return nt.guarded(shape, dtype, bstrides, misalign)


def run_call(ck, op, a, b, want, what, dst_strides=None, misalign=0, ectx=None,
             expect_status=CK_OK):
    """op(a, b) into a guarded destination with want's shape and dtype (and the given element
    strides), compared with want in the same layout; guards, gaps and sources checked."""
    got_buf, got, mask = guarded_like(want.shape, want.dtype, dst_strides, misalign)
    ref_buf, ref, _ = guarded_like(want.shape, want.dtype, dst_strides, misalign)
    ref[...] = want
    a0, b0 = np.array(a, copy=True), np.array(b, copy=True)
    ck.select(op, a.dtype.name, b.dtype.name, ectx)  # warm the selection cache
    live0 = ck.chk.live()
    rc, msg = ck.call(op, got, [a, b], ectx)
    ck.check(ck.chk.live() == live0, what + ": ckernel allocations left live")
    ck.check(np.array(a).tobytes() == a0.tobytes() and np.array(b).tobytes() == b0.tobytes(),
             what + ": a source changed")
    if not ck.check(rc == expect_status, "%s: %s '%s'" % (what, ck.chk.status(rc), msg)):
        return False
    if rc != CK_OK:
        return True
    ok, i = same_bits(got, ref)
    if not ck.check(ok, what + ": values differ from the reference"):
        ab, bb = np.broadcast_arrays(a, b)
        g, w = np.ascontiguousarray(got).reshape(-1), np.ascontiguousarray(ref).reshape(-1)
        aa, bf = np.ascontiguousarray(ab).reshape(-1), np.ascontiguousarray(bb).reshape(-1)
        print("    first at flat %d: %r %s %r -> ckernel %r (%s), reference %r (%s)"
              % (i, aa[i], op, bf[i], g[i], g[i:i + 1].tobytes().hex(), w[i],
                 w[i:i + 1].tobytes().hex()))
    ck.check(bool(np.all(got_buf[~mask] == GUARD)),
             what + ": a guard or gap byte outside the destination's elements changed")
    ck.check(bool(np.all(ref_buf[~mask] == GUARD)), what + ": the reference wrote a guard")
    return ok


# ---------------------------------------------------------------------------------------
# 1. Same-type values.

def same_type_values(ck, rng):
    for t in SCALARS:
        v = values(t)
        ia, ib = np.meshgrid(np.arange(v.size), np.arange(v.size))
        a = np.concatenate([v[ia.reshape(-1)], random_values(t, 4096, rng)])
        b = np.concatenate([v[ib.reshape(-1)], random_values(t, 4096, rng)])
        for op in OPS:
            if not computes(op, t):
                continue
            bb = nonzero_divisors(b) if int_division(op, t) else b
            want = expected(op, a, bb, t)
            if op == "multiply" and np.dtype(t).kind == "c":
                note_numpy_multiply(numpy_contiguous(op, a, bb), want, t, "values contiguous")
            run_call(ck, op, a, bb, want, "%s %s values" % (op, t))
            ck.count("same-type values")
    # Hand-written cases the tables above must contain, checked against literal results.
    hand = [
        ("add", "int8", 127, 1, -128), ("subtract", "int8", -128, 1, 127),
        ("multiply", "int16", 300, 300, 90000 - 65536 * 1), ("add", "uint8", 255, 1, 0),
        ("subtract", "uint32", 0, 1, 2 ** 32 - 1), ("multiply", "int64", 2 ** 62, 4, 0),
        ("trunc_divide", "int32", -7, 2, -3), ("trunc_divide", "int32", 7, -2, -3),
        ("trunc_divide", "int8", -128, -1, -128), ("trunc_divide", "int64", -2 ** 63, -1, -2 ** 63),
        ("trunc_divide", "int16", -32768, 2, -16384), ("trunc_divide", "uint8", 255, 2, 127),
        ("trunc_divide", "int64", -1, 2 ** 62, 0), ("add", "bool", True, True, True),
        ("multiply", "bool", True, False, False),
        ("add", "float16", 2048.0, 1.0, 2048.0), ("add", "float16", 2048.0, 3.0, 2052.0),
        ("add", "float16", 1.0, 2.0 ** -11, 1.0),
        ("add", "float16", 1.0, 2.0 ** -11 * (1 + 2.0 ** -10), 1.0 + 2.0 ** -10),
        ("multiply", "float16", 65504.0, 2.0, np.inf), ("trunc_divide", "float16", 1.0, 3.0,
                                                         float(np.float16(1.0 / 3))),
        ("trunc_divide", "float64", 1.0, 0.0, np.inf), ("trunc_divide", "float32", -1.0, 0.0, -np.inf),
        ("trunc_divide", "complex128", 1 + 1j, 0j, complex(np.inf, np.inf)),
        ("multiply", "complex64", 1 + 2j, 3 - 1j, 5 + 5j),
    ]
    for op, t, x, y, r in hand:
        a, b = np.array([x], dtype=t), np.array([y], dtype=t)
        want = np.array([r], dtype=t)
        run_call(ck, op, a, b, want, "%s %s %r, %r (hand-written %r)" % (op, t, x, y, r))
        ck.check(same_bits(expected(op, a, b, t), want)[0],
                 "%s %s %r, %r: the oracle disagrees with the hand-written %r" % (op, t, x, y, r))
        ck.count("hand-written")
    # bool bytes other than 0 and 1 are true; results are 0 or 1 (arith.dispatch.c).
    raw_a = np.array([0, 1, 2, 255, 0, 2, 128, 0], dtype=np.uint8)
    raw_b = np.array([0, 0, 0, 0, 7, 2, 1, 1], dtype=np.uint8)
    for op, fn in (("add", np.logical_or), ("multiply", np.logical_and)):
        want = fn(raw_a != 0, raw_b != 0)
        run_call(ck, op, raw_a.view(np.bool_), raw_b.view(np.bool_), want,
                 "%s bool with non-0/1 bytes" % op)
        ck.count("hand-written")
    # divide: true / true is 1, false / true 0, as int8 (divisors all true here).
    raw_t = np.array([1, 3, 255, 2, 7, 2, 1, 128], dtype=np.uint8)
    run_call(ck, "trunc_divide", raw_a.view(np.bool_), raw_t.view(np.bool_),
             (raw_a != 0).astype(np.int8), "divide bool with non-0/1 bytes")
    ck.count("hand-written")


# ---------------------------------------------------------------------------------------
# 2. Layouts.

def layouts():
    """(name, make(vals_a, vals_b, rng) -> (a, b, destination shape, element strides or None,
    destination misalignment))."""
    n, m, k = 37, 5, 7

    def contiguous(va, vb, r):
        return fill((n,), va, r), fill((n,), vb, r), (n,), None, 0

    def large(va, vb, r):
        return fill((5003,), va, r), fill((5003,), vb, r), (5003,), None, 0

    def strided(va, vb, r):
        return fill((2 * n,), va, r)[::2], fill((3 * n,), vb, r)[::3], (n,), (2,), 0

    def reversed_(va, vb, r):
        return fill((n,), va, r)[::-1], fill((n,), vb, r)[::-1], (n,), (-1,), 0

    def bcast_row_col(va, vb, r):
        return fill((m, 1), va, r), fill((1, k), vb, r), (m, k), None, 0

    def bcast_1d(va, vb, r):
        return fill((m, k), va, r), fill((k,), vb, r), (m, k), None, 0

    def scalar_first(va, vb, r):
        return fill((), va, r), fill((n,), vb, r), (n,), None, 0

    def scalar_second(va, vb, r):
        return fill((n,), va, r), fill((), vb, r), (n,), None, 0

    def scalar_both(va, vb, r):
        return fill((), va, r), fill((), vb, r), (), None, 0

    def transposed(va, vb, r):
        # a Fortran-order source, a C-order source, a Fortran-order destination
        return fill((k, m), va, r).T, fill((m, k), vb, r), (m, k), (1, m), 0

    def gaps_3d(va, vb, r):
        a = fill((4, 3, 5), va, r).transpose(2, 0, 1)[:, ::-1, :]  # (5, 4, 3)
        return a, fill((4, 3), vb, r), (5, 4, 3), (-17, 4, 1), 0

    def unaligned(va, vb, r):
        def odd(vals, off):
            es = vals.dtype.itemsize
            buf = np.zeros(off + n * (es + 1), dtype=np.uint8)
            x = np.ndarray((n,), dtype=vals.dtype, buffer=buf, offset=off, strides=(es + 1,))
            x[...] = fill((n,), vals, r)
            return x
        return odd(va, 3), odd(vb, 1), (n,), None, 1

    return [("contiguous", contiguous), ("strided", strided), ("reversed", reversed_),
            ("broadcast-(m,1)x(1,n)", bcast_row_col), ("broadcast-(m,n)x(n,)", bcast_1d),
            ("0-d-first", scalar_first), ("0-d-second", scalar_second),
            ("0-d-both", scalar_both), ("transposed", transposed),
            ("3-d-gaps-negative", gaps_3d), ("unaligned", unaligned),
            ("large-contiguous", large)]


def layout_cases(ck, rng):
    lays = layouts()
    for t in SCALARS:
        v = values(t)
        for op in OPS:
            if not computes(op, t):
                continue
            vb = nonzero_divisors(v) if int_division(op, t) else v
            for name, make in lays:
                a, b, shape, strides, mis = make(v, vb, rng)
                want = expected(op, a, b, t)
                assert want.shape == shape
                if not int_division(op, t):
                    # NumPy writes into a destination of the same layout (its own result
                    # on these very operands).
                    ref_buf, ref, _ = guarded_like(shape, t, strides, mis)
                    NP_OPS[op](a, b, out=ref)
                    agree = same_bits(ref, want)[0]
                    if op == "multiply" and np.dtype(t).kind == "c":
                        note_numpy_multiply(ref, want, t, name)
                        note_numpy_multiply(numpy_contiguous(op, a, b), want, t,
                                            name + " on contiguous copies")
                    else:
                        ck.check(agree, "%s %s %s: NumPy with out= disagrees with the oracle"
                                 % (op, t, name))
                run_call(ck, op, a, b, want, "%s %s %s" % (op, t, name), strides, mis)
                ck.count("layouts")


# ---------------------------------------------------------------------------------------
# 3. Mixed argument types.
#
# Conversion kinds, docs/design.md §10 (E exact, P promote, S safe, I inexact, U unsafe); the
# rating of a signature (T, T) for arguments (A, B) is (#U, #I, #S, #P) over A->T and B->T,
# then the bytes of widening of the P, S and I conversions, lowest first. Each row: A, B,
# the winning signature type, its rating (unsafe, inexact, safe, promote, bytes wider), and
# the runner-up that shows why (hand-derived; ckernel's output is never used to fill this
# table). The comments of the lossless rows write (S, P, bytes) and omit the inexact count,
# 0 for those winners.
MIXED = [
    # int8->int16 P(+1), uint8->int16 S(+1): (0,1,1,2). int32 has (0,1,1,6); float16
    # (0,2,0); int8/uint8 need an unsafe conversion.
    ("int8", "uint8", "int16", (0, 0, 1, 1, 2)),
    # int32->float32 is U. float64: int32 S(+4), float32 P(+4) = (0,1,1,8); complex128 (0,2,0)
    ("int32", "float32", "float64", (0, 0, 1, 1, 8)),
    # float16: int8 S(+1), float16 E = (0,1,0,1); float32 (0,1,1); complex64 (0,2,0)
    ("float16", "int8", "float16", (0, 0, 1, 0, 1)),
    # int16->float16 U. float32: int16 S(+2), float16 P(+2) = (0,1,1,4); float64 (0,1,1,12)
    ("int16", "float16", "float32", (0, 0, 1, 1, 4)),
    # int64: int32 P(+4), int64 E = (0,0,1,4); nothing else is safe for int64
    ("int32", "int64", "int64", (0, 0, 0, 1, 4)),
    # int32: uint8 S(+3), int32 E = (0,1,0,3); int64 (0,1,1); float64 (0,2,0)
    ("uint8", "int32", "int32", (0, 0, 1, 0, 3)),
    # complex64: float32 S(+4), complex64 E = (0,1,0,4); complex128 (0,1,1)
    ("float32", "complex64", "complex64", (0, 0, 1, 0, 4)),
    # int8: bool S(+0), int8 E = (0,1,0,0); int16 (0,1,1); bool (1,...)
    ("bool", "int8", "int8", (0, 0, 1, 0, 0)),
    # uint8: bool S(+0) = (0,1,0,0)
    ("bool", "uint8", "uint8", (0, 0, 1, 0, 0)),
    # float16: bool S(+1) = (0,1,0,1); bool itself has no float16 conversion back (U)
    ("bool", "float16", "float16", (0, 0, 1, 0, 1)),
    # uint64: bool S(+7) = (0,1,0,7)
    ("bool", "uint64", "uint64", (0, 0, 1, 0, 7)),
    # int32: int8 P(+3), uint16 S(+2) = (0,1,1,5); float32 (0,2,0); int64 (0,1,1,13)
    ("int8", "uint16", "int32", (0, 0, 1, 1, 5)),
    # int16: int16 E, uint8 S(+1) = (0,1,0,1)
    ("int16", "uint8", "int16", (0, 0, 1, 0, 1)),
    # int64: int16 P(+6), uint32 S(+4) = (0,1,1,10); float64 (0,2,0)
    ("int16", "uint32", "int64", (0, 0, 1, 1, 10)),
    # int64: int32 P(+4), uint32 S(+4) = (0,1,1,8)
    ("int32", "uint32", "int64", (0, 0, 1, 1, 8)),
    # uint64: uint8 P(+7), uint64 E = (0,0,1,7)
    ("uint8", "uint64", "uint64", (0, 0, 0, 1, 7)),
    # uint32: uint16 P(+2) = (0,0,1,2)
    ("uint16", "uint32", "uint32", (0, 0, 0, 1, 2)),
    # uint16->float16 U. float32: uint16 S(+2), float16 P(+2) = (0,1,1,4)
    ("uint16", "float16", "float32", (0, 0, 1, 1, 4)),
    # float16: uint8 S(+1) = (0,1,0,1)
    ("uint8", "float16", "float16", (0, 0, 1, 0, 1)),
    # int32->float16/32 U. float64: int32 S(+4), float16 P(+6) = (0,1,1,10); complex128
    # (0,2,0)
    ("float16", "int32", "float64", (0, 0, 1, 1, 10)),
    # uint32->float32 U. float64: uint32 S(+4), float32 P(+4) = (0,1,1,8)
    ("uint32", "float32", "float64", (0, 0, 1, 1, 8)),
    # float32: int8 S(+3) = (0,1,0,3)
    ("int8", "float32", "float32", (0, 0, 1, 0, 3)),
    # float64: float16 P(+6) = (0,0,1,6)
    ("float16", "float64", "float64", (0, 0, 0, 1, 6)),
    # complex64: float16 S(+6) = (0,1,0,6)
    ("float16", "complex64", "complex64", (0, 0, 1, 0, 6)),
    # float64->complex64 U. complex128: float64 S(+8), complex64 P(+8) = (0,1,1,16)
    ("float64", "complex64", "complex128", (0, 0, 1, 1, 16)),
    # int32->complex64 U. complex128: int32 S(+12), complex64 P(+8) = (0,1,1,20)
    ("int32", "complex64", "complex128", (0, 0, 1, 1, 20)),
    # complex64: int16 S(+6) = (0,1,0,6)
    ("int16", "complex64", "complex64", (0, 0, 1, 0, 6)),
    # complex128: uint32 S(+12) = (0,1,0,12)
    ("uint32", "complex128", "complex128", (0, 0, 1, 0, 12)),
    # complex128: float32 S(+12) = (0,1,0,12)
    ("float32", "complex128", "complex128", (0, 0, 1, 0, 12)),
    # Inexact rows (U, I, S, P, bytes). int64->float64 I(+0), float64 E = (0,1,0,0,0);
    # complex128: I(+8), S(+8) = (0,1,1,0,16); int64 and the narrower floats: U.
    ("int64", "float64", "float64", (0, 1, 0, 0, 0)),
    # float64: both I(+0) = (0,2,0,0,0); complex128 (0,2,0,0,16) is wider; the integers U.
    ("int64", "uint64", "float64", (0, 2, 0, 0, 0)),
    # float64: uint64 I(+0), int8 S(+7) = (0,1,1,0,7); complex128 (0,1,1,0,23)
    ("uint64", "int8", "float64", (0, 1, 1, 0, 7)),
    # float64: int64 I(+0), float16 P(+6) = (0,1,0,1,6); complex128 (0,1,1,0,22);
    # int64->float16/float32 U
    ("int64", "float16", "float64", (0, 1, 0, 1, 6)),
    # complex128: uint64 I(+8), complex64 P(+8) = (0,1,0,1,16); uint64->complex64 U
    ("uint64", "complex64", "complex128", (0, 1, 0, 1, 16)),
]

# The conversion table of docs/design.md §10, copied by hand (row: from, column: to).
CONVERSIONS_DOC = """
           ?  b  h  i  q  B  H  I  Q  e  E  f  d  Zf Zd
bool       E  S  S  S  S  S  S  S  S  S  S  S  S  S  S
int8       U  E  P  P  P  U  U  U  U  S  S  S  S  S  S
int16      U  U  E  P  P  U  U  U  U  U  U  S  S  S  S
int32      U  U  U  E  P  U  U  U  U  U  U  U  S  U  S
int64      U  U  U  U  E  U  U  U  U  U  U  U  I  U  I
uint8      U  U  S  S  S  E  P  P  P  S  S  S  S  S  S
uint16     U  U  U  S  S  U  E  P  P  U  U  S  S  S  S
uint32     U  U  U  U  S  U  U  E  P  U  U  U  S  U  S
uint64     U  U  U  U  U  U  U  U  E  U  U  U  I  U  I
float16    U  U  U  U  U  U  U  U  U  E  U  P  P  S  S
bfloat16   U  U  U  U  U  U  U  U  U  U  E  P  P  S  S
float32    U  U  U  U  U  U  U  U  U  U  U  E  P  S  S
float64    U  U  U  U  U  U  U  U  U  U  U  U  E  U  S
complex64  U  U  U  U  U  U  U  U  U  U  U  U  U  E  P
complex128 U  U  U  U  U  U  U  U  U  U  U  U  U  U  E
"""
CONV = {}
for _row in CONVERSIONS_DOC.strip().splitlines()[1:]:
    _cells = _row.split()
    for _to, _kind in zip(ALL, _cells[1:]):
        CONV[(_cells[0], _to)] = _kind


def doc_rating(args, t):
    """(unsafe, inexact, safe, promote, bytes wider) of signature (t, t) for the argument
    types, by the documented rule: widening counts the P, S and I conversions."""
    r = [0, 0, 0, 0, 0]
    for a in args:
        kind = CONV[(a, t)]
        if kind == "U":
            r[0] += 1
        elif kind in "ISP":
            r["ISP".index(kind) + 1] += 1
            r[4] += SIZE[t] - SIZE[a]
    return tuple(r)


def doc_select(op, args, allow_unsafe):
    """(status, winning argument types, best rating): CK_OK with one type, CK_ERR_AMBIGUOUS
    with the tied ones (sorted by signature text), CK_ERR_TYPE with none."""
    rated = [(doc_rating(args, t), t) for t in ALL]
    rated = [(r, t) for r, t in rated if allow_unsafe or r[0] == 0]
    if not rated:
        return CK_ERR_TYPE, [], None
    best = min(r for r, _ in rated)
    tied = sorted((t for r, t in rated if r == best), key=lambda t: sig_text(op, t))
    return (CK_OK if len(tied) == 1 else CK_ERR_AMBIGUOUS), tied, best


def selection_table(ck, rng):
    """Every pair of scalar types for every operation, with unsafe conversions allowed and
    not: ck_callable_select against the rule computed from the documented table, which must
    pick one signature for every pair (also checks the hand-rated rows of MIXED against it)."""
    for ta, tb, tr, rating in MIXED:
        for op in OPS:
            st, tied, best = doc_select(op, (ta, tb), False)
            ck.check((st, tied, best) == (CK_OK, [tr], rating),
                     "hand table row %s+%s: the documented rule gives %r" % (ta, tb,
                                                                           (st, tied, best)))
    unsafe = ctx(flags=CK_EVAL_ALLOW_UNSAFE)
    for op in OPS:
        for ta in ALL:
            for tb in ALL:
                for ectx in (None, unsafe):
                    st, tied, best = doc_select(op, (ta, tb), ectx is not None)
                    what = "select %s(%s, %s)%s" % (op, ta, tb, " unsafe" if ectx else "")
                    if not ck.check(st == CK_OK, "%s: the documented rule gives %s %r"
                                    % (what, ck.chk.status(st), tied)):
                        continue
                    rc, why, msg = ck.select(op, ta, tb, ectx)
                    want = "%s: %s" % (sig_text(op, tied[0]), rating_text(best))
                    ck.check(rc == CK_OK and why == want, "%s: %s %r %s (expected %r)"
                             % (what, ck.chk.status(rc), why, msg, want))
                    ck.count("selection table")


NUMPY_FUSED = set()


def rating_text(r):
    if r[0] + r[1] + r[2] + r[3] == 0:
        return "exact"
    return "%d unsafe, %d inexact, %d safe, %d promote, %d bytes wider" % r


def sig_text(op, t):
    return "(%s, %s) -> %s" % (t, t, signature_result(op, t))


def mixed_values(t, n, rng):
    """n values of type t for a mixed call: the interesting ones (a random subset when there
    are more than n) topped up with random ones, shuffled."""
    v = values(t)
    if v.size >= n:
        return v[rng.permutation(v.size)[:n]]
    dt = np.dtype(t)
    r = random_values(t, n - v.size, rng) if dt.kind in "biu" else \
        (rng.standard_normal(n - v.size) * 1000).astype(t)
    out = np.concatenate([v, r])
    return out[rng.permutation(n)]


def mixed_cases(ck, rng):
    n = 300  # more than call_args' 256-element chunks
    unsafe = ctx(flags=CK_EVAL_ALLOW_UNSAFE)
    for ta, tb, tr, rating in MIXED:
        # NumPy's own promotion agrees with the documented rule for every row of MIXED.
        xa, xb = np.zeros(1, dtype=ta), np.zeros(1, dtype=tb)
        ck.check(np.add(xa, xb).dtype == np.dtype(tr),
                 "NumPy gives %s + %s -> %s, the table %s" % (ta, tb, np.add(xa, xb).dtype, tr))
        for x, y in ((ta, tb), (tb, ta)):
            for op in OPS:
                ctx_ok = True
                for ectx in (None, unsafe):  # a safe winner stays the winner with unsafe on
                    rc, why, msg = ck.select(op, x, y, ectx)
                    want = "%s: %s" % (sig_text(op, tr), rating_text(rating))
                    ctx_ok &= ck.check(rc == CK_OK and why == want,
                                       "select %s(%s, %s)%s: %s %r %s (expected %s)"
                                       % (op, x, y, " unsafe" if ectx else "",
                                          ck.chk.status(rc), why, msg, want))
                a = mixed_values(x, n, rng)
                b = mixed_values(y, n, rng)
                if int_division(op, tr):
                    b = nonzero_divisors(b)
                at, bt = a.astype(tr), b.astype(tr)  # safe or promote: exact
                ck.check(rating[1] > 0 or (np.array_equal(at.astype(x), a, equal_nan=True) and
                                           np.array_equal(bt.astype(y), b, equal_nan=True)),
                         "%s/%s -> %s is not exact" % (x, y, tr))
                want = expected(op, at, bt, tr)
                if op != "trunc_divide":
                    # NumPy on the original arrays: same dtype, same values.
                    npr = NP_OPS[op](a, b)
                    ck.check(npr.dtype == np.dtype(tr) and same_bits(npr, want)[0],
                             "%s(%s, %s): NumPy gives %s, oracle differs" % (op, x, y, npr.dtype))
                what = "%s(%s, %s) -> %s" % (op, x, y, tr)
                run_call(ck, op, a, b, want, what)
                result_type_and_new(ck, op, a, b, want, what)
                ck.count("mixed")


# ---------------------------------------------------------------------------------------
# 3b. Every pair against NumPy: the result type NumPy gives (computed here, from NumPy) and
# the values, for the 14 x 14 pairs of every operation, with unsafe conversions allowed and
# not. divide: a pair of integers or bools divides as integers (truncating), so its type is
# that of NumPy's integer division, floor_divide (int8 for two bools, float64 for uint64 with
# a signed integer, which ckernel divides as floats: NumPy's true_divide is the reference
# for its values); any other pair's is true_divide's. NumPy refuses bool - bool: so does
# ckernel, with CK_ERR_TYPE.

BOOL_SUBTRACT = ("subtract: bool - bool is not defined (NumPy refuses it too); cast an "
                 "argument to an integer type to subtract")


def numpy_type(op, ta, tb):
    """NumPy's result dtype name for op on arrays of ta and tb, or None when NumPy refuses."""
    x, y = np.ones(1, ta), np.ones(1, tb)
    fn = NP_OPS[op]
    if op == "trunc_divide" and x.dtype.kind in "biu" and y.dtype.kind in "biu":
        fn = np.floor_divide
    try:
        return fn(x, y).dtype.name
    except TypeError:
        return None


def numpy_pairs(ck, rng):
    unsafe = ctx(flags=CK_EVAL_ALLOW_UNSAFE)
    n = 40
    for op in OPS:
        for ta in SCALARS:
            for tb in SCALARS:
                tr = numpy_type(op, ta, tb)
                if op != "trunc_divide" and tr is not None:
                    ck.check(np.result_type(ta, tb).name == tr, "np.%s(%s, %s) is %s, "
                             "np.result_type %s" % (op, ta, tb, tr, np.result_type(ta, tb)))
                a = mixed_values(ta, n, rng)
                b = mixed_values(tb, n, rng)
                if tr is None:
                    for ectx in (None, unsafe):
                        refused_call(ck, op, a, b, ectx, CK_ERR_TYPE, BOOL_SUBTRACT)
                    ck.count("NumPy pairs")
                    continue
                int_div = op == "trunc_divide" and np.dtype(tr).kind in "iu"
                if int_div:
                    b = nonzero_divisors(b)
                # Each argument converted to NumPy's type by NumPy, then the operation there.
                want = expected(op, a.astype(tr), b.astype(tr), tr)
                if not int_div and not (op == "multiply" and np.dtype(tr).kind == "c"):
                    npr = np.asarray(NP_OPS[op](a, b))
                    ck.check(npr.dtype == np.dtype(tr) and same_bits(npr, want)[0],
                             "%s(%s, %s): NumPy's own result differs from the oracle"
                             % (op, ta, tb))
                for ectx in (None, unsafe):
                    what = "%s(%s, %s) -> %s%s" % (op, ta, tb, tr,
                                                   " with unsafe allowed" if ectx else "")
                    run_call(ck, op, a, b, want, what, ectx=ectx)
                    result_type_and_new(ck, op, a, b, want, what, ectx)
                ck.count("NumPy pairs")
    # int64 and uint64 reach float64 inexactly: rounded as NumPy rounds them, unless the
    # error mode is INEXACT.
    big = np.array([2 ** 53 + 1, -2 ** 53 - 3, 2 ** 63 - 1, 5], dtype=np.int64)
    ubig = np.array([2 ** 53 + 1, 2 ** 64 - 1, 2 ** 63 + 2 ** 11, 5], dtype=np.uint64)
    zero = np.zeros(4, dtype=np.float64)
    for x in (big, ubig):
        what = "add(%s, float64) rounding" % x.dtype
        run_call(ck, "add", x, zero, np.add(x, zero), what)
        run_call(ck, "add", x, zero, np.add(x, zero), what + " in NOCHECK",
                 ectx=ctx(CK_ERRMODE_NOCHECK))
        run_call(ck, "add", x, zero, np.add(x, zero), what + " in INEXACT",
                 ectx=ctx(CK_ERRMODE_INEXACT), expect_status=CK_ERR_INEXACT)
        ck.count("inexact arguments")


def refused_call(ck, op, a, b, ectx, status, message):
    """ck_call, ck_call_result_type and ck_call_new refuse op(a, b) with status and message,
    writing nothing."""
    what = "%s(%s, %s)%s" % (op, a.dtype, b.dtype, " with unsafe allowed" if ectx else "")
    got_buf, got, _ = guarded_like(a.shape, "float64")
    a0, b0 = a.copy(), b.copy()
    rc, msg = ck.call(op, got, [a, b], ectx)
    ck.check(rc == status and msg == message, "ck_call %s: %s '%s'" % (
        what, ck.chk.status(rc), msg))
    ck.check(bool(np.all(got_buf == GUARD)), what + ": a refused call wrote something")
    ck.check(a.tobytes() == a0.tobytes() and b.tobytes() == b0.tobytes(),
             what + ": a source changed")
    lib = ck.lib
    wa, wb = nt.Wrapped(lib, a), nt.Wrapped(lib, b)
    e = C.byref(ectx) if ectx is not None else None
    rt, out = C.c_void_p(), C.c_void_p()
    try:
        lib.ck_clear_error()
        rc = lib.ck_call_result_type(ck.callables[op], 2, ptrs(wa.t, wb.t), e, C.byref(rt))
        ck.check(rc == status and not rt.value and ck.chk.error() == message,
                 "ck_call_result_type %s: %s" % (what, ck.chk.status(rc)))
        lib.ck_clear_error()
        rc = lib.ck_call_new(ck.callables[op], 2, ptrs(wa.a, wb.a), e, C.byref(out))
        ck.check(rc == status and not out.value and ck.chk.error() == message,
                 "ck_call_new %s: %s" % (what, ck.chk.status(rc)))
    finally:
        wb.free()
        wa.free()


def result_type_and_new(ck, op, a, b, want, what, ectx=None):
    lib = ck.lib
    wa, wb = nt.Wrapped(lib, a), nt.Wrapped(lib, b)
    e = C.byref(ectx) if ectx is not None else None
    try:
        rt = C.c_void_p()
        rc = lib.ck_call_result_type(ck.callables[op], 2, ptrs(wa.t, wb.t), e, C.byref(rt))
        want_ds = nt.datashape(want)
        if ck.check(rc == CK_OK, "%s: ck_call_result_type %s %s" % (what, ck.chk.status(rc),
                                                                   ck.chk.error())):
            got_ds = nt.formatted(lib, lib.ck_type_format, rt)
            ck.check(got_ds == want_ds, "%s: result type %s, expected %s" % (what, got_ds,
                                                                             want_ds))
            lib.ck_type_decref(rt)
        out = C.c_void_p()
        rc = lib.ck_call_new(ck.callables[op], 2, ptrs(wa.a, wb.a), e, C.byref(out))
        if ck.check(rc == CK_OK and out.value, "%s: ck_call_new %s %s"
                    % (what, ck.chk.status(rc), ck.chk.error())):
            t = lib.ck_array_type(out)
            ds = nt.formatted(lib, lib.ck_type_format, t)
            ck.check(ds == want_ds, "%s: ck_call_new made %s, expected %s" % (what, ds, want_ds))
            nbytes = lib.ck_type_data_size(t)
            if ck.check(nbytes == want.nbytes, "%s: ck_call_new holds %d bytes" % (what, nbytes)):
                got = np.frombuffer(C.string_at(lib.ck_array_data(out), nbytes),
                                    dtype=want.dtype).reshape(want.shape)
                ck.check(same_bits(got, want)[0], what + ": ck_call_new's values differ")
            lib.ck_array_free(out)
    finally:
        wb.free()
        wa.free()


# ---------------------------------------------------------------------------------------
# 4. Explicit destinations of another type, and the result cast's error modes.

def result_casts(ck, rng):
    i32 = np.iinfo(np.int32)
    a = np.array([i32.max, i32.min, 5, -7, 0, 2 ** 30, -2 ** 30, 123456789] * 40,
                 dtype=np.int32)
    b = np.array([1, -1, 3, -9, 0, 2 ** 30, -2 ** 30 - 1, 987654321] * 40, dtype=np.int32)
    b = b[rng.permutation(b.size)]
    for op in OPS:
        bb = nonzero_divisors(b) if op == "trunc_divide" else b
        inner = expected(op, a, bb, "int32")  # the int32 signature wraps first
        for dst in ("float64", "int64", "complex128", "float32", "float16", "int32"):
            want = inner.astype(dst)  # exact, or rounded to nearest even
            if op != "trunc_divide":
                # NumPy picks the int32 loop from the inputs and casts into out= too.
                ref = np.zeros(a.shape, dtype=dst)
                NP_OPS[op](a, bb, out=ref, casting="unsafe")
                ck.check(same_bits(ref, want)[0], "%s int32 into %s: NumPy with out= differs"
                         % (op, dst))
            if dst == "float16":  # |x| >= 65520 overflows float16: CK_ERR_OVERFLOW
                fits = np.abs(inner.astype(np.int64)) < 65520
                run_call(ck, op, a[fits], bb[fits], want[fits],
                         "%s(int32, int32) into float16 (in range)" % op)
                ck.check(not fits.all(), "no int32 %s result overflows float16" % op)
                bad = int(np.nonzero(~fits)[0][0]) if not fits.all() else 0
                result_cast_refusal(ck, op, a, bb, want, bad, "float16", None, CK_ERR_OVERFLOW)
            else:
                run_call(ck, op, a, bb, want, "%s(int32, int32) into %s" % (op, dst))
            ck.count("result casts")
    # float64 results into int32.
    x = np.array([1.0, 2.0, -3.0, 4.0, 1e9, -2.0] * 100)
    y = np.array([2.0, 0.0, -1.0, 3.0, 1.0, 6.0] * 100)
    integral = expected("add", x, y, "float64")
    run_call(ck, "add", x, y, integral.astype(np.int32), "add(float64, float64) into int32")
    for k in (0, 5, 300, 599):  # first, first chunk, a later chunk, last element
        yy = y.copy()
        yy[k] = x[k] * -1 + 2.5  # x + y == 2.5 exactly
        want = expected("add", x, yy, "float64")
        assert want[k] == 2.5
        result_cast_refusal(ck, "add", x, yy, want.astype(np.int32), k, "int32", None,
                            CK_ERR_FRACTIONAL, "float64 value 2.5 has a fractional part")
        # Without the fractional check: truncation toward zero, like NumPy's cast.
        for mode in (CK_ERRMODE_OVERFLOW, CK_ERRMODE_NOCHECK):
            ref = np.zeros(x.shape, dtype=np.int32)
            np.add(x, yy, out=ref, casting="unsafe")
            ck.check(ref[k] == 2, "NumPy's cast of 2.5 to int32 is %r" % ref[k])
            run_call(ck, "add", x, yy, ref, "add(float64, float64) 2.5 into int32, mode %d"
                     % mode, ectx=ctx(mode))
        ck.count("result casts")
    # 3e9 overflows int32 in the overflow and fractional modes.
    yy = y.copy()
    yy[300] = 3e9 - x[300]
    want = expected("add", x, yy, "float64")
    for mode in (CK_ERRMODE_OVERFLOW, CK_ERRMODE_FRACTIONAL):
        result_cast_refusal(ck, "add", x, yy, want.astype(np.int64).astype(np.int32), 300,
                            "int32", ctx(mode), CK_ERR_OVERFLOW, "is out of range for int32")


OBSERVED = {}


def result_cast_refusal(ck, op, a, b, want, k, dst, ectx, status, text=None):
    """A call whose result cast refuses element k: the status, a message, element k not
    written (docs/design.md §7), guards and sources untouched. Elements before k may or may
    not be written (the doc allows both); written ones must be right. What happened to the
    elements before and after k is recorded for the summary."""
    what = "%s(%s, %s) into %s refusing element %d" % (op, a.dtype, b.dtype, dst, k)
    got_buf, got, mask = guarded_like(a.shape, dst)
    a0, b0 = a.copy(), b.copy()
    rc, msg = ck.call(op, got, [a, b], ectx)
    ck.check(rc == status and msg != "" and (text is None or text in msg),
             "%s: %s '%s' (expected %s%s)" % (what, ck.chk.status(rc), msg,
                                              ck.chk.status(status),
                                              "" if text is None else ", '%s'" % text))
    ck.check(bool(np.all(got_buf[~mask] == GUARD)), what + ": a guard byte was written")
    ck.check(a.tobytes() == a0.tobytes() and b.tobytes() == b0.tobytes(),
             what + ": a source changed")
    isz = got.dtype.itemsize
    raw = got.view(np.uint8).reshape(-1, isz)
    untouched = np.all(raw == GUARD, axis=1)
    ck.check(bool(untouched[k]), what + ": the failing element was written")
    written = ~untouched
    ck.check(same_bits(got[written], want[written])[0],
             what + ": an element written before the failure is wrong")
    key = "%s into %s" % (op, dst)
    before = int(np.count_nonzero(written[:k]))
    after = int(np.count_nonzero(written[k + 1:]))
    OBSERVED.setdefault(key, []).append("k=%d: %d/%d before, %d/%d after written"
                                        % (k, before, k, after, a.size - k - 1))
    ck.count("result-cast refusals")


# ---------------------------------------------------------------------------------------
# 5. Integer division by zero.

def zero_division(ck, rng):
    for t in SCALARS:
        if not int_division("trunc_divide", t):
            continue
        v = values(t)
        r = signature_result("trunc_divide", t)  # bool: int8
        for n, k in ((20, 7), (20, 0), (20, 19), (1000, 613)):
            a = fill((n,), v, rng)
            b = nonzero_divisors(fill((n,), v, rng))
            b[k] = 0
            want = np.zeros(n, dtype=r)
            want[:k] = int_divide(a[:k], b[:k], r)
            zero_div_case(ck, r, a, b, want, k, "divide %s n=%d zero at %d" % (t, n, k),
                          "at element [%d]" % k)
        # 2-d C order: the elements before [2][3] in C order are written, the rest not.
        a, b = fill((5, 7), v, rng), nonzero_divisors(fill((5, 7), v, rng))
        b[2, 3] = 0
        want = np.zeros(35, dtype=r)
        want[:17] = int_divide(a.reshape(-1)[:17], b.reshape(-1)[:17], r)
        zero_div_case(ck, r, a, b, want.reshape(5, 7), 17, "divide %s (5,7) zero at [2][3]" % t)
        # 0-d
        zero_div_case(ck, r, np.array(v[-1], dtype=t), np.array(0, dtype=t),
                      np.zeros((), dtype=r), 0, "divide %s 0-d by zero" % t)
    # Mixed types: int8 / uint8 -> int16, through the argument casts in 256-element chunks.
    a = fill((600,), values("int8"), rng)
    b = nonzero_divisors(fill((600,), values("uint8"), rng))
    b[300] = 0
    want = np.zeros(600, dtype=np.int16)
    want[:300] = int_divide(a[:300].astype(np.int16), b[:300].astype(np.int16), "int16")
    zero_div_case(ck, "int16", a, b, want, 300, "divide(int8, uint8) zero at 300")


def zero_div_case(ck, t, a, b, want, k, what, where=None):
    got_buf, got, mask = guarded_like(want.shape, t)
    a0, b0 = a.copy(), b.copy()
    rc, msg = ck.call("trunc_divide", got, [a, b])
    ck.check(rc == CK_ERR_ZERO_DIVISION and "divide: integer division by zero" in msg and
             (where is None or where in msg),
             "%s: %s '%s' (expected CK_ERR_ZERO_DIVISION%s)"
             % (what, ck.chk.status(rc), msg, "" if where is None else ", '%s'" % where))
    flat = np.ascontiguousarray(got).reshape(-1)
    raw = flat.view(np.uint8).reshape(-1, flat.dtype.itemsize)
    untouched = np.all(raw == GUARD, axis=1)
    wflat = want.reshape(-1)
    ck.check(same_bits(flat[:k], wflat[:k])[0],
             what + ": the elements before the zero divisor are not all written correctly")
    ck.check(bool(np.all(untouched[k:])),
             what + ": the failing element or one after it was written")
    ck.check(bool(np.all(got_buf[~mask] == GUARD)), what + ": a guard byte was written")
    ck.check(a.tobytes() == a0.tobytes() and b.tobytes() == b0.tobytes(),
             what + ": a source changed")
    ck.count("zero division")


# ---------------------------------------------------------------------------------------

def main():
    if len(sys.argv) != 2:
        print("usage: numpy_call_test.py PATH_TO_LIBCKERNEL_SO")
        return 2
    t0 = time.monotonic()
    lib = load(sys.argv[1])
    ck = Ck(lib)
    for s, name in ((CK_ERR_TYPE, "CK_ERR_TYPE"), (CK_ERR_OVERFLOW, "CK_ERR_OVERFLOW"),
                    (CK_ERR_FRACTIONAL, "CK_ERR_FRACTIONAL"), (CK_ERR_INEXACT, "CK_ERR_INEXACT"),
                    (CK_ERR_AMBIGUOUS, "CK_ERR_AMBIGUOUS"),
                    (CK_ERR_ZERO_DIVISION, "CK_ERR_ZERO_DIVISION")):
        ck.check(lib.ck_status_name(s).decode() == name, "status %d is not %s" % (s, name))
    # The built-ins have exactly the documented signatures.
    for op in OPS:
        out = C.c_void_p()
        rc = lib.ck_callable_signatures(ck.callables[op], C.byref(out))
        got = take_string(lib, out) if rc == CK_OK else None
        want = "".join(sorted(sig_text(op, t) + "\n" for t in ALL))
        ck.check(got == want, "%s signatures: %r, expected %r" % (op, got, want))
    rng = np.random.default_rng(20240601)
    sections = [("selection table", selection_table),
                ("same-type values", same_type_values), ("layouts", layout_cases),
                ("mixed types", mixed_cases), ("NumPy pairs", numpy_pairs),
                ("result casts", result_casts),
                ("zero division", zero_division)]
    times = []
    for name, fn in sections:
        t1 = time.monotonic()
        fn(ck, rng)
        times.append("%s %.1f s" % (name, time.monotonic() - t1))
    ck.release()
    print("ckernel %s, numpy %s, %s" % (lib.ck_version_string().decode(), np.__version__,
                                        sys.executable))
    print("cases run: %s" % ", ".join("%s %d" % kv for kv in sorted(ck.chk.counts.items())))
    print("result-cast refusals (docs/design.md §7 allows elements before the failing one "
          "to be written or not):")
    for key, notes in sorted(OBSERVED.items()):
        print("  %s: %s" % (key, "; ".join(notes)))
    if NUMPY_FUSED:
        print("note: NumPy's own complex multiply differs from the unfused formula "
              "(ckernel's) in: %s" % ", ".join(sorted(NUMPY_FUSED)))
    print("times: %s; total %.1f s" % (", ".join(times), time.monotonic() - t0))
    print("%d passed, %d failed" % (ck.chk.passed, ck.chk.failed))
    return 0 if ck.chk.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
