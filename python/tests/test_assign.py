"""python/tests/test_assign.py: ckernel.assign in place on NumPy arrays and ckernel.Arrays;
numpy.copyto(dst, src, casting="unsafe") on the same layouts is the oracle (Hypothesis: random
dtypes, shapes, strides, broadcasting and values where NumPy's cast is defined), plus the
checked error modes, records by name and by position, overlapping operands, ragged
destinations and large arrays split over threads.
"""
import warnings

import numpy as np
import pytest

import ckernel as ck
from conftest import raises_status

SCALARS = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float16", "float32", "float64", "complex64", "complex128"]


def test_assign_in_place_casts_and_broadcasts():
    dst = np.zeros((2, 3), dtype=np.float32)
    ck.assign(dst, np.array([1, 2, 3], dtype=np.int16))
    assert dst.tolist() == [[1, 2, 3], [1, 2, 3]]
    ck.assign(dst[:, ::-2], 7)  # a Python int into a strided, reversed view
    assert dst.tolist() == [[7, 2, 7], [7, 2, 7]]
    ck.assign(dst.T, [[0.5, 1.5], [2.5, 3.5], [4.5, 5.5]])  # nested lists, transposed dst
    assert dst.tolist() == [[0.5, 2.5, 4.5], [1.5, 3.5, 5.5]]


def test_error_modes():
    dst = np.zeros(3, dtype=np.uint8)
    with raises_status("CK_ERR_OVERFLOW", "300", "uint8"):
        ck.assign(dst, np.array([1, 300, 2], dtype=np.int32))
    ck.assign(dst, np.array([1, 300, 2], dtype=np.int32), errmode="nocheck")
    assert dst.tolist() == [1, 44, 2]  # wraps
    i = np.zeros(2, dtype=np.int32)
    with raises_status("CK_ERR_FRACTIONAL", "2.5"):
        ck.assign(i, [1.0, 2.5])
    ck.assign(i, [1.0, 2.5], errmode="overflow")
    assert i.tolist() == [1, 2]
    f = np.zeros(1, dtype=np.float32)
    with raises_status("CK_ERR_INEXACT"):
        ck.assign(f, 0.1, errmode="inexact")
    with raises_status("CK_ERR_INVALID", "error mode 'sloppy'"):
        ck.assign(f, 0.1, errmode="sloppy")


def test_records_by_name_and_by_position():
    src = np.array([(1, 2.5), (3, 4.5)], dtype=[("a", np.int32), ("b", np.float64)])
    dst = np.zeros(2, dtype=[("b", np.float32), ("a", np.int64)])
    ck.assign(dst, src)  # by name
    assert dst.tolist() == [(2.5, 1), (4.5, 3)]
    ck.assign(dst, src, by_position=True, errmode="nocheck")  # as NumPy does
    want = dst.copy()
    np.copyto(want, src, casting="unsafe")
    assert dst.tolist() == want.tolist() == [(1.0, 2), (3.0, 4)]
    other = np.zeros(2, dtype=[("x", np.int32), ("y", np.float64)])
    with raises_status("CK_ERR_TYPE", "x"):
        ck.assign(other, src)


def test_ragged_destination_allocates_its_rows():
    dst = ck.Array("[null, null]", type="2 * var * float64")
    ck.assign(dst, ck.Array([[1, 2, 3], [4]]))
    assert dst.tolist() == [[1.0, 2.0, 3.0], [4.0]]
    with raises_status("CK_ERR_BROADCAST", "var dimension"):
        ck.assign(dst, ck.Array([[1, 2], [3, 4]]))


def test_overlapping_operands_read_the_source_first():
    x = np.arange(10, dtype=np.int64)
    want = x.copy()
    np.copyto(want[1:], want[:-1])
    ck.assign(x[1:], x[:-1])
    assert x.tolist() == want.tolist()
    y = np.arange(6.0)
    ck.assign(y, y[::-1])  # reversed onto itself
    assert y.tolist() == [5.0, 4.0, 3.0, 2.0, 1.0, 0.0]


def test_large_arrays_in_parallel():
    ck.set_num_threads(2)
    try:
        assert ck.get_num_threads() in (1, 2)  # 1 with the serial backend
        src = np.arange(3_000_000, dtype=np.int32).reshape(3000, 1000)
        dst = np.empty((3000, 1000), dtype=np.float64)
        ck.assign(dst, src)
        assert np.array_equal(dst, src.astype(np.float64))
        bad = src.copy()
        bad[2999, 999] = -1
        u = np.empty(bad.shape, dtype=np.uint32)
        with raises_status("CK_ERR_OVERFLOW", "-1"):
            ck.assign(u, bad, errmode="overflow")
    finally:
        ck.set_num_threads(0)
    with raises_status("CK_ERR_INVALID"):
        ck.set_num_threads(-1)


# ---- Hypothesis: ckernel.assign against numpy.copyto(casting="unsafe") ----

pytest.importorskip("hypothesis")
from hypothesis import given, strategies as st  # noqa: E402

KIND = {n: np.dtype(n).kind for n in SCALARS}


def values(src, dst, n, rng):
    """n source values of dtype src whose conversion to dst NumPy defines: anything between
    integers, bools and floats; a float or complex into an integer only in the integer's
    range (C leaves the rest undefined, NumPy gives what the CPU gives), and into an unsigned
    integer only from non-negative values."""
    s, d = np.dtype(src), np.dtype(dst)
    if s.kind == "b":
        return rng.integers(0, 2, n).astype(s)
    if s.kind in "iu":
        info = np.iinfo(s)
        v = rng.integers(info.min, info.max, n, dtype=s, endpoint=True)
        if d == np.float16:  # NumPy casts wide integers to float16 through float32: twice rounded
            v = v % 2048
        return v
    if d.kind in "iu":
        info = np.iinfo(d)
        lo = 0 if d.kind == "u" else max(info.min, -1000)
        hi = min(info.max, 1000)
        v = rng.integers(lo, hi, n) + rng.choice([0.0, 0.25, 0.5, 0.75], n)
        v = np.minimum(v, hi)
    else:
        v = rng.standard_normal(n) * 10.0 ** rng.integers(-5, 40, n)
        v[rng.random(n) < 0.1] = np.nan
        v[rng.random(n) < 0.05] = np.inf
        v[rng.random(n) < 0.05] = 0.0
    with warnings.catch_warnings():  # float64 values beyond float32 become inf, as wanted
        warnings.simplefilter("ignore")
        v = v.astype(s.type(0).real.dtype if s.kind == "c" else s)
    if s.kind == "c":
        v = v + 1j * rng.integers(-3, 3, n).astype(v.dtype)
    return v.astype(s)


def draw_layout(data, ndim, allow_broadcast):
    """A view's recipe: a step per axis (negative too), maybe transposed, maybe broadcast (a
    column of size 1, or the first row only)."""
    steps = [data.draw(st.sampled_from([1, 2, -1, -2])) for _ in range(ndim)]
    transpose = ndim > 1 and data.draw(st.booleans())
    bcast = data.draw(st.sampled_from([None, None, "col", "row"])) if allow_broadcast and ndim else None
    return steps, transpose, bcast


def apply_layout(x, recipe):
    steps, transpose, bcast = recipe
    v = x[tuple(slice(None, None, s) for s in steps) + (Ellipsis,)]  # 0-d: a 0-d view
    if transpose:
        v = v.T
    if bcast == "col":
        v = v[..., :1]
    elif bcast == "row":
        v = v[0]
    return v


@given(st.data())
def test_assign_matches_numpy_copyto(data):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    src_t, dst_t = data.draw(st.sampled_from(SCALARS)), data.draw(st.sampled_from(SCALARS))
    shape = tuple(2 * n for n in data.draw(st.lists(st.integers(1, 5), max_size=3)))
    src_base = values(src_t, dst_t, int(np.prod(shape, dtype=np.int64)), rng).reshape(shape)
    src = apply_layout(src_base, draw_layout(data, len(shape), True))
    dst_layout = draw_layout(data, len(shape), False)
    dst_base = np.zeros(shape, dtype=dst_t)
    want_base = dst_base.copy()
    dst, want = apply_layout(dst_base, dst_layout), apply_layout(want_base, dst_layout)
    try:
        np.broadcast_to(src, dst.shape)
    except ValueError:
        with raises_status("CK_ERR_BROADCAST"):
            ck.assign(dst, src, errmode="nocheck")
        return
    src_before = src.copy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.copyto(want, src, casting="unsafe")
    ck.assign(dst, src, errmode="nocheck")
    assert np.array_equal(src, src_before, equal_nan=True)
    assert np.array_equal(dst_base, want_base, equal_nan=True), (src_t, dst_t, src, dst, want)
