"""python/tests/test_call.py: ckernel.call of the built-in callables on NumPy arrays, Python
values and ckernel.Arrays: what it returns (NumPy for fixed dims of scalars, a NumPy scalar
for 0-d, ckernel.Array otherwise), out=, the type chosen for Python numbers, selection with
allow_unsafe, callables(), explain(); and, with Hypothesis, add, subtract, multiply and divide
against NumPy's ufuncs wherever both give the same result type (integer division against
truncation computed with Python ints).
"""
import warnings

import numpy as np
import pytest

import ckernel as ck
from conftest import numpy_on_contiguous, raises_status

SCALARS = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float16", "float32", "float64", "complex64", "complex128"]


def test_call_returns_numpy_for_fixed_dims():
    r = ck.call("add", np.arange(3, dtype=np.int32), np.array([0.5]))
    assert isinstance(r, np.ndarray) and r.dtype == np.float64 and r.tolist() == [0.5, 1.5, 2.5]
    grid = ck.call("multiply", np.arange(3, dtype=np.int16).reshape(3, 1), np.arange(4, dtype=np.int16))
    assert grid.dtype == np.int16 and grid.tolist() == [[i * j for j in range(4)] for i in range(3)]


def test_scalars_are_typed_by_value_as_numpy_1_24():
    """Beside arrays of their kind or higher, scalars (Python numbers, NumPy scalars, 0-d
    arrays) count as the smallest type of their value (NumPy 1.24's value-based casting);
    else they keep their own type. Written out from NumPy 1.24's answers."""
    x = np.arange(3, dtype=np.int32)
    i8, u8 = np.zeros(2, np.int8), np.zeros(2, np.uint8)
    cases = [(x, 1, np.int32), (u8, 1, np.uint8), (i8, 1, np.int8),
             (i8, 300, np.int16),  # 300 is uint16, and int16 beside a signed array
             (u8, -1, np.int16), (u8, 300, np.uint16), (u8, 2**40, np.uint64),
             (np.ones(2, np.float32), 1, np.float32), (np.ones(2, np.float16), 0.5, np.float16),
             (np.ones(2, np.float16), 70000.0, np.float32),
             (np.ones(2, np.float32), 1e300, np.float64), (x, 1.5, np.float64),
             (np.ones(2, np.float32), 1j, np.complex64), (np.ones(2, np.complex64), 2.0, np.complex64),
             (np.ones(2), 1e300j, np.complex128),
             (np.zeros(2, bool), True, np.bool_), (np.zeros(2, bool), 2, np.int64),
             (x, np.int64(1), np.int32), (i8, np.int64(300), np.int16),
             (i8, np.array(70000), np.int32), (x, np.float32(2.5), np.float64),
             (np.ones(1, np.uint64), 2**64 - 2, np.uint64), (np.ones(1, np.int64), 2**63, np.float64)]
    for a, b, want in cases:
        assert np.add(a, b).dtype == want, (a.dtype, b, np.add(a, b).dtype)  # NumPy agrees
        for args in ((a, b), (b, a)):
            r = ck.call("add", *args)
            assert r.dtype == want and r.tolist() == np.add(*args).tolist(), (a.dtype, b, r)
    assert ck.call("add", ck.Array([[1.5], []], type="2 * var * float32"), 1).type == "2 * var * float32"
    # A 0-d array's type follows its value from call to call (no cached kernel of another).
    for v, want in [(5, np.int8), (300, np.int16), (5, np.int8), (70000, np.int32)]:
        assert ck.call("add", i8, np.array(v)).dtype == want
    with raises_status("CK_ERR_OVERFLOW", "int64"):
        ck.call("add", 2**64, 1)
    with raises_status("CK_ERR_TYPE"):
        ck.call("add", x, 2**64)  # NumPy's object array: no ckernel type


def test_python_numbers_alone():
    assert ck.call("add", 1, 2).dtype == np.int64
    assert ck.call("add", True, 2.5).dtype == np.float64
    assert ck.call("add", 1, 2j).dtype == np.complex128


def test_zero_dimensional_results_are_numpy_scalars():
    r = ck.call("add", 1, 2)
    assert type(r) is np.int64 and r == 3
    r = ck.call("divide", 1.0, 4)
    assert type(r) is np.float64 and r == 0.25


def test_out_is_written_and_returned():
    x = np.arange(4, dtype=np.int32)
    out = np.full((2, 4), -1.0, dtype=np.float32)
    assert ck.call("add", x, 1, out=out) is out
    assert out.tolist() == [[1, 2, 3, 4]] * 2
    o = np.zeros(6)[::-2]  # strided and reversed out
    ck.call("subtract", np.arange(3.0), 1, out=o)
    assert o.tolist() == [-1.0, 0.0, 1.0]
    with raises_status("CK_ERR_BROADCAST"):
        ck.call("add", x, 1, out=np.zeros(3))
    ro = np.zeros(4)
    ro.flags.writeable = False
    with raises_status("CK_ERR_INVALID", "read-only"):
        ck.call("add", x, 1, out=ro)
    with raises_status("CK_ERR_TYPE", "writable NumPy array"):
        ck.call("add", x, 1, out=[0, 0, 0, 0])


def test_out_overlapping_an_argument():
    x = np.arange(8, dtype=np.int64)
    want = x.copy()
    np.add(want[:-1], 10, out=want[1:])
    ck.call("add", x[:-1], 10, out=x[1:])
    assert x.tolist() == want.tolist()
    y = np.arange(5.0)
    ck.call("multiply", y, y, out=y)  # the same layout: in place
    assert y.tolist() == [0.0, 1.0, 4.0, 9.0, 16.0]


def test_ragged_and_option_results_are_arrays():
    r = ck.call("add", ck.Array([[1, 2], [3]]), 10)
    assert isinstance(r, ck.Array) and r.type == "2 * var * int64"
    assert r.tolist() == [[11, 12], [13]]
    r = ck.call("multiply", [[1.5], [2, 3]], np.array([2.0]))  # nested lists are arguments too
    assert r.tolist() == [[3.0], [4.0, 6.0]]
    o = ck.call("add", ck.Array("[1, NA, 3]", type="3 * ?int32"), np.int32(10))
    assert o.type == "3 * ?int32" and o.tolist() == [11, None, 13]
    dst = ck.Array("[null, null]", type="2 * var * float32")
    assert ck.call("add", ck.Array([[1, 2], [3]]), 1, out=dst) is dst
    assert dst.tolist() == [[2.0, 3.0], [4.0]]


def test_selection_and_its_refusals():
    import ctypes
    to_byte = ck.Callable("to_byte")  # selection fails before either function could run
    to_byte.add_native("b)b", ctypes.CDLL("libc.so.6").abs)
    to_byte.add_native("B)B", ctypes.CDLL("libc.so.6").abs)
    a, b = np.arange(3, dtype=np.int16), np.arange(3, dtype=np.float64)
    with raises_status("CK_ERR_TYPE", "unsafe"):
        ck.call(to_byte, a)
    with raises_status("CK_ERR_AMBIGUOUS", "(int8) -> int8", "(uint8) -> uint8"):
        ck.call(to_byte, a, allow_unsafe=True)  # one unsafe conversion either way
    with raises_status("CK_ERR_TYPE", "nope"):
        ck.call("nope", a)
    with raises_status("CK_ERR_ZERO_DIVISION", "division by zero"):
        ck.call("trunc_divide", np.array([1, 2, 3], np.int32), np.array([1, 0, 1], np.int32))
    with raises_status("CK_ERR_INVALID", "1 to 16"):
        ck.call("add")
    with raises_status("CK_ERR_OVERFLOW", "uint8"):
        ck.call("add", np.array([200], np.int32), 100, out=np.zeros(1, np.uint8))
    o = np.zeros(1, np.uint8)
    ck.call("add", np.array([200], np.int32), 100, out=o, errmode="nocheck")
    assert o.tolist() == [44]
    with pytest.raises(TypeError):
        ck.call("add", a, b, outt=None)


def test_a_zero_dimensional_complex_product_is_the_textbook_formula():
    # NumPy's 0-d multiply fuses a multiply-add on an FMA machine (3.1782999999999997 for the
    # imaginary part here, where the two roundings give 3.1783); its 1-d loop does not, and
    # ckernel's product is the textbook formula's roundings on every target and every shape.
    def textbook(x, y):
        return complex(x.real * y.real - x.imag * y.imag, x.real * y.imag + x.imag * y.real)

    a, b = complex(-3.76, -1.53), complex(6.55, -1.82)
    for x, y in ((a, b), (b, a)):
        got = ck.call("multiply", np.array(x), np.array(y))
        assert isinstance(got, np.complex128) and complex(got) == textbook(x, y), (x, y, got)
        assert complex(np.multiply(np.array([x]), np.array([y]))[0]) == complex(got)


def test_callables_lists_the_builtins():
    c = ck.callables()
    assert set(c) >= {"assign", "add", "subtract", "multiply", "divide"}
    assert "(int8, int8) -> int8" in c["add"]
    assert "(float64, float64) -> float64" in c["divide"]


def test_explain_gives_the_kernel_tree():
    text = ck.explain("10 * float64", "10 * int32", errmode="nocheck")
    assert "strided_dim" in text and "cast int32 -> float64 (nocheck)" in text
    x = np.zeros((4, 8), dtype=np.int16)
    text = ck.explain(np.zeros((8, 4)), x.T)  # arrays: their own strides (here transposed)
    assert "int16 -> float64" in text
    assert "var_dim" in ck.explain("2 * var * float64", ck.Array([[1], [2, 3]]))
    with raises_status("CK_ERR_PARSE", "column 5"):
        ck.explain("3 * vra * int32", "int32")


# ---- Hypothesis: the built-ins against NumPy's ufuncs ----

pytest.importorskip("hypothesis")
from hypothesis import assume, given, strategies as st  # noqa: E402

UFUNC = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply, "divide": np.true_divide,
         "trunc_divide": np.true_divide}  # trunc_divide of integers: trunc_divide() below


def random_values(name, shape, rng):
    dt = np.dtype(name)
    n = int(np.prod(shape, dtype=np.int64))
    if dt.kind == "b":
        v = rng.integers(0, 2, n).astype(dt)
    elif dt.kind in "iu":
        info = np.iinfo(dt)
        v = rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
        small = rng.random(n) < 0.5
        v[small] = rng.integers(-5 if dt.kind == "i" else 0, 6, int(small.sum())).astype(dt)
    else:
        part = np.float32 if name in ("float16", "float32", "complex64") else np.float64
        if name == "float16":
            part = np.float16
        v = (rng.standard_normal(n) * 10.0 ** rng.integers(-3, 4, n)).astype(part)
        v[rng.random(n) < 0.05] = np.nan
        v[rng.random(n) < 0.05] = np.inf
        if dt.kind == "c":
            v = v + 1j * (rng.standard_normal(n) * 10.0 ** rng.integers(-3, 4, n)).astype(part)
        v = v.astype(dt)
    return v.reshape(shape)


def trunc_divide(a, b, dt):
    """Integer division as ckernel defines it: toward zero, wrapping (INT_MIN / -1)."""
    bits = dt.itemsize * 8
    out = []
    for x, y in zip(a.ravel().tolist(), b.ravel().tolist()):
        q = abs(x) // abs(y)
        q = q if (x < 0) == (y < 0) else -q
        if dt.kind == "i":
            q = (q + 2 ** (bits - 1)) % 2**bits - 2 ** (bits - 1)
        out.append(q)
    return np.array(out, dtype=dt).reshape(a.shape)


@given(st.data())
def test_builtins_match_numpy(data):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    op = data.draw(st.sampled_from(sorted(UFUNC)))
    ta = data.draw(st.sampled_from(SCALARS))
    tb = ta if data.draw(st.booleans()) else data.draw(st.sampled_from(SCALARS))
    shape = tuple(data.draw(st.lists(st.integers(1, 6), min_size=0, max_size=3)))
    # b broadcasts: trailing dims of a, each maybe 1
    bshape = tuple(s if data.draw(st.booleans()) else 1 for s in shape[data.draw(st.integers(0, len(shape))):])
    a, b = random_values(ta, shape, rng), random_values(tb, bshape, rng)
    if op == "trunc_divide" and np.dtype(tb).kind in "iub":
        b = np.where(b == 0, np.ones_like(b), b)  # integer division by zero: its own test
    if data.draw(st.booleans()) and a.ndim:  # a reversed, strided view
        a = np.repeat(a, 2, axis=-1)[..., ::-2]
    try:
        got = ck.call(op, a, b)
    except ck.Error as e:
        assert e.status in ("CK_ERR_TYPE", "CK_ERR_AMBIGUOUS"), str(e)
        assume(False)
    got = np.asarray(got)
    # NumPy on contiguous, already broadcast operands: its contiguous loops are the ones
    # ckernel matches bit for bit (NumPy's strided complex multiply may fuse a multiply-add).
    full = np.broadcast_shapes(a.shape, b.shape)
    ca = np.array(np.broadcast_to(a, full), order="C")
    cb = np.array(np.broadcast_to(b, full), order="C")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with np.errstate(all="ignore"):
                want = numpy_on_contiguous(UFUNC[op], ca, cb)
    except TypeError:  # NumPy has no boolean subtract
        assume(False)
    if op == "trunc_divide" and got.dtype.kind in "iu" and ta == tb:
        want = trunc_divide(ca, cb, got.dtype)
    assume(want.dtype == got.dtype)
    assert got.shape == want.shape
    assert np.array_equal(got, want, equal_nan=got.dtype.kind in "fc"), (op, ta, tb, a, b, got, want)
