"""python/tests/test_ufunc_reduce.py: reductions and accumulations of every binary function
ckernel shares with NumPy, against NumPy 1.24 on the same buffers: the result type of every
source dtype (or the refusal), the identities (an empty reduction gives it, or is an error
without one), one axis or several (functions without identity reduce one axis at a time,
from the first element in order: NumPy's rule for what it calls not reorderable), and the
values: bit for bit for the exact functions; the transcendental ones (SLEEF's, within 1 ULP
per step) against the same steps taken one by one with NumPy's function, within a few ULP.
NumPy's own reduce is not the reference for those: on AVX-512 its vector loops of arctan2,
hypot and the like compute every step of a 1-d reduce from the first accumulator
(np.arctan2.reduce([5., 1., 1.]) is arctan2(5, 1), not arctan2(arctan2(5, 1), 1)).
"""
import functools
import warnings

import numpy as np
import pytest

import ckernel as ck
from test_ufuncs import TYPES, VMATH, ours

BINARY = [n for n in ours() if getattr(np, n).nin == 2 and getattr(np, n).nout == 1
          and getattr(np, n).signature is None]  # NumPy reduces no gufunc (matmul)
NO_IDENTITY_BUT_REORDERABLE = {"maximum", "minimum", "fmax", "fmin"}
# ckernel reduces with (A, A) -> A signatures only: ldexp's are (float, int) -> float, which
# NumPy reduces (its elements cast to the exponent's int); ckernel refuses it (CK_ERR_TYPE).
REFUSED_HERE = {"ldexp"}


def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def numpy_reduce(fn, x, **kw):
    try:
        return np.asarray(quiet(fn.reduce, x, **kw))
    except TypeError:  # no loop takes the source (UFuncTypeError)
        return None
    except ValueError as e:  # no identity, or not reorderable
        return str(e)


def ck_reduce(name, x, **kw):
    try:
        return np.asarray(quiet(ck.reduce, name, x, **kw))
    except ck.Error as e:
        if e.status == "CK_ERR_TYPE":
            return None
        assert e.status in ("CK_ERR_INVALID", "CK_ERR_DOMAIN"), (name, str(e))
        return e.status


def stepwise(fn, x, dtype):
    """The reduction's steps one by one with NumPy's function, in the result type."""
    return functools.reduce(lambda acc, v: quiet(fn, acc, v, dtype=dtype),
                            [dtype.type(v) for v in x])


def close(got, want):
    if got.dtype.kind not in "fc":
        return np.array_equal(got, want)
    tol = 8 * np.finfo(got.dtype).eps
    return bool(np.all((np.isnan(got) == np.isnan(want)) &
                       (np.isnan(got) | (got == want) |
                        (np.abs(got - want) <= tol * np.maximum(np.abs(want), 1e-300)))))


@pytest.mark.parametrize("name", BINARY)
def test_reductions_are_numpys(name):
    fn = getattr(np, name)
    exact = name not in VMATH
    wrong = []
    if name in REFUSED_HERE:
        for dt in TYPES:
            assert ck_reduce(name, np.ones(3, dtype=dt)) is None, (name, dt)
        return
    for dt in TYPES:
        x = np.array([3, 2, 1, 2, 3, 1, 2], dtype=dt)  # no zero: integer division
        m = x[:6].reshape(2, 3)
        for src, kw in [(x, {}), (m, {"axis": 0}), (m, {"axis": 1}), (x[::-2], {})]:
            want, got = numpy_reduce(fn, src, **kw), ck_reduce(name, src, **kw)
            if want is None or got is None:
                if (want is None) != (got is None):
                    wrong.append("%s.reduce(%s, %r): NumPy %r, ckernel %r" % (
                        name, dt, kw, want, got))
                continue
            if isinstance(got, str) or isinstance(want, str):
                # integers to negative powers are NumPy's ValueError and ckernel's
                # CK_ERR_DOMAIN alike
                if not (isinstance(got, str) and isinstance(want, str)):
                    wrong.append("%s.reduce(%s, %r): NumPy %r, ckernel %r" % (
                        name, dt, kw, want, got))
                continue
            if got.dtype != want.dtype:
                wrong.append("%s.reduce(%s, %r): NumPy %s, ckernel %s" % (
                    name, dt, kw, want.dtype, got.dtype))
                continue
            if exact:
                ok = np.array_equal(got, want, equal_nan=got.dtype.kind in "fc")
            else:
                rows = [src] if src.ndim == 1 else (
                    list(src.T) if kw["axis"] == 0 else list(src))
                ref = np.array([stepwise(fn, r, got.dtype) for r in rows]).reshape(got.shape)
                ok = close(got, ref)
            if not ok:
                wrong.append("%s.reduce(%r, %r): NumPy %r, ckernel %r" % (
                    name, src, kw, want, got))
    assert not wrong, "%d differ, e.g.\n%s" % (len(wrong), "\n".join(wrong[:12]))


@pytest.mark.parametrize("name", BINARY)
def test_identities_empty_reductions_and_axes(name):
    fn = getattr(np, name)
    dt = "int64" if name in ("gcd", "lcm", "bitwise_and", "bitwise_or", "bitwise_xor",
                             "left_shift", "right_shift") else (
        "bool" if name.startswith("logical") or name in ("equal", "not_equal", "less",
                                                         "less_equal", "greater",
                                                         "greater_equal") else "float64")
    empty = np.zeros(0, dtype=dt)
    want, got = numpy_reduce(fn, empty), ck_reduce(name, empty)
    if name in REFUSED_HERE:
        assert got is None, (name, got)
        return
    if isinstance(want, str):  # no identity: NumPy's ValueError, ckernel's CK_ERR_INVALID
        assert got == "CK_ERR_INVALID", (name, got)
    elif want is not None:
        assert got is not None and not isinstance(got, str), (name, got)
        assert got.dtype == want.dtype and np.array_equal(got, want, equal_nan=True), (
            name, want, got)
    # Several axes: NumPy's rule (functions without identity, but for the reorderable
    # maximum and minimum built-ins, reduce one axis at a time).
    grid = np.ones((2, 3), dtype=dt)
    want, got = numpy_reduce(fn, grid, axis=None), ck_reduce(name, grid)
    if want is None:
        return
    if fn.identity is None and name not in NO_IDENTITY_BUT_REORDERABLE:
        assert isinstance(want, str) and got == "CK_ERR_INVALID", (name, want, got)
    elif name in ("fmax", "fmin"):  # NumPy reorders them; ckernel keeps to one axis
        assert got == "CK_ERR_INVALID", (name, got)
    else:
        assert not isinstance(got, str) and got.dtype == want.dtype, (name, want, got)
        assert np.array_equal(got, want, equal_nan=True) or name in VMATH, (name, want, got)


@pytest.mark.parametrize("name", BINARY)
def test_accumulations_are_numpys(name):
    fn = getattr(np, name)
    wrong = []
    for dt in TYPES:
        x = np.array([3, 2, 1, 2, 3], dtype=dt)
        try:
            want = np.asarray(quiet(fn.accumulate, x))
        except (TypeError, ValueError):
            want = None
        try:
            got = np.asarray(quiet(ck.accumulate, name, x))
        except ck.Error as e:
            assert e.status in ("CK_ERR_TYPE", "CK_ERR_DOMAIN"), (name, dt, str(e))
            got = None
        if (want is None) != (got is None):
            wrong.append("%s.accumulate(%s): NumPy %r, ckernel %r" % (name, dt, want, got))
        elif want is not None and (got.dtype != want.dtype or not (
                np.array_equal(got, want, equal_nan=got.dtype.kind in "fc")
                if name not in VMATH else close(got, np.array(
                    [stepwise(fn, x[:k + 1], got.dtype) for k in range(x.size)])))):
            wrong.append("%s.accumulate(%s): NumPy %r, ckernel %r" % (name, dt, want, got))
    assert not wrong, "%d differ, e.g.\n%s" % (len(wrong), "\n".join(wrong[:12]))


def test_a_reduction_without_identity_starts_from_the_first_element():
    # Hand-computed: (5 - 1) - 1, and the rows of a matrix along either axis.
    assert ck.reduce("subtract", np.array([5, 1, 1])) == 3
    m = np.array([[8, 1, 2], [3, 4, 5]])
    assert ck.reduce("subtract", m, axis=0).tolist() == [5, -3, -3]
    assert ck.reduce("subtract", m, axis=1).tolist() == [5, -6]
    assert ck.reduce("floor_divide", np.array([100, 3, 2])) == 16
    # arctan2's steps, each a correctly rounded-or-1-ULP arctan2 of the one before
    r = ck.reduce("arctan2", np.array([5.0, 1.0, 1.0]))
    assert abs(r - np.arctan2(np.arctan2(5.0, 1.0), 1.0)) <= 2e-16
    assert ck.reduce("logaddexp", np.array([3.0, 5.0, 6.0])) == pytest.approx(
        np.log(np.exp(3) + np.exp(5) + np.exp(6)), rel=1e-15)
    # A ragged source: each row from its own first element; an empty row is an error.
    rag = ck.Array([[9, 2, 3], [4], [10, 1]], type="3 * var * int64")
    assert ck.reduce("subtract", rag, axis=1).tolist() == [4, 4, 9]
    with pytest.raises(ck.Error) as e:
        ck.reduce("subtract", ck.Array([[1], []], type="2 * var * int64"), axis=1)
    assert e.value.status == "CK_ERR_INVALID" and "no identity" in str(e.value)
    with pytest.raises(ck.Error) as e:
        ck.reduce("subtract", m)  # two axes
    assert e.value.status == "CK_ERR_INVALID" and "one axis" in str(e.value)
