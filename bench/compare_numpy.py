#!/usr/bin/python3
"""bench/compare_numpy.py: ckernel and NumPy side by side, on the same buffers.

Each workload (named as in `ckernel bench`, same shapes) allocates its NumPy source and
destination once. The reduce/ and accumulate/ workloads time ckernel's ck_make_reduce /
ck_make_accumulate kernel (built once) against np.sum(src, out=dst), src.min(out=dst),
np.sum(src, axis=0, out=dst) and np.cumsum(src, out=dst); their results must agree (min,
axis 0 and cumsum bit for bit, the whole sum within its rounding: two pairwise sums of
different association). call/dot/float64 times ckernel's dot (ck_make_call, core
dimensions) of each pair of rows of two 1000 x 1000 arrays against np.einsum("ij,ij->i",
x, y, out=dst), agreeing within their rounding. The text/cast/... workloads (1 Mi values
at the default size: --size / 10) cast between float64 or int64 and NumPy's U32 or U21 (U<N>
is fixed_string[N, 'utf32'], wrapped in place) as astype does, with np.copyto(casting=
"unsafe") into a preallocated destination (astype's cast without its allocation);
text/cast/datetime64[s]->U32 and back cast seconds from 1800 to 2200 and their ISO text
the same way. text/cast/string->float64 reads a ckernel string array (made from the same text by
ckernel, before timing) against NumPy's variable-length text, an object array of the same
str values, into float64. Their results must agree bit for bit. text/equal/string (1 Mi
pairs likewise) times ckernel's equal (ck_make_call, built once) on two string arrays
holding the text of two U arrays against NumPy's == on those U arrays (a new bool result,
copied into dst: NumPy 1.24's ufunc equal takes no U). NumPy assigns with
np.copyto(dst, src, casting="unsafe") into that preallocated destination: no allocation is
timed, and "unsafe" casting is NumPy's unchecked conversion, the counterpart of ckernel's
nocheck error mode. ckernel wraps those
very buffers (ck_array_wrap, through ctypes) and, by default, builds its kernel once with
ck_make_assign (nocheck) and then times calls of that kernel only (its single function,
the one ck_call_single calls), so the build is not timed; --per-call-build times ck_assign
instead (build + run + destroy per sample: what a host calling ckernel once per operation
pays; the build is well under a microsecond). The output says which.

Samples alternate (ckernel, NumPy, ckernel, ...) so that both see the same machine state;
a first round warms both up and is not counted; each figure is the median of its samples,
in ns per element (--clock cpu: of this thread's CPU time, which both run on, so that other
processes' turns on a shared machine's cores are not counted). After timing, both write the
source once more into two fresh destinations, pre-filled with different byte patterns so that an element left unwritten
shows; they must agree bit for bit (exit 1 otherwise). Sources hold values that both
define alike (float64 -> int32 within range, float32 -> float16 within float16's range).

The expr/... workloads (ckernel/expr.h; expr/var/composed has no counterpart: NumPy has no
ragged arrays) time one expression kernel (ck_make_expr, built once; the /jit ones with
CK_EVAL_JIT, and skipped with the JIT's reason when it does not compile them) writing into a
preallocated destination against NumPy as a user writes the expression (`a * b + c`: a
temporary per operator and a new result), and, when they are installed (Debian's
python3-numexpr and python3-numba), numexpr's evaluate (on 1 thread and on its default
threads) and a Numba @vectorize function, both into the same preallocated destination. All
sample in the same alternating rounds; numexpr on several threads is timed by the wall clock
whatever --clock says (its worker threads' CPU time is not this thread's). ckernel's result
must equal NumPy's bit for bit; numexpr's and Numba's are compared and reported too.

The math/... workloads (MATH: bench/workloads_math.c's functions, types, threads and input
ranges, 1 Mi elements or --size if smaller) time ckernel's ck_make_call kernel over scalars,
built once and run by ck_parallel_strided on the row's threads (the /2threads row by the wall
clock), against NumPy's ufunc (`np.exp(x, out=dst)`, one thread) and, when installed, a
Numba @vectorize of the math module's function into the same destination. sqrt, floor and
isnan must equal NumPy's bits; the others must agree within 5 ULP (ckernel's 1 and NumPy's
SIMD loops' 4), and each contestant's largest error against mpmath (120 bits, the first 400
elements) is printed beside its time: the accuracy that the time buys.

    bench/compare_numpy.py [--lib PATH] [--size N] [--repeat N] [--quick] [--filter S]
                           [--per-call-build] [--clock wall|cpu] [--json FILE]
                           [--plot FILE.png|FILE.svg]
    bench/compare_numpy.py --from-bench-json FILE --plot FILE.png|FILE.svg

--from-bench-json draws the "x memcpy" and "x loop" ratios (fields "ratio_memcpy" and
"ratio_loop") of a `ckernel bench --json` file instead. Plots need python3-matplotlib:
without it --plot exits 2 with a message, after the table. Exit status: 0, 1 (results
differ or ckernel failed), 2 (usage, library or plotting problem). Debian's /usr/bin/python3
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
CK_REQUEST_SINGLE = 0
CK_REQUEST_STRIDED = 1
CK_EVAL_SRC_UNALIGNED = 0x1
CK_EVAL_DST_UNALIGNED = 0x2
CK_EVAL_JIT = 0x10
CK_EVAL_NO_JIT = 0x20
MI = 1 << 20
DEFAULT_SIZE = 10 * MI
# bench/workloads.c: the 2d/ workloads are ROWS_2D x COLS_2D (1000 x 10000) at 10 Mi.
ROWS_2D, COLS_2D = 1000, 10000
# In `ckernel bench` order (reduce/sum/float64/var has no NumPy counterpart: NumPy has no
# ragged arrays).
WORKLOADS = ["contig/int32->float64", "contig/float64->int32", "contig/float64->float32",
             "contig/float32->float16", "contig/float64->float64", "strided/int32->float64",
             "2d/c-order/int32->float64", "2d/transposed/int32->float64",
             "text/cast/U32->float64", "text/cast/float64->U32", "text/cast/int64->U21",
             "text/cast/U21->int64", "text/cast/string->float64",
             "text/cast/datetime64[s]->U32", "text/cast/U32->datetime64[s]",
             "text/equal/string",
             "reduce/sum/float64", "reduce/min/float64", "reduce/sum/float64/axis0",
             "accumulate/cumsum/float64", "call/dot/float64"]
# call/dot/float64: the dot of each pair of rows of two ROWS_2D x DOT_COLS arrays (ckernel's
# dot, core dimensions; NumPy's einsum("ij,ij->i")); fewer columns at small sizes.
DOT_COLS = 1000
# The reductions: (ckernel's name, axes or None for all, accumulate?) per workload.
# The expressions, in `ckernel bench` order: (text, arguments in the order of their first
# appearance, each a dtype name for an array of --size elements or a float for a scalar,
# built with CK_EVAL_JIT?, options). bench/workloads_expr.c has the same texts, scalars and
# input ranges. Options: "range" (lo, hi) of uniform inputs (else normal * 1e3), "dtype" of
# the result (float64), "threads" (ck_parallel_expr on that many), "reduce" (a reduction to
# one value through ck_expr_eval; NumPy's column is np.dot), "numba" (the element function's
# text where Python's differs from the expression's).
F3 = {"a": "float64", "b": "float64", "c": "float64"}
F2 = {"a": "float64", "b": "float64"}
TRIG = ("sin(a)**2 + cos(b)**2", F2, {"range": (-100, 100)})
EXPRESSIONS = {
    "expr/fma3/composed": ("a * b + c", F3, False, {}),
    "expr/fma3/jit": ("a * b + c", F3, True, {}),
    "expr/poly/jit": ("((a * x + b) * x + c) * x + d",
                      {"a": 0.5, "x": "float64", "b": -1.25, "c": 3.0, "d": 0.75}, True, {}),
    "expr/mixed/composed": ("i32 * f64 + f32", {"i32": "int32", "f64": "float64",
                                                "f32": "float32"}, False, {}),
    "expr/linear/composed": ("2*a + 3*b", F2, False, {}),
    "expr/linear/jit": ("2*a + 3*b", F2, True, {}),
    "expr/trig/composed": TRIG[:2] + (False, TRIG[2]),
    "expr/trig/jit": TRIG[:2] + (True, TRIG[2]),
    "expr/trig/jit/2threads": TRIG[:2] + (True, dict(TRIG[2], threads=2)),
    "expr/where/composed": ("where(a > b, a, b)", F2, False, {"numba": "a if a > b else b"}),
    "expr/where/jit": ("where(a > b, a, b)", F2, True, {"numba": "a if a > b else b"}),
    "expr/gauss/composed": ("exp(-a*a/2) * c", {"a": "float64", "c": "float64"}, False,
                            {"range": (-10, 10)}),
    "expr/gauss/jit": ("exp(-a*a/2) * c", {"a": "float64", "c": "float64"}, True,
                       {"range": (-10, 10)}),
    "expr/logic/composed": ("(a < 0.5) & (b > 0) | (c > 0.9)", F3, False,
                            {"range": (-1, 1), "dtype": "bool"}),
    "expr/logic/jit": ("(a < 0.5) & (b > 0) | (c > 0.9)", F3, True,
                       {"range": (-1, 1), "dtype": "bool"}),
    "expr/dotsum/jit": ("sum(a * b)", F2, True, {"reduce": True}),
}
REDUCTIONS = {"reduce/sum/float64": ("sum", None, False),
              "reduce/min/float64": ("min", None, False),
              "reduce/sum/float64/axis0": ("sum", [0], False),
              "accumulate/cumsum/float64": ("cumsum", [0], True)}
MATH_N = MI  # bench/workloads_math.c's size (smaller with --size)
# The math/ rows of `ckernel bench` (bench/workloads_math.c: the same functions, types,
# threads and input ranges): name -> (function, dtype, threads, (lo, hi) of the uniform
# inputs; a second operand in [-10, 10) for power; every 7th isnan input a NaN).
MATH = {"math/exp/float64": ("exp", "float64", 1, (-700, 700)),
        "math/exp/float64/2threads": ("exp", "float64", 2, (-700, 700)),
        "math/sin/float64": ("sin", "float64", 1, (-100, 100)),
        "math/cos/float64": ("cos", "float64", 1, (-100, 100)),
        "math/log/float64": ("log", "float64", 1, (1e-3, 1e6)),
        "math/power/float64": ("power", "float64", 1, (1e-3, 10)),
        "math/exp/float32": ("exp", "float32", 1, (-80, 80)),
        "math/sin/float32": ("sin", "float32", 1, (-100, 100)),
        "math/sqrt/float64": ("sqrt", "float64", 1, (1e-3, 1e6)),
        "math/floor/float64": ("floor", "float64", 1, (-1e6, 1e6)),
        "math/isnan/float64": ("isnan", "float64", 1, (-1e6, 1e6))}
# Exact in both: their results must be NumPy's bit for bit (the others within their bounds).
MATH_EXACT = {"sqrt", "floor", "isnan"}


class UsageError(Exception):
    """A problem of the command line or the environment: exit 2 with its message."""


class ReduceSpec(C.Structure):
    """ckernel/callable.h: ck_reduce_spec."""
    _fields_ = [("callable", C.c_void_p), ("axes", C.POINTER(C.c_int)), ("naxes", C.c_int),
                ("flags", C.c_uint)]


class EvalCtx(C.Structure):
    """ckernel/eval.h: ck_eval_ctx."""
    _fields_ = [("errmode", C.c_int), ("flags", C.c_uint), ("max_threads", C.c_int),
                ("reserved_int", C.c_int * 5), ("grain_bytes", C.c_size_t),
                ("reserved_size", C.c_size_t * 3)]


class Builder(C.Structure):
    """ckernel/builder.h: ck_builder (heap pointer, capacity, 16-aligned inline buffer)."""
    _fields_ = [("heap", C.c_void_p), ("capacity", C.c_size_t),
                ("inline_buf", C.c_char * 128)]


# ckernel/kernel.h: ck_single_fn(ck_prefix *self, char *dst, char *const *src).
SingleFn = C.CFUNCTYPE(C.c_int, C.c_void_p, C.c_void_p, C.POINTER(C.c_void_p))


def find_lib(given):
    """--lib, else $CKERNEL_LIB, else build/src/libckernel.so of the repository holding
    this script."""
    if given:
        return given
    if os.environ.get("CKERNEL_LIB"):
        return os.environ["CKERNEL_LIB"]
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.normpath(os.path.join(here, "..", "build", "src", "libckernel.so"))


def load(path):
    """The library with the prototypes used here."""
    try:
        lib = C.CDLL(path)
    except OSError as e:
        raise UsageError("cannot load libckernel (%s): build it, or give --lib PATH or "
                         "CKERNEL_LIB" % e)
    p, i = C.c_void_p, C.c_int
    for name, res, args in [
            ("ck_type_parse", i, [C.c_char_p, C.POINTER(p)]),
            ("ck_type_decref", None, [p]),
            ("ck_array_wrap", i, [p, p, p, p, C.POINTER(p)]),
            ("ck_array_free", None, [p]),
            ("ck_array_new", i, [p, C.POINTER(p)]),
            ("ck_array_type", p, [p]),
            ("ck_array_arrmeta", p, [p]),
            ("ck_array_data", p, [p]),
            ("ck_assign", i, [p, p, C.POINTER(EvalCtx)]),
            ("ck_builder_init", None, [p]),
            ("ck_builder_destroy", None, [p]),
            ("ck_make_assign", i, [p, C.POINTER(C.c_size_t), p, p, p, p, i,
                                   C.POINTER(EvalCtx)]),
            ("ck_make_reduce", i, [p, C.POINTER(C.c_size_t), C.POINTER(ReduceSpec), p, p, p,
                                   p, i, C.POINTER(EvalCtx)]),
            ("ck_make_accumulate", i, [p, C.POINTER(C.c_size_t), C.POINTER(ReduceSpec), p, p,
                                       p, p, i, C.POINTER(EvalCtx)]),
            ("ck_make_call", i, [p, C.POINTER(C.c_size_t), p, p, p, i, C.POINTER(p),
                                 C.POINTER(p), i, C.POINTER(EvalCtx)]),
            ("ck_lookup", i, [C.c_char_p, C.POINTER(p)]),
            ("ck_reduction_lookup", i, [C.c_char_p, C.POINTER(p)]),
            ("ck_accumulation_lookup", i, [C.c_char_p, C.POINTER(p)]),
            ("ck_callable_decref", None, [p]),
            ("ck_expr_parse", i, [C.c_char_p, C.POINTER(p)]),
            ("ck_expr_decref", None, [p]),
            ("ck_make_expr", i, [p, C.POINTER(C.c_size_t), p, p, p, i, C.POINTER(C.c_char_p),
                                 C.POINTER(p), C.POINTER(p), i, C.POINTER(EvalCtx)]),
            ("ck_jit_last_decision", C.c_char_p, []),
            ("ck_expr_eval", i, [p, p, i, C.POINTER(C.c_char_p), C.POINTER(p),
                                 C.POINTER(EvalCtx)]),
            ("ck_parallel_expr", i, [p, p, i, C.POINTER(C.c_char_p), C.POINTER(p),
                                     C.POINTER(EvalCtx)]),
            ("ck_parallel_strided", i, [p, p, C.c_ssize_t, C.POINTER(p),
                                        C.POINTER(C.c_ssize_t), C.c_size_t,
                                        C.POINTER(EvalCtx)]),
            ("ck_last_error", C.c_char_p, []),
            ("ck_version_string", C.c_char_p, []),
            ("ck_get_streaming_threshold", C.c_size_t, [])]:
        fn = getattr(lib, name, None)
        if fn is None:
            if name == "ck_get_streaming_threshold" or name.startswith("ck_expr") or \
                    name in ("ck_make_expr", "ck_jit_last_decision", "ck_parallel_strided"):
                continue  # an older library: compared all the same, without expressions
            raise UsageError("%s has no %s" % (path, name))
        fn.restype, fn.argtypes = res, args
    return lib


def ck_error(lib, what):
    return RuntimeError("%s: %s" % (what, (lib.ck_last_error() or b"").decode()))


class Wrapped:
    """A ckernel array over an ndarray's own buffer (type, arrmeta, data); free() releases
    the wrapper and the type, never the buffer."""

    NAMES = {"int32": "int32", "int64": "int64", "float64": "float64", "float32": "float32",
             "float16": "float16", "bool": "bool"}

    def __init__(self, lib, arr):
        self.lib, self.arr = lib, arr
        shape = "".join("%d * " % n for n in arr.shape)
        self.t = C.c_void_p()
        el = ("fixed_string[%d, 'utf32']" % (arr.dtype.itemsize // 4) if arr.dtype.kind == "U"
              else arr.dtype.name if arr.dtype.kind == "M"  # datetime64[s], the same name
              else self.NAMES[arr.dtype.name])
        if lib.ck_type_parse((shape + el).encode(),
                             C.byref(self.t)) != CK_OK:
            raise ck_error(lib, "ck_type_parse")
        # Fixed-dimension arrmeta: (size, byte stride) per dimension, as NumPy has them.
        self.meta = (C.c_ssize_t * max(1, 2 * arr.ndim))()
        for k, (n, s) in enumerate(zip(arr.shape, arr.strides)):
            self.meta[2 * k], self.meta[2 * k + 1] = n, s
        self.a = C.c_void_p()
        if lib.ck_array_wrap(self.t, C.cast(self.meta, C.c_void_p), arr.ctypes.data, None,
                             C.byref(self.a)) != CK_OK:
            lib.ck_type_decref(self.t)
            raise ck_error(lib, "ck_array_wrap")

    def free(self):
        self.lib.ck_array_free(self.a)
        self.lib.ck_type_decref(self.t)


def unaligned_flags(dst, src):
    """What ck_assign adds for misaligned pointers, so a kernel built once is valid too."""
    return ((CK_EVAL_DST_UNALIGNED if dst.ctypes.data % dst.dtype.alignment else 0) |
            (CK_EVAL_SRC_UNALIGNED if src.ctypes.data % src.dtype.alignment else 0))


class Kernel:
    """dst <- src (nocheck) built once with ck_make_assign for the layouts of two arrays;
    run(dst, src) calls it on any pair of arrays of those same layouts and alignments. With
    `reduction` (REDUCTIONS' entry) the kernel is ck_make_reduce's or ck_make_accumulate's;
    with `second` (an array) it is dot's, dst <- dot(src, second), ck_make_call's."""

    def __init__(self, lib, dst, src, reduction=None, second=None):
        self.lib = lib
        self.layout = (dst.dtype, dst.shape, dst.strides, src.dtype, src.shape, src.strides)
        self.flags = unaligned_flags(dst, src)
        # The builder holds a 16-aligned inline buffer: place it by hand in a raw buffer.
        self.mem = C.create_string_buffer(C.sizeof(Builder) + 16)
        self.addr = (C.addressof(self.mem) + 15) & ~15
        self.b = Builder.from_address(self.addr)
        lib.ck_builder_init(self.addr)
        wd, ws = Wrapped(lib, dst), Wrapped(lib, src)
        w2 = Wrapped(lib, second) if second is not None else None
        self.second = second
        try:
            off = C.c_size_t(0)
            ctx = EvalCtx(errmode=CK_ERRMODE_NOCHECK, flags=self.flags)
            if second is not None:
                c = C.c_void_p()
                if lib.ck_lookup(b"dot", C.byref(c)) != CK_OK:
                    raise ck_error(lib, "lookup of dot")
                types = (C.c_void_p * 2)(ws.t, w2.t)
                metas = (C.c_void_p * 2)(C.cast(ws.meta, C.c_void_p).value,
                                         C.cast(w2.meta, C.c_void_p).value)
                rc = lib.ck_make_call(self.addr, C.byref(off), c, wd.t,
                                      C.cast(wd.meta, C.c_void_p), 2, types, metas,
                                      CK_REQUEST_SINGLE, C.byref(ctx))
                lib.ck_callable_decref(c)
            elif reduction is None:
                rc = lib.ck_make_assign(self.addr, C.byref(off), wd.t,
                                        C.cast(wd.meta, C.c_void_p), ws.t,
                                        C.cast(ws.meta, C.c_void_p), CK_REQUEST_SINGLE,
                                        C.byref(ctx))
            else:
                name, axes, accumulate = reduction
                c = C.c_void_p()
                lookup = lib.ck_accumulation_lookup if accumulate else lib.ck_reduction_lookup
                if lookup(name.encode(), C.byref(c)) != CK_OK:
                    raise ck_error(lib, "lookup of " + name)
                ax = (C.c_int * 1)(*(axes or [0]))
                spec = ReduceSpec(c, C.cast(ax, C.POINTER(C.c_int)) if axes else None,
                                  len(axes or []), 0)
                make = lib.ck_make_accumulate if accumulate else lib.ck_make_reduce
                rc = make(self.addr, C.byref(off), C.byref(spec), wd.t,
                          C.cast(wd.meta, C.c_void_p), ws.t, C.cast(ws.meta, C.c_void_p),
                          CK_REQUEST_SINGLE, C.byref(ctx))
                lib.ck_callable_decref(c)
        finally:
            # The kernel references what it needs of the types and arrmeta (assign.h).
            wd.free()
            ws.free()
            if w2 is not None:
                w2.free()
        if rc != CK_OK:
            lib.ck_builder_destroy(self.addr)
            raise ck_error(lib, "ck_make_assign")
        # The buffer no longer moves: the root's function is read once.
        self.root = self.b.heap or self.addr + Builder.inline_buf.offset
        self.fn = SingleFn(C.c_void_p.from_address(self.root).value)
        self.srcs = (C.c_void_p * 2)()

    def run(self, dst, src):
        if (dst.dtype, dst.shape, dst.strides, src.dtype, src.shape, src.strides) != self.layout \
                or unaligned_flags(dst, src) & ~self.flags:
            raise ValueError("the kernel was built for other layouts")
        self.srcs[0] = src.ctypes.data
        if self.second is not None:
            self.srcs[1] = self.second.ctypes.data
        rc = self.fn(self.root, dst.ctypes.data, self.srcs)
        if rc != CK_OK:
            raise ck_error(self.lib, "kernel call")

    def free(self):
        self.lib.ck_builder_destroy(self.addr)


class ExprKernel:
    """dst <- text(args) built once with ck_make_expr (nocheck) for the layouts of dst and
    the arguments (a dict name -> ndarray, 0-d for a scalar); run(dst) calls it. `jit`:
    built with CK_EVAL_JIT, and self.skip says why when the JIT did not compile it."""

    def __init__(self, lib, text, dst, args, jit):
        if not hasattr(lib, "ck_make_expr"):
            raise UsageError("this libckernel has no expressions (ck_make_expr)")
        self.lib, self.args, self.skip = lib, list(args.values()), None
        self.mem = C.create_string_buffer(C.sizeof(Builder) + 16)
        self.addr = (C.addressof(self.mem) + 15) & ~15
        self.b = Builder.from_address(self.addr)
        lib.ck_builder_init(self.addr)
        e = C.c_void_p()
        if lib.ck_expr_parse(text.encode(), C.byref(e)) != CK_OK:
            raise ck_error(lib, "ck_expr_parse")
        wd = Wrapped(lib, dst)
        ws = [Wrapped(lib, a) for a in self.args]
        try:
            n = len(ws)
            flags = CK_EVAL_JIT if jit else CK_EVAL_NO_JIT
            flags |= CK_EVAL_DST_UNALIGNED if dst.ctypes.data % dst.dtype.alignment else 0
            for a in self.args:
                flags |= CK_EVAL_SRC_UNALIGNED if a.ctypes.data % a.dtype.alignment else 0
            off = C.c_size_t(0)
            ctx = EvalCtx(errmode=CK_ERRMODE_NOCHECK, flags=flags)
            names = (C.c_char_p * n)(*[k.encode() for k in args])
            types = (C.c_void_p * n)(*[w.t.value for w in ws])
            metas = (C.c_void_p * n)(*[C.cast(w.meta, C.c_void_p).value for w in ws])
            rc = lib.ck_make_expr(self.addr, C.byref(off), e, wd.t, C.cast(wd.meta, C.c_void_p),
                                  n, names, types, metas, CK_REQUEST_SINGLE, C.byref(ctx))
            decision = (lib.ck_jit_last_decision() or b"").decode()
        finally:
            wd.free()
            for w in ws:
                w.free()
            lib.ck_expr_decref(e)
        if rc != CK_OK:
            lib.ck_builder_destroy(self.addr)
            raise ck_error(lib, "ck_make_expr")
        if jit and not decision.startswith(("compiled", "cache hit")):
            self.skip = "the JIT did not compile the expression: " + (
                decision or "no nest was offered to it")
        self.root = self.b.heap or self.addr + Builder.inline_buf.offset
        self.fn = SingleFn(C.c_void_p.from_address(self.root).value)
        self.srcs = (C.c_void_p * n)(*[a.ctypes.data for a in self.args])

    def run(self, dst):
        if self.fn(self.root, dst.ctypes.data, self.srcs) != CK_OK:
            raise ck_error(self.lib, "expression kernel call")

    def free(self):
        self.lib.ck_builder_destroy(self.addr)


class EvalKernel:
    """expr/dotsum/jit and expr/<case>/jit/2threads (bench/workloads_expr.c's evaluated
    workloads): each run one ck_expr_eval (or ck_parallel_expr on `threads`) with
    CK_EVAL_JIT over arrays wrapped once, which builds its kernels; self.skip says why when
    the first run's build was not compiled (a reduction is not checked: expr/dotsum's sum of
    products is ckernel's dot leaf, no compiled nest)."""

    def __init__(self, lib, text, dst, args, threads, reduce=False):
        self.lib, self.skip = lib, None
        e = C.c_void_p()
        if lib.ck_expr_parse(text.encode(), C.byref(e)) != CK_OK:
            raise ck_error(lib, "ck_expr_parse")
        self.e = e
        self.wd = Wrapped(lib, dst)
        self.ws = [Wrapped(lib, a) for a in args.values()]
        n = len(self.ws)
        self.n = n
        self.names = (C.c_char_p * n)(*[k.encode() for k in args])
        self.srcs = (C.c_void_p * n)(*[w.a.value for w in self.ws])
        self.ctx = EvalCtx(errmode=CK_ERRMODE_NOCHECK, flags=CK_EVAL_JIT,
                           max_threads=max(threads, 0))
        self.fn = lib.ck_parallel_expr if threads > 1 else lib.ck_expr_eval
        self.run(dst)
        decision = (lib.ck_jit_last_decision() or b"").decode()
        if not reduce and not decision.startswith(("compiled", "cache hit")):
            self.skip = "the JIT did not compile the expression: " + (
                decision or "no nest was offered to it")

    def run(self, dst):
        if self.fn(self.e, self.wd.a, self.n, self.names, self.srcs, C.byref(self.ctx)) != CK_OK:
            raise ck_error(self.lib, "ck_expr_eval")

    def free(self):
        self.wd.free()
        for w in self.ws:
            w.free()
        self.lib.ck_expr_decref(self.e)


class MathKernel:
    """math/...: dst <- function(src[, second]) through ck_make_call over scalars (strided
    request, nocheck), run by ck_parallel_strided on `threads` threads, as bench/
    workloads_math.c runs it; the arrays contiguous."""

    def __init__(self, lib, fn, dst, srcs, threads):
        if not hasattr(lib, "ck_parallel_strided"):
            raise UsageError("this libckernel has no ck_parallel_strided")
        self.lib, self.n = lib, dst.size
        self.mem = C.create_string_buffer(C.sizeof(Builder) + 16)
        self.addr = (C.addressof(self.mem) + 15) & ~15
        self.b = Builder.from_address(self.addr)
        lib.ck_builder_init(self.addr)
        c = C.c_void_p()
        if lib.ck_lookup(fn.encode(), C.byref(c)) != CK_OK:
            lib.ck_builder_destroy(self.addr)
            raise ck_error(lib, "lookup of " + fn)
        types = []
        try:
            for a in [dst] + srcs:
                t = C.c_void_p()
                if lib.ck_type_parse(Wrapped.NAMES[a.dtype.name].encode(), C.byref(t)) != CK_OK:
                    raise ck_error(lib, "ck_type_parse")
                types.append(t)
            off = C.c_size_t(0)
            self.ctx = EvalCtx(errmode=CK_ERRMODE_NOCHECK, max_threads=threads)
            st = (C.c_void_p * len(srcs))(*[t.value for t in types[1:]])
            rc = lib.ck_make_call(self.addr, C.byref(off), c, types[0], None, len(srcs), st,
                                  None, CK_REQUEST_STRIDED, C.byref(self.ctx))
        finally:
            lib.ck_callable_decref(c)
            for t in types:
                lib.ck_type_decref(t)
        if rc != CK_OK:
            lib.ck_builder_destroy(self.addr)
            raise ck_error(lib, "ck_make_call of " + fn)
        self.root = self.b.heap or self.addr + Builder.inline_buf.offset
        self.srcs = (C.c_void_p * len(srcs))(*[a.ctypes.data for a in srcs])
        self.strides = (C.c_ssize_t * len(srcs))(*[a.itemsize for a in srcs])
        self.ds = dst.itemsize

    def run(self, dst):
        if dst.size != self.n:
            raise ValueError("the kernel was built for another size")
        if self.lib.ck_parallel_strided(self.root, dst.ctypes.data, self.ds, self.srcs,
                                        self.strides, self.n, C.byref(self.ctx)) != CK_OK:
            raise ck_error(self.lib, "math kernel call")

    def free(self):
        self.lib.ck_builder_destroy(self.addr)


class StringKernel(Kernel):
    """text/cast/string->float64: a ckernel string array holding the U text `text` (its own
    array: NumPy has no such layout; made by ck_assign, not timed) read into float64 dst by
    a kernel built once; run(dst, src) ignores src (NumPy's object array of the same str)."""

    def __init__(self, lib, dst, text):
        self.strings = C.c_void_p()
        t = C.c_void_p()
        if lib.ck_type_parse(b"%d * string" % text.size, C.byref(t)) != CK_OK:
            raise ck_error(lib, "ck_type_parse")
        rc = lib.ck_array_new(t, C.byref(self.strings))
        lib.ck_type_decref(t)
        if rc != CK_OK:
            raise ck_error(lib, "ck_array_new")
        wt = Wrapped(lib, text)
        rc = lib.ck_assign(self.strings, wt.a, None)
        wt.free()
        if rc != CK_OK:
            lib.ck_array_free(self.strings)
            raise ck_error(lib, "ck_assign of the text")
        self.lib = lib
        self.mem = C.create_string_buffer(C.sizeof(Builder) + 16)
        self.addr = (C.addressof(self.mem) + 15) & ~15
        self.b = Builder.from_address(self.addr)
        lib.ck_builder_init(self.addr)
        wd = Wrapped(lib, dst)
        off = C.c_size_t(0)
        ctx = EvalCtx(errmode=CK_ERRMODE_NOCHECK)
        rc = lib.ck_make_assign(self.addr, C.byref(off), wd.t, C.cast(wd.meta, C.c_void_p),
                                lib.ck_array_type(self.strings),
                                lib.ck_array_arrmeta(self.strings), CK_REQUEST_SINGLE,
                                C.byref(ctx))
        wd.free()
        if rc != CK_OK:
            lib.ck_builder_destroy(self.addr)
            lib.ck_array_free(self.strings)
            raise ck_error(lib, "ck_make_assign")
        self.root = self.b.heap or self.addr + Builder.inline_buf.offset
        self.fn = SingleFn(C.c_void_p.from_address(self.root).value)
        self.srcs = (C.c_void_p * 2)(lib.ck_array_data(self.strings))
        self.shape = dst.shape

    def run(self, dst, src):
        if dst.shape != self.shape or dst.dtype.name != "float64":
            raise ValueError("the kernel was built for another destination")
        rc = self.fn(self.root, dst.ctypes.data, self.srcs)
        if rc != CK_OK:
            raise ck_error(self.lib, "kernel call")

    def free(self):
        self.lib.ck_builder_destroy(self.addr)
        self.lib.ck_array_free(self.strings)


class TextEqualKernel:
    """text/equal/string: ckernel's equal (ck_make_call, built once) of two string arrays
    holding the text of two U arrays (made by ck_assign, not timed: NumPy has no such
    layout) into a bool dst; run(dst, src) ignores src (the first U array, which NumPy's ==
    compares with TEXT_SECOND[0])."""

    def __init__(self, lib, dst, first, second):
        self.lib = lib
        self.strings = []
        try:
            for text in (first, second):
                self.strings.append(self._strings(text))
        except RuntimeError:
            self._free_strings()
            raise
        self.mem = C.create_string_buffer(C.sizeof(Builder) + 16)
        self.addr = (C.addressof(self.mem) + 15) & ~15
        self.b = Builder.from_address(self.addr)
        lib.ck_builder_init(self.addr)
        wd = Wrapped(lib, dst)
        c = C.c_void_p()
        rc = lib.ck_lookup(b"equal", C.byref(c))
        if rc == CK_OK:
            off = C.c_size_t(0)
            ctx = EvalCtx(errmode=CK_ERRMODE_NOCHECK)
            types = (C.c_void_p * 2)(*[lib.ck_array_type(a) for a in self.strings])
            metas = (C.c_void_p * 2)(*[lib.ck_array_arrmeta(a) for a in self.strings])
            rc = lib.ck_make_call(self.addr, C.byref(off), c, wd.t, C.cast(wd.meta, C.c_void_p),
                                  2, types, metas, CK_REQUEST_SINGLE, C.byref(ctx))
            lib.ck_callable_decref(c)
        wd.free()
        if rc != CK_OK:
            lib.ck_builder_destroy(self.addr)
            self._free_strings()
            raise ck_error(lib, "ck_make_call of equal")
        self.root = self.b.heap or self.addr + Builder.inline_buf.offset
        self.fn = SingleFn(C.c_void_p.from_address(self.root).value)
        self.srcs = (C.c_void_p * 2)(*[lib.ck_array_data(a) for a in self.strings])
        self.shape = dst.shape

    def _strings(self, text):
        """A new ckernel `n * string` array holding the U array's text."""
        lib, a, t = self.lib, C.c_void_p(), C.c_void_p()
        if lib.ck_type_parse(b"%d * string" % text.size, C.byref(t)) != CK_OK:
            raise ck_error(lib, "ck_type_parse")
        rc = lib.ck_array_new(t, C.byref(a))
        lib.ck_type_decref(t)
        if rc != CK_OK:
            raise ck_error(lib, "ck_array_new")
        wt = Wrapped(lib, text)
        rc = lib.ck_assign(a, wt.a, None)
        wt.free()
        if rc != CK_OK:
            lib.ck_array_free(a)
            raise ck_error(lib, "ck_assign of the text")
        return a

    def _free_strings(self):
        for a in self.strings:
            self.lib.ck_array_free(a)
        self.strings = []

    def run(self, dst, src):
        if dst.shape != self.shape or dst.dtype.name != "bool":
            raise ValueError("the kernel was built for another destination")
        if self.fn(self.root, dst.ctypes.data, self.srcs) != CK_OK:
            raise ck_error(self.lib, "kernel call")

    def free(self):
        self.lib.ck_builder_destroy(self.addr)
        self._free_strings()


class PerCallAssign:
    """ck_assign on every run: build + run + destroy (the arrays wrapped once)."""

    def __init__(self, lib, dst, src, max_threads=0):
        self.lib = lib
        self.ctx = EvalCtx(errmode=CK_ERRMODE_NOCHECK, max_threads=max_threads)
        self.wrapped = {}

    def _wrap(self, arr):
        key = arr.__array_interface__["data"][0], arr.shape, arr.strides, arr.dtype.name
        if key not in self.wrapped:
            self.wrapped[key] = Wrapped(self.lib, arr)
        return self.wrapped[key].a

    def run(self, dst, src):
        if self.lib.ck_assign(self._wrap(dst), self._wrap(src), C.byref(self.ctx)) != CK_OK:
            raise ck_error(self.lib, "ck_assign")

    def free(self):
        for w in self.wrapped.values():
            w.free()


def shape_2d(n):
    """bench/workloads.c's 1000 x 10000 at the default size; other sizes keep the 1000 rows
    and scale the row length with the element count."""
    return ROWS_2D, max(1, n * COLS_2D // DEFAULT_SIZE)


def make_workloads(np, n):
    """name -> (source array, destination factory), in WORKLOADS order."""
    rng = np.random.default_rng(12345)
    rows, cols = shape_2d(n)

    def ints(count):
        return rng.integers(-2**31, 2**31, size=count, dtype=np.int32)

    w = {
        "contig/int32->float64": (ints(n), lambda: np.empty(n, np.float64)),
        # In range: out-of-range float64 -> int32 is undefined for NumPy (C's cast).
        "contig/float64->int32": (rng.uniform(-2.0e9, 2.0e9, size=n),
                                  lambda: np.empty(n, np.int32)),
        "contig/float64->float32": (rng.standard_normal(n) * 1e6,
                                    lambda: np.empty(n, np.float32)),
        "contig/float32->float16": (rng.uniform(-60000.0, 60000.0, size=n).astype(np.float32),
                                    lambda: np.empty(n, np.float16)),
        "contig/float64->float64": (rng.standard_normal(n), lambda: np.empty(n, np.float64)),
        "strided/int32->float64": (ints(2 * n)[::2], lambda: np.empty(n, np.float64)),
        "2d/c-order/int32->float64": (ints(rows * cols).reshape(rows, cols),
                                      lambda: np.empty((rows, cols), np.float64)),
        # A C-order cols x rows buffer seen transposed: strides (4, 4 * rows), as in bench.
        "2d/transposed/int32->float64": (ints(rows * cols).reshape(cols, rows).T,
                                         lambda: np.empty((rows, cols), np.float64)),
    }
    w.update(text_workloads(np, rng, max(1, n // 10)))
    w.update(datetime_workloads(np, rng, max(1, n // 10)))
    w.update(text_equal_workloads(np, max(1, n // 10)))
    w.update({
        "reduce/sum/float64": (rng.standard_normal(n), lambda: np.empty((), np.float64)),
        "reduce/min/float64": (rng.standard_normal(n), lambda: np.empty((), np.float64)),
        "reduce/sum/float64/axis0": (rng.standard_normal(rows * cols).reshape(rows, cols),
                                     lambda: np.empty(cols, np.float64)),
        "accumulate/cumsum/float64": (rng.standard_normal(n), lambda: np.empty(n, np.float64)),
    })
    dot_cols = dot_columns(n)
    DOT_SECOND[0] = rng.standard_normal(ROWS_2D * dot_cols).reshape(ROWS_2D, dot_cols)
    w["call/dot/float64"] = (rng.standard_normal(ROWS_2D * dot_cols).reshape(ROWS_2D, dot_cols),
                             lambda: np.empty(ROWS_2D, np.float64))
    assert list(w) == WORKLOADS
    return w


def text_workloads(np, rng, m):
    """The text/cast/... rows over m values: float64 as text/print/float64's (random 53-bit
    significands, magnitudes 2^-60 to 2^60, both signs; a nan, inf, -inf, 0 or -0 in 1024)
    and any int64, their text as NumPy's astype writes it."""
    v = np.ldexp(1.0 + rng.random(m), rng.integers(-60, 61, m)) * rng.choice([-1.0, 1.0], m)
    for k, special in zip((7, 13, 17, 19, 23), (np.nan, np.inf, -np.inf, 0.0, -0.0)):
        v[k::1024] = special
    ints = rng.integers(-2**63, 2**63 - 1, size=m, dtype=np.int64, endpoint=True)
    u32 = v.astype("U32")
    return {"text/cast/U32->float64": (u32, lambda: np.empty(m, np.float64)),
            "text/cast/float64->U32": (v, lambda: np.empty(m, "U32")),
            "text/cast/int64->U21": (ints, lambda: np.empty(m, "U21")),
            "text/cast/U21->int64": (ints.astype("U21"), lambda: np.empty(m, np.int64)),
            "text/cast/string->float64": (u32.astype(object), lambda: np.empty(m, np.float64))}


def datetime_workloads(np, rng, m):
    """text/cast/datetime64[s]->U32 and back over m values: seconds from 1800-01-01 to
    2200-01-01 (as `ckernel bench`'s, another generator), the text astype("U32") writes."""
    start = np.datetime64("1800-01-01T00:00:00").astype(np.int64)
    t = (start + rng.integers(0, 146097 * 86400, size=m)).astype("M8[s]")
    return {"text/cast/datetime64[s]->U32": (t, lambda: np.empty(m, "U32")),
            "text/cast/U32->datetime64[s]": (t.astype("U32"), lambda: np.empty(m, "M8[s]"))}


def text_equal_workloads(np, m):
    """text/equal/string over m pairs, as bench/workloads_text.c makes them: the decimal text of
    int64 values of 1 to 12 digits; the second text equals the first at about half the
    pairs, and elsewhere differs in the last digit (same length) or in length. NumPy
    compares the two as U arrays (U13: the longest text), ckernel as string arrays of the
    same text."""
    rng = np.random.default_rng(271828)
    a = rng.integers(0, 10 ** rng.integers(1, 13, m))
    pick = rng.integers(0, 4, m)
    b = np.where(pick < 2, a, np.where(pick == 2, a ^ 1, a * 10 + 1))
    first, second = a.astype("U"), b.astype("U")
    u = np.promote_types(first.dtype, second.dtype)
    TEXT_SECOND[0] = second.astype(u)
    return {"text/equal/string": (first.astype(u), lambda: np.empty(m, np.bool_))}


# text/equal/string's second argument (make_workloads sets it).
TEXT_SECOND = [None]

# call/dot/float64's second argument (make_workloads sets it).
DOT_SECOND = [None]


def dot_columns(n):
    """DOT_COLS at the default size (ROWS_2D x DOT_COLS elements), fewer at small sizes."""
    return max(1, min(DOT_COLS, n // ROWS_2D))


def numpy_op(np, name):
    """What NumPy does for workload `name`, into a preallocated dst."""
    return {"reduce/sum/float64": lambda d, s: np.sum(s, out=d),
            "reduce/min/float64": lambda d, s: np.min(s, out=d),
            "reduce/sum/float64/axis0": lambda d, s: np.sum(s, axis=0, out=d),
            "accumulate/cumsum/float64": lambda d, s: np.cumsum(s, out=d),
            "call/dot/float64": lambda d, s: np.einsum("ij,ij->i", s, DOT_SECOND[0], out=d),
            # NumPy 1.24's == on U arrays (its ufunc equal has no loop for them): a new
            # result, copied into dst.
            "text/equal/string": lambda d, s: np.copyto(d, s == TEXT_SECOND[0])}.get(
        name, lambda d, s: np.copyto(d, s, casting="unsafe"))


def time_pair(np, ck, src, dst, repeat, np_op, clock=time.perf_counter_ns):
    """Alternating samples into the same dst; (ckernel ns/elem, NumPy ns/elem) medians, per
    source element. Both run on this thread, so `clock` may be its CPU time
    (time.thread_time_ns)."""
    ck_times, np_times = [], []
    for k in range(repeat + 1):  # round 0 warms both up (page faults, caches) uncounted
        t0 = clock()
        ck.run(dst, src)
        t1 = clock()
        np_op(dst, src)
        t2 = clock()
        if k > 0:
            ck_times.append((t1 - t0) / src.size)
            np_times.append((t2 - t1) / src.size)
    return statistics.median(ck_times), statistics.median(np_times)


def same_result(np, ck, src, make_dst, np_op=None, name=""):
    """Both write src into their own fresh destination; equal bit for bit? The two start
    with different bytes, so an element that either leaves unwritten makes them differ. A
    whole float sum only within its rounding (two pairwise sums, associated differently)."""
    np_op = np_op or numpy_op(np, name)
    a, b = make_dst(), make_dst()
    a.reshape(-1).view(np.uint8).fill(0x5A)
    b.reshape(-1).view(np.uint8).fill(0xA5)
    ck.run(a, src)
    np_op(b, src)
    if name == "reduce/sum/float64":
        bound = (10 + np.log2(src.size)) * 2.0 ** -53 * float(np.sum(np.abs(src)))
        return bool(abs(float(a) - float(b)) <= bound)
    if name == "call/dot/float64":  # two sums of the products, associated differently
        mag = np.sum(np.abs(src * DOT_SECOND[0]), axis=1)
        return bool(np.all(np.abs(a - b) <= (src.shape[1] + 20) * 2.0 ** -53 * mag))
    return a.tobytes() == b.tobytes()


def alternating_medians(runs, n, repeat):
    """Each (run, clock)'s median time per element over `repeat` rounds in which they take
    turns, so that all see the same machine state; round 0 warms them up uncounted."""
    times = [[] for _ in runs]
    for k in range(repeat + 1):
        for j, (run, clock) in enumerate(runs):
            t0 = clock()
            run()
            t1 = clock()
            if k > 0:
                times[j].append((t1 - t0) / n)
    return [statistics.median(t) for t in times]


def expression_contestants(np, name, text, args, dst, clock, opts):
    """What times the expression besides ckernel: [(label, run() -> its result, clock)],
    NumPy's always (np.dot for a reduction), numexpr's and Numba's when installed (their
    absence is said once; Numba's @vectorize has no reductions)."""
    if opts.get("reduce"):
        out = [("NumPy", lambda: np.dot(args["a"], args["b"]), clock)]
    else:
        # NumPy as a user writes it: the text is Python over the arguments (a new result).
        code = compile(text, name, "eval")
        functions = {k: getattr(np, k) for k in ("sin", "cos", "exp", "where")}
        out = [("NumPy", lambda: eval(code, functions, args), clock)]
    try:
        import numexpr
    except ImportError:
        numexpr = None
    if numexpr is not None:
        default = numexpr.detect_number_of_cores()

        def ne(threads):
            def run():
                numexpr.set_num_threads(threads)
                if opts.get("reduce"):
                    return numexpr.evaluate(text, local_dict=args)
                return numexpr.evaluate(text, local_dict=args, out=dst)
            return run
        out.append(("numexpr 1 thr", ne(1), clock))
        # Its worker threads' CPU time is not this thread's: the wall clock.
        out.append(("numexpr %d thr (wall)" % default, ne(default), time.perf_counter_ns))
    try:
        import numba
    except ImportError:
        numba = None
    if numba is not None and not opts.get("reduce"):
        names = list(args)
        sig = "%s(%s)" % ("boolean" if opts.get("dtype") == "bool" else "float64", ", ".join(
            "float64" if isinstance(args[k], float) else args[k].dtype.name for k in names))
        # The text as a Python function of the arguments, one element at a time.
        src = "from math import sin, cos, exp\ndef f(%s):\n    return %s\n" % (
            ", ".join(names), opts.get("numba", text))
        scope = {}
        exec(compile(src, name, "exec"), scope)
        vec = numba.vectorize([sig])(scope["f"])
        ordered = [args[k] for k in names]
        out.append(("Numba @vectorize", lambda: vec(*ordered, out=dst), clock))
    return out


def same_values(np, got, want, exact):
    """Bytes equal, or (a transcendental function: another library's, another rounding)
    within 8 ULP (each library's functions within a few); a sum (another order) within 2^-30
    of its magnitude."""
    got, want = np.asarray(got), np.asarray(want)
    if got.tobytes() == want.tobytes():
        return True
    if exact or got.shape != want.shape or got.dtype != np.float64:
        return False
    g, w = got.view(np.int64).astype(object), want.view(np.int64).astype(object)
    if got.ndim == 0:
        return abs(float(got) - float(want)) <= 2.0 ** -30 * max(abs(float(want)), 1.0)
    ordered = [(x if x >= 0 else -(2**63) - x) for x in (g.tolist())]
    ref = [(x if x >= 0 else -(2**63) - x) for x in (w.tolist())]
    return max(abs(x - y) for x, y in zip(ordered, ref)) <= 8


def compare_expressions(np, lib, n, repeat, clock, flt):
    """The expr/... rows (EXPRESSIONS), and (name, reason) of those skipped."""
    rng = np.random.default_rng(54321)
    rows, skipped = [], []
    for name, (text, spec, jit, opts) in EXPRESSIONS.items():
        if flt and flt not in name:
            continue
        args = {}
        for k, v in spec.items():
            if isinstance(v, float):
                args[k] = v
            elif v == "int32":
                args[k] = rng.integers(-2**31, 2**31, size=n, dtype=np.int32)
            elif "range" in opts:
                args[k] = rng.uniform(*opts["range"], size=n).astype(v)
            else:
                args[k] = (rng.standard_normal(n) * 1e3).astype(v)
        dst = (np.zeros((), np.float64) if opts.get("reduce")
               else np.empty(n, opts.get("dtype", "float64")))
        wrapped = {k: v if not isinstance(v, float) else np.array(v) for k, v in args.items()}
        if opts.get("reduce") or opts.get("threads", 1) > 1:
            ck = EvalKernel(lib, text, dst, wrapped, opts.get("threads", 1),
                            opts.get("reduce", False))
        else:
            ck = ExprKernel(lib, text, dst, wrapped, jit)
        # Exact where no function of another library is called (trig, gauss: libm's).
        exact = not any(f in text for f in ("sin", "cos", "exp", "sum"))
        try:
            if ck.skip:
                skipped.append((name, ck.skip))
                continue
            others = expression_contestants(np, name, text, args, dst, clock, opts)
            medians = alternating_medians([(lambda: ck.run(dst), clock)] +
                                          [(run, c) for _, run, c in others], n, repeat)
            # The results, each into its own destination where it takes one.
            dst.reshape(-1).view(np.uint8).fill(0xA5)
            ck.run(dst)
            mine = dst.copy()
            same, agree = {}, {}
            for label, run, _ in others:
                dst.reshape(-1).view(np.uint8).fill(0xA5)
                r = np.asarray(run(), dtype=mine.dtype)
                same[label] = r.tobytes() == mine.tobytes()
                agree[label] = same_values(np, r, mine, exact)
        finally:
            ck.free()
        row = {"workload": name, "expression": text, "elements": n, "shape": [n],
               "ckernel_ns_per_elem": medians[0], "numpy_ns_per_elem": medians[1],
               "ratio": medians[0] / medians[1] if medians[1] > 0 else None,
               "same_bytes": same["NumPy"], "agrees": agree["NumPy"], "others": {}}
        for (label, _, _), m in zip(others[1:], medians[2:]):
            row["others"][label] = {"ns_per_elem": m, "same_bytes_as_ckernel": same[label],
                                    "agrees_with_ckernel": agree[label]}
        rows.append(row)
    return rows, skipped


def print_expressions(rows, skipped):
    labels = []
    for r in rows:
        labels += [k for k in r["others"] if k not in labels]
    print("expressions: ckernel's kernel (ck_make_expr, built once) into a preallocated "
          "destination; NumPy as a user writes it (a temporary per operator, a new result)%s"
          % ("; %s into the same destination" % ", ".join(labels) if labels else
             " (numexpr and Numba: not installed)"))
    print("%-22s %10s %14s %14s %14s%s" % ("workload", "elements", "ckernel ns/el",
                                           "NumPy ns/el", "ckernel/NumPy",
                                           "".join(" %20s" % (k + " ns/el") for k in labels)))
    for r in rows:
        print("%-22s %10d %14.3f %14.3f %14s%s%s" % (
            r["workload"], r["elements"], r["ckernel_ns_per_elem"], r["numpy_ns_per_elem"],
            "%.2f" % r["ratio"] if r["ratio"] is not None else "-",
            "".join(" %20s" % ("%.3f%s" % (r["others"][k]["ns_per_elem"],
                                           "" if r["others"][k]["agrees_with_ckernel"]
                                           else " (differs)")
                               if k in r["others"] else "-") for k in labels),
            "" if r["agrees"] else "  RESULTS DIFFER"))
    for name, why in skipped:
        print("%-22s skipped: %s" % (name, why))


def math_inputs(np, name, n):
    """The math/ row's operands: uniform in its range (the second of power in [-10, 10)),
    every 7th isnan input a NaN."""
    fn, dtype, _, (lo, hi) = MATH[name]
    rng = np.random.default_rng(777)
    srcs = [rng.uniform(lo, hi, n).astype(dtype)]
    if fn == "power":
        srcs.append(rng.uniform(-10, 10, n).astype(dtype))
    if fn == "isnan":
        srcs[0][::7] = np.nan
    return fn, srcs


def ulps_from_mpmath(np, fn, srcs, got, count=400):
    """The largest error, in units in the last place of the correctly rounded value, of
    `got` over the first `count` elements (mpmath at 120 bits); None without mpmath."""
    try:
        import mpmath
    except ImportError:
        return None
    f = {"exp": mpmath.exp, "sin": mpmath.sin, "cos": mpmath.cos, "log": mpmath.log,
         "power": mpmath.power}.get(fn)
    if f is None:
        return None
    worst = 0.0
    with mpmath.workprec(120):
        for i in range(min(count, got.size)):
            exact = f(*[mpmath.mpf(float(s[i])) for s in srcs])
            near = got.dtype.type(float(exact))
            if not np.isfinite(near) or near == 0:
                continue
            ulp = float(np.spacing(np.abs(near)))
            worst = max(worst, float(abs(mpmath.mpf(float(got[i])) - exact)) / ulp)
    return worst


def math_contestants(np, fn, srcs, dst, clock):
    """NumPy's ufunc into dst, and a Numba @vectorize of the math module's function (its
    absence said by the caller): [(label, run, clock)]."""
    uf = getattr(np, fn)
    out = [("NumPy", lambda: uf(*srcs, out=dst), clock)]
    try:
        import math
        import numba
    except ImportError:
        return out
    body = {"power": "math.pow(x, y)", "isnan": "math.isnan(x)"}.get(fn, "math.%s(x)" % fn)
    names = ["x", "y"][:len(srcs)]
    scope = {"math": math}
    exec("def f(%s):\n    return %s\n" % (", ".join(names), body), scope)
    sig = "%s(%s)" % ("boolean" if fn == "isnan" else dst.dtype.name,
                      ", ".join(s.dtype.name for s in srcs))
    vec = numba.vectorize([sig])(scope["f"])
    out.append(("Numba @vectorize", lambda: vec(*srcs, out=dst), clock))
    return out


def compare_math(np, lib, n, repeat, clock, flt):
    """The math/ rows: ckernel's kernel (built once) against NumPy's ufunc and Numba's
    @vectorize into the same destination, and each one's largest ULP error against mpmath on
    a sample where a function rounds (the exact ones must equal NumPy's bits)."""
    rows = []
    for name, (_, dtype, threads, _) in MATH.items():
        if flt and flt not in name:
            continue
        fn, srcs = math_inputs(np, name, n)
        dst = np.empty(n, bool if fn == "isnan" else dtype)
        ck = MathKernel(lib, fn, dst, srcs, threads)
        try:
            others = math_contestants(np, fn, srcs, dst, clock)
            # two threads: their CPU time is not this thread's, so the wall clock
            mine_clock = time.perf_counter_ns if threads > 1 else clock
            medians = alternating_medians([(lambda: ck.run(dst), mine_clock)] +
                                          [(run, c) for _, run, c in others], n, repeat)
            dst.view(np.uint8).fill(0x5A)
            ck.run(dst)
            mine = dst.copy()
            results = {}
            for label, run, _ in others:
                dst.reshape(-1).view(np.uint8).fill(0xA5)
                run()
                results[label] = dst.copy()
        finally:
            ck.free()
        theirs = results["NumPy"]
        if fn in MATH_EXACT:
            ok = mine.tobytes() == theirs.tobytes()
        else:  # within 1 ULP (ours) + 4 (NumPy's SIMD loops) of each other, NaNs alike
            ok = bool(np.all((np.isnan(mine) == np.isnan(theirs)) &
                             ((mine == theirs) | np.isnan(mine) |
                              (np.abs(mine - theirs) <= 5 * np.spacing(np.abs(theirs))))))
        row = {"workload": name, "elements": n, "shape": [n], "threads": threads,
               "ckernel_ns_per_elem": medians[0], "numpy_ns_per_elem": medians[1],
               "ratio": medians[0] / medians[1] if medians[1] > 0 else None,
               "same_bytes": mine.tobytes() == theirs.tobytes(), "agrees": ok,
               "ckernel_max_ulp": ulps_from_mpmath(np, fn, srcs, mine),
               "numpy_max_ulp": ulps_from_mpmath(np, fn, srcs, theirs), "others": {}}
        for (label, _, _), m in zip(others[1:], medians[2:]):
            row["others"][label] = {"ns_per_elem": m, "same_bytes_as_ckernel":
                                    results[label].tobytes() == mine.tobytes(),
                                    "max_ulp": ulps_from_mpmath(np, fn, srcs, results[label])}
        rows.append(row)
    return rows


def print_math(rows):
    labels = []
    for r in rows:
        labels += [k for k in r["others"] if k not in labels]
    print("math: ckernel's kernel (ck_make_call, built once; ck_parallel_strided on the row's "
          "threads, timed by the wall clock on 2) against NumPy's ufunc (1 thread)%s into the "
          "same destination; ulp: the largest error against mpmath on the first 400 elements"
          % (" and " + ", ".join(labels) if labels else " (Numba: not installed)"))

    def ulp(v):
        return "%.2f" % v if v is not None else "-"
    print("%-28s %14s %8s %14s %8s %14s%s" % (
        "workload", "ckernel ns/el", "ulp", "NumPy ns/el", "ulp", "NumPy/ckernel",
        "".join(" %22s %8s" % (k + " ns/el", "ulp") for k in labels)))
    for r in rows:
        print("%-28s %14.3f %8s %14.3f %8s %14s%s%s" % (
            r["workload"], r["ckernel_ns_per_elem"], ulp(r["ckernel_max_ulp"]),
            r["numpy_ns_per_elem"], ulp(r["numpy_max_ulp"]),
            "%.2f" % (1 / r["ratio"]) if r["ratio"] else "-",
            "".join(" %22.3f %8s" % (r["others"][k]["ns_per_elem"], ulp(r["others"][k]["max_ulp"]))
                    if k in r["others"] else " %22s %8s" % ("-", "-") for k in labels),
            "" if r["agrees"] else "  RESULTS DIFFER"))


def compare(args):
    import numpy as np
    path = find_lib(args.lib)
    lib = load(path)
    repeat = args.repeat or (3 if args.quick else 11)
    # This thread's CPU time counts only this thread: --clock cpu keeps ck_assign on it.
    maker = ((lambda lib, dst, src: PerCallAssign(lib, dst, src,
                                                  1 if args.clock == "cpu" else 0))
             if args.per_call_build else Kernel)
    timing = ("ck_assign per sample (build + run + destroy timed)" if args.per_call_build
              else "kernel built once with ck_make_assign, only its calls timed")
    rows, failed = [], []
    clock = time.thread_time_ns if args.clock == "cpu" else time.perf_counter_ns
    for name, (src, make_dst) in make_workloads(np, args.size).items():
        if args.filter and args.filter not in name:
            continue
        dst = make_dst()
        reduction = REDUCTIONS.get(name)
        if name == "call/dot/float64":
            ck = Kernel(lib, dst, src, second=DOT_SECOND[0])
        elif name == "text/cast/string->float64":
            ck = StringKernel(lib, dst, src.astype("U32"))
        elif name == "text/equal/string":
            ck = TextEqualKernel(lib, dst, src, TEXT_SECOND[0])
        else:
            ck = Kernel(lib, dst, src, reduction) if reduction else maker(lib, dst, src)
        np_op = numpy_op(np, name)
        try:
            ck_ns, np_ns = time_pair(np, ck, src, dst, repeat, np_op, clock)
            ok = same_result(np, ck, src, make_dst, np_op, name)
        finally:
            ck.free()
        if not ok:
            failed.append(name)
        rows.append({"workload": name, "elements": int(src.size), "shape": list(src.shape),
                     "ckernel_ns_per_elem": ck_ns, "numpy_ns_per_elem": np_ns,
                     "ratio": ck_ns / np_ns if np_ns > 0 else None, "same_bytes": ok})
    expr_rows, expr_skipped = [], []
    if any(not args.filter or args.filter in name for name in EXPRESSIONS):
        expr_rows, expr_skipped = compare_expressions(np, lib, args.size, repeat, clock,
                                                      args.filter)
    failed += [r["workload"] for r in expr_rows if not r["agrees"]]
    math_rows = []
    if any(not args.filter or args.filter in name for name in MATH):
        math_rows = compare_math(np, lib, min(args.size, MATH_N), repeat, clock, args.filter)
    failed += [r["workload"] for r in math_rows if not r["agrees"]]
    if not rows and not expr_rows and not expr_skipped and not math_rows:
        raise UsageError("no workload matches --filter %r (workloads: %s)"
                         % (args.filter, ", ".join(WORKLOADS + list(EXPRESSIONS) + list(MATH))))
    threshold = (lib.ck_get_streaming_threshold()
                 if hasattr(lib, "ck_get_streaming_threshold") else None)
    version = lib.ck_version_string().decode()
    print("ckernel %s (%s) vs NumPy %s: %d samples each, alternating; medians%s"
          % (version, os.path.realpath(path), np.__version__, repeat,
             " of this thread's CPU time (--clock cpu)" if args.clock == "cpu" else ""))
    if rows:
        print("ckernel: %s; NumPy: np.copyto(dst, src, casting='unsafe'), or for reduce/, "
              "accumulate/ and call/dot: np.sum, np.min, np.cumsum and np.einsum into dst; "
              "text/equal: U == U"
              % timing)
        if threshold is not None:
            print("ckernel streaming stores from %s bytes"
                  % (threshold if threshold < 2**63 else "never"))
        print("%-30s %10s %14s %14s %14s" % ("workload", "elements", "ckernel ns/el",
                                             "NumPy ns/el", "ckernel/NumPy"))
    for r in rows:
        print("%-30s %10d %14.3f %14.3f %14s%s" % (
            r["workload"], r["elements"], r["ckernel_ns_per_elem"], r["numpy_ns_per_elem"],
            "%.2f" % r["ratio"] if r["ratio"] is not None else "-",
            "" if r["same_bytes"] else "  RESULTS DIFFER"))
    if expr_rows or expr_skipped:
        print_expressions(expr_rows, expr_skipped)
    if math_rows:
        print_math(math_rows)
    rows += expr_rows + math_rows
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"ckernel_version": version, "numpy_version": np.__version__,
                       "ckernel_timing": "per_call_build" if args.per_call_build else "kernel",
                       "repeat": repeat, "size": args.size, "streaming_min_bytes": threshold,
                       "clock": args.clock,
                       "results": rows,
                       "skipped": [{"workload": w, "reason": why} for w, why in expr_skipped]},
                      f, indent=1)
    status = 0
    if args.plot:
        status = plot([r["workload"] for r in rows],
                      [("ckernel / NumPy", [r["ratio"] for r in rows])],
                      "ckernel time / NumPy time, same buffers (< 1: ckernel faster)",
                      args.plot)
    if failed:
        print("ckernel and NumPy results differ for: " + ", ".join(failed))
        return 1
    return status


def from_bench_json(args):
    """The "x memcpy" and "x loop" ratios of a `ckernel bench --json` file."""
    if not args.plot:
        raise UsageError("--from-bench-json needs --plot FILE.png|FILE.svg")
    try:
        with open(args.from_bench_json) as f:
            results = json.load(f)["results"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise UsageError("%s: not a `ckernel bench --json` file (%s)"
                         % (args.from_bench_json, e))
    labels, memcpy, loop = [], [], []
    for r in results:
        if r.get("ratio_memcpy") is None and r.get("ratio_loop") is None:
            continue  # skipped, or per-op workloads without a baseline
        label = r["workload"]
        if r.get("threads", 1) != 1:
            label += " (%d thr)" % r["threads"]
        if r.get("target"):
            label += " [%s]" % r["target"]
        labels.append(label)
        memcpy.append(r.get("ratio_memcpy"))
        loop.append(r.get("ratio_loop"))
    if not labels:
        raise UsageError("%s holds no ratio to plot" % args.from_bench_json)
    return plot(labels, [("x memcpy", memcpy), ("x loop", loop)],
                "ckernel bench: ckernel time / memcpy and / plain C loop (< 1: faster)",
                args.plot)


def plot(labels, series, title, path):
    """Horizontal bars, one group per label and one bar per series, each bar labelled with
    its ratio, a vertical line at 1.0. Returns 0, or 2 without matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")  # files only, no display needed
        import matplotlib.pyplot as plt
    except ImportError:
        print("--plot needs python3-matplotlib (scripts/install-deps.sh installs it)",
              file=sys.stderr)
        return 2
    height = 0.8 / len(series)
    fig, ax = plt.subplots(figsize=(9, 0.3 * len(labels) * len(series) + 1.5))
    for k, (name, values) in enumerate(series):
        ys = [y - 0.4 + height * (k + 0.5) for y in range(len(labels))]
        kept = [(y, v) for y, v in zip(ys, values) if v is not None]
        bars = ax.barh([y for y, _ in kept], [v for _, v in kept], height=height, label=name)
        ax.bar_label(bars, labels=["%.2f" % v for _, v in kept], padding=2, fontsize=7)
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_yticks(range(len(labels)))
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    ax.margins(x=0.12)  # room for the labels of the longest bars
    ax.set_title(title, fontsize=10)
    if len(series) > 1:
        # Below the axes: inside, it would hide the bars near 1.0 and their labels.
        ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.06), ncol=len(series))
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0].split(": ", 1)[1])
    ap.add_argument("--lib", help="libckernel.so (default: $CKERNEL_LIB, else build/src/)")
    ap.add_argument("--size", type=int, default=DEFAULT_SIZE,
                    help="elements per workload (default 10 Mi)")
    ap.add_argument("--repeat", type=int, default=0, help="samples (default 11, --quick 3)")
    ap.add_argument("--quick", action="store_true", help="3 samples")
    ap.add_argument("--filter", help="only workloads whose name contains this")
    ap.add_argument("--per-call-build", action="store_true",
                    help="time ck_assign (kernel built on every call) instead")
    ap.add_argument("--json", help="write the results as JSON")
    ap.add_argument("--clock", choices=["wall", "cpu"], default="wall",
                    help="wall (default), or this thread's CPU time: other processes' turns "
                         "on a shared machine's cores are not counted")
    ap.add_argument("--plot", help="draw the ratios as bars (.png or .svg)")
    ap.add_argument("--from-bench-json", metavar="FILE",
                    help="plot the ratios of a `ckernel bench --json` file instead")
    args = ap.parse_args()
    if args.size < 1 or args.repeat < 0:
        ap.error("--size must be positive and --repeat not negative")
    if args.plot and os.path.splitext(args.plot)[1].lower() not in (".png", ".svg"):
        ap.error("--plot takes a .png or .svg file name")
    try:
        sys.exit(from_bench_json(args) if args.from_bench_json else compare(args))
    except UsageError as e:
        print("compare_numpy.py: %s" % e, file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
