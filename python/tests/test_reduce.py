"""python/tests/test_reduce.py: ckernel.reduce, ckernel.accumulate and ckernel.call("dot", ...).

Against NumPy 1.24 on the same buffers: every reduction of every scalar type over every axis
set of C-order, transposed and reversed views, with keepdims (the result's dtype must be
NumPy's: sum of int8 is int64); every accumulation along every axis, bit for bit; and, with
Hypothesis, random views of 0 to 4 dimensions (empty ones too), axis sets, keepdims, out=,
ckernel.Array arguments. Integers, bool, min and max must be equal; float sums and products
within a rounding bound that holds for any order of the fold (4 (n + 1) eps times sum|x| or
|product|; NumPy's order is another). Ragged and option data against hand-computed values; dot against
np.einsum("ij,ij->i"); every error path; references, out= sharing memory with a, user
callables (an identity set from Python) and the GIL.
"""
import ctypes
import gc
import sys

import numpy as np
import pytest

import ckernel as ck
from conftest import fails_at_every_allocation, raises_status

SCALARS = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float16", "float32", "float64", "complex64", "complex128"]
REDUCE = {"sum": np.sum, "prod": np.prod, "min": np.min, "max": np.max, "all": np.all,
          "any": np.any}


def cumprod(a, axis):
    """NumPy's cumprod, but for complex types each product (ar*br - ai*bi, ar*bi + ai*br) in
    order, one ufunc per operation so nothing is fused, as ckernel computes it on every CPU.
    NumPy 1.24's own complex cumprod goes through its strided complex128 multiply, which on
    an AVX-512 machine fuses into FMAs and then differs from NumPy's contiguous multiply."""
    if a.dtype.kind != "c":
        return np.cumprod(a, axis=axis)
    x = np.moveaxis(a, axis, 0)
    re, im = np.empty(x.shape, x.real.dtype), np.empty(x.shape, x.real.dtype)
    if x.shape[0] > 0:
        re[0], im[0] = x[0].real, x[0].imag
    for k in range(1, x.shape[0]):
        br, bi = x[k].real, x[k].imag
        re[k] = re[k - 1] * br - im[k - 1] * bi
        im[k] = re[k - 1] * bi + im[k - 1] * br
    out = np.empty(x.shape, x.dtype)
    out.real, out.imag = re, im
    return np.moveaxis(out, 0, axis)


ACCUMULATE = {"cumsum": np.cumsum, "cumprod": cumprod, "cummin": np.minimum.accumulate,
              "cummax": np.maximum.accumulate}


def values(dtype, shape, rng, name=""):
    """Random values for `name`: integers of the whole range and small ones (zeros for all
    and any), floats of several magnitudes with NaN and inf (real floats, not for prod),
    products' factors near 1 so that no order of multiplication overflows."""
    dt = np.dtype(dtype)
    n = int(np.prod(shape, dtype=np.int64))
    if dt.kind == "b":
        return rng.integers(0, 2, n).astype(dt).reshape(shape)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        v = rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
        small = rng.random(n) < 0.6
        v[small] = rng.integers(-3 if dt.kind == "i" else 0, 4, int(small.sum())).astype(dt)
        return v.reshape(shape)
    part = {"float16": np.float16, "float32": np.float32, "complex64": np.float32}.get(dtype, np.float64)
    if name in ("prod", "cumprod"):
        top = {np.float16: 10, np.float32: 60, np.float64: 500}[part]  # |product| < 2**top
        c = 2.0 ** (top / max(n, 1))
        mag = c ** rng.uniform(-1, 1, n)
        if dt.kind == "c":
            v = mag * np.exp(1j * rng.uniform(0, 2 * np.pi, n))
        else:
            v = mag * rng.choice([-1.0, 1.0], n)
        return v.astype(dt).reshape(shape)
    scale = 1 if part is np.float16 else 2  # float16 sums of 256 elements stay finite
    v = rng.standard_normal(n) * 10.0 ** rng.integers(-2, scale + 1, n)
    v[rng.random(n) < 0.1] = 0.0
    if dt.kind == "c":
        v = v + 1j * rng.standard_normal(n) * 10.0 ** rng.integers(-2, scale + 1, n)
    else:
        v[rng.random(n) < 0.03] = np.nan
        v[rng.random(n) < 0.03] = np.inf
        v[rng.random(n) < 0.03] = -np.inf
    return v.astype(dt).reshape(shape)


def numpy_reduce(name, a, axis, keepdims):
    with np.errstate(all="ignore"):
        return np.asarray(REDUCE[name](a, axis=axis, keepdims=keepdims))


def reduced_count(a, axis):
    if axis is None:
        return a.size
    axes = (axis,) if isinstance(axis, int) else axis
    return int(np.prod([a.shape[i] for i in axes], dtype=np.int64))


def check_reduce(name, a, axis, keepdims, got, want):
    """got (ckernel's) against want (NumPy's) for the reduction `name` of a."""
    got = np.asarray(got)
    assert got.dtype == want.dtype, (name, a.dtype, got.dtype, want.dtype)
    assert got.shape == want.shape, (name, a.shape, axis, keepdims, got.shape, want.shape)
    if got.dtype.kind not in "fc" or name in ("min", "max"):
        assert np.array_equal(got, want, equal_nan=got.dtype.kind in "fc"), (name, axis, a, got, want)
        return
    # A float fold's bits depend on its order, and NumPy's order is another: both are within
    # (n + 1) eps of the exact value, relative to sum|x| (a sum) or to |product| (a product).
    finite = np.isfinite(want)
    assert np.array_equal(got[~finite], want[~finite], equal_nan=True), (name, axis, a, got, want)
    eps = float(np.finfo(want.dtype).eps)
    n = reduced_count(a, axis)
    wide = a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)
    if name == "sum":
        scale = np.asarray(np.sum(np.abs(wide), axis=axis, keepdims=keepdims))
    else:
        scale = np.abs(want.astype(wide.dtype))
    tol = 4 * (n + 1) * eps * scale + float(np.finfo(want.dtype).tiny)
    with np.errstate(invalid="ignore"):  # inf - inf where both are inf
        err = np.abs(got.astype(wide.dtype) - want.astype(wide.dtype))
    assert np.all(err[finite] <= tol[finite]), (name, axis, a, got, want)


# ---- every scalar type, every reduction, every axis set ----

def layouts(shape, dtype, rng, name):
    """The same values as C order, a transposed view and a reversed, strided view."""
    base = values(dtype, shape, rng, name)
    yield base
    yield np.transpose(values(dtype, shape[::-1], rng, name))
    wide = values(dtype, shape[:-1] + (2 * shape[-1],), rng, name)
    yield wide[::-1, ..., ::-2]


AXES_3D = [None, 0, 1, 2, -1, -3, (), (0, 1), (2, 0), (1, 2), (0, 1, 2), (-1, 0)]


@pytest.mark.parametrize("name", sorted(REDUCE))
def test_every_reduction_of_every_type_matches_numpy(name):
    for dtype in SCALARS:
        rng = np.random.default_rng(SCALARS.index(dtype) * 10 + sorted(REDUCE).index(name))
        for a in layouts((3, 4, 5), dtype, rng, name):
            for axis in AXES_3D:
                for keepdims in (False, True):
                    got = ck.reduce(name, a, axis=axis, keepdims=keepdims)
                    want = numpy_reduce(name, a, axis, keepdims)
                    check_reduce(name, a, axis, keepdims, got, want)


def test_result_types_are_numpy_1_24s():
    for dtype in SCALARS:
        a = np.ones((2, 3), dtype=dtype)
        for name, fn in REDUCE.items():
            assert ck.reduce(name, a, axis=1).dtype == fn(a, axis=1).dtype, (name, dtype)
        for name, fn in ACCUMULATE.items():
            assert ck.accumulate(name, a).dtype == fn(a, axis=-1).dtype, (name, dtype)


def test_zero_dimensional_results_are_numpy_scalars_as_in_numpy():
    r = ck.reduce("sum", np.arange(5, dtype=np.int8))
    assert type(r) is np.int64 and r == 10          # np.sum gives a NumPy scalar too
    r = ck.reduce("max", np.array([[1.5, -2.0]], dtype=np.float32), axis=(0, 1))
    assert type(r) is np.float32 and r == 1.5
    assert type(ck.reduce("all", [1.0, 0.0])) is np.bool_
    r = ck.reduce("sum", np.arange(4.0), keepdims=True)  # keepdims: an array, as NumPy's
    assert isinstance(r, np.ndarray) and r.shape == (1,) and r.tolist() == [6.0]
    assert type(ck.reduce("prod", 5)) is np.int64    # a Python number: 0-d int64, a cast
    assert ck.reduce("sum", np.float16(2.5)) == 2.5


def test_empty_arrays_of_stride_0():
    """NumPy gives empty arrays strides of 0 and a 1-byte buffer: a fold of no elements must
    touch neither (found by the Hypothesis test under AddressSanitizer: the accumulate leaves
    read and wrote 8 bytes of the empty result)."""
    for shape in [(2, 0), (0, 3), (2, 0, 3), (0,)]:
        a = np.zeros(shape, dtype=np.int64)
        for axis in [None, ()] + list(range(a.ndim)):
            for name in ["sum", "prod", "max", "any"]:
                try:
                    want = numpy_reduce(name, a, axis, False)
                except ValueError:
                    with raises_status("CK_ERR_INVALID"):
                        ck.reduce(name, a, axis=axis)
                    continue
                check_reduce(name, a, axis, False, ck.reduce(name, a, axis=axis), want)
        for axis in range(a.ndim):
            assert ck.accumulate("cumsum", a, axis=axis).shape == shape
        assert ck.call("dot", a, a).shape == shape[:-1]


def test_arguments_of_every_kind():
    x = [[1, 2, 3], [4, 5, 6]]
    assert ck.reduce("sum", x, axis=0).tolist() == [5, 7, 9]          # a nested list: int64
    assert ck.reduce("prod", x, axis=-1).tolist() == [6, 120]
    assert ck.reduce("sum", ck.Array(np.array(x, np.int16)), axis=1).tolist() == [6, 15]
    assert ck.reduce("add", np.array(x), axis=1).tolist() == [6, 15]  # a callable's name
    assert ck.reduce("logical_or", np.array(x) > 4).tolist() is True
    assert ck.reduce("maximum", np.array(x), axis=np.int64(0)).tolist() == [4, 5, 6]
    assert ck.accumulate("add", [1, 2, 3]).tolist() == [1, 3, 6]
    ro = np.arange(6.0).reshape(2, 3)
    ro.flags.writeable = False                       # a read-only source is fine
    assert ck.reduce("sum", ro, axis=1).tolist() == [3.0, 12.0]


# ---- ragged and option data, hand-computed ----

def test_ragged_reductions():
    x = ck.Array([[1, 2], [], [3]], "3 * var * int32")
    r = ck.reduce("sum", x, axis=1)
    assert isinstance(r, np.ndarray) and r.dtype == np.int64 and r.tolist() == [3, 0, 3]
    r = ck.reduce("sum", x, axis=0)          # columns of left-aligned rows: a var result
    assert isinstance(r, ck.Array) and r.type == "var * int64" and r.tolist() == [4, 2]
    assert ck.reduce("max", x, axis=0).tolist() == [3, 2]
    assert ck.reduce("prod", x) == 6
    assert ck.reduce("sum", x, axis=1, keepdims=True).tolist() == [[3], [0], [3]]
    r = ck.reduce("sum", x, axis=0, keepdims=True)
    assert r.type == "1 * var * int64" and r.tolist() == [[4, 2]]
    with raises_status("CK_ERR_INVALID", "at [1]", "no identity"):
        ck.reduce("min", x, axis=1)          # the empty row
    y = ck.Array([[[1, 2], [3, 4]], [[5, 6]]], "2 * var * 2 * float64")
    assert ck.reduce("sum", y, axis=(0, 1)).tolist() == [9.0, 12.0]
    assert ck.reduce("sum", y, axis=2).tolist() == [[3.0, 7.0], [11.0]]
    assert ck.reduce("min", y, axis=-1).tolist() == [[1.0, 3.0], [5.0]]


def test_option_data_with_and_without_skipna():
    x = ck.Array([[1, None, 3], [None, None], [4]], type="3 * var * ?int32")
    cases = {("sum", False): [None, None, 4], ("sum", True): [4, 0, 4],
             ("prod", True): [3, 1, 4], ("min", False): [None, None, 4],
             ("min", True): [1, None, 4], ("max", True): [3, None, 4],
             ("any", True): [True, False, True]}
    for (name, skipna), want in cases.items():
        r = ck.reduce(name, x, axis=1, skipna=skipna)
        assert isinstance(r, ck.Array) and r.tolist() == want, (name, skipna, r.tolist())
    assert ck.reduce("sum", x, axis=1, skipna=True).type == "3 * ?int64"
    assert ck.reduce("sum", x, skipna=True).tolist() == 8
    assert ck.reduce("max", x, axis=0, skipna=True).tolist() == [4, None, 3]
    f = ck.Array([1.5, None, float("nan")], type="3 * ?float64")
    assert np.isnan(ck.reduce("sum", f, skipna=True).tolist())   # NaN is a value, not NA
    out = np.zeros(3, dtype=np.int64)                            # a skipna sum is never NA
    assert ck.reduce("sum", x, axis=1, skipna=True, out=out) is out and out.tolist() == [4, 0, 4]
    with raises_status("CK_ERR_NA", "skipna"):
        ck.reduce("sum", x, axis=1, out=np.zeros(3, dtype=np.int64))


def test_a_value_never_becomes_na():
    # a signalling NaN with the NA's payload (a value of ?float32) is quieted onto the NA's
    # bits by any operation: the result is NaN, never NA (docs/design.md §14)
    snan = np.array([0x7F8007A2, 0x3F800000], dtype=np.uint32).view(np.float32)
    o = ck.Array([None, None], type="2 * ?float32")
    ck.call("add", snan, np.float32(1), out=o)
    got = o.tolist()
    assert np.isnan(got[0]) and got[1] == 2.0, got
    x = ck.Array(snan, type="2 * ?float32")
    for skipna in (False, True):
        s = ck.reduce("sum", x, skipna=skipna).tolist()
        assert s is not None and np.isnan(s), (skipna, s)
    c = ck.accumulate("cumsum", x).tolist()
    assert c[1] is not None and np.isnan(c[1]), c
    # float16's min and max fold in float32, which quiets 0x7da2 onto its NA, 0x7fa2
    h = ck.Array(np.array([0x7DA2, 0], dtype=np.uint16).view(np.float16), type="2 * ?float16")
    for name in ("min", "max"):
        for skipna in (False, True):
            m = ck.reduce(name, h, skipna=skipna).tolist()
            assert m is not None and np.isnan(m), (name, skipna, m)


def test_ragged_accumulations():
    x = ck.Array([[1, 2], [], [3, 4, 5]], "3 * var * int32")
    r = ck.accumulate("cumsum", x)
    assert r.type == "3 * var * int64" and r.tolist() == [[1, 3], [], [3, 7, 12]]
    assert ck.accumulate("cummax", ck.Array([[2, 1, 3]], "1 * var * int8")).tolist() == [[2, 2, 3]]
    with raises_status("CK_ERR_UNSUPPORTED"):
        ck.accumulate("cumsum", x, axis=0)   # above a var dimension: not built
    # options along the innermost axis: NA ends the row (ck.accumulate has no skipna)
    r = ck.accumulate("cumsum", ck.Array([[1, None, 2], [3, 4]], type="2 * var * ?int32"))
    assert r.type == "2 * var * ?int64" and r.tolist() == [[1, None, None], [3, 7]]
    # along an outer axis column by column: NA ends its column
    r = ck.accumulate("cumsum", ck.Array([[1, None], [2, 3], [4, 5]], type="3 * 2 * ?int32"),
                      axis=0)
    assert r.type == "3 * 2 * ?int64" and r.tolist() == [[1, None], [3, None], [7, None]]


# ---- accumulations: every type, every axis, bit for bit ----

@pytest.mark.parametrize("name", sorted(ACCUMULATE))
def test_every_accumulation_of_every_type_matches_numpy(name):
    for dtype in SCALARS:
        rng = np.random.default_rng(100 + SCALARS.index(dtype) * 10 + sorted(ACCUMULATE).index(name))
        for shape in [(7,), (3, 5), (2, 3, 4)]:
            for a in (layouts(shape, dtype, rng, name) if len(shape) > 1
                      else [values(dtype, shape, rng, name)]):
                for axis in range(-a.ndim, a.ndim):
                    got = ck.accumulate(name, a, axis=axis)
                    with np.errstate(all="ignore"):
                        want = ACCUMULATE[name](a, axis=axis)
                    assert got.dtype == want.dtype and got.shape == want.shape
                    assert np.array_equal(got, want, equal_nan=want.dtype.kind in "fc"), \
                        (name, dtype, axis, a, got, want)


def test_accumulate_defaults_to_the_last_axis_and_writes_out():
    a = np.arange(6, dtype=np.int16).reshape(2, 3)
    assert ck.accumulate("cumsum", a).tolist() == [[0, 1, 3], [3, 7, 12]]
    out = np.zeros((3, 2), dtype=np.float32).T          # a transposed out, of another dtype
    assert ck.accumulate("cumprod", a + 1, axis=0, out=out) is out
    assert out.tolist() == [[1, 2, 3], [4, 10, 18]]


# ---- out= ----

def test_out_is_written_and_returned():
    a = np.arange(24, dtype=np.int8).reshape(2, 3, 4)
    out = np.full(8, -1, dtype=np.int64)[::2]           # strided
    assert ck.reduce("sum", a, axis=(0, 1), out=out) is out
    assert out.tolist() == np.sum(a, axis=(0, 1)).tolist()
    o0 = np.zeros((), dtype=np.float64)                 # a 0-d out comes back as itself
    assert ck.reduce("max", a, out=o0) is o0 and o0 == 23.0
    k = np.zeros((1, 3, 1))
    assert ck.reduce("sum", a, axis=(0, 2), keepdims=True, out=k) is k
    assert k.ravel().tolist() == [60.0, 92.0, 124.0]
    r = ck.Array("[0, 0]", type="2 * int64")            # an Array as out
    assert ck.reduce("sum", ck.Array([[1, 2], [3]]), axis=1, out=r) is r and r.tolist() == [3, 3]


def test_out_dtype_is_the_accumulator_as_numpys():
    a = np.full(3, 100, dtype=np.int8)
    o = np.zeros((), dtype=np.int8)
    ck.reduce("sum", a, out=o)                       # accumulates in int8: wraps, as NumPy
    assert o == np.sum(a, out=np.zeros((), dtype=np.int8)) == 44
    with raises_status("CK_ERR_FRACTIONAL"):
        ck.reduce("sum", np.array([0.5, 1.0]), out=np.zeros((), dtype=np.int64))


def test_out_of_the_wrong_shape_or_kind_is_refused():
    a = np.arange(12.0).reshape(3, 4)
    with raises_status("CK_ERR_BROADCAST", "size 3 in the destination and 4 in the result"):
        ck.reduce("sum", a, axis=0, out=np.zeros(3))
    with raises_status("CK_ERR_BROADCAST"):
        ck.reduce("sum", a, axis=0, out=np.zeros((1, 4)))    # no broadcasting into out
    with raises_status("CK_ERR_BROADCAST"):
        ck.accumulate("cumsum", a, out=np.zeros((4, 3)))
    ro = np.zeros(4)
    ro.flags.writeable = False
    with raises_status("CK_ERR_INVALID", "out is a read-only NumPy array"):
        ck.reduce("sum", a, axis=0, out=ro)
    with raises_status("CK_ERR_TYPE", "out must be"):
        ck.reduce("sum", a, axis=0, out=[0, 0, 0, 0])


def test_out_sharing_memory_with_a_reads_a_copy():
    """The kernels write start values and partial results into out first: a source sharing
    out's memory is copied, so the result is NumPy's on the values before the call."""
    a = np.arange(1.0, 13.0).reshape(3, 4)
    want = np.sum(a, axis=0, keepdims=True)
    ck.reduce("sum", a, axis=0, keepdims=True, out=a[:1])     # out is a's first row
    assert a[:1].tolist() == want.tolist()
    b = np.arange(1, 13).reshape(3, 4)
    want = np.cumsum(b, axis=0)
    assert ck.accumulate("cumsum", b, axis=0, out=b) is b     # in place along an outer axis
    assert b.tolist() == want.tolist()
    c = np.arange(1, 13).reshape(3, 4)
    want = np.cumprod(c[:, ::-1], axis=1)
    ck.accumulate("cumprod", c[:, ::-1], axis=1, out=c)       # a reversed view of out
    assert c.tolist() == want.tolist()
    d = ck.Array([[1, 2], [3, 4]], type="2 * 2 * int64")      # one Array, ckernel's memory
    ck.accumulate("cumsum", d, axis=0, out=d)
    assert d.tolist() == [[1, 2], [4, 6]]
    e = ck.Array([[1, 2], [3, 4]], type="2 * 2 * int64")
    view = ck.Array(np.asarray(e)[:, :1])                     # a view of e's memory
    ck.reduce("sum", e, axis=1, keepdims=True, out=view)
    assert e.tolist() == [[3, 2], [7, 4]]


# ---- dot ----

def test_dot_of_large_rows_matches_einsum():
    rng = np.random.default_rng(7)
    x, y = rng.standard_normal((1000, 1000)), rng.standard_normal((1000, 1000))
    r = ck.call("dot", x, y)
    want = np.einsum("ij,ij->i", x, y)
    assert isinstance(r, np.ndarray) and r.dtype == np.float64 and r.shape == (1000,)
    bound = 4 * 1001 * np.finfo(np.float64).eps * np.einsum("ij,ij->i", abs(x), abs(y))
    assert np.all(np.abs(r - want) <= bound)
    # Transposed and reversed views, zero copies.
    r = ck.call("dot", x.T[::-1], y.T[::-1])
    assert np.all(np.abs(r - np.einsum("ij,ij->i", x.T[::-1], y.T[::-1])) <= bound.max())


def test_dot_of_every_type():
    for dtype in SCALARS:
        if dtype == "float16":  # dot selects float32 for it (NumPy keeps float16): below
            continue
        rng = np.random.default_rng(SCALARS.index(dtype))
        x = values(dtype, (4, 6), rng, "prod")
        y = values(dtype, (4, 6), rng, "prod")
        r = ck.call("dot", x, y)
        want = np.einsum("ij,ij->i", x, y)
        assert r.dtype == want.dtype and r.shape == (4,), dtype
        if want.dtype.kind in "fc":
            assert np.allclose(r, want, rtol=1e-5 if want.dtype.itemsize <= 8 else 1e-12), dtype
        else:
            assert np.array_equal(r, want), dtype     # integers wrap as NumPy's
        one = ck.call("dot", x[0], y[0])
        assert isinstance(one, np.generic) and one == r[0]   # one row: a NumPy scalar


def test_dot_broadcasts_and_takes_ragged_rows():
    x = np.arange(12.0).reshape(3, 4)
    assert ck.call("dot", x, np.arange(4.0)).tolist() == (x @ np.arange(4.0)).tolist()
    assert ck.call("dot", x, np.arange(4.0)).tolist() == [14.0, 38.0, 62.0]   # again: cached
    rag = ck.Array([[1, 2], [3]], type="2 * var * float64")
    assert ck.call("dot", rag, rag).tolist() == [5.0, 9.0]
    out = np.zeros(3, dtype=np.float32)
    assert ck.call("dot", x, x, out=out) is out and out.tolist() == [14.0, 126.0, 366.0]
    assert ck.call("dot", np.float16([1, 2]), np.float16([3, 4])).dtype == np.float32
    with raises_status("CK_ERR_BROADCAST", "core dimension N"):
        ck.call("dot", x, np.ones(3))
    with raises_status("CK_ERR_BROADCAST", "at [1]"):
        ck.call("dot", rag, np.ones((2, 2)))


# ---- user callables ----

def libm(name):
    f = getattr(ctypes.CDLL("libm.so.6"), name)
    f.restype, f.argtypes = ctypes.c_double, [ctypes.c_double, ctypes.c_double]
    return f


def test_a_callable_with_an_identity_reduces():
    hyp = ck.Callable("red_hypot")
    hyp.add_native("dd)d", libm("hypot"))
    assert hyp.identity is None
    x = np.random.default_rng(3).standard_normal((5, 7))
    # without one: one axis at a time, from each row's first element
    first = ck.reduce(hyp, x, axis=1)
    assert np.allclose(first, np.sqrt(np.sum(x * x, axis=1)), rtol=1e-14)
    with raises_status("CK_ERR_INVALID", "no identity", "one axis"):
        ck.reduce(hyp, x)
    hyp.set_identity("0")
    assert hyp.identity == "0"
    assert np.allclose(ck.reduce(hyp, x, axis=1), np.hypot.reduce(x, axis=1), rtol=1e-14)
    assert ck.reduce(hyp, np.zeros((2, 0)), axis=1).tolist() == [0.0, 0.0]  # the identity
    with raises_status("CK_ERR_INVALID"):
        hyp.set_identity("1")                    # once
    with raises_status("CK_ERR_TYPE"):
        hyp.set_identity(0)
    fmax = ck.Callable("red_fmax")
    fmax.add_native("dd)d", libm("fmax"))
    fmax.set_identity("-inf")
    ck.register(fmax)                            # by its name, as the built-ins
    y = x.copy()
    y[1, 2] = np.nan
    assert np.array_equal(ck.reduce("red_fmax", y, axis=0), np.fmax.reduce(y, axis=0))
    assert ck.reduce("red_fmax", np.zeros(0)) == -np.inf
    assert np.array_equal(ck.accumulate(fmax, y, axis=0), np.fmax.accumulate(y, axis=0))


def test_a_python_callback_reduces_on_worker_threads(hang_watchdog):
    """Were the GIL held while ck_parallel_reduce runs, a worker's callback would wait for
    it forever (hang_watchdog ends that with the stacks)."""
    fn = ctypes.CFUNCTYPE(ctypes.c_double, ctypes.c_double, ctypes.c_double)(lambda s, v: s + 2 * v)
    c = ck.Callable("py_sum_twice")
    c.add_native("dd)d", fn)
    c.set_identity("0")
    ck.set_num_threads(2)
    try:
        x = np.arange(256_000, dtype=np.float64).reshape(4000, 64)  # 2 MB: rows split
        r = ck.reduce(c, x, axis=1)
    finally:
        ck.set_num_threads(0)
    assert np.array_equal(r, 2 * np.sum(x, axis=1))  # exact: integers below 2**53


def test_large_reductions_are_the_serial_bits():
    """ck_parallel_reduce splits large work; its result is the serial kernel's, bit for bit
    (a small view of the same data runs serially)."""
    x = np.random.default_rng(11).standard_normal((300, 2000))
    ck.set_num_threads(2)
    try:
        whole = ck.reduce("sum", x, axis=1)
        flat = ck.reduce("sum", x.ravel())
    finally:
        ck.set_num_threads(0)
    rows = np.array([ck.reduce("sum", x[i]) for i in range(300)])
    assert np.array_equal(whole, rows)
    assert np.allclose(flat, np.sum(x), rtol=1e-12)


# ---- errors ----

def test_errors():
    a = np.arange(6.0).reshape(2, 3)
    with raises_status("CK_ERR_TYPE", "nosuch"):
        ck.reduce("nosuch", a)
    with raises_status("CK_ERR_TYPE", "reduce's first argument", "int"):
        ck.reduce(5, a)
    with raises_status("CK_ERR_TYPE", "accumulate's first argument"):
        ck.accumulate(None, a)
    with raises_status("CK_ERR_INVALID", "subtract has no identity", "one axis"):
        ck.reduce("subtract", a)                 # a has two axes
    with raises_status("CK_ERR_TYPE"):
        ck.accumulate("sum", a)                  # reductions' names are not accumulations'
    with raises_status("CK_ERR_INVALID", "axis 2 is out of range for a source of 2 dimensions"):
        ck.reduce("sum", a, axis=2)
    with raises_status("CK_ERR_INVALID", "axis -3 is out of range"):
        ck.reduce("sum", a, axis=(0, -3))
    with raises_status("CK_ERR_INVALID", "axis -1 is given twice"):
        ck.reduce("sum", a, axis=(1, -1))
    with raises_status("CK_ERR_INVALID", "out of range"):
        ck.reduce("sum", a, axis=2**40)
    with raises_status("CK_ERR_INVALID", "65 axes"):
        ck.reduce("sum", a, axis=tuple(range(65)))
    with raises_status("CK_ERR_TYPE", "an axis is an int, not a float"):
        ck.reduce("sum", a, axis=1.0)
    with raises_status("CK_ERR_TYPE", "not a bool"):
        ck.reduce("sum", a, axis=True)
    with raises_status("CK_ERR_TYPE", "not a list"):
        ck.reduce("sum", a, axis=[0])
    with raises_status("CK_ERR_INVALID", "axis -1 is out of range for a source of 0 dimensions"):
        ck.accumulate("cumsum", 5)
    with raises_status("CK_ERR_INVALID", "one axis", "None"):
        ck.accumulate("cumsum", a, axis=None)
    with raises_status("CK_ERR_INVALID", "one axis", "tuple"):
        ck.accumulate("cumsum", a, axis=(0,))
    with raises_status("CK_ERR_INVALID", "no elements to reduce", "minimum has no identity"):
        ck.reduce("min", np.zeros(0))
    with raises_status("CK_ERR_INVALID", "no elements"):
        ck.reduce("max", np.zeros((0, 0)), axis=1)
    assert ck.reduce("max", np.zeros((0, 3)), axis=1).shape == (0,)   # NumPy's rule
    with raises_status("CK_ERR_TYPE", "cannot reduce string"):
        ck.reduce("sum", "abc")  # a 0-d string: reductions take no text
    with raises_status("CK_ERR_TYPE", "cannot reduce 1 * fixed_string[1, 'utf32']"):
        ck.reduce("sum", np.array(["x"]))  # U1, wrapped: reductions take no text
    with raises_status("CK_ERR_TYPE", "a: NumPy dtype"):
        ck.reduce("sum", np.zeros(2, dtype="M8[2s]"))  # a multiple of a unit: no type
    with raises_status("CK_ERR_TYPE", "cannot reduce 2 * datetime64[s]"):
        ck.reduce("sum", np.zeros(2, dtype="M8[s]"))
    with raises_status("CK_ERR_TYPE", "not tuples, structs or text"):
        ck.reduce("sum", np.zeros(2, dtype=[("x", np.int32)]))
    with raises_status("CK_ERR_TYPE", "cannot accumulate in int32"):
        ck.reduce("all", np.ones(2), out=np.zeros((), dtype=np.int32))
    with pytest.raises(TypeError):
        ck.reduce("sum", a, axes=0)               # a wrong call of the function itself
    with pytest.raises(TypeError):
        ck.accumulate("cumsum")
    assert issubclass(ck.Error, ValueError)       # as NumPy's AxisError is


def test_references_and_failures_leave_nothing_behind():
    x = np.arange(12.0).reshape(3, 4)
    out = np.zeros(4)
    c = ck.Callable("rc_fmin")
    c.add_native("dd)d", libm("fmin"))
    c.set_identity("inf")
    objs = [x, out, c]
    before = [sys.getrefcount(o) for o in objs]
    for _ in range(200):
        ck.reduce("sum", x, axis=0, out=out)
        ck.reduce(c, x, axis=1)
        ck.accumulate(c, x, axis=0)
        ck.reduce("sum", ck.Array([[1, 2], [3]]), axis=0)
        for bad in [lambda: ck.reduce("min", x[:, :0], axis=1), lambda: ck.reduce("sum", x, axis=5),
                    lambda: ck.reduce("sum", x, out=out), lambda: ck.accumulate(c, x, out=out)]:
            with pytest.raises(ck.Error):
                bad()
    gc.collect()
    assert [sys.getrefcount(o) for o in objs] == before
    r = ck.reduce("sum", x, axis=1)
    assert sys.getrefcount(r) == 2
    a = ck.reduce("sum", ck.Array([[1], [2, 3]]), axis=0)
    assert sys.getrefcount(a) == 2
    assert sys.getrefcount(ck.reduce("sum", x, axis=0, out=out)) == sys.getrefcount(out)


def test_allocation_failure_at_every_point():
    """With ckernel's allocation limit a few bytes higher each time, every allocation of a
    run fails in turn (the wrapped arguments, the result, a copy of a source sharing out's
    memory, the kernel, var rows): each run raises CK_ERR_NOMEM or gives the right values,
    and nothing leaks."""
    def ragged():
        return ck.Array([[1, 2], [], [3, 4, 5]], "3 * var * int32")

    def shared():
        e = ck.Array([[1, 2], [3, 4]], type="2 * 2 * int64")
        return e, ck.Array(np.asarray(e)[:, :1])

    runs = [
        (ragged, lambda x: ck.reduce("sum", x, axis=0).tolist()),
        (ragged, lambda x: ck.reduce("max", x, axis=0, keepdims=True).tolist()),
        (ragged, lambda x: ck.accumulate("cumsum", x).tolist()),
        (lambda: np.arange(24.0).reshape(4, 6),
         lambda x: (ck.reduce("sum", x, axis=0, keepdims=True, out=x[:1]), x.tolist())[1]),
        (lambda: ck.Array([[1, 2], [], [3]], "3 * var * int64"),   # out is a: a copy of rows
         lambda x: (ck.reduce("sum", x, axis=(), out=x), x.tolist())[1]),
        (shared, lambda ev: (ck.reduce("sum", ev[0], axis=1, keepdims=True, out=ev[1]), ev[0].tolist())[1]),
    ]
    for setup, run in runs:
        fails_at_every_allocation(setup, run)


# ---- Hypothesis: random views, axis sets, keepdims, out= ----

pytest.importorskip("hypothesis")
from hypothesis import given, strategies as st  # noqa: E402


@st.composite
def views(draw, dtype, name):
    """A view of 0 to 4 dimensions (sizes 0 to 4) over a larger buffer: each dimension
    stepped by 1, 2, -1 or -2, then the dimensions permuted."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    shape = draw(st.lists(st.integers(0, 4), min_size=0, max_size=4))
    steps = [draw(st.sampled_from([1, 2, -1, -2])) for _ in shape]
    base = values(dtype, tuple(s * abs(k) for s, k in zip(shape, steps)), rng, name)
    v = base[tuple(slice(None, None, k) for k in steps)]
    return np.transpose(v, draw(st.permutations(range(len(shape)))))


@st.composite
def axis_sets(draw, ndim):
    kind = draw(st.sampled_from(["none", "int", "tuple"] if ndim else ["none", "tuple"]))
    if kind == "none":
        return None
    if kind == "int":
        return draw(st.integers(-ndim, ndim - 1))
    axes = draw(st.permutations(range(ndim)))[:draw(st.integers(0, ndim))]
    return tuple(a - ndim if draw(st.booleans()) else a for a in axes)


@given(st.data())
def test_reductions_of_random_views_match_numpy(data):
    name = data.draw(st.sampled_from(sorted(REDUCE)))
    dtype = data.draw(st.sampled_from(SCALARS))
    a = data.draw(views(dtype, name))
    axis = data.draw(axis_sets(a.ndim))
    keepdims = data.draw(st.booleans())
    try:
        want = numpy_reduce(name, a, axis, keepdims)
    except ValueError:  # min or max of no elements
        with raises_status("CK_ERR_INVALID", "no elements"):
            ck.reduce(name, a, axis=axis, keepdims=keepdims)
        return
    arg = ck.Array(a) if data.draw(st.booleans()) else a
    out = None
    if data.draw(st.booleans()):
        out = np.zeros(want.shape + (2,), dtype=want.dtype)[..., data.draw(st.sampled_from([0, 1]))]
    got = ck.reduce(name, arg, axis=axis, keepdims=keepdims, out=out)
    if out is not None:
        assert got is out
    check_reduce(name, a, axis, keepdims, got, want)


@given(st.data())
def test_accumulations_of_random_views_match_numpy(data):
    name = data.draw(st.sampled_from(sorted(ACCUMULATE)))
    dtype = data.draw(st.sampled_from(SCALARS))
    a = data.draw(views(dtype, name).filter(lambda v: v.ndim > 0))
    axis = data.draw(st.integers(-a.ndim, a.ndim - 1))
    with np.errstate(all="ignore"):
        want = ACCUMULATE[name](a, axis=axis)
    out = None
    if data.draw(st.booleans()):
        out = np.zeros(want.shape + (2,), dtype=want.dtype)[..., 1]
    got = ck.accumulate(name, ck.Array(a) if data.draw(st.booleans()) else a, axis=axis, out=out)
    if out is not None:
        assert got is out
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.array_equal(got, want, equal_nan=want.dtype.kind in "fc"), (name, axis, a, got, want)
