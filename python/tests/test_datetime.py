"""python/tests/test_datetime.py: NumPy's datetime64 and timedelta64 arrays through the package,
in place (M8[unit] is datetime64[unit], m8[unit] timedelta64[unit]: the same int64 counts, NaT
the same INT64_MIN), np.datetime64 and np.timedelta64 scalars as values, results as NumPy
datetime arrays and scalars. NumPy on the same arrays is the oracle: astype, its subtract,
add and comparisons; hand-written values where NumPy has no such operation.
"""
import numpy as np
import pytest

import ckernel as ck
from conftest import raises_status

UNITS = ["Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns"]


def instants(n=64, seed=27):
    """Random M8[ns] instants from 1871 to 2068, NaT at 3."""
    rng = np.random.default_rng(seed)
    days = rng.integers(-36000, 36000, size=n).astype("m8[D]").astype("m8[ns]")
    t = (np.datetime64(0, "ns") + days + rng.integers(0, 86400 * 10**9, size=n).astype("m8[ns]"))
    t[3] = np.datetime64("NaT")
    return t


def same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("du", UNITS)
@pytest.mark.parametrize("su", ["D", "s", "ns"])
def test_units_convert_in_place_as_astype(su, du):
    src = instants().astype("M8[%s]" % su)
    dst = np.zeros(src.shape, dtype="M8[%s]" % du)
    ck.assign(dst, src[::-1])
    assert same(dst, src[::-1].astype(dst.dtype))


@pytest.mark.parametrize("unit", UNITS)
@pytest.mark.parametrize("kind", ["U", "S"])
def test_text_both_ways_as_astype(unit, kind):
    src = instants().astype("M8[%s]" % unit)
    text = np.zeros(src.shape, dtype=kind + "32")
    ck.assign(text, src)
    assert same(text, src.astype(kind + "32"))
    back = np.zeros_like(src)
    ck.assign(back, text)  # written in place into NumPy's buffer
    assert same(back, text.astype(src.dtype))


def test_numbers_and_timedeltas():
    d = np.array([5, -1500, np.iinfo(np.int64).min], dtype="i8").view("m8[ms]")
    s = np.zeros(3, dtype="m8[s]")
    ck.assign(s, d)
    assert same(s, d.astype("m8[s]"))  # floored: -1500 ms is -2 s; NaT stays
    n = np.zeros(3, dtype="i8")
    ck.assign(n, d)
    assert same(n, d.astype("i8"))
    with raises_status("CK_ERR_TYPE", "cannot cast datetime64[s] to float64"):
        ck.assign(np.zeros(4), instants(4).astype("M8[s]"))
    with raises_status("CK_ERR_TYPE", "cannot cast float64 to timedelta64[ms]"):
        ck.assign(d, np.zeros(3))
    with raises_status("CK_ERR_TEXT", '"2026-02-30"', "datetime64[D]"):
        ck.assign(np.zeros(1, "M8[D]"), np.array(["2026-02-30"]))


@pytest.mark.parametrize("ua,ub", [("s", "D"), ("ms", "s"), ("D", "M"), ("Y", "M"), ("ns", "us")])
def test_subtract_and_add_give_numpys_arrays(ua, ub):
    t = instants()
    a, b = t.astype("M8[%s]" % ua), t[::-1].astype("M8[%s]" % ub)
    got = ck.call("subtract", a, b)
    assert same(got, a - b)
    delta = got[:8]
    assert same(ck.call("add", b[:8], delta), b[:8] + delta)


def test_scalars_are_values_and_results():
    day, hours = np.datetime64("2026-11-25"), np.timedelta64(5, "h")
    got = ck.call("add", day, hours)
    assert isinstance(got, np.datetime64) and got == day + hours
    assert got.dtype == np.dtype("M8[h]")
    a = np.array(["2026-11-24", "2026-11-25", "NaT"], dtype="M8[D]")
    assert same(ck.call("subtract", a, day), a - day)
    assert ck.call("less", a, np.datetime64("2026-11-25T20:31:42")).tolist() == \
        [True, True, False]  # the 25th's midnight is before its 20:31


@pytest.mark.parametrize("op", ["equal", "not_equal", "less", "less_equal", "greater",
                                "greater_equal"])
def test_comparisons_as_numpy(op):
    t = instants()
    for ua, ub in (("s", "ms"), ("D", "s"), ("M", "D"), ("ns", "ns")):
        a, b = t.astype("M8[%s]" % ua), t.astype("M8[%s]" % ub)
        for y in (b, b[::-1], b[5]):
            assert same(ck.call(op, a, y), getattr(np, op)(a, y)), (ua, ub)
    d = (t - t[0]).astype("m8[s]")
    assert same(ck.call(op, d, d[::-1].astype("m8[ms]")), getattr(np, op)(d, d[::-1]))


def test_comparison_refusals():
    a = instants(4).astype("M8[s]")
    with raises_status("CK_ERR_TYPE", "a datetime64 compares only with a datetime64"):
        ck.call("less", a, np.timedelta64(1, "s"))
    with raises_status("CK_ERR_TYPE", "meets only another"):
        ck.call("equal", a, 1)
    with raises_status("CK_ERR_TYPE", "years or months"):
        ck.call("less", np.array([1], "m8[Y]"), np.array([1], "m8[D]"))


def test_arrays_and_dtypes_back():
    t = instants(8).astype("M8[s]")
    a = ck.Array(t)
    assert str(ck.Array(t[:1])).startswith('[') and "T" in str(ck.Array(t[:1]))
    view = np.asarray(a)
    assert view.dtype == t.dtype and np.shares_memory(view, t)
    assert [str(v) for v in a.tolist()] == [str(v) for v in t]  # NaT is not equal to itself
    assert all(isinstance(v, np.datetime64) and v.dtype == t.dtype for v in a.tolist())
    d = ck.Array(np.array([7, -3], dtype="m8[ms]"))
    assert d.tolist() == [np.timedelta64(7, "ms"), np.timedelta64(-3, "ms")]


@pytest.mark.parametrize("dtype", ["M8", "m8", "M8[2s]", "M8[ps]", "m8[as]"])
def test_dtypes_without_a_unit_of_ckernels_are_refused(dtype):
    with raises_status("CK_ERR_TYPE", "no generic unit"):
        ck.assign(np.zeros(2, dtype=dtype), np.zeros(2, dtype="M8[s]"))


def test_byte_swapped_is_refused():
    with raises_status("CK_ERR_TYPE", "byte order"):
        ck.Array(np.zeros(2, dtype=">M8[s]"))
