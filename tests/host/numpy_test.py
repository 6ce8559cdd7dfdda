"""tests/host/numpy_test.py: ckernel loaded by Python through ctypes, as a NumPy extension
would load it, assigning between NumPy arrays in place with zero copies; NumPy is the oracle.

Each array is wrapped with ck_array_wrap over its own buffer (arr.ctypes.data, checked to be
the pointer ckernel uses), with a type built from its shape and dtype ("5 * 7 * float64")
and arrmeta from its strides ({dim_size, stride} per dimension; none for a 0-d array).
Every destination is a view into a larger uint8 buffer of guard bytes (0xA5); after each
assignment the whole buffer must equal, byte for byte, the same guarded buffer into which
numpy.copyto(..., casting='unsafe') wrote the same source: elements bit-exact (NaN payloads
excepted), guards and the gaps between strided elements untouched. Sources must be
unchanged too.

For all 14 x 14 scalar pairs:
  * exact values: the source type's interesting values (0, 1, extremes, powers of two,
    fractions, -0.0, inf, nan, complex) that the destination represents exactly, so NumPy's
    cast is defined and ckernel's default (fractional) error mode accepts them;
  * rounding values: values a float or complex destination rounds (0.1, 2**24 + 1, ...),
    still in range; NumPy's cast rounds to nearest even, ckernel's must too;
  * each in 15 layouts: 0-d, contiguous, strided (a[::3] into a stride-2 destination),
    reversed (negative strides), transposed source / destination / both (small, and large
    enough to cross ckernel's 32 x 512 tiles), broadcast (a (1, n), (n,), (m, 1) source and a
    stride-0 broadcast_to view), a 3-d permuted view with a negative stride and gaps, and
    unaligned data with odd byte strides;
  * refused values: every other source value (out of range, fractional into an integer,
    nan/inf into an integer or bool, a non-zero imaginary part into a real type, a finite
    value that overflows a float type) must make ck_assign fail with the status that
    ckernel's documented error mode gives, a message in ck_last_error(), and no byte
    outside the destination's elements written;
  * ck_parallel_assign on (2000, 64) arrays with 2 threads and 4 KiB grains, plus large
    arrays with the default grain, and a refused parallel assignment.
Also: an external memory block as the owner of a wrapped buffer is released exactly once,
when the array is freed; a shape mismatch is CK_ERR_BROADCAST; arrmeta contradicting the
type is refused by ck_array_wrap; ck_type_format and ck_array_format (freed with ck_free)
read back; and no ckernel allocation is live after any case.

usage: python3 numpy_test.py PATH_TO_LIBCKERNEL_SO   (last line: "N passed, M failed")
"""
import ctypes as C
import math
import sys
import time
import warnings
from fractions import Fraction

import numpy as np

# numpy.copyto(real, complex, casting='unsafe') warns that it drops the imaginary part, and
# classifying values casts some out of range on purpose.
warnings.simplefilter("ignore")
np.seterr(all="ignore")

GUARD = 0xA5
EDGE = 64  # guard bytes before and after every destination
SCALARS = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
           "uint64", "float16", "float32", "float64", "complex64", "complex128"]

# include/ckernel/status.h
CK_OK, CK_ERR_INVALID, CK_ERR_BROADCAST = 0, 2, 5
CK_ERR_OVERFLOW, CK_ERR_FRACTIONAL, CK_ERR_IMAGINARY = 6, 7, 9
STATUS_NAMES = {CK_OK: b"CK_OK", CK_ERR_INVALID: b"CK_ERR_INVALID",
                CK_ERR_BROADCAST: b"CK_ERR_BROADCAST", CK_ERR_OVERFLOW: b"CK_ERR_OVERFLOW",
                CK_ERR_FRACTIONAL: b"CK_ERR_FRACTIONAL", CK_ERR_IMAGINARY: b"CK_ERR_IMAGINARY"}


class AllocStats(C.Structure):  # include/ckernel/alloc.h
    _fields_ = [("allocations", C.c_uint64), ("frees", C.c_uint64),
                ("failures", C.c_uint64), ("live", C.c_int64)]


class EvalCtx(C.Structure):  # include/ckernel/eval.h
    _fields_ = [("errmode", C.c_int), ("flags", C.c_uint), ("max_threads", C.c_int),
                ("reserved_int", C.c_int * 5), ("grain_bytes", C.c_size_t),
                ("reserved_size", C.c_size_t * 3)]


def eval_ctx(max_threads=0, grain_bytes=0):
    ctx = EvalCtx()
    ctx.errmode = 2  # CK_ERRMODE_FRACTIONAL, as CK_EVAL_CTX_INIT
    ctx.max_threads = max_threads
    ctx.grain_bytes = grain_bytes
    return ctx


RELEASE_FN = C.CFUNCTYPE(None, C.c_void_p)


def load(path):
    lib = C.CDLL(path)
    p, i, pp = C.c_void_p, C.c_int, C.POINTER(C.c_void_p)
    sigs = {
        "ck_type_parse": (i, [C.c_char_p, pp]),
        "ck_type_decref": (None, [p]),
        "ck_type_format": (i, [p, pp]),
        "ck_array_wrap": (i, [p, p, p, p, pp]),
        "ck_array_free": (None, [p]),
        "ck_array_data": (p, [p]),
        "ck_array_format": (i, [p, pp]),
        "ck_array_parse": (i, [p, C.c_char_p, pp]),
        "ck_assign": (i, [p, p, p]),
        "ck_parallel_assign": (i, [p, p, p]),
        "ck_last_error": (C.c_char_p, []),
        "ck_last_status": (i, []),
        "ck_clear_error": (None, []),
        "ck_status_name": (C.c_char_p, [i]),
        "ck_free": (None, [p]),
        "ck_get_alloc_stats": (None, [C.POINTER(AllocStats)]),
        "ck_version_string": (C.c_char_p, []),
        "ck_parallel_backend": (C.c_char_p, []),
        "ck_allocator_name": (C.c_char_p, []),
        "ck_get_num_threads": (i, []),
        "ck_memblock_new_external": (i, [p, C.c_size_t, RELEASE_FN, p, pp]),
        "ck_memblock_decref": (None, [p]),
    }
    for name, (res, args) in sigs.items():
        fn = getattr(lib, name)
        fn.restype = res
        fn.argtypes = args
    return lib


class Checker:
    def __init__(self, lib):
        self.lib = lib
        self.passed = 0
        self.failed = 0
        self.nan_payload_notes = 0
        self.counts = {}

    def check(self, cond, what):
        if cond:
            self.passed += 1
        else:
            self.failed += 1
            if self.failed <= 60:
                print("FAILED:", what() if callable(what) else what)  # lazy: costly texts
            elif self.failed == 61:
                print("FAILED: ... (further failures not printed)")
        return cond

    def count(self, kind):
        self.counts[kind] = self.counts.get(kind, 0) + 1

    def live(self):
        st = AllocStats()
        self.lib.ck_get_alloc_stats(C.byref(st))
        return st.live

    def status(self, rc):
        return self.lib.ck_status_name(rc).decode()

    def error(self):
        return self.lib.ck_last_error().decode(errors="replace")


# ---------------------------------------------------------------------------------------
# Values: what each source type holds, and what each destination does with it.

INT_CANDIDATES = [0, 1, 2, 3, 7, 42, 100, -1, -2, -7, -100, 127, -128, 128, -129, 255, 256,
                  2049, 4097, 32767, -32768, 32768, 65504, 65519, 65520, 65535, 65536,
                  2**24 + 1, 2**31 - 1, -2**31, 2**31, 2**32 - 1, 2**32, 2**53, 2**53 + 1,
                  -2**53 - 1, 2**62, 2**63 - 1, -2**63, 2**63, 2**64 - 1]
FLOAT_CANDIDATES = [0.5, -0.25, 1.5, -2.75, 100.5, -0.0, 2.0**-10, 2.0**-14, 2.0**-24,
                    2.0**-25, 2.0**-149, 5e-324, 0.1, 1.0 / 3, 65519.0, 65520.0, 1e30,
                    -1e300, 3.4028234663852886e38, 3.4028235677973362e38,
                    3.4028235677973366e38, 2.0**63, -2.0**63, 2.0**64,
                    math.inf, -math.inf, math.nan]
COMPLEX_EXTRA = [1 + 2j, -0.5 + 0.25j, -3j, complex(2.5, -0.0), complex(0.0, -0.0),
                 complex(math.inf, 1.0), complex(1.0, math.nan), complex(math.nan, 0.0),
                 0.1 + 0.2j, complex(1e30, 1.0)]


def component_dtype(name):
    return {"complex64": np.float32, "complex128": np.float64}.get(name, np.dtype(name).type)


def complex_multiply(a, b, t):
    """(ar*br - ai*bi, ar*bi + ai*br), each operation rounded in the component type (one
    NumPy ufunc per operation: nothing is fused), as arith.dispatch.c documents. NumPy's own
    complex multiply is not the reference here: NumPy 1.24.2 on an AVX-512 machine fuses it
    into FMAs for non-contiguous or broadcast complex128 operands (its contiguous loop is not
    fused), so it differs from itself by layout; differences are only reported."""
    a, b = np.broadcast_arrays(np.asarray(a), np.asarray(b))
    ar, ai, br, bi = (np.ascontiguousarray(x) for x in (a.real, a.imag, b.real, b.imag))
    out = np.empty(a.shape, dtype=t)
    out.real = ar * br - ai * bi
    out.imag = ar * bi + ai * br
    return out


def complex_cumprod(a, axis):
    """cumprod of a complex array along axis, each product by complex_multiply in order: the
    reference for ckernel's complex cumprod. NumPy's own accumulates through its strided
    complex multiply, which NumPy 1.24.2 fuses into FMAs on an AVX-512 machine."""
    x = np.moveaxis(np.asarray(a), axis, 0)
    out = np.empty(x.shape, dtype=x.dtype)
    if x.shape[0] > 0:
        out[0] = x[0]
    for k in range(1, x.shape[0]):
        out[k:k + 1] = complex_multiply(out[k - 1:k], x[k:k + 1], x.dtype)
    return np.moveaxis(out, 0, axis)


def source_values(src):
    """The distinct values of type src among the candidates, as exact Python numbers."""
    dt = np.dtype(src)
    out, seen = [], set()

    def add(v):
        a = np.array([v], dtype=dt)
        key = a.tobytes()
        if key not in seen:
            seen.add(key)
            x = a[0].item()
            out.append(int(x) if dt.kind == "b" else x)

    if dt.kind == "b":
        add(False)
        add(True)
    elif dt.kind in "iu":
        info = np.iinfo(dt)
        for c in INT_CANDIDATES:
            if info.min <= c <= info.max:
                add(c)
    else:
        ft = component_dtype(src)
        for c in INT_CANDIDATES + FLOAT_CANDIDATES:
            y = ft(c)
            if math.isfinite(y) or not math.isfinite(c):
                add(c)
        if dt.kind == "c":
            for c in COMPLEX_EXTRA:
                re, im = ft(c.real), ft(c.imag)
                if (math.isfinite(re) or not math.isfinite(c.real)) and \
                        (math.isfinite(im) or not math.isfinite(c.imag)):
                    add(complex(float(re), float(im)))
    return out


def in_float(comp, ft):
    """'exact', 'round' or 'overflow' for the real value comp stored into float type ft."""
    if isinstance(comp, float) and not math.isfinite(comp):
        return "exact"
    y = ft(comp)
    if not math.isfinite(y):
        return "overflow"
    return "exact" if Fraction(float(y)) == Fraction(comp) else "round"


def classify(x, dst):
    """'exact', 'round', or the set of statuses ckernel's default mode may refuse x with."""
    dt = np.dtype(dst)
    re, im = (x.real, x.imag) if isinstance(x, complex) else (x, 0)
    if isinstance(re, float) and re.is_integer():
        re = int(re) if abs(re) < 2**70 else re  # integral floats compare as integers
    if dt.kind in "biu" or dt.kind == "f":
        if im != 0 or (isinstance(im, float) and math.isnan(im)):
            return {CK_ERR_IMAGINARY, CK_ERR_OVERFLOW, CK_ERR_FRACTIONAL} \
                if classify(complex(x.real, 0.0), dst) not in ("exact", "round") \
                else {CK_ERR_IMAGINARY}
    if dt.kind == "b":
        if isinstance(re, float) and math.isnan(re):
            return {CK_ERR_OVERFLOW}
        if re in (0, 1):
            return "exact"
        return {CK_ERR_OVERFLOW} if isinstance(re, int) or math.isinf(re) \
            else {CK_ERR_OVERFLOW, CK_ERR_FRACTIONAL}
    if dt.kind in "iu":
        info = np.iinfo(dt)
        if isinstance(re, float) and not math.isfinite(re):
            return {CK_ERR_OVERFLOW}
        if isinstance(re, int):
            return "exact" if info.min <= re <= info.max else {CK_ERR_OVERFLOW}
        return {CK_ERR_FRACTIONAL} if info.min <= re <= info.max \
            else {CK_ERR_OVERFLOW, CK_ERR_FRACTIONAL}
    ft = component_dtype(dst)
    parts = [in_float(re, ft)] + ([in_float(im, ft)] if dt.kind == "c" else [])
    if "overflow" in parts:
        return {CK_ERR_OVERFLOW}
    return "round" if "round" in parts else "exact"


def pair_values(src, dst):
    exact, rounding, refused = [], [], []
    for x in source_values(src):
        k = classify(x, dst)
        if k == "exact":
            exact.append(x)
        elif k == "round":
            rounding.append(x)
        else:
            refused.append((x, k))
    return exact, rounding, refused


def fill(shape, src, vals, seed):
    """An array of `shape` and type src cycling through vals in a shuffled order."""
    n = int(np.prod(shape, dtype=np.int64))
    base = np.array(vals, dtype=src)
    idx = np.arange(n) % len(base)
    np.random.default_rng(seed).shuffle(idx)
    return base[idx].reshape(shape)


# ---------------------------------------------------------------------------------------
# Guarded buffers and wrapping.

def guarded(shape, dtype, byte_strides, misalign=0):
    """(buffer, view, element mask): a view of `shape` with byte strides (any sign) into a
    fresh uint8 buffer of guard bytes, EDGE bytes on each side; the mask marks the bytes of
    the view's elements."""
    dt = np.dtype(dtype)
    lo = sum(min(0, (n - 1) * s) for n, s in zip(shape, byte_strides))
    hi = sum(max(0, (n - 1) * s) for n, s in zip(shape, byte_strides))
    buf = np.full(EDGE + misalign + (hi - lo) + dt.itemsize + EDGE, GUARD, dtype=np.uint8)
    offset = EDGE + misalign - lo
    view = np.ndarray(shape, dtype=dt, buffer=buf, offset=offset, strides=byte_strides)
    mask = np.zeros(buf.size, dtype=np.uint8)
    mview = np.ndarray(shape, dtype=np.dtype((np.uint8, (dt.itemsize,))), buffer=mask,
                       offset=offset, strides=byte_strides)
    mview[...] = 1
    return buf, view, mask.astype(bool)


def datashape(arr):
    return " * ".join([str(n) for n in arr.shape] + [arr.dtype.name])


def formatted(lib, fn, obj):
    """Calls ck_type_format / ck_array_format and frees the string with ck_free."""
    out = C.c_void_p()
    rc = fn(obj, C.byref(out))
    if rc != CK_OK:
        return None
    text = C.string_at(out.value).decode()
    lib.ck_free(out)
    return text


class Wrapped:
    """ck_array_wrap over an ndarray's own memory; freed with free()."""

    def __init__(self, lib, arr, owner=None):
        self.lib = lib
        self.ds = datashape(arr)
        self.t = C.c_void_p()
        rc = lib.ck_type_parse(self.ds.encode(), C.byref(self.t))
        if rc != CK_OK:
            raise RuntimeError("ck_type_parse(%s): %s" % (self.ds, lib.ck_last_error()))
        self.meta = (C.c_ssize_t * (2 * arr.ndim))()
        for k, (n, s) in enumerate(zip(arr.shape, arr.strides)):
            self.meta[2 * k], self.meta[2 * k + 1] = n, s
        self.a = C.c_void_p()
        self.ptr = arr.ctypes.data
        rc = lib.ck_array_wrap(self.t, C.cast(self.meta, C.c_void_p) if arr.ndim else None,
                               self.ptr, owner, C.byref(self.a))
        if rc != CK_OK:
            lib.ck_type_decref(self.t)
            raise RuntimeError("ck_array_wrap(%s): %s" % (self.ds, lib.ck_last_error()))

    def free(self):
        self.lib.ck_array_free(self.a)
        self.lib.ck_type_decref(self.t)


# ---------------------------------------------------------------------------------------
# Layouts: (name, make) where make(src, dst, vals, seed) gives (source array, destination
# shape, destination byte strides, destination misalignment).

def c_strides(shape, itemsize):
    out, acc = [], itemsize
    for n in reversed(shape):
        out.append(acc)
        acc *= n
    return tuple(reversed(out))


def layouts():
    n, m, k = 37, 5, 7
    bm, bk = 40, 530  # more than one 32 x 512 tile each way

    def isz(dst):
        return np.dtype(dst).itemsize

    def scalar(src, dst, v, s):
        return fill((), src, v, s), (), (), 0

    def contiguous(src, dst, v, s):
        return fill((n,), src, v, s), (n,), (isz(dst),), 0

    def strided(src, dst, v, s):
        return fill((3 * n,), src, v, s)[::3], (n,), (2 * isz(dst),), 0

    def reversed_(src, dst, v, s):
        return fill((n,), src, v, s)[::-1], (n,), (-isz(dst),), 0

    def t_src(rows, cols):
        return lambda src, dst, v, s: (fill((cols, rows), src, v, s).T, (rows, cols),
                                       c_strides((rows, cols), isz(dst)), 0)

    def t_dst(rows, cols):
        return lambda src, dst, v, s: (fill((rows, cols), src, v, s), (rows, cols),
                                       (isz(dst), rows * isz(dst)), 0)

    def t_both(src, dst, v, s):
        return fill((k, m), src, v, s).T, (m, k), (isz(dst), m * isz(dst)), 0

    def b_row(src, dst, v, s):
        return fill((1, k), src, v, s), (m, k), c_strides((m, k), isz(dst)), 0

    def b_1d(src, dst, v, s):
        return fill((k,), src, v, s), (m, k), c_strides((m, k), isz(dst)), 0

    def b_col(src, dst, v, s):
        return fill((m, 1), src, v, s), (m, k), c_strides((m, k), isz(dst)), 0

    def b_stride0(src, dst, v, s):
        return (np.broadcast_to(fill((k,), src, v, s), (m, k)), (m, k),
                c_strides((m, k), isz(dst)), 0)

    def mixed_3d(src, dst, v, s):
        a = fill((4, 3, 5), src, v, s).transpose(2, 0, 1)[:, ::-1, :]  # (5, 4, 3)
        e = isz(dst)
        return a, (5, 4, 3), (-17 * e, 4 * e, e), 0  # gaps after each row and each plane

    def unaligned(src, dst, v, s):
        vals = fill((n,), src, v, s)
        es = np.dtype(src).itemsize
        sbuf = np.zeros(3 + n * (es + 1), dtype=np.uint8)
        a = np.ndarray((n,), dtype=src, buffer=sbuf, offset=3, strides=(es + 1,))
        a[...] = vals
        return a, (n,), (2 * isz(dst) + 1,), 1

    return [("0-d", scalar), ("contiguous", contiguous), ("strided", strided),
            ("reversed", reversed_), ("transposed-src", t_src(m, k)),
            ("transposed-dst", t_dst(m, k)), ("transposed-both", t_both),
            ("transposed-src-tiles", t_src(bm, bk)), ("transposed-dst-tiles", t_dst(bm, bk)),
            ("broadcast-(1,n)", b_row), ("broadcast-(n,)", b_1d), ("broadcast-(m,1)", b_col),
            ("broadcast-stride0", b_stride0), ("3-d-permuted", mixed_3d),
            ("unaligned", unaligned)]


# ---------------------------------------------------------------------------------------
# One assignment, checked against numpy.copyto.

def elements_match(got, want, dst):
    """Bit-exact, except that two NaNs in the same place may differ in payload. Returns
    (ok, nan_payload_differs)."""
    g = np.ascontiguousarray(got).reshape(-1)
    w = np.ascontiguousarray(want).reshape(-1)
    if g.tobytes() == w.tobytes():
        return True, False
    dt = np.dtype(dst)
    if dt.kind not in "fc":
        return False, False
    if dt.kind == "c":
        g, w = g.view(component_dtype(dst)), w.view(component_dtype(dst))
    differ = g.view(np.uint8).reshape(g.size, -1) != w.view(np.uint8).reshape(w.size, -1)
    differ = differ.any(axis=1)
    ok = bool(np.all(np.isnan(g[differ]) & np.isnan(w[differ])))
    return ok, ok


def run_case(lib, ck, src_name, dst_name, vals, layout, kind, parallel=None, seed=0):
    name, make = layout
    src, shape, bstrides, misalign = make(src_name, dst_name, vals, seed)
    src_before = np.array(src, copy=True)
    got_buf, got, mask = guarded(shape, dst_name, bstrides, misalign)
    want_buf, want, _ = guarded(shape, dst_name, bstrides, misalign)
    np.copyto(want, src, casting="unsafe")
    what = "%s -> %s %s, %s values%s" % (src_name, dst_name, name, kind,
                                         " (parallel)" if parallel is not None else "")
    ck.count(kind + (" parallel" if parallel is not None else ""))
    live0 = ck.live()
    ws = wd = None
    try:
        ws, wd = Wrapped(lib, src), Wrapped(lib, got)
        ck.check(lib.ck_array_data(wd.a) == got.ctypes.data == wd.ptr and
                 lib.ck_array_data(ws.a) == src.ctypes.data,
                 what + ": ck_array_data is not the ndarray's own buffer")
        ck.check(formatted(lib, lib.ck_type_format, wd.t) == wd.ds,
                 what + ": ck_type_format does not give back " + wd.ds)
        if parallel is None:
            rc = lib.ck_assign(wd.a, ws.a, None)
        else:
            rc = lib.ck_parallel_assign(wd.a, ws.a, parallel)
        if not ck.check(rc == CK_OK, "%s: %s %s" % (what, ck.status(rc), ck.error())):
            return
        ok, nan_note = elements_match(got, want, dst_name)
        ck.nan_payload_notes += nan_note
        if not ck.check(ok, what + ": elements differ from numpy.copyto"):
            g, w = np.ascontiguousarray(got).reshape(-1), np.ascontiguousarray(want).reshape(-1)
            bad = [i for i in range(g.size) if g[i:i + 1].tobytes() != w[i:i + 1].tobytes()]
            s = np.ascontiguousarray(np.broadcast_to(src, shape)).reshape(-1)
            for i in bad[:3]:
                print("    element %d: source %r -> ckernel %r (%s), numpy %r (%s)"
                      % (i, s[i], g[i], g[i:i + 1].tobytes().hex(), w[i],
                         w[i:i + 1].tobytes().hex()))
        ck.check(bool(np.all(got_buf[~mask] == GUARD)),
                 what + ": a guard or gap byte outside the destination's elements changed")
        ck.check(np.all(want_buf[mask] == GUARD) or np.any(got_buf[mask] != GUARD),
                 what + ": the destination ndarray itself was not written")
        ck.check(np.array(src).tobytes() == src_before.tobytes(),
                 what + ": the source changed")
        if name == "0-d":  # ck_array_format reads the host's scalar back
            text = formatted(lib, lib.ck_array_format, wd.a)
            ck.check(text is not None and literal_matches(text, got), "%s: ck_array_format "
                     "gave %r for %r" % (what, text, got[()]))
    finally:
        if wd is not None:
            wd.free()
        if ws is not None:
            ws.free()
        ck.check(ck.live() == live0, what + ": ckernel allocations left live")


def literal_matches(text, got):
    dt = got.dtype
    if dt.kind == "b":
        return text == ("true" if got[()] else "false")
    if dt.kind in "iu":
        return int(text) == int(got[()])
    v = np.array(complex(text) if dt.kind == "c" else float(text), dtype=dt)
    ok, _ = elements_match(v, got, dt.name)
    return ok


# ---------------------------------------------------------------------------------------
# Refusals and API checks.

def run_refusal(lib, ck, src_name, dst_name, good, bad, statuses, parallel=False):
    n = 300000 if parallel else 3
    src = np.array([good] * n, dtype=src_name)
    src[n // 2] = np.array([bad], dtype=src_name)[0]
    got_buf, got, mask = guarded((n,), dst_name, (np.dtype(dst_name).itemsize,))
    what = "%s -> %s refusing %r%s" % (src_name, dst_name, bad, " (parallel)" if parallel else "")
    ck.count("refusal" + (" parallel" if parallel else ""))
    live0 = ck.live()
    ws, wd = Wrapped(lib, src), Wrapped(lib, got)
    lib.ck_clear_error()
    if parallel:
        rc = lib.ck_parallel_assign(wd.a, ws.a, C.byref(eval_ctx(2, 4096)))
    else:
        rc = lib.ck_assign(wd.a, ws.a, None)
    msg = ck.error()
    want = "/".join(sorted(STATUS_NAMES[s].decode() for s in statuses))
    ck.check(rc in statuses and lib.ck_last_status() == rc and msg != "",
             "%s: %s '%s' (expected %s)" % (what, ck.status(rc), msg, want))
    if statuses == {CK_ERR_IMAGINARY}:
        ck.check("imaginary" in msg, "%s: message '%s' does not say why" % (what, msg))
    ck.check(bool(np.all(got_buf[~mask] == GUARD)), what + ": a guard byte was written")
    wd.free()
    ws.free()
    ck.check(ck.live() == live0, what + ": ckernel allocations left live")


def api_checks(lib, ck):
    live0 = ck.live()
    # A shape mismatch.
    src, dst = np.arange(3, dtype=np.int32), np.zeros(4, dtype=np.float64)
    ws, wd = Wrapped(lib, src), Wrapped(lib, dst)
    for fn in (lib.ck_assign, lib.ck_parallel_assign):
        rc = fn(wd.a, ws.a, None)
        ck.check(rc == CK_ERR_BROADCAST and "3" in ck.error() and "4" in ck.error(),
                 "3 into 4 elements: %s '%s'" % (ck.status(rc), ck.error()))
    ck.check(not dst.any(), "a refused broadcast wrote into the destination")
    wd.free()
    ws.free()
    # Arrmeta that contradicts the type.
    t, a = C.c_void_p(), C.c_void_p()
    lib.ck_type_parse(b"4 * float64", C.byref(t))
    meta = (C.c_ssize_t * 2)(5, 8)
    rc = lib.ck_array_wrap(t, C.cast(meta, C.c_void_p), dst.ctypes.data, None, C.byref(a))
    ck.check(rc == CK_ERR_INVALID and not a.value, "arrmeta size 5 for 4 * float64: %s '%s'"
             % (ck.status(rc), ck.error()))
    lib.ck_array_free(a)
    lib.ck_type_decref(t)
    # An external block owning the host's buffer is released once, when the array goes.
    released = []
    cb = RELEASE_FN(lambda ctx: released.append(ctx))
    buf = np.zeros(6, dtype=np.complex128)
    block = C.c_void_p()
    rc = lib.ck_memblock_new_external(buf.ctypes.data, buf.nbytes, cb, 1234, C.byref(block))
    ck.check(rc == CK_OK, "ck_memblock_new_external: " + ck.error())
    wd = Wrapped(lib, buf, owner=block)
    lib.ck_memblock_decref(block)  # the array holds the only reference now
    ws = Wrapped(lib, np.arange(6, dtype=np.int16))
    rc = lib.ck_assign(wd.a, ws.a, None)
    ck.check(rc == CK_OK and np.array_equal(buf, np.arange(6)) and released == [],
             "assign through an owned wrap: %s, released %r" % (ck.status(rc), released))
    ws.free()
    wd.free()
    ck.check(released == [1234], "the owner block was released %r, not once" % released)
    ck.check(ck.live() == live0, "API checks left ckernel allocations live")
    ck.count("API checks")


def main():
    if len(sys.argv) != 2:
        print("usage: numpy_test.py PATH_TO_LIBCKERNEL_SO")
        return 2
    t0 = time.monotonic()
    lib = load(sys.argv[1])
    ck = Checker(lib)
    for s, name in STATUS_NAMES.items():
        ck.check(lib.ck_status_name(s) == name, "status %d is not %s" % (s, name))
    lays = layouts()
    small_par = ("parallel-(2000,64)", lambda src, dst, v, s: (
        fill((2000, 64), src, v, s), (2000, 64), c_strides((2000, 64), np.dtype(dst).itemsize), 0))
    ctx = eval_ctx(max_threads=2, grain_bytes=4096)
    pairs = 0
    for src in SCALARS:
        for dst in SCALARS:
            exact, rounding, refused = pair_values(src, dst)
            pairs += 1
            for li, layout in enumerate(lays):
                run_case(lib, ck, src, dst, exact, layout, "exact", seed=li)
                if rounding:
                    run_case(lib, ck, src, dst, exact + rounding, layout, "rounding", seed=li)
            run_case(lib, ck, src, dst, exact + rounding, small_par,
                     "rounding" if rounding else "exact", parallel=C.byref(ctx))
            for x, statuses in refused:
                run_refusal(lib, ck, src, dst, exact[0], x, statuses)
    # Large arrays with the default grain (64 KiB): split over threads.
    big = [("contiguous-300000", lambda s, d, v, e: (fill((300000,), s, v, e), (300000,),
                                                     (np.dtype(d).itemsize,), 0)),
           ("reversed-300000", lambda s, d, v, e: (fill((300000,), s, v, e)[::-1], (300000,),
                                                   (-np.dtype(d).itemsize,), 0)),
           ("transposed-(600,500)", lambda s, d, v, e: (
               fill((500, 600), s, v, e).T, (600, 500),
               c_strides((600, 500), np.dtype(d).itemsize), 0)),
           ("broadcast-(2000,101)", lambda s, d, v, e: (
               fill((1, 101), s, v, e), (2000, 101), c_strides((2000, 101),
                                                             np.dtype(d).itemsize), 0))]
    for src, dst in [("int32", "float64"), ("float64", "int16"), ("uint8", "complex64"),
                     ("float32", "float16"), ("int64", "bool"), ("complex128", "float32"),
                     ("uint64", "float32"), ("float16", "int8")]:
        exact, rounding, _ = pair_values(src, dst)
        for layout in big:
            run_case(lib, ck, src, dst, exact + rounding, layout, "large", parallel=None)
            run_case(lib, ck, src, dst, exact + rounding, layout, "large",
                     parallel=C.c_void_p())
    # A refused element in the middle of a parallel assignment.
    for src, dst, bad, st in [("complex128", "float64", 2 + 3j, {CK_ERR_IMAGINARY}),
                              ("complex64", "int32", 1 - 1j, {CK_ERR_IMAGINARY}),
                              ("float64", "uint8", -1.0, {CK_ERR_OVERFLOW})]:
        run_refusal(lib, ck, src, dst, 1, bad, st, parallel=True)
    api_checks(lib, ck)
    ck.check(ck.live() == 0, "%d ckernel blocks still live at the end" % ck.live())
    print("ckernel %s (%s, %s, %d threads), numpy %s, %s"
          % (lib.ck_version_string().decode(), lib.ck_allocator_name().decode(),
             lib.ck_parallel_backend().decode(),
             lib.ck_get_num_threads(), np.__version__, sys.executable))
    print("%d scalar pairs x %d layouts; cases run: %s" % (
        pairs, len(lays), ", ".join("%s %d" % kv for kv in sorted(ck.counts.items()))))
    if ck.nan_payload_notes:
        print("note: %d cases matched NumPy only up to NaN payload bits" % ck.nan_payload_notes)
    print("%.1f s" % (time.monotonic() - t0))
    print("%d passed, %d failed" % (ck.passed, ck.failed))
    return 0 if ck.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
