"""python/tests/test_fp_errors.py: fp_errors="raise" (CK_EVAL_FP_ERRORS) against NumPy 1.24
under np.errstate(all="raise", under="ignore") on the same operands: every function ckernel
shares with NumPy, its float loops (and the integer ones of the divisions), over special
values and their pairs. ckernel raises where NumPy raises, with the same kind (invalid value,
division by zero, overflow: CK_ERR_DOMAIN, CK_ERR_ZERO_DIVISION, CK_ERR_OVERFLOW), and gives
NumPy's result where neither raises; without fp_errors nothing raises. The few places where
NumPy's answer comes from how its loops happen to compute (a flag a step raises that the
result does not show) are listed in NUMPY_ONLY with the reason.
"""
import itertools
import warnings

import numpy as np
import pytest

import ckernel as ck
from test_ufuncs import VMATH, ours

SPECIAL = [0.0, -0.0, 1.0, -1.0, 2.0, 0.5, -2.5, 1000.0, -1000.0, 1e300, 1e-300,
           float("inf"), float("-inf"), float("nan")]
INTS = [0, 1, -1, 7, -7, 127, -128]
KINDS = {"invalid value": "CK_ERR_DOMAIN", "divide by zero": "CK_ERR_ZERO_DIVISION",
         "overflow": "CK_ERR_OVERFLOW"}
# Where NumPy's answer comes from its loops' steps, not the values: (function, dtype or
# None for any) -> a test of the arguments it holds for.
def _nan(*a):
    return any(np.isnan(x).any() for x in a)


NUMPY_ONLY = {
    # its logaddexp compares a NaN argument (an invalid operation of its own steps; a NaN
    # argument's NaN is no error), and its float16 spacing of inf and NaN likewise
    ("logaddexp", None): _nan, ("logaddexp2", None): _nan,
    ("spacing", "float16"): lambda a: not np.isfinite(a).all(),
    # glibc's pow raises overflow for pow(1e300, inf), an exact infinity (pow(2, inf) not)
    ("power", "float64"): lambda a, b: np.isinf(b).all() and (np.abs(a) > 1e200).all(),
    ("float_power", "float64"): lambda a, b: np.isinf(b).all() and (np.abs(a) > 1e200).all(),
    # its float16 power(0, -inf) raises nothing, its float32 and float64 ones division by
    # zero (C's pow): ckernel's is division by zero in every type
    ("power", "float16"): lambda a, b: (a == 0).all() and np.isinf(b).all(),
}


def numpy_outcome(fn, args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            with np.errstate(all="raise", under="ignore"):
                return "ok", fn(*args)
        except FloatingPointError as e:
            for k, status in KINDS.items():
                if k in str(e):
                    return status, None
            raise
        except ValueError:  # integers to negative integer powers
            return "CK_ERR_DOMAIN", None
        except TypeError:
            return "type", None


def ck_outcome(name, args):
    try:
        return "ok", ck.call(name, *args, fp_errors="raise")
    except ck.Error as e:
        if e.status == "CK_ERR_TYPE":
            return "type", None
        return e.status, str(e)


def cases(fn, dtype):
    values = INTS if np.dtype(dtype).kind in "iu" else SPECIAL
    if fn.nin == 1:
        return [(np.array([v], dtype=dtype),) for v in values]
    return [(np.array([a], dtype=dtype), np.array([b], dtype=dtype))
            for a, b in itertools.product(values, repeat=2)]


def functions():
    # (gufuncs, matmul, take blocks: their leaves are not checked, docs/design.md §10)
    return [n for n in ours() if getattr(np, n).nout == 1 and getattr(np, n).nin in (1, 2)
            and getattr(np, n).signature is None]


@pytest.mark.parametrize("name", functions())
def test_errors_are_numpys(name):
    fn = getattr(np, name)
    wrong = []
    for dtype in ["float16", "float32", "float64", "int8", "int64", "uint8"]:
        kind = np.dtype(dtype).kind
        if kind in "iu" and name not in ("floor_divide", "remainder", "mod", "fmod", "divide",
                                         "true_divide", "power"):
            continue  # NumPy raises nothing else for integers
        for args in cases(fn, dtype):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                with np.errstate(all="ignore"):
                    try:
                        quiet = fn(*args)
                    except (TypeError, ValueError):
                        continue
            want, wv = numpy_outcome(fn, args)
            got, gv = ck_outcome(name, args)
            if want == "type" or got == "type":
                continue
            excused = [NUMPY_ONLY.get((name, d)) for d in (None, dtype)]
            if want != got and not any(f is not None and f(*args) for f in excused):
                wrong.append("%s%s: NumPy %s, ckernel %s" % (
                    name, tuple(a.tolist() + [a.dtype.name] for a in args), want, got))
            if got != "ok":
                assert name in gv, gv  # the message names the function
            elif want == "ok" and name not in VMATH:
                assert np.array_equal(np.asarray(gv), np.asarray(wv), equal_nan=True) or \
                    np.asarray(wv).dtype.kind not in "fciu", (name, args, gv, wv)
            # without the flag, IEEE's (or NumPy's integer) values and no error
            silent = ck.call(name, *args)
            if name not in VMATH:
                assert np.array_equal(np.asarray(silent), np.asarray(quiet), equal_nan=True), (
                    name, args, silent, quiet)
    assert not wrong, "%d differ, e.g.\n%s" % (len(wrong), "\n".join(wrong[:15]))


def test_the_message_names_the_function_the_values_and_the_element():
    x = np.array([0.0, 1.0, 710.0, 2.0])
    with pytest.raises(ck.Error) as e:
        ck.call("exp", x, fp_errors="raise")
    assert e.value.status == "CK_ERR_OVERFLOW"
    assert str(e.value) == "exp: overflow: exp(710) = inf at element [2]"
    with pytest.raises(ck.Error) as e:
        ck.call("floor_divide", np.arange(5), np.array([3, 2, 1, 0, 1]), fp_errors="raise")
    assert e.value.status == "CK_ERR_ZERO_DIVISION"
    assert str(e.value) == "floor_divide: division by zero: floor_divide(3, 0) at element [3]"
    # the element's index (a contiguous 2-d array is one run: its flat index; a strided one
    # by row and column); chunk edges do not matter
    for n in (255, 256, 257, 1024, 1025, 5000):
        a = np.ones((2, n))
        a[1, n - 1] = -1.0
        with pytest.raises(ck.Error) as e:
            ck.call("sqrt", a, fp_errors="raise")
        assert e.value.status == "CK_ERR_DOMAIN"
        assert str(e.value).endswith("at element [%d]" % (2 * n - 1)), str(e.value)
        with pytest.raises(ck.Error) as e:
            ck.call("sqrt", a[:, ::-1], fp_errors="raise")
        assert str(e.value).endswith("at element [1][0]"), str(e.value)
    # expressions and reductions too
    with pytest.raises(ck.Error) as e:
        ck.evaluate("log(x) * 2", x=np.array([1.0, 0.0]), fp_errors="raise")
    assert e.value.status == "CK_ERR_ZERO_DIVISION" and "log(0) = -inf" in str(e.value)
    with pytest.raises(ck.Error) as e:
        ck.reduce("subtract", np.array([np.inf, np.inf]), fp_errors="raise")
    assert e.value.status == "CK_ERR_DOMAIN" and "subtract(inf, inf) = nan" in str(e.value)
    assert np.isnan(ck.reduce("subtract", np.array([np.inf, np.inf])))
    with pytest.raises(ck.Error) as e:
        ck.call("exp", x, fp_errors="always")
    assert e.value.status == "CK_ERR_INVALID"
    assert ck.call("exp", x, fp_errors="ignore")[2] == np.inf


# The built-in sums and products of floats (their folds' own association: cases whose every
# association overflows or meets inf - inf, so NumPy's pairwise sum agrees), over every
# layout the reductions take: one run (parallel when large), rows, columns.
BUILTIN_CASES = [
    ("sum", np.array([np.inf, -np.inf]), {}, "CK_ERR_DOMAIN"),
    ("sum", np.full(200000, 1e304), {}, "CK_ERR_OVERFLOW"),
    ("sum", np.full((3, 1000), 1e306), {"axis": 1}, "CK_ERR_OVERFLOW"),
    ("sum", np.full((1000, 3), 1e306), {"axis": 0}, "CK_ERR_OVERFLOW"),
    ("sum", np.full(70000, 3e34, np.float32), {}, "CK_ERR_OVERFLOW"),
    ("sum", np.array([1 + 1e308j, 1e308j]) * 1.7, {}, "CK_ERR_OVERFLOW"),
    ("prod", np.array([1e200, 1e200]), {}, "CK_ERR_OVERFLOW"),
    ("prod", np.array([0.0, np.inf, 2.0]), {}, "CK_ERR_DOMAIN"),
    ("prod", np.full((4, 400), 10.0), {"axis": 1}, "CK_ERR_OVERFLOW"),
    # no error: infinities and NaNs given, not made
    ("sum", np.array([np.inf, 1.0, 2.0]), {}, None),
    ("sum", np.array([np.nan, 1.0]), {}, None),
    ("prod", np.array([np.inf, 2.0]), {}, None),
    ("sum", np.arange(100000, dtype=np.float64), {}, None),
    ("min", np.array([np.nan, 1.0, 2.0]), {}, None),
    ("max", np.full(100000, np.nan), {}, None),
]


@pytest.mark.parametrize("name,a,kw,status", BUILTIN_CASES,
                         ids=["%s-%d" % (c[0], i) for i, c in enumerate(BUILTIN_CASES)])
def test_builtin_sums_and_products_raise_numpys_errors(name, a, kw, status):
    ufunc = {"sum": np.add, "prod": np.multiply, "min": np.minimum, "max": np.maximum}[name]
    try:
        with np.errstate(all="raise"):
            ufunc.reduce(a, **kw)
        numpy_status = None
    except FloatingPointError as e:
        numpy_status = "CK_ERR_OVERFLOW" if "overflow" in str(e) else "CK_ERR_DOMAIN"
    assert numpy_status == status
    try:
        got = ck.reduce(name, a, fp_errors="raise", **kw)
        ck_status = None
    except ck.Error as e:
        ck_status = e.status
        assert ("overflow" if status == "CK_ERR_OVERFLOW" else "invalid value") in str(e)
    assert ck_status == status
    if status is None:  # the same bits as without the check
        assert np.array_equal(got, ck.reduce(name, a, **kw), equal_nan=True)
    else:
        ck.reduce(name, a, **kw)  # silent without it
