"""python/tests/test_array.py: ckernel.Array: from a literal and its datashape, from nested
Python values (the inferred types of docs/python.md), over NumPy arrays with zero copies (the
ndarray kept alive by the Array), .type, tolist(), str() and numpy.asarray() over the same
memory; NumPy (tolist, the buffer's address) is the oracle, and hand-written literals.
"""
import gc
import math
import sys
import weakref

import numpy as np
import pytest

import ckernel as ck
from conftest import raises_status

SCALARS = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float16", "float32", "float64", "complex64", "complex128"]


def test_version_is_the_c_library_version():
    assert ck.__version__ == "0.1.0"
    assert "build=" in ck.build_options


def test_literal_with_its_datashape():
    a = ck.Array("[[1, 2], [3]]", type="2 * var * int32")
    assert a.type == "2 * var * int32"
    assert a.tolist() == [[1, 2], [3]]
    assert str(a) == "[[1, 2], [3]]"
    assert repr(a) == "ckernel.Array('[[1, 2], [3]]', type='2 * var * int32')"


def test_literal_of_records_options_and_pointers():
    a = ck.Array("[{x: 1, y: [2.5, NA]}, {y: [], x: -3}]", type="2 * {x: int8, y: var * ?float32}")
    assert a.tolist() == [{"x": 1, "y": [2.5, None]}, {"x": -3, "y": []}]
    t = ck.Array("(1, 2.5, true)", type="(int64, float64, bool)")
    assert t.tolist() == (1, 2.5, True)
    p = ck.Array("[7, null]", type="2 * pointer[int16]")
    assert p.tolist() == [7, None]
    assert str(ck.Array("[null, [1]]", type="2 * var * int8")) == "[null, [1]]"


@pytest.mark.parametrize("name", SCALARS)
def test_numpy_array_is_wrapped_without_a_copy(name):
    x = np.arange(12).reshape(3, 4).astype(name)
    a = ck.Array(x)
    assert a.type == "3 * 4 * " + name
    n = np.asarray(a)
    assert n.dtype == x.dtype and n.shape == x.shape
    assert n.__array_interface__["data"][0] == x.__array_interface__["data"][0]
    assert n.tolist() == x.tolist() == a.tolist()
    n[1, 2] = 1  # the same memory: NumPy sees it through x
    assert x[1, 2] == 1


@pytest.mark.parametrize("view", ["reversed", "strided", "transposed", "broadcast", "0-d"])
def test_any_strides(view):
    base = np.arange(60, dtype=np.float64).reshape(6, 10)
    x = {"reversed": base[::-1, ::-2], "strided": base[1::2, ::3], "transposed": base.T,
         "broadcast": np.broadcast_to(base[2], (4, 10)), "0-d": base[3, 4, ...]}[view]
    a = ck.Array(x)
    assert a.tolist() == x.tolist()
    n = np.asarray(a)
    assert n.strides == x.strides and n.__array_interface__["data"] == x.__array_interface__["data"]


def test_the_ndarray_lives_as_long_as_the_array():
    x = np.arange(5, dtype=np.int32)
    before = sys.getrefcount(x)
    a = ck.Array(x)
    assert sys.getrefcount(x) == before + 1  # the owner block's reference
    seen = weakref.ref(x)
    del x
    gc.collect()
    assert seen() is not None
    assert a.tolist() == [0, 1, 2, 3, 4]
    n = np.asarray(a)
    del a
    gc.collect()
    assert seen() is not None and n.tolist() == [0, 1, 2, 3, 4]  # n's base is the Array
    del n
    gc.collect()
    assert seen() is None  # and then everything goes


def test_read_only_numpy_stays_read_only():
    x = np.arange(4.0)
    x.flags.writeable = False
    a = ck.Array(x)
    assert not np.asarray(a).flags.writeable
    with raises_status("CK_ERR_INVALID", "read-only"):
        ck.assign(a, 1.0)
    assert x.tolist() == [0.0, 1.0, 2.0, 3.0]


def test_structured_numpy_as_structs():
    dt = np.dtype([("x", np.int32), ("v", np.float64, (2,)), ("p", [("a", np.uint8), ("b", np.float16)])])
    x = np.zeros(3, dtype=dt)
    x["x"] = [1, 2, 3]
    x["v"] = [[0.5, 1], [2, 3], [4, 5]]
    x["p"]["a"] = [7, 8, 9]
    x["p"]["b"] = [0.25, 0.5, 0.75]
    a = ck.Array(x)
    assert a.type == "3 * {x: int32, v: 2 * float64, p: {a: uint8, b: float16}}"
    assert a.tolist() == [{"x": 1, "v": [0.5, 1.0], "p": {"a": 7, "b": 0.25}},
                          {"x": 2, "v": [2.0, 3.0], "p": {"a": 8, "b": 0.5}},
                          {"x": 3, "v": [4.0, 5.0], "p": {"a": 9, "b": 0.75}}]
    n = np.asarray(a)  # back as a structured array over the same records
    assert n.dtype == dt and n.__array_interface__["data"] == x.__array_interface__["data"]
    assert (n["x"] == x["x"]).all() and (n["v"] == x["v"]).all() and (n["p"] == x["p"]).all()
    packed = np.zeros(2, dtype=np.dtype([("a", np.int8), ("b", np.float64)], align=False))
    packed["b"] = [1.5, -2]
    assert ck.Array(packed).tolist() == [{"a": 0, "b": 1.5}, {"a": 0, "b": -2.0}]
    assert np.asarray(ck.Array(packed)).dtype == packed.dtype


def test_tuples_of_ckernel_go_to_numpy_as_fields_f0_f1():
    a = ck.Array("[(1, 2.5), (3, 4.5)]", type="2 * (int16, float64)")
    n = np.asarray(a)
    assert n.dtype.names == ("f0", "f1") and n.tolist() == [(1, 2.5), (3, 4.5)]


@pytest.mark.parametrize("value, type_", [
    (5, "int64"), (True, "bool"), (2.5, "float64"), (1 - 2j, "complex128"),
    ([1, 2, 3], "3 * int64"), ([1, 2.5], "2 * float64"), ([True, 2], "2 * int64"),
    ([[1, 2], [3]], "2 * var * int64"), ([[1, 2], [3, 4]], "2 * 2 * int64"),
    ([[1j], [2, 3]], "2 * var * complex128"), ([[], []], "2 * 0 * float64"), ([], "0 * float64"),
    ([1, None, 3], "3 * ?int64"), ([[1.5], [None, 2]], "2 * var * ?float64"),
    ((1, 2), "2 * int64"), ([np.float32(1.5), np.int8(2)], "2 * float64"),
    ([[[1], [2, 3]], [[4]]], "2 * var * var * int64"),
])
def test_inferred_types(value, type_):
    a = ck.Array(value)
    assert a.type == type_
    want = value if not isinstance(value, tuple) else list(value)
    assert a.tolist() == want


def test_typed_python_values():
    a = ck.Array([{"x": 1, "y": [2, 3]}, (4, [5])], type="2 * {x: int8, y: var * float32}")
    assert a.tolist() == [{"x": 1, "y": [2.0, 3.0]}, {"x": 4, "y": [5.0]}]
    b = ck.Array([[1, 2], None], type="2 * var * int32")
    assert b.tolist() == [[1, 2], None] and str(b) == "[[1, 2], null]"
    c = ck.Array([1.0, None, float("nan")], type="3 * ?float64")
    got = c.tolist()
    assert got[0] == 1.0 and got[1] is None and math.isnan(got[2])
    q = ck.Array({"odd name": 1, "b": 2}, type="{'odd name': int32, b: uint8}")
    assert q.tolist() == {"odd name": 1, "b": 2}
    assert ck.Array(7, type="float16").tolist() == 7.0


def test_array_from_array_is_itself_or_a_converted_copy():
    a = ck.Array([1, 2, 3])
    assert ck.Array(a) is a
    assert ck.Array(a, type="3 * int64") is a
    b = ck.Array(a, type="3 * float32")
    assert b.type == "3 * float32" and b.tolist() == [1.0, 2.0, 3.0]
    x = np.arange(3, dtype=np.int16)
    c = ck.Array(x, type="3 * float64")  # a converted copy, not a view
    x[0] = 9
    assert c.tolist() == [0.0, 1.0, 2.0]


def test_numpy_asarray_of_ragged_data_is_refused():
    with raises_status("CK_ERR_TYPE", "var"):
        np.asarray(ck.Array([[1], [2, 3]]))
    with raises_status("CK_ERR_TYPE"):
        np.asarray(ck.Array([1, None]))


def test_asarray_with_another_dtype_converts():
    a = ck.Array([1, 2])
    n = np.asarray(a, dtype=np.float32)
    assert n.dtype == np.float32 and n.tolist() == [1.0, 2.0]
    c = a.__array__(copy=True)
    c[0] = 5
    assert a.tolist() == [1, 2] and np.asarray(a).tolist() == [1, 2]


# ---- round trips: NumPy -> ckernel.Array -> Python objects ----

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, strategies as st  # noqa: E402
from hypothesis.extra import numpy as hnp  # noqa: E402


def as_python(x):
    """What tolist() gives for a NumPy value: NumPy's own tolist(), records as dicts."""
    if x.dtype.names is None:
        return x.tolist()

    def rec(v, dt):
        if dt.names is None:
            return v.tolist() if isinstance(v, np.ndarray) else v
        return {n: rec(v[i], dt.fields[n][0]) for i, n in enumerate(dt.names)}

    def walk(v, depth):
        if depth == x.ndim:
            return rec(v, x.dtype)
        return [walk(v[i], depth + 1) for i in range(len(v))]

    return walk(x.tolist(), 0)


def same(a, b):
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, complex) and isinstance(b, complex):
        return same(a.real, b.real) and same(a.imag, b.imag)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(u, v) for u, v in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    return a == b and type(a) is type(b)


def views(x, data):
    """A random view of x: a slice with any step per axis, maybe transposed."""
    idx = tuple(slice(data.draw(st.integers(0, 1)), None,
                      data.draw(st.sampled_from([1, 2, -1, -3]))) for _ in range(x.ndim))
    v = x[idx]
    if x.ndim > 1 and data.draw(st.booleans()):
        v = v.T
    return v


record_dtypes = st.sampled_from([
    np.dtype([("a", np.int32), ("b", np.float64)]),
    np.dtype([("b", np.uint8), ("a", np.complex64, (2,))], align=True),
    np.dtype([("z", np.bool_), ("w", [("p", np.int16), ("q", np.float16)])]),
])


@given(st.data())
def test_round_trip_tolist(data):
    dtype = data.draw(st.one_of(st.sampled_from(SCALARS).map(np.dtype), record_dtypes))
    x = data.draw(hnp.arrays(dtype, hnp.array_shapes(min_dims=0, max_dims=3, max_side=4)))
    v = views(x, data) if x.ndim else x
    a = ck.Array(v)
    assert same(a.tolist(), as_python(v))
    n = np.asarray(a)
    assert n.__array_interface__["data"] == v.__array_interface__["data"]
    assert n.strides == v.strides
    if dtype.names is None:  # and the literal reads back to the same values
        back = ck.Array(str(a), type=a.type)
        assert same(back.tolist(), a.tolist())


@given(st.recursive(st.one_of(st.integers(-2**63, 2**63 - 1), st.booleans(),
                              st.floats(allow_nan=False), st.complex_numbers(allow_nan=False)),
                    lambda inner: st.lists(inner, max_size=4), max_leaves=20))
def test_round_trip_python_values(value):
    """Nested lists come back as the inferred type holds them (bool < int < float < complex)."""
    try:
        a = ck.Array(value)
    except ck.Error as e:  # lists and values at mixed depths are refused, with the reason
        assert e.status == "CK_ERR_TYPE" and "depth" in str(e)
        return
    kinds = []

    def leaves(v):
        if isinstance(v, list):
            for u in v:
                leaves(u)
        else:
            kinds.append(type(v))

    leaves(value)
    conv = (complex if complex in kinds else float if float in kinds else
            int if int in kinds else bool)

    def expect(v):
        return [expect(u) for u in v] if isinstance(v, list) else conv(v)

    assert same(a.tolist(), expect(value))
