"""tests/host/numpy_text_test.py: NumPy's U and S arrays assigned through ckernel's text types,
loaded with ctypes as numpy_test.py loads it, in place on NumPy's own buffers; NumPy's astype
on the same buffers is the oracle.

A U<N> array is fixed_string[N, 'utf32'] and an S<N> array fixed_bytes[N] (wrapped with
ck_array_wrap over arr.ctypes.data, strides from the ndarray). Cases, each compared byte for
byte with astype (floats: bit for bit, NaN as NaN):
  * numbers <- text: U and S of integer and float spellings NumPy reads (white space around,
    signs, inf, nan, exponents) into int8..uint64 and float16..float64, in nocheck (astype
    checks nothing: 3.4028235e38 into float16 is inf);
  * text <- numbers: every integer and float type into U and S wide enough (NumPy writes the
    shortest round-trip text, as ckernel does), random values and the edge values;
  * text <- text: U <-> S of ASCII text, U into a shorter U in nocheck (NumPy truncates: the
    same code points), strided and reversed sources;
  * text NumPy refuses ("x1", "1.5" into an integer) is refused by ckernel too (CK_ERR_TEXT
    or the §7 status), with nothing written;
  * bool and complex <-> text: bool into U and S ('True', 'False'), integer text into bool
    (NumPy reads int(): nonzero is True), complex64/complex128 into U (Python's repr: '1j',
    '(1+2j)', '(inf+nanj)', '(-0-0j)') and complex() text into complex, random values and the
    edge ones, bit for bit;
  * no ckernel allocation live at the end.

usage: python3 numpy_text_test.py PATH_TO_LIBCKERNEL_SO   (last line: "N passed, M failed")
"""
import ctypes as C
import os
import sys
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy_test as nt  # noqa: E402  (load, Checker, eval_ctx)

warnings.simplefilter("ignore")
np.seterr(all="ignore")

CK_OK, CK_ERR_TEXT = 0, 16
NOCHECK = 0


def elem_ds(dt):
    if dt.kind == "U":
        return "fixed_string[%d, 'utf32']" % (dt.itemsize // 4)
    if dt.kind == "S":
        return "fixed_bytes[%d]" % dt.itemsize
    return dt.name


class Wrapped:
    def __init__(self, lib, arr):
        self.lib = lib
        ds = " * ".join([str(n) for n in arr.shape] + [elem_ds(arr.dtype)])
        self.t = C.c_void_p()
        assert lib.ck_type_parse(ds.encode(), C.byref(self.t)) == CK_OK, ds
        self.meta = (C.c_ssize_t * (2 * max(arr.ndim, 1)))()
        for k, (n, s) in enumerate(zip(arr.shape, arr.strides)):
            self.meta[2 * k], self.meta[2 * k + 1] = n, s
        self.a = C.c_void_p()
        rc = lib.ck_array_wrap(self.t, C.cast(self.meta, C.c_void_p) if arr.ndim else None,
                               arr.ctypes.data, None, C.byref(self.a))
        assert rc == CK_OK, lib.ck_last_error()

    def free(self):
        self.lib.ck_array_free(self.a)
        self.lib.ck_type_decref(self.t)


def assign(lib, dst, src, mode=2):
    d, s = Wrapped(lib, dst), Wrapped(lib, src)
    ctx = nt.eval_ctx()
    ctx.errmode = mode
    rc = lib.ck_assign(d.a, s.a, C.byref(ctx))
    err = lib.ck_last_error().decode(errors="replace")
    d.free()
    s.free()
    return rc, err


def same(got, want):
    if got.dtype.kind == "f":
        return bool(np.all((got == want) | (np.isnan(got) & np.isnan(want))) and
                    np.all(np.signbit(got) == np.signbit(want)))
    return got.tobytes() == want.tobytes()


INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
FLOATS = ["float16", "float32", "float64"]


def numpy_refuses(src, name):
    """Does NumPy's astype refuse to read src as name (ValueError)?"""
    try:
        src.astype(name)
    except ValueError:
        return True
    return False


def int_texts(name):
    info = np.iinfo(name)
    vals = [0, 1, 7, int(info.max), int(info.min), int(info.max) // 3]
    texts = []
    for v in vals:
        texts += [str(v), " %d" % v, "%d\t" % v]
        if v >= 0:
            texts.append("+%d" % v)
    return texts


FLOAT_TEXTS = ["0", "1.5", " 2", "-inf", "inf", "nan", "-0", "1e3", "1E-2", ".5", "5.",
               "  -7.25  ", "+3", "0.1", "1e-310", "65504", "3.4028235e38", "Infinity",
               "-INFINITY", "NaN", "123456789.123456789", "6.02214076e23"]


def main():
    lib = nt.load(sys.argv[1])
    ck = nt.Checker(lib)
    rng = np.random.default_rng(27)

    # numbers <- text
    for kind in ("U", "S"):
        for name in INTS + FLOATS:
            texts = int_texts(name) if name in INTS else FLOAT_TEXTS
            src = np.array(texts, dtype=kind + "40")
            want = src.astype(name)
            got = np.full(len(texts), 99, dtype=name)
            rc, err = assign(lib, got, src, NOCHECK)  # astype checks nothing: 3.4e38 -> inf
            ck.check(rc == CK_OK and same(got, want),
                     lambda: "%s <- %s: %s %s\n got %r\nwant %r" % (name, src.dtype, rc, err,
                                                                    got, want))
            # strided and reversed
            rev = src[::-1]
            got2 = np.zeros(len(texts), dtype=name)
            rc, err = assign(lib, got2, rev, NOCHECK)
            ck.check(rc == CK_OK and same(got2, want[::-1]), "%s <- reversed %s" % (name, kind))

    # text <- numbers
    for name in INTS + FLOATS:
        if name in INTS:
            info = np.iinfo(name)
            vals = rng.integers(int(info.min), int(info.max), size=500, dtype=name,
                                endpoint=True)
            vals[:2] = [info.min, info.max]
        else:
            bits = rng.integers(0, 2**63, size=500, dtype=np.uint64)
            vals = bits.view(np.float64).astype(name) if name == "float64" else \
                rng.standard_normal(500).astype(name) * np.array(10.0, dtype=name) ** \
                rng.integers(-4, 5, size=500).astype(name)
            vals[:4] = [np.inf, -np.inf, 0.0, -0.0]
            vals = np.where(np.isnan(vals), np.array(1.5, dtype=name), vals)
        for dt in ("U32", "S32"):
            want = vals.astype(dt)
            got = np.zeros(len(vals), dtype=dt)
            rc, err = assign(lib, got, vals)
            bad = [(v, g, w) for v, g, w in zip(vals, got, want) if g != w][:3]
            ck.check(rc == CK_OK and got.tobytes() == want.tobytes(),
                     lambda: "%s <- %s: %s %s %r" % (dt, name, rc, err, bad))

    # text <- text
    words = np.array(["", "a", "abc", "hello world", "x" * 12, "tab\there"], dtype="U12")
    for src, dt in ((words, "S12"), (words.astype("S12"), "U12"), (words, "U20"),
                    (words[::-2], "U12"), (words.astype("S12")[::3], "S20")):
        want = src.astype(dt)
        got = np.zeros(len(src), dtype=dt)
        rc, err = assign(lib, got, src)
        ck.check(rc == CK_OK and got.tobytes() == want.tobytes(),
                 lambda: "%s <- %s: %s %s %r %r" % (dt, src.dtype, rc, err, got, want))
    uni = np.array(["\u00e9t\u00e9", "\U0001f600ab", "\u4e2d\u6587\u5b57\u7b26", "ok"], dtype="U4")
    want = uni.astype("U2")  # NumPy truncates to the first code points
    got = np.zeros(4, dtype="U2")
    rc, err = assign(lib, got, uni, NOCHECK)
    ck.check(rc == CK_OK and got.tobytes() == want.tobytes(), "U2 <- U4 nocheck %r" % got)
    rc, err = assign(lib, np.zeros(4, dtype="U2"), uni)
    ck.check(rc == 6 and "does not fit" in err, "U2 <- U4 checked: %s %s" % (rc, err))

    # refusals: NumPy raises, ckernel refuses and writes nothing
    for texts, name, status in ((["1", "x1"], "float64", CK_ERR_TEXT),
                                (["2", "1_000x"], "int64", CK_ERR_TEXT),
                                (["3", "1.5"], "int32", 7)):
        src = np.array(texts, dtype="U8")
        got = np.zeros(2, dtype=name)
        rc, err = assign(lib, got, src)
        ck.check(numpy_refuses(src, name) and rc == status and "at element [1]" in err and got[1] == 0,
                 "refusal %r -> %s: %s %s" % (texts, name, rc, err))

    # bool and complex <-> text
    bools = np.array([True, False, True, True, False])
    for dt in ("U5", "S5", "U8"):
        want = bools.astype(dt)
        got = np.zeros(len(bools), dtype=dt)
        rc, err = assign(lib, got, bools)
        ck.check(rc == CK_OK and got.tobytes() == want.tobytes(),
                 lambda: "%s <- bool: %s %s %r" % (dt, rc, err, got))
    btexts = np.array(["0", "1", "2", "-0", " 7\t", "+00", "-5", "12345678901234567890123"],
                      dtype="U24")
    for src in (btexts, btexts.astype("S24"), btexts[::-1]):
        want = src.astype(bool)
        got = np.full(len(src), 3, dtype=np.uint8).view(bool)
        rc, err = assign(lib, got, src)
        ck.check(rc == CK_OK and got.tobytes() == want.tobytes(),
                 lambda: "bool <- %s: %s %s %r %r" % (src.dtype, rc, err, got, want))
    for name in ("complex64", "complex128"):
        part = "float32" if name == "complex64" else "float64"
        re = rng.standard_normal(400) * 10.0 ** rng.integers(-30, 30, 400)
        im = rng.standard_normal(400) * 10.0 ** rng.integers(-30, 30, 400)
        vals = (re + 1j * im).astype(name)
        edge = [complex(0, 1), complex(-0.0, 0), complex(0, -0.0), complex(-0.0, -0.0),
                complex(np.inf, np.nan), complex(np.nan, -np.inf), complex(1.5, 0), 0j,
                complex(0, np.nan), complex(-np.inf, 2)]
        vals[:len(edge)] = np.array(edge, dtype=name)
        vals[len(edge)] = complex(np.finfo(part).max, np.finfo(part).tiny)
        for dt in ("U64", "S64"):
            want = vals.astype(dt)
            got = np.zeros(len(vals), dtype=dt)
            rc, err = assign(lib, got, vals)
            bad = [(v, g, w) for v, g, w in zip(vals, got, want) if g != w][:3]
            ck.check(rc == CK_OK and got.tobytes() == want.tobytes(),
                     lambda: "%s <- %s: %s %s %r" % (dt, name, rc, err, bad))
        # and back: NumPy reads its own text as complex() does
        texts = vals.astype("U64")
        texts[-6:] = ["1+2j", " (1-2.5J) ", "-j", "infj", "1e3", "( 5.j )"]
        want = texts.astype(name)
        got = np.zeros(len(texts), dtype=name)
        rc, err = assign(lib, got, texts)
        ck.check(rc == CK_OK and same(got.view(part), want.view(part)),
                 lambda: "%s <- U64: %s %s" % (name, rc, err))
    # text both refuse: NumPy raises ValueError, ckernel CK_ERR_TEXT at the element
    for texts, name in ((["1", "True"], "bool"), (["1", "1.5"], "bool"),
                        (["1j", "1 + 2j"], "complex128"), (["1j", "(1+2j"], "complex64")):
        src = np.array(texts, dtype="U8")
        got = np.zeros(2, dtype=name)
        rc, err = assign(lib, got, src)
        # ckernel reads "True" (what it writes); NumPy refuses it
        ours = rc == CK_OK if texts[1] == "True" else rc == CK_ERR_TEXT and "at element [1]" in err
        ck.check(numpy_refuses(src, name) and ours, "refusal %r -> %s: %s %s" % (texts, name, rc, err))

    ck.check(ck.live() == 0, "allocations live at the end: %d" % ck.live())
    print("%d passed, %d failed" % (ck.passed, ck.failed))
    return 1 if ck.failed else 0


if __name__ == "__main__":
    sys.exit(main())
