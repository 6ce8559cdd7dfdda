"""tests/host/numpy_test.py: ckernel loaded by Python through ctypes, as a NumPy extension
would load it, assigning between NumPy arrays in place.

Every destination is a view into a larger uint8 buffer filled with guard bytes; ckernel
writes through ck_array_wrap views of the arrays' own memory (no copy), and the result is
compared byte for byte, guards and gaps included, with numpy.copyto(..., casting='unsafe')
run on an identical guarded buffer: NumPy is the independent oracle. Values are chosen where
NumPy's cast is defined and ckernel's default (fractional) error mode accepts them: small
non-negative integers (0/1 where bool is involved), zero imaginary parts. Covered: all 14 x
14 scalar pairs, each contiguous, strided, reversed, transposed (source and destination)
and broadcast; ck_parallel_assign on large arrays; refused conversions (a non-zero
imaginary part to a real type); no ckernel allocation left live at the end.

usage: python3 numpy_test.py PATH_TO_LIBCKERNEL_SO   (last line: "N passed, M failed")
"""
import ctypes as C
import sys
import warnings

import numpy as np

# numpy.copyto(real, complex, casting='unsafe') warns that it drops the imaginary part; the
# cases here have none (the refused ones are checked against ckernel alone).
warnings.simplefilter("ignore", np.ComplexWarning)

GUARD = 0xA5
SCALARS = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
           "uint64", "float16", "float32", "float64", "complex64", "complex128"]


class AllocStats(C.Structure):
    _fields_ = [("allocations", C.c_uint64), ("frees", C.c_uint64),
                ("failures", C.c_uint64), ("live", C.c_int64)]


def load(path):
    lib = C.CDLL(path)
    p, i, sz, ip = C.c_void_p, C.c_int, C.c_size_t, C.c_ssize_t
    sigs = {
        "ck_type_parse": (i, [C.c_char_p, C.POINTER(p)]),
        "ck_type_decref": (None, [p]),
        "ck_array_wrap": (i, [p, p, p, p, C.POINTER(p)]),
        "ck_array_free": (None, [p]),
        "ck_array_data": (p, [p]),
        "ck_assign": (i, [p, p, p]),
        "ck_parallel_assign": (i, [p, p, p]),
        "ck_last_error": (C.c_char_p, []),
        "ck_status_name": (C.c_char_p, [i]),
        "ck_get_alloc_stats": (None, [C.POINTER(AllocStats)]),
        "ck_version_string": (C.c_char_p, []),
    }
    for name, (res, args) in sigs.items():
        fn = getattr(lib, name)
        fn.restype = res
        fn.argtypes = args
    del sz, ip
    return lib


class Checker:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, cond, what):
        if cond:
            self.passed += 1
        else:
            self.failed += 1
            print("FAILED:", what)


def guarded_view(shape, dtype, elem_strides, rng_guard=64):
    """A view of `shape` with the given strides (in elements, any sign) into a fresh uint8
    buffer of guard bytes; returns (buffer, view)."""
    dt = np.dtype(dtype)
    lo = sum(min(0, (n - 1) * s) for n, s in zip(shape, elem_strides)) * dt.itemsize
    hi = sum(max(0, (n - 1) * s) for n, s in zip(shape, elem_strides)) * dt.itemsize
    buf = np.full(rng_guard + (hi - lo) + dt.itemsize + rng_guard, GUARD, dtype=np.uint8)
    # Element 0 sits at -lo past the front guard; the view starts there.
    view = np.ndarray(shape, dtype=dt, buffer=buf, offset=rng_guard - lo,
                      strides=[s * dt.itemsize for s in elem_strides])
    return buf, view


def values(shape, src, dst, dtype):
    n = int(np.prod(shape))
    if src == "bool" or dst == "bool":
        v = np.arange(n) % 2
    else:
        v = (np.arange(n) * 7) % 101
    return v.reshape(shape).astype(dtype)


class Wrapped:
    """ck_array_wrap over an ndarray's own memory; freed with free()."""

    def __init__(self, lib, arr):
        self.lib = lib
        dims = " * ".join(str(n) for n in arr.shape)
        ds = (dims + " * " if dims else "") + arr.dtype.name
        self.t = C.c_void_p()
        rc = lib.ck_type_parse(ds.encode(), C.byref(self.t))
        if rc != 0:
            raise RuntimeError("ck_type_parse(%s): %s" % (ds, lib.ck_last_error()))
        meta = (C.c_ssize_t * (2 * arr.ndim))()
        for k, (n, s) in enumerate(zip(arr.shape, arr.strides)):
            meta[2 * k], meta[2 * k + 1] = n, s
        self.a = C.c_void_p()
        self.ptr = arr.ctypes.data
        rc = lib.ck_array_wrap(self.t, C.cast(meta, C.c_void_p) if arr.ndim else None,
                               C.c_void_p(self.ptr), None, C.byref(self.a))
        if rc != 0:
            lib.ck_type_decref(self.t)
            raise RuntimeError("ck_array_wrap(%s): %s" % (ds, lib.ck_last_error()))

    def free(self):
        self.lib.ck_array_free(self.a)
        self.lib.ck_type_decref(self.t)


def layouts(n=37, m=5, k=7):
    """(name, dst shape, dst element strides, src maker(shape->array of given dtype))."""
    def plain(shape, dtype, src, dst):
        return values(shape, src, dst, dtype)

    def strided(shape, dtype, src, dst):
        big = values((shape[0] * 3,), src, dst, dtype)
        return big[::3]

    def reversed_(shape, dtype, src, dst):
        return values(shape, src, dst, dtype)[::-1]

    def transposed(shape, dtype, src, dst):
        return values(shape[::-1], src, dst, dtype).T

    def row(shape, dtype, src, dst):
        return values((1, shape[1]), src, dst, dtype)

    def stride0(shape, dtype, src, dst):
        return np.broadcast_to(values((shape[1],), src, dst, dtype), shape)

    return [
        ("contiguous", (n,), (1,), plain),
        ("strided", (n,), (2,), strided),
        ("reversed", (n,), (-1,), reversed_),
        ("transposed", (m, k), (1, m), transposed),  # a transposed destination too
        ("broadcast-row", (m, k), (k, 1), row),
        ("broadcast-stride0", (m, k), (k, 1), stride0),
    ]


def run_case(lib, ck, src_name, dst_name, layout, parallel=False):
    name, shape, estrides, make = layout
    src = make(shape, src_name, src_name, dst_name)
    got_buf, got = guarded_view(shape, dst_name, estrides)
    want_buf, want = guarded_view(shape, dst_name, estrides)
    np.copyto(want, src, casting="unsafe")
    ws, wd = Wrapped(lib, src), Wrapped(lib, got)
    what = "%s -> %s %s%s" % (src_name, dst_name, name, " (parallel)" if parallel else "")
    try:
        ck.check(lib.ck_array_data(wd.a) == got.ctypes.data and
                 lib.ck_array_data(ws.a) == src.ctypes.data, what + ": the views were copied")
        fn = lib.ck_parallel_assign if parallel else lib.ck_assign
        rc = fn(wd.a, ws.a, None)
        ck.check(rc == 0, "%s: %s %s" % (what, lib.ck_status_name(rc), lib.ck_last_error()))
        ck.check(np.array_equal(got_buf, want_buf),
                 what + ": bytes differ from numpy.copyto (elements, gaps or guards)")
        span = got_buf[:64].tolist() + got_buf[-64:].tolist()
        ck.check(all(b == GUARD for b in span), what + ": a guard byte was written")
    finally:
        wd.free()
        ws.free()


def main():
    if len(sys.argv) != 2:
        print("usage: numpy_test.py PATH_TO_LIBCKERNEL_SO")
        return 2
    lib = load(sys.argv[1])
    ck = Checker()
    for src in SCALARS:
        for dst in SCALARS:
            for layout in layouts():
                run_case(lib, ck, src, dst, layout)
    # Large enough to be split over threads: 2 x 64 KiB grains at least.
    for src, dst in [("int32", "float64"), ("float64", "int16"), ("uint8", "complex64"),
                     ("float32", "float16"), ("int64", "bool")]:
        for layout in [("contiguous", (300000,), (1,), layouts()[0][3]),
                       ("transposed", (600, 500), (1, 600), layouts()[3][3]),
                       ("broadcast-row", (2000, 101), (101, 1), layouts()[4][3])]:
            run_case(lib, ck, src, dst, layout, parallel=True)
    # A complex value with a non-zero imaginary part is refused for a real destination.
    for src in ["complex64", "complex128"]:
        for dst in ["float64", "int32", "bool"]:
            s = np.array([1 + 0j, 2 + 3j], dtype=src)
            buf, d = guarded_view((2,), dst, (1,))
            ws, wd = Wrapped(lib, s), Wrapped(lib, d)
            rc = lib.ck_assign(wd.a, ws.a, None)
            msg = lib.ck_last_error().decode()
            ck.check(lib.ck_status_name(rc) == b"CK_ERR_IMAGINARY" and "imaginary" in msg,
                     "%s -> %s with 2+3j: %s %s" % (src, dst, lib.ck_status_name(rc), msg))
            ck.check(all(b == GUARD for b in buf[:64].tolist() + buf[-64:].tolist()),
                     "%s -> %s refused: a guard byte was written" % (src, dst))
            wd.free()
            ws.free()
    st = AllocStats()
    lib.ck_get_alloc_stats(C.byref(st))
    ck.check(st.live == 0, "%d ckernel blocks still live" % st.live)
    print("ckernel %s, numpy %s: %d scalar pairs x %d layouts"
          % (lib.ck_version_string().decode(), np.__version__, len(SCALARS) ** 2,
             len(layouts())))
    print("%d passed, %d failed" % (ck.passed, ck.failed))
    return 0 if ck.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
