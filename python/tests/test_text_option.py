"""python/tests/test_text_option.py: options of text (?string, ?bytes, ?fixed_string[N, enc],
?fixed_bytes[N]; docs/design.md §16) through the package: None as NA in values (inferred or
with type=), tolist() giving None back, U arrays and numbers into them and out of them (NA
into a U array is CK_ERR_NA), the text calls with NA in giving NA out, struct fields. NumPy has
no options: what is not NA is compared with NumPy's astype and Python's float() on the same
text, NA where None was written by hand.
"""
import numpy as np

import ckernel as ck
from conftest import raises_status


def test_none_among_str_or_bytes_is_an_option():
    a = ck.Array(["a", None, "\u00e9\U0001F600"])
    assert a.type == "3 * ?string"
    assert a.tolist() == ["a", None, "\u00e9\U0001F600"]
    assert str(a) == '["a", NA, "\u00e9\U0001F600"]'
    b = ck.Array([[b"\x00\xff", None], [None, b""]])
    assert b.type == "2 * 2 * ?bytes"
    assert b.tolist() == [[b"\x00\xff", None], [None, b""]]
    r = ck.Array([["x"], [None, "y"]])  # ragged
    assert r.type == "2 * var * ?string"
    assert r.tolist() == [["x"], [None, "y"]]


def test_fixed_options_with_type():
    u = ck.Array(["ab", None, ""], type="3 * ?fixed_string[2, 'utf32']")
    assert u.tolist() == ["ab", None, ""]
    s = ck.Array([b"\xff", None], type="2 * ?fixed_bytes[2]")
    assert s.tolist() == [b"\xff", None]
    # Every byte 0xff is the NA of ?fixed_bytes: that value is refused (as an unsigned
    # integer's maximum is under an option), NA is written NA.
    with raises_status("CK_ERR_OVERFLOW", "is the NA of ?fixed_bytes[2]"):
        ck.Array([b"\xff\xff"], type="1 * ?fixed_bytes[2]")
    with raises_status("CK_ERR_TYPE", "no NumPy dtype"):
        np.asarray(u)  # NumPy has no options
    with raises_status("CK_ERR_TYPE", "no NumPy dtype"):
        np.asarray(ck.Array(["a", None]))


def test_U_arrays_into_and_out_of_options():
    u = np.array(["1.5", "\u00e9", ""], dtype="U3")
    a = ck.Array(["x", None, "z"], type="3 * ?string")
    ck.assign(a, u)  # values over NA and values alike
    assert a.tolist() == u.tolist()
    out = np.full(3, "?", dtype="U4")
    ck.assign(out, a)  # no NA in it: a plain U array
    assert out.tolist() == u.tolist()
    with raises_status("CK_ERR_NA", "element 1"):
        ck.assign(np.zeros(3, dtype="U4"), ck.Array(["a", None, "b"]))
    with raises_status("CK_ERR_NA", "element 0"):
        ck.assign(np.zeros(2, dtype=np.float64), ck.Array([None, "1"]))


def test_numbers_and_options_of_text():
    x = np.array([2.5, -0.0, 1e300, np.inf])
    o = ck.Array([None] * 5, type="5 * ?string")
    ck.assign(o, ck.Array([2.5, -0.0, None, 1e300, np.inf], type="5 * ?float64"))
    want = x.astype("U32").tolist()
    assert o.tolist() == want[:2] + [None] + want[2:]
    text = ["1.5", None, " -inf", "1e-5", None]
    f = ck.Array([0.0] * 5, type="5 * ?float64")
    ck.assign(f, ck.Array(text))
    assert f.tolist() == [None if t is None else float(t) for t in text]
    i = ck.Array([None, 0], type="2 * ?int32")
    ck.assign(i, ck.Array(["-7", None]))
    assert i.tolist() == [-7, None]
    with raises_status("CK_ERR_TEXT", "as float64"):
        ck.assign(f, ck.Array(["1", None, "x1", None, None]))


def test_calls_give_NA_where_an_argument_is_NA():
    a = ck.Array(["a", None, "b", "c"])
    u = np.array(["a", "a", "a", "d"])
    eq = ck.call("equal", a, u)
    assert eq.type == "4 * ?bool"
    assert eq.tolist() == [True, None, False, False]
    assert ck.call("less", a, u).tolist() == [False, None, False, True]
    assert ck.call("length", ck.Array(["\u00e9\U0001F600", None, ""])).tolist() == [2, None, 0]
    cat = ck.call("concat", a, u)
    assert cat.type == "4 * ?string"
    assert cat.tolist() == ["aa", None, "ba", "cd"]
    assert ck.call("equal", ck.Array([b"x", None]), b"x").tolist() == [True, None]


def test_struct_fields():
    t = "2 * {name: ?string, code: ?fixed_bytes[2], n: int32}"
    r = ck.Array([{"name": "a", "code": None, "n": 1}, {"name": None, "code": b"z", "n": 2}],
                 type=t)
    assert r.tolist() == [{"name": "a", "code": None, "n": 1},
                          {"name": None, "code": b"z", "n": 2}]
    c = ck.Array([{"name": "?", "code": b"?", "n": 0}] * 2, type=t)
    ck.assign(c, r)
    assert c.tolist() == r.tolist()
