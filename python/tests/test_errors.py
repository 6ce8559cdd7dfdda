"""python/tests/test_errors.py: every way in which input can be wrong raises ckernel.Error (a
ValueError) with .status and the C library's message (the column of a bad datashape, the
element and value of an overflow), never a crash, a leak (conftest checks ckernel's live
allocations after every test) or a write outside the destination; and, with Hypothesis,
arbitrary Python objects thrown at the interface.
"""
import ctypes

import numpy as np
import pytest

import ckernel as ck
from conftest import raises_status


def test_error_is_a_value_error_with_a_status():
    assert issubclass(ck.Error, ValueError)
    assert ck.Error("x").status is None
    with pytest.raises(ValueError) as info:
        ck.Array("[1, 2]", type="2 * vra")
    assert info.value.status == "CK_ERR_PARSE" and "column 5" in str(info.value)


def test_errors_pickle_with_their_status():
    """As a Dask worker's error comes back to the client."""
    import pickle
    try:
        ck.assign(np.zeros(1, np.uint8), [300])
    except ck.Error as e:
        back = pickle.loads(pickle.dumps(e))
        assert type(back) is ck.Error and back.status == "CK_ERR_OVERFLOW" and str(back) == str(e)
    assert pickle.loads(pickle.dumps(ck.Error("x"))).status is None


def test_bad_datashapes_and_literals_name_the_column_and_element():
    with raises_status("CK_ERR_PARSE", "3 * vra * int32", "column 5"):
        ck.Array("[]", type="3 * vra * int32")
    with raises_status("CK_ERR_OVERFLOW", "at [1][0]", "column", "300", "uint8"):
        ck.Array("[[1], [300]]", type="2 * var * uint8")
    with raises_status("CK_ERR_PARSE", "too many elements"):
        ck.Array("[1, 2, 3]", type="2 * int32")
    with raises_status("CK_ERR_INVALID", "type="):
        ck.Array("[1, 2]")
    with raises_status("CK_ERR_TYPE", "datashape string"):
        ck.Array([1], type=3)
    with raises_status("CK_ERR_UNSUPPORTED"):
        ck.Array("[1]", type="1 * ?(int8, int8)")


def test_overflow_names_the_value_and_types_and_writes_nothing_outside():
    buf = np.full(10, 0xA5, dtype=np.uint8)
    dst = buf[2:8:2]  # three elements inside guard bytes
    with raises_status("CK_ERR_OVERFLOW", "int64 value 300 is out of range for uint8"):
        ck.assign(dst, [1, 300, 2])
    assert buf[[0, 1, 3, 5, 7, 8, 9]].tolist() == [0xA5] * 7
    rag = ck.Array("[null, null]", type="2 * var * int8")
    with raises_status("CK_ERR_OVERFLOW", "int64 value 200 is out of range for int8"):
        ck.assign(rag, ck.Array([[1], [2, 200]]))
    with raises_status("CK_ERR_BROADCAST", "var dimension 1 at [1]"):  # a located error
        ck.assign(rag, ck.Array([[1], [2, 3, 4]]))


def test_non_arrays_and_bad_types():
    d = np.zeros(3)
    for bad in [{"a": 1}, object(), np.array([object()]),
                np.zeros(3, dtype="M8"), np.zeros(3, dtype=np.longdouble),
                np.zeros(3, dtype=">f8"), np.zeros(3, dtype="V8"), {1, 2}]:
        with raises_status("CK_ERR_TYPE"):
            ck.assign(d, bad)
        with raises_status("CK_ERR_TYPE", "argument 1"):
            ck.call("add", bad, 1)
    # Text is a value now (string, bytes, U, S: test_text.py), but not a number; and
    # arithmetic takes no text (the comparisons, length and concat do).
    for text in ["abc", b"abc", np.array(["x"])]:
        with raises_status("CK_ERR_TEXT", "cannot read the text"):
            ck.assign(d, text)
        with raises_status("CK_ERR_TYPE", "argument 0 holds text; add takes numbers"):
            ck.call("add", text, 1)
    with raises_status("CK_ERR_TYPE", "byte order"):
        ck.Array(np.zeros(2, dtype=">i4"))
    for bad_dst in [[0, 0], (0,), 3, "x", ck]:
        with raises_status("CK_ERR_TYPE", "writable NumPy array"):
            ck.assign(bad_dst, 1)
    with raises_status("CK_ERR_TYPE", "name"):
        ck.call(3, 1)
    with raises_status("CK_ERR_TYPE", "depth"):
        ck.Array([1, [2]])
    with raises_status("CK_ERR_TYPE", "type="):
        ck.Array([{"a": 1}])
    with raises_status("CK_ERR_TYPE", "str"):
        ck.Array([1, "2"])
    with raises_status("CK_ERR_INVALID", "deep"):
        ck.Array([[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]])


def test_wrong_shapes():
    with raises_status("CK_ERR_BROADCAST", "3 * float64", "4 * float64"):
        ck.assign(np.zeros(3), np.zeros(4))
    with raises_status("CK_ERR_BROADCAST"):
        ck.call("add", np.zeros((2, 3)), np.zeros((3, 2)))
    with raises_status("CK_ERR_BROADCAST"):
        ck.assign(np.zeros(3), np.zeros((2, 3)))  # more source dims than destination dims


def test_na_into_a_type_without_na():
    with raises_status("CK_ERR_NA", "NA"):
        ck.assign(np.zeros(3), ck.Array([1.0, None, 3.0]))


def test_dead_owners():
    m = memoryview(bytearray(16))
    m.release()
    with raises_status("CK_ERR_TYPE", "released") as info:
        ck.Array(m)
    assert isinstance(info.value.__cause__, ValueError)
    with raises_status("CK_ERR_TYPE", "argument 1"):
        ck.call("add", m, 1)
    # a ckernel.Array keeps the buffer it wraps: a view of a temporary outlives it
    a = ck.Array(np.arange(6, dtype=np.int8).reshape(2, 3)[:, ::-1])
    assert a.tolist() == [[2, 1, 0], [5, 4, 3]]
    buf = ctypes.create_string_buffer(8)
    v = ck.Array(np.frombuffer(buf, dtype=np.int32))
    del buf
    assert v.tolist() == [0, 0]


# ---- Hypothesis: whatever is passed, ckernel.Error or a result ----

pytest.importorskip("hypothesis")
from hypothesis import given, strategies as st  # noqa: E402

leaves = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.complex_numbers(),
                   st.text(max_size=3), st.binary(max_size=3),
                   st.sampled_from([object(), np.float32(1), np.zeros(2), np.zeros((2, 2), "i2"),
                                    np.array(["a"]), ck.Array([[1], []]), np.zeros(3, "M8[D]")]))
anything = st.recursive(leaves, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.tuples(inner, inner), st.dictionaries(st.text(max_size=2), inner, max_size=2)),
    max_leaves=8)


@given(anything, anything, st.sampled_from(["add", "divide", "assign", "nope"]))
def test_anything_gives_a_result_or_an_error(x, y, op):
    for f in (lambda: ck.call(op, x, y), lambda: ck.call(op, x),
              lambda: ck.Array(x), lambda: ck.Array(x, type="2 * var * ?float32"),
              lambda: ck.assign(np.zeros((2, 2)), x), lambda: ck.explain("2 * float64", x)):
        try:
            f()
        except ck.Error as e:
            assert e.status.startswith("CK_ERR_") and str(e)
