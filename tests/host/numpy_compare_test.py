"""tests/host/numpy_compare_test.py: the built-in comparisons (equal, not_equal, less,
less_equal, greater, greater_equal) and length, called through ctypes on NumPy arrays in
place (ck_array_wrap over each ndarray's own buffer); NumPy 1.24 on the same buffers is the
oracle.

Cases:
  * every pair of the 14 scalars (196 per comparison), values with extremes, zeros of both
    signs, infinities and NaNs (complex: NaN in either part), each side broadcast against
    the other: the bools written equal np.<op>(a, b), and the result type
    (ck_call_result_type) is bool;
  * U and S arrays (fixed_string[N, 'utf32'], fixed_bytes[N]) of several lengths against
    each other, against a 0-d one and reversed: equal np.<op> on the U/S arrays (code point
    order; NumPy ignores the NUL padding as ckernel does), and np.char.str_len for length;
  * no ckernel allocation live at the end.

usage: python3 numpy_compare_test.py PATH_TO_LIBCKERNEL_SO   (last line: "N passed, M failed")
"""
import ctypes as C
import os
import sys
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy_test as nt  # noqa: E402  (load, Checker)
from numpy_text_test import Wrapped  # noqa: E402  (U, S and numbers wrapped in place)

warnings.simplefilter("ignore")
np.seterr(all="ignore")

CK_OK = 0
OPS = ["equal", "not_equal", "less", "less_equal", "greater", "greater_equal"]
SCALARS = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float16", "float32", "float64", "complex64", "complex128"]


def load(path):
    lib = nt.load(path)
    p, i, pp = C.c_void_p, C.c_int, C.POINTER(C.c_void_p)
    for name, (res, args) in {"ck_lookup": (i, [C.c_char_p, pp]),
                              "ck_callable_decref": (None, [p]),
                              "ck_call": (i, [p, p, i, p, p]),
                              "ck_call_result_type": (i, [p, i, p, p, pp])}.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = res, args
    return lib


class Calls:
    def __init__(self, lib):
        self.lib = lib
        self.c = {}
        for op in OPS + ["length"]:
            h = C.c_void_p()
            assert lib.ck_lookup(op.encode(), C.byref(h)) == CK_OK
            self.c[op] = h

    def call(self, op, dst, srcs):
        wd = Wrapped(self.lib, dst)
        ws = [Wrapped(self.lib, s) for s in srcs]
        arr = (C.c_void_p * len(ws))(*[w.a for w in ws])
        rc = self.lib.ck_call(self.c[op], wd.a, len(ws), arr, None)
        err = self.lib.ck_last_error().decode(errors="replace")
        for w in ws + [wd]:
            w.free()
        return rc, err

    def result_type(self, op, srcs):
        ws = [Wrapped(self.lib, s) for s in srcs]
        types = (C.c_void_p * len(ws))(*[w.t for w in ws])
        out, text = C.c_void_p(), C.c_void_p()
        rc = self.lib.ck_call_result_type(self.c[op], len(ws), types, None, C.byref(out))
        s = None
        if rc == CK_OK and self.lib.ck_type_format(out, C.byref(text)) == CK_OK:
            s = C.cast(text, C.c_char_p).value.decode()
            self.lib.ck_free(text)
        self.lib.ck_type_decref(out)
        for w in ws:
            w.free()
        return s

    def free(self):
        for h in self.c.values():
            self.lib.ck_callable_decref(h)


def values(name):
    if name == "bool":
        return np.array([False, True], dtype=name)
    if name.startswith(("int", "uint")):
        info = np.iinfo(name)
        return np.array(sorted({int(info.min), int(info.min) + 1, -1 if info.min < 0 else 2, 0,
                                1, 100 % (int(info.max) + 1), int(info.max) - 1, int(info.max)}),
                        dtype=name)
    base = [-np.inf, -1.5, -0.0, 0.0, 1.0, 2.5, 100.0, np.inf, np.nan]
    if name.startswith("complex"):
        parts = [complex(a, b) for a in (-1.0, 0.0, 1.0, np.nan) for b in (-2.0, 0.0, np.nan)]
        return np.array(parts + [complex(np.inf, 1.0), complex(2.5, -0.0)], dtype=name)
    return np.array(base, dtype=name)


def main():
    lib = load(sys.argv[1])
    ck = nt.Checker(lib)
    calls = Calls(lib)

    # every numeric pair, a (m, 1) against b (1, n): every value with every value
    for a_name in SCALARS:
        for b_name in SCALARS:
            a = values(a_name).reshape(-1, 1)
            b = values(b_name).reshape(1, -1)
            rt = calls.result_type("less", [a, b])
            ck.check(rt == "%d * %d * bool" % (a.shape[0], b.shape[1]),
                     "less(%s, %s) result type %s" % (a_name, b_name, rt))
            for op in OPS:
                want = getattr(np, op)(a, b)
                got = np.full(want.shape, 7, dtype=np.uint8).view(np.bool_)
                rc, err = calls.call(op, got, [a, b])
                ck.check(rc == CK_OK and got.view(np.uint8).tobytes() ==
                         want.view(np.uint8).tobytes(),
                         lambda: "%s(%s, %s): %d %s\n got %r\nwant %r" %
                         (op, a_name, b_name, rc, err, got, want))

    # text: U and S arrays, with each other, a 0-d one, reversed
    words = ["", "a", "ab", "abc", "b", "B", "\u00e9", "\uffff", "\U0001f600", "a\u00e9",
             "zz", "\U00010000"]
    for kind, conv in (("U", str), ("S", lambda w: w.encode("utf-8"))):
        for na, nb in ((4, 4), (3, 6), (1, 8)):
            items = [conv(w) for w in words]
            a = np.array(items, dtype="%s%d" % (kind, na * (4 if kind == "S" else 1)))
            b = np.array(items[::-1], dtype="%s%d" % (kind, nb * (4 if kind == "S" else 1)))
            for op in OPS:
                for x, y in ((a, b), (a, b[::-1]), (a, np.array(b[3])), (np.array(a[5]), b)):
                    want = getattr(np, op)(x, y)
                    got = np.zeros(want.shape, dtype=np.bool_)
                    rc, err = calls.call(op, got, [x, y])
                    ck.check(rc == CK_OK and np.array_equal(got, want),
                             lambda: "%s(%s, %s): %d %s\n got %r\nwant %r\n x %r\n y %r" %
                             (op, x.dtype, y.dtype, rc, err, got, want, x, y))
            want = np.char.str_len(a)
            got = np.zeros(a.shape, dtype=np.int64)
            rc, err = calls.call("length", got, [a])
            ck.check(rc == CK_OK and np.array_equal(got, want),
                     lambda: "length(%s): %d %s\n got %r\nwant %r" % (a.dtype, rc, err, got, want))

    calls.free()
    ck.check(ck.live() == 0, "ckernel allocations live at the end: %d" % ck.live())
    print("%d passed, %d failed" % (ck.passed, ck.failed))
    return 1 if ck.failed else 0


if __name__ == "__main__":
    sys.exit(main())
