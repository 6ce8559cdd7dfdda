"""python/tests/test_text.py: NumPy's U and S arrays through the package, in place (U<N> is
fixed_string[N, 'utf32'], S<N> fixed_bytes[N]; ck_array_wrap over the ndarray's own buffer),
and Python str and bytes as string and bytes values. NumPy's astype on the same arrays is the
oracle (floats bit for bit, NaN as NaN); hand-written values where NumPy has no such cast.
Text as an argument of a call or an expression is a clear error.
"""
import numpy as np
import pytest

import ckernel as ck
from conftest import raises_status

NUMBER_TEXT = ["1.5", " 2", "-inf", "nan", "1e300", "-0.0", "0.1", "  +7\t", "1E-5", "Infinity",
               "123456789012345678", "-9"]


def same_floats(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and bool(
        np.all((a == b) | (np.isnan(a) & np.isnan(b))) and np.all(np.signbit(a) == np.signbit(b)))


@pytest.mark.parametrize("kind", ["U", "S"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16])
def test_text_into_floats_in_place(kind, dtype):
    src = np.array(NUMBER_TEXT, dtype=kind + "24")
    dst = np.empty(len(NUMBER_TEXT), dtype=dtype)
    ck.assign(dst, src, errmode="nocheck")  # 1e300 into float16 is inf, as astype
    assert same_floats(dst, src.astype(dtype))


@pytest.mark.parametrize("kind", ["U", "S"])
@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint16, np.uint64])
def test_integer_text_into_integers(kind, dtype):
    info = np.iinfo(dtype)
    values = [str(info.min), str(info.max), "0", " 42 ", "-1" if info.min < 0 else "+1"]
    src = np.array(values, dtype=kind + "21")
    dst = np.zeros(len(values), dtype=dtype)
    ck.assign(dst, src)
    assert dst.tolist() == src.astype(dtype).tolist()


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16])
def test_floats_into_U_and_S(dtype):
    rng = np.random.default_rng(7)
    x = (rng.standard_normal(200) * 10.0 ** rng.integers(-20, 20, 200)).astype(dtype)
    x[:6] = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0]
    for out_dtype in ("U32", "S32"):
        out = np.empty(x.shape, dtype=out_dtype)
        ck.assign(out, x)
        assert out.tolist() == x.astype(out_dtype).tolist()
        # and back: the shortest text reads back to the same value
        back = np.empty_like(x)
        ck.assign(back, out)
        assert same_floats(back, x)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int64, np.uint64])
def test_integers_into_U21(dtype):
    info = np.iinfo(dtype)
    x = np.array([info.min, info.max, 0, 1, info.max // 3], dtype=dtype)
    out = np.empty(x.shape, dtype="U21")
    ck.assign(out, x)
    assert out.tolist() == x.astype("U21").tolist()


def test_strided_and_reversed_views():
    src = np.array([["1", "2", "3"], ["4.5", "-6", "7e1"]], dtype="U5")
    dst = np.zeros((3, 2), dtype=np.float64)
    ck.assign(dst, src[:, ::-1].T)  # transposed and reversed: read in place
    assert dst.tolist() == src[:, ::-1].T.astype(np.float64).tolist()
    out = np.zeros(8, dtype="U8")
    ck.assign(out[::-2], np.arange(4, dtype=np.int16))
    assert out.tolist() == ["", "3", "", "2", "", "1", "", "0"]


def test_text_between_U_and_S():
    u = np.array(["abc", "", "z" * 6, "a\x00b"], dtype="U6")
    s = np.zeros(4, dtype="S6")
    ck.assign(s, u)
    assert s.tolist() == u.astype("S6").tolist()
    back = np.zeros(4, dtype="U6")
    ck.assign(back, s)
    assert back.tolist() == u.tolist()
    # Non-ASCII text into S: ckernel writes UTF-8 (NumPy refuses): hand-written bytes.
    ck.assign(s[:1], np.array(["\u00e9\U0001F600"]))
    assert s[0] == "\u00e9\U0001F600".encode("utf-8")


def test_truncation_checked_and_nocheck():
    src = np.array(["abcd", "xy", "\u00e9\u00e9\u00e9"], dtype="U4")
    short = np.zeros(3, dtype="U2")
    with raises_status("CK_ERR_OVERFLOW", "abcd", "fixed_string[2, 'utf32']"):
        ck.assign(short, src)
    ck.assign(short, src, errmode="nocheck")
    assert short.tolist() == src.astype("U2").tolist()


def test_unreadable_text_names_the_element():
    dst = np.zeros(3, dtype=np.float64)
    with raises_status("CK_ERR_TEXT", '"x1"', "float64", "[2]"):
        ck.assign(dst, np.array(["1", "2", "x1"]))
    with raises_status("CK_ERR_TEXT", '"0x10"'):
        ck.assign(dst, np.array([b"1", b"0x10", b"2"]))
    with pytest.raises(ValueError):  # NumPy refuses it too
        np.array(["x1"]).astype(np.float64)


def test_wrapped_arrays_and_results():
    u = np.array([["a", "\u00e9"], ["\U0001F600", ""]], dtype="U3")
    a = ck.Array(u)
    assert a.type == "2 * 2 * fixed_string[3, 'utf32']"
    assert a.tolist() == u.tolist()
    v = np.asarray(a)  # the same memory, a U3 again
    assert v.dtype == np.dtype("U3") and v.tolist() == u.tolist()
    v[0, 0] = "q"
    assert u[0, 0] == "q"
    s = ck.Array(np.array([b"x", b"\xff\x00y"], dtype="S4"))
    assert s.type == "2 * fixed_bytes[4]"
    assert s.tolist() == [b"x", b"\xff\x00y"]
    assert np.asarray(s).dtype == np.dtype("S4")
    # fixed_string of other encodings has no NumPy dtype
    f = ck.Array(["ab"], type="1 * fixed_string[2, 'utf8']")
    assert f.tolist() == ["ab"]
    with raises_status("CK_ERR_TYPE", "no NumPy dtype"):
        np.asarray(f)


def test_python_str_and_bytes_values():
    a = ck.Array(["1.5", "\u00e9\n\"\\", "\U0001F600\x7f"])
    assert a.type == "3 * string"
    assert a.tolist() == ["1.5", "\u00e9\n\"\\", "\U0001F600\x7f"]
    b = ck.Array([[b"\x00\xff", b'"'], [b"", b"\\n"]])
    assert b.type == "2 * 2 * bytes"
    assert b.tolist() == [[b"\x00\xff", b'"'], [b"", b"\\n"]]
    with raises_status("CK_ERR_INVALID", "needs type="):
        ck.Array("x")  # a str alone is Array's literal form, not a value
    assert ck.Array('"x\\u00e9"', type="string").tolist() == "x\u00e9"
    dst = np.zeros(2, dtype=np.float64)
    ck.assign(dst, "2.5")  # a str is a 0-d string, broadcast
    assert dst.tolist() == [2.5, 2.5]
    out = np.zeros(3, dtype="U8")
    ck.assign(out, a)
    assert out.tolist() == ["1.5", "\u00e9\n\"\\", "\U0001F600\x7f"]
    with raises_status("CK_ERR_TYPE", "int and str"):
        ck.Array([1, "a"])
    with raises_status("CK_ERR_TYPE", "str and bytes"):
        ck.Array(["a", b"a"])
    with raises_status("CK_ERR_TEXT", "UTF-8"):
        ck.Array(["\ud800"])  # a lone surrogate has no UTF-8


def test_dtypes_ckernel_cannot_wrap():
    with raises_status("CK_ERR_TYPE", "byte order"):
        ck.assign(np.zeros(1), np.array(["1"], dtype=">U2"))
    bad = np.zeros(1, dtype="U2")
    bad.view(np.uint32)[0] = 0xD800  # a surrogate: not text
    with raises_status("CK_ERR_TEXT"):
        ck.Array(bad).tolist()
    with raises_status("CK_ERR_TEXT", "as float64"):
        ck.assign(np.zeros(1), bad)
    with raises_status("CK_ERR_TEXT", "not valid utf32 at byte offset 0"):
        ck.assign(np.zeros(1, dtype="S4"), bad)


def test_text_in_calls_and_expressions_is_an_error():
    u = np.array(["1", "2"])
    with raises_status("CK_ERR_TYPE"):
        ck.call("add", u, 1)
    with raises_status("CK_ERR_TYPE"):
        ck.call("add", ck.Array(["1", "2"]), 1.5)
    with raises_status("CK_ERR_TYPE", "holds fixed_string values"):
        ck.evaluate("a + 1", a=u)
    with raises_status("CK_ERR_TYPE", "holds string values"):
        ck.evaluate("a * b", a=np.arange(2.0), b=ck.Array(["1", "2"]))


def test_large_text_runs_in_parallel_and_round_trips():
    x = np.random.default_rng(3).standard_normal(300_000)
    u = np.empty(x.shape, dtype="U32")
    ck.assign(u, x)
    assert u[::997].tolist() == x[::997].astype("U32").tolist()
    back = np.empty_like(x)
    ck.assign(back, u)
    assert np.array_equal(back, x)
