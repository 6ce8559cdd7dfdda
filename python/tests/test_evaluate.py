"""python/tests/test_evaluate.py: ckernel.evaluate, an expression over keyword arguments as one
kernel: results against NumPy on the same buffers (a * x + b and others bit for bit; with
Hypothesis, random expression trees over random dtypes, shapes, strides and broadcasting,
against NumPy's ufuncs applied operation by operation, wherever every operation's result
type is the same in both), Python numbers, ragged and option data, out=, the kernel cache,
every error (bad expressions, missing and unknown names, arguments it cannot use, errors
inside an operation), reference counts, allocation failure at every point, the GIL
released while the kernel runs, and large runs split over threads (ck_parallel_expr) giving
the serial bits.
"""
import ctypes
import gc
import os
import sys
import threading
import warnings

import numpy as np
import pytest

import ckernel as ck
from conftest import fails_at_every_allocation, numpy_on_contiguous, raises_status


def test_a_times_x_plus_b_is_numpys_bit_for_bit():
    rng = np.random.default_rng(1)
    a, x, b = (rng.standard_normal(1000) * 1e3 for _ in range(3))
    got = ck.evaluate("a * x + b", a=a, x=x, b=b)
    want = a * x + b
    assert got.dtype == np.float64 and got.tobytes() == want.tobytes()
    # Keywords in any order; names are the expression's, not positions.
    assert ck.evaluate("a * x + b", b=b, x=x, a=a).tobytes() == want.tobytes()
    # float32 stays float32 (the product is rounded to float32 before the sum, as NumPy's).
    a32, x32, b32 = (v.astype(np.float32) for v in (a, x, b))
    got = ck.evaluate("a * x + b", a=a32, x=x32, b=b32)
    assert got.dtype == np.float32 and got.tobytes() == (a32 * x32 + b32).tobytes()


def test_operators_precedence_and_calls():
    x = np.array([-2.0, 0.5, 3.0])
    y = np.array([1.0, -4.0, 2.0])
    cases = {
        "x - y * 2.0": x - y * 2.0,
        "(x - y) * 2.0": (x - y) * 2.0,
        "-x / y": -x / y,
        "x - -y": x + y,
        "maximum(x, y) - minimum(x, y)": np.maximum(x, y) - np.minimum(x, y),
        "x * x * x": x * x * x,
    }
    for text, want in cases.items():
        got = ck.evaluate(text, x=x, y=y) if "y" in text else ck.evaluate(text, x=x)
        assert got.tobytes() == want.tobytes(), text


def test_literals_are_typed_values():
    x8 = np.array([100, -100, 7], dtype=np.int8)
    r = ck.evaluate("x + 1", x=x8)  # 1 counts as an int8 (by value): int8 + int8 wraps
    assert r.dtype == np.int8 and r.tolist() == [101, -99, 8]
    r = ck.evaluate("x * 0.5", x=np.array([1, 2], dtype=np.float32))  # by value: float32
    assert r.dtype == np.float32 and r.tolist() == [0.5, 1.0]
    r = ck.evaluate("x * 1e300", x=np.array([1, 2], dtype=np.float32))  # needs float64
    assert r.dtype == np.float64
    r = ck.evaluate("x * float32(0.5)", x=np.array([1, 2], dtype=np.float32))
    assert r.dtype == np.float32 and r.tolist() == [0.5, 1.0]
    r = ck.evaluate("int8(x)", x=np.array([1.0, -2.0]))
    assert r.dtype == np.int8 and r.tolist() == [1, -2]


def test_numbers_are_typed_by_value_as_numpy_does():
    # Python numbers, NumPy scalars and 0-d arrays are typed by value beside arrays, as
    # NumPy 1.24 types them: the reference is Python's own evaluation with NumPy.
    x = np.array([1.5, 2.5], dtype=np.float32)
    i = np.array([1, 2, 3], dtype=np.int16)
    u = np.array([1, 2, 3], dtype=np.uint8)
    cases = [
        ("a * x + b", dict(a=2.0, x=x, b=1)),          # float32
        ("a * x", dict(a=3, x=i)),                      # int16
        ("a * x", dict(a=70000, x=i)),                  # 70000 needs int32
        ("a * x", dict(a=0.5, x=i)),                    # a float beside integers: float64
        ("a * x", dict(a=np.int64(3), x=i)),            # int16
        ("a * x", dict(a=np.array(300, np.int32), x=u)),  # 300: uint16
        ("a - x", dict(a=-1, x=u)),                     # -1 beside uint8: int16
        ("2 * a + 3 * x", dict(a=np.float32(0.5), x=x)),  # 2 * a is float64, then float32
        ("a * x", dict(a=np.float64(1e300), x=x)),      # float64
        ("a + x", dict(a=1j, x=x)),                     # complex64
        ("a & x", dict(a=True, x=np.array([True, False]))),
        ("a * b + c", dict(a=2, b=3, c=4)),             # all numbers: an int64 scalar
        ("a / b", dict(a=np.float32(2.5), b=3)),        # float64 (no array)
        ("a + b", dict(a=np.float32(0.25), b=np.array([1.0, 2.0]))),
    ]
    for text, env in cases:
        want = eval(text, {}, dict(env))
        got = ck.evaluate(text, **env)
        if isinstance(want, (int, float, complex)):  # Python's numbers: NumPy's scalar
            want = np.asarray(want)[()]
        assert type(got) is type(want), (text, type(got), type(want))
        assert np.asarray(got).dtype == np.asarray(want).dtype, (text, got, want)
        assert np.array_equal(got, want), (text, got, want)
    # The bound values are the values: another value of the same type is another result.
    assert ck.evaluate("a * x", a=np.int16(2), x=i).tolist() == [2, 4, 6]
    assert ck.evaluate("a * x", a=np.int16(5), x=i).tolist() == [5, 10, 15]


def test_broadcasting_strides_and_views():
    rng = np.random.default_rng(2)
    col = rng.standard_normal((5, 1))
    row = rng.standard_normal(7)
    grid = rng.standard_normal((9, 5, 14))[::2, :, ::2]  # a strided view, 5 x 5 x 7
    got = ck.evaluate("g * c - r", g=grid, c=col, r=row)
    want = grid * col - row
    assert got.shape == (5, 5, 7) and got.tobytes() == want.tobytes()
    t = rng.standard_normal((6, 4)).T  # transposed
    assert ck.evaluate("t * t + 1.0", t=t).tobytes() == (t * t + 1.0).tobytes()
    with raises_status("CK_ERR_BROADCAST"):
        ck.evaluate("a + b", a=np.ones(3), b=np.ones(4))


def test_out_is_written_in_place_and_returned():
    x = np.arange(6.0).reshape(2, 3)
    out = np.full((2, 3), -1.0)
    assert ck.evaluate("x * 2.0 + 1.0", x=x, out=out) is out
    assert out.tolist() == [[1.0, 3.0, 5.0], [7.0, 9.0, 11.0]]
    out32 = np.zeros((4, 2, 3), dtype=np.float32)  # broadcast into, cast on the way
    ck.evaluate("x + y", x=x, y=np.array([0.5, 0.5, 0.5]), out=out32)
    assert out32.tolist() == [(x + 0.5).tolist()] * 4
    # out= may be an argument itself (the same layout: read before written) ...
    v = np.arange(5.0)
    ck.evaluate("v * v - 1.0", v=v, out=v)
    assert v.tolist() == [-1.0, 0.0, 3.0, 8.0, 15.0]
    # ... or overlap one otherwise: the argument is read from a copy.
    w = np.arange(8.0)
    ck.evaluate("w + 100.0", w=w[:6], out=w[2:])
    assert w.tolist() == [0.0, 1.0, 100.0, 101.0, 102.0, 103.0, 104.0, 105.0]
    arr = ck.Array("[[0, 0], [0]]", type="2 * var * float64")
    assert ck.evaluate("x * 10.0", x=ck.Array([[1.0, 2.0], [3.0]]), out=arr) is arr
    assert arr.tolist() == [[10.0, 20.0], [30.0]]
    with raises_status("CK_ERR_INVALID", "read-only"):
        ro = np.zeros(3)
        ro.flags.writeable = False
        ck.evaluate("x + 1.0", x=np.ones(3), out=ro)
    with raises_status("CK_ERR_TYPE", "writable"):
        ck.evaluate("x + 1.0", x=np.ones(3), out=[0.0, 0.0, 0.0])


def test_ragged_and_option_data():
    x = ck.Array([[1, 2, 3], [4], []])
    r = ck.evaluate("a * x + b", a=2.0, x=x, b=0.5)
    assert isinstance(r, ck.Array) and r.type == "3 * var * float64"
    assert r.tolist() == [[2.5, 4.5, 6.5], [8.5], []]
    # A row of a var dimension broadcasts against a fixed one of the same size or 1.
    r = ck.evaluate("x - y", x=x, y=np.array([[10], [20], [30]]))
    assert r.tolist() == [[-9, -8, -7], [-16], []]
    with raises_status("CK_ERR_BROADCAST"):
        ck.evaluate("x - y", x=x, y=np.array([1, 2]))
    na = ck.Array("[1, NA, 3]", type="3 * ?int32")
    r = ck.evaluate("x * 2 + y", x=na, y=np.array([10, 20, 30], dtype=np.int32))
    assert r.type == "3 * ?int32" and r.tolist() == [12, None, 36]


def test_the_kernel_is_cached_for_the_same_expression_and_layouts():
    x, y = np.arange(10.0), np.ones(10)
    ck.evaluate("x * y + 2.0", x=x, y=y)  # warm: parsed and built
    h0, m0, _ = ck._ckernel._cache_stats()
    for k in range(5):
        r = ck.evaluate("x * y + 2.0", x=x + k, y=y)
        assert r.tolist() == (x + k + 2.0).tolist()
    h1, m1, _ = ck._ckernel._cache_stats()
    assert (h1 - h0, m1 - m0) == (5, 0)
    # The expression is part of the key: another text over the same layouts is another kernel.
    assert ck.evaluate("x * y - 2.0", x=x, y=y).tolist() == (x - 2.0).tolist()
    assert ck._ckernel._cache_stats()[1] == m1 + 1
    # A call over the same layouts is not the expression's kernel either.
    assert ck.call("multiply", x, y).tolist() == x.tolist()
    # More texts than the parsed expressions kept: each still evaluates as written.
    for k in range(200):
        assert ck.evaluate("x + %d" % k, x=np.zeros(2, np.int64)).tolist() == [k, k]


def test_large_runs_are_correct():
    x = np.linspace(-1.0, 1.0, 1 << 17)  # beyond the cache's size: built per call
    assert ck.evaluate("x * x - x", x=x).tobytes() == (x * x - x).tobytes()


def test_large_runs_split_over_threads_are_the_serial_bits():
    """ck_parallel_expr splits the rows of a large run over threads: the result is what each
    row gives alone (small, so serial and through the kernel cache) and NumPy's, bit for bit,
    whatever the number of threads."""
    rng = np.random.default_rng(26)
    a = rng.standard_normal((3000, 100))
    x = rng.standard_normal((3000, 100)).astype(np.float32)
    b = rng.standard_normal(100)  # a row broadcast to every row
    rows = np.array([ck.evaluate("a * x + b / 3", a=a[i], x=x[i], b=b) for i in range(3000)])
    assert rows.tobytes() == (a * x.astype(np.float64) + b / 3).tobytes()
    for threads in (1, 2, 16):
        ck.set_num_threads(threads)
        try:
            whole = ck.evaluate("a * x + b / 3", a=a, x=x, b=b)
        finally:
            ck.set_num_threads(0)
        assert whole.tobytes() == rows.tobytes(), threads


def test_large_runs_split_over_threads_report_an_error_within_the_rows_run():
    """Proof that evaluate splits: a zero divisor at [345, 7] of 600 rows of 1000 int32 is
    element [345007] of the rows run joined (one thread: one coalesced run), and element
    [345][7] of a worker's run of its own rows."""
    x = np.arange(600_000, dtype=np.int32).reshape(600, 1000)
    y = (1 + np.arange(600_000) % 5).astype(np.int32).reshape(600, 1000)
    y[345, 7] = 0
    messages = []
    for threads in (1, 2):
        ck.set_num_threads(threads)
        try:
            parallel = ck.get_num_threads() == 2  # 1 with the serial backend
            with pytest.raises(ck.Error) as e:
                ck.evaluate("trunc_divide(x, y)", x=x, y=y)
        finally:
            ck.set_num_threads(0)
        assert e.value.status == "CK_ERR_ZERO_DIVISION"
        messages.append(str(e.value))
    assert "integer division by zero at element [345007]" in messages[0]
    assert messages[1].endswith("at element [345][7]" if parallel else "at element [345007]"), \
        messages


def test_a_python_callback_in_an_expression_runs_on_worker_threads(hang_watchdog):
    """Were the GIL held while ck_parallel_expr runs, a worker's callback would wait for it
    forever (hang_watchdog ends that with the stacks)."""
    fn = ctypes.CFUNCTYPE(ctypes.c_double, ctypes.c_double)(lambda v: 2 * v)
    c = ck.Callable("test_evaluate_twice")
    c.add_native("d)d", fn)
    ck.register(c)
    ck.set_num_threads(2)
    try:
        x = np.arange(200_000, dtype=np.float64).reshape(2000, 100)  # 1.6 MB: rows split
        r = ck.evaluate("test_evaluate_twice(x) + 1.0", x=x)
    finally:
        ck.set_num_threads(0)
    assert np.array_equal(r, 2.0 * x + 1.0)  # exact: integers below 2**53


def test_errors_are_ckernel_errors_with_the_status():
    x = np.ones(3)
    with raises_status("CK_ERR_PARSE", "column 5"):
        ck.evaluate("x * ", x=x)
    with raises_status("CK_ERR_TYPE", "no_such_function"):
        ck.evaluate("no_such_function(x)", x=x)
    with raises_status("CK_ERR_INVALID", "'b'", "not given"):
        ck.evaluate("a * x + b", a=x, x=x)
    # numexpr's convention: a keyword the expression does not name is ignored
    assert np.array_equal(ck.evaluate("a * x", a=x, x=x, c="not used"), x * x)
    with raises_status("CK_ERR_INVALID", "out= is the destination"):
        ck.evaluate("out * 2", out=np.zeros(3))
    with raises_status("CK_ERR_TYPE", "expression (a str)"):
        ck.evaluate(b"x + 1", x=x)
    with raises_status("CK_ERR_TYPE", "source 0 holds string values"):
        ck.evaluate("x + 1", x="one")  # a str is a 0-d string: expressions take no text
    with raises_status("CK_ERR_TYPE", "argument 'x'"):
        ck.evaluate("x + 1", x=np.array([object()]))
    with raises_status("CK_ERR_TYPE", "subtract"):
        ck.evaluate("x - x", x=np.array([True]))  # bool - bool is not defined
    with raises_status("CK_ERR_ZERO_DIVISION", "column 1", "element [1]"):
        ck.evaluate("trunc_divide(x, y)", x=np.array([4, 5], np.int32), y=np.array([2, 0], np.int32))
    with raises_status("CK_ERR_OVERFLOW"):
        ck.evaluate("int8(x)", x=np.array([1.0, 300.0]))
    with pytest.raises(TypeError):
        ck.evaluate()
    with pytest.raises(TypeError):
        ck.evaluate("x + 1", np.ones(3))  # arrays are keywords
    with pytest.raises(TypeError):
        ck.evaluate(expr="x + 1", x=x)  # the expression is positional only


def test_more_arguments_than_a_kernel_takes():
    names = ["v%d" % k for k in range(17)]
    with raises_status("CK_ERR_INVALID", "16"):
        ck.evaluate(" + ".join(names), **{n: 1.0 for n in names})
    sixteen = names[:16]
    r = ck.evaluate(" + ".join(sixteen), **{n: np.ones(2) for n in sixteen})
    assert r.tolist() == [16.0, 16.0]


def _evaluate_elsewhere(text, kw):
    return ck.evaluate(text, **kw)


def test_arguments_and_results_keep_their_reference_counts():
    x, y, out = np.arange(8.0), np.ones(8), np.zeros(8)
    ragged, text = ck.Array([[1.0], [2.0, 3.0]]), "x * y + 1.0"
    objs = [x, y, out, ragged, text]
    ck.evaluate(text, x=x, y=y)  # the text is kept as the key of its parsed expression
    ck.evaluate(text, x=ragged, y=2.0)  # and of the one with y bound to 2.0
    before = [sys.getrefcount(o) for o in objs]
    for _ in range(100):
        ck.evaluate(text, x=x, y=y)
        ck.evaluate(text, x=x, y=y, out=out)
        ck.evaluate(text, x=ragged, y=2.0)
        for bad in (dict(x=x), dict(x=x, y="s"), dict(x=x, y=y, z=y)):
            try:
                _evaluate_elsewhere(text, bad)  # y not passed is looked up there: not found
            except ck.Error:
                pass
    del bad
    gc.collect()
    assert [sys.getrefcount(o) for o in objs] == before
    r = ck.evaluate(text, x=x, y=y)
    assert sys.getrefcount(r) == 2
    r2 = ck.evaluate(text, x=x, y=y, out=out)
    assert r2 is out
    a = ck.evaluate(text, x=ragged, y=2.0)
    assert sys.getrefcount(a) == 2


def test_allocation_failure_at_every_point():
    """ckernel's allocations fail one after another: each run either fails with CK_ERR_NOMEM
    or gives the right result, and nothing leaks."""
    runs = [
        lambda _: ck.evaluate("a * x + maximum(x, b)", a=2.0,
                              x=ck.Array([[1.0, -2.0], [3.0]]), b=0.0).tolist(),
        lambda _: ck.evaluate("x * 2 + 1", x=ck.Array("[1, NA]", type="2 * ?int16")).tolist(),
        lambda _: ck.evaluate("x - y", x=np.arange(4.0), y=[[1.0], [2.0]]).tolist(),
    ]
    for run in runs:
        fails_at_every_allocation(lambda: None, run)


def test_the_gil_is_released_while_the_kernel_runs(hang_watchdog):
    """The kernel blocks in read(2) on a pipe until this thread writes to it, which it can
    only do while the evaluating thread does not hold the GIL (held, they would wait on each
    other for good: hang_watchdog ends that with the stacks)."""
    libc = ctypes.CDLL("libc.so.6")
    c = ck.Callable("test_evaluate_read")
    c.add_native("iqQ)q", libc.read)  # read(fd, buffer address, count) -> bytes read
    ck.register(c)
    r, w = os.pipe()
    buf = ctypes.create_string_buffer(4)
    result = {}
    try:
        t = threading.Thread(target=lambda: result.setdefault(
            "n", ck.evaluate("test_evaluate_read(fd, buf, n)", fd=np.int32(r),
                             buf=np.int64(ctypes.addressof(buf)), n=np.uint64(3))))
        t.start()
        os.write(w, b"abc")
        t.join()
    finally:
        os.close(r)
        os.close(w)
    assert result["n"] == 3 and buf.raw[:3] == b"abc"


# ---- Hypothesis: random expression trees against NumPy, operation by operation ----

pytest.importorskip("hypothesis")
from hypothesis import assume, given, strategies as st  # noqa: E402

from test_call import random_values  # noqa: E402

TYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32",
         "float64"]
OPS = {"+": np.add, "-": np.subtract, "*": np.multiply, "/": np.true_divide,
       "<": np.less, "<=": np.less_equal, "==": np.equal, "!=": np.not_equal,
       ">": np.greater, ">=": np.greater_equal, "&": np.bitwise_and, "|": np.bitwise_or,
       "^": np.bitwise_xor, "//": np.floor_divide, "%": np.remainder}
NAMED = {"minimum": np.minimum, "maximum": np.maximum, "where": np.where}
CALLABLE = {"+": "add", "-": "subtract", "*": "multiply", "/": "divide", "<": "less",
            "<=": "less_equal", "==": "equal", "!=": "not_equal", ">": "greater",
            ">=": "greater_equal", "&": "bitwise_and", "|": "bitwise_or", "^": "bitwise_xor",
            "//": "floor_divide", "%": "remainder"}


def draw_tree(data, names, depth):
    """(text, leaf name or an operation with its operands)."""
    if depth == 0 or data.draw(st.integers(0, 3)) == 0:
        name = data.draw(st.sampled_from(names))
        return name, ("arg", name)
    kind = data.draw(st.sampled_from(["op", "op", "named", "neg"]))
    if kind == "neg":
        text, node = draw_tree(data, names, depth - 1)
        return "-(%s)" % text, ("neg", node)
    lt, ln = draw_tree(data, names, depth - 1)
    rt, rn = draw_tree(data, names, depth - 1)
    if kind == "named":
        f = data.draw(st.sampled_from(sorted(NAMED)))
        if f == "where":  # the condition a comparison of the two, then the two
            return "where(%s < %s, %s, %s)" % (lt, rt, lt, rt), (f, ("<", ln, rn), ln, rn)
        return "%s(%s, %s)" % (f, lt, rt), (f, ln, rn)
    op = data.draw(st.sampled_from(sorted(OPS)))
    return "(%s %s %s)" % (lt, op, rt), (op, ln, rn)


def empty_like_type(dt):
    return np.empty(0, dtype=dt)


def leaves(node):
    return {node[1]} if node[0] == "arg" else set().union(*(leaves(n) for n in node[1:]))


def numpy_eval(node, args):
    """NumPy's ufuncs operation by operation, each on contiguous broadcast operands (the loops
    ckernel matches bit for bit); None when an operation's result type is not ckernel's."""
    if node[0] == "arg":
        return args[node[1]]
    operands = [numpy_eval(n, args) for n in node[1:]]
    if any(o is None for o in operands):
        return None
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        fn = np.negative if node[0] == "neg" else OPS.get(node[0]) or NAMED[node[0]]
        try:
            want = numpy_on_contiguous(fn, *operands)
        except TypeError:  # NumPy has no loop (& of floats): not a case
            return None
        name = "negative" if node[0] == "neg" else CALLABLE.get(node[0], node[0])
        # NumPy types 0-d operands beside arrays by value, which the contiguous copies lose:
        # where that changes the loop, the case is test_numbers_are_typed_by_value's.
        if np.asarray(fn(*operands)).dtype != want.dtype:
            return None
    try:
        mine = ck.call(name, *(empty_like_type(o.dtype) for o in operands)).dtype
    except ck.Error:
        return None
    return want if mine == want.dtype else None


@given(st.data())
def test_random_expressions_match_numpy(data):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    names = ["a", "b", "c"][:data.draw(st.integers(1, 3))]
    text, tree = draw_tree(data, names, data.draw(st.integers(1, 4)))
    shape = tuple(data.draw(st.lists(st.integers(1, 5), min_size=0, max_size=3)))
    args = {}
    for n in names:
        t = data.draw(st.sampled_from(TYPES))
        # Trailing dims of the shape, each maybe 1: they broadcast together.
        sub = shape[data.draw(st.integers(0, len(shape))):]
        sub = tuple(s if data.draw(st.booleans()) else 1 for s in sub)
        v = random_values(t, sub, rng)
        if data.draw(st.booleans()) and v.ndim:  # a reversed, strided view
            v = np.repeat(v, 2, axis=-1)[..., ::-2]
        args[n] = v
    want = numpy_eval(tree, args)
    assume(want is not None)
    used = {n: args[n] for n in leaves(tree)}
    got = np.asarray(ck.evaluate(text, **used))
    assert got.dtype == want.dtype and got.shape == want.shape, (text, got.dtype, want.dtype)
    assert np.array_equal(got, want, equal_nan=got.dtype.kind == "f"), (text, args, got, want)
    if got.dtype.kind == "f":  # the signs of zeros too (a NaN's sign is not NumPy's to fix)
        num = ~np.isnan(want)
        assert np.array_equal(np.signbit(got)[num], np.signbit(want)[num]), (text, args, got, want)


def test_literals_only_give_a_scalar():
    # Python's numbers' types: 2 + 3 is an int64, 2.5 * 2 - 1 a float64
    r = ck.evaluate("2 + 3")
    assert r == 5 and isinstance(r, np.int64)
    r = ck.evaluate("2.5 * 2 - 1")
    assert r == 4.0 and isinstance(r, np.float64)
    out = np.zeros(3, np.float32)
    assert ck.evaluate("1 / 8.0", out=out) is out
    assert np.array_equal(out, np.full(3, 0.125, np.float32))
    with raises_status("CK_ERR_ZERO_DIVISION", "column 5",
                       "trunc_divide: integer division by zero"):
        ck.evaluate("1 + trunc_divide(1, 0)")
    assert ck.evaluate("1 / 0") == np.inf  # true division, as NumPy's
    with raises_status("CK_ERR_INVALID", "'x'", "not given"):
        ck.evaluate("2 + x")


NUMPY_REDUCTIONS = {"sum": np.sum, "prod": np.prod, "min": np.min, "max": np.max, "any": np.any,
                    "all": np.all}


def test_reductions_match_numpy():
    """sum prod min max any all with axis=, at the root and inside: NumPy's types and values
    (integers and selections exactly, float sums within rounding: ckernel's sum is its own
    blocked pairwise sum, whose bits are ck.reduce's of the evaluated operand)."""
    rng = np.random.default_rng(5)
    env = dict(a=rng.integers(-50, 50, (4, 6)).astype(np.int32),
               b=rng.integers(0, 9, 6).astype(np.uint8),
               f=rng.standard_normal((4, 6)), g=rng.standard_normal((4, 6)).astype(np.float32))
    cases = ["sum(a * a)", "sum(a, axis=1)", "prod(a % 5 + 1, axis=0)", "min(f, axis=-1)",
             "max(g)", "any(a > 40)", "all(a > -60, axis=0)", "a - sum(a, axis=0) // 4",
             "f - max(f, axis=0)", "sum(b)", "b - min(b)", "sum(f * f, axis=(0, 1))",
             "max(a, axis=(0,)) * b", "sum(g * g, axis=1) + 1", "sum(a, axis=())",
             "where(f > 0, f, 0) / max(abs(f))", "sum(sum(a, axis=1) * 2) - prod(b + 1)"]
    for text in cases:
        with np.errstate(all="ignore"):
            want = eval(text, dict(NUMPY_REDUCTIONS, where=np.where, abs=np.abs), dict(env))
        got = ck.evaluate(text, **env)
        assert np.asarray(got).dtype == np.asarray(want).dtype, (text, got, want)
        assert np.shape(got) == np.shape(want), text
        if np.asarray(want).dtype.kind == "f":
            assert np.allclose(got, want, rtol=1e-6 if "g" in text else 1e-13, atol=0), text
        else:
            assert np.array_equal(got, want), (text, got, want)
    # A float sum's bits are ck.reduce's of the evaluated operand, whatever the threads.
    f = rng.standard_normal((3, 5000))
    for axis in (None, 0, 1):
        want = ck.reduce("sum", ck.evaluate("f * f - 1", f=f), axis=axis)
        text = "sum(f * f - 1)" if axis is None else "sum(f * f - 1, axis=%d)" % axis
        for threads in (1, 2):
            ck.set_num_threads(threads)
            try:
                got = ck.evaluate(text, f=f)
            finally:
                ck.set_num_threads(0)
            assert np.asarray(got).tobytes() == np.asarray(want).tobytes(), (text, threads)


def test_reduction_errors_name_the_column():
    x = np.arange(3.0)
    with raises_status("CK_ERR_INVALID", "expression column 5", "axis 2 is out of range"):
        ck.evaluate("1 + sum(x, axis=2)", x=x)
    with raises_status("CK_ERR_INVALID", "no elements to reduce"):
        ck.evaluate("min(x)", x=np.zeros(0))
    with raises_status("CK_ERR_PARSE", "column 13", "an axis"):
        ck.evaluate("sum(x, axis=)", x=x)
