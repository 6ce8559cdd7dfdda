"""numexpr's own expression tests (numexpr/tests/test_numexpr.py's `tests` table, shipped in
Debian's python3-numexpr) through ck.evaluate, compared as numexpr's test compares itself: with
NumPy's eval of the same expression on the same arrays (numexpr's `equal`: equal arrays, or
the same count of NaNs and infinities, else within 1e-8, 1e-5 for float32), and here also
NumPy's result dtype, exactly. Data and skips are numexpr's: int64, float32, float64 and
complex128 arrays (complex without comparisons, %, arctan2, fmod, floor and ceil), with a or
b a NumPy scalar (test_scalar 1 and 2); where NumPy raises, ckernel must raise too."""
import warnings

import numpy as np
import pytest

import ckernel as ck

nt = pytest.importorskip("numexpr.tests.test_numexpr")

SIZE = 100
DTYPES = [int, np.float32, np.float64, complex]


def arrays(dtype, test_scalar):
    """numexpr's test data."""
    a = np.arange(2 * SIZE, dtype=dtype)[::2]
    a2 = np.zeros([SIZE, SIZE], dtype=dtype)
    b = np.arange(SIZE, dtype=dtype) / SIZE
    c = np.arange(SIZE, dtype=dtype)
    d = np.arange(SIZE, dtype=dtype)
    e = np.arange(SIZE, dtype=dtype)
    x = None
    if dtype == complex:
        a = a.real
        for x in [a2, b, c, d, e]:
            x += 1j
            x *= 1 + 1j
    if test_scalar == 1:
        a = a[SIZE // 2]
    if test_scalar == 2:
        b = b[SIZE // 2]
    return dict(a=a, a2=a2, b=b, c=c, d=d, e=e, x=x)


def skipped(expr, dtype, test_scalar):
    """numexpr's own skips."""
    if dtype == complex and any(s in expr for s in ("<", ">", "%", "arctan2", "fmod", "floor",
                                                    "ceil")):
        return True
    return dtype == int and test_scalar and expr == "(a+1) ** -1"


def run_case(expr, env):
    """None when ckernel agrees with NumPy's eval, else what differs."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            want = eval(expr, vars(np), dict(env))
            np_error = None
        except Exception as ex:  # noqa: BLE001 (NumPy's refusal is the expected outcome)
            want, np_error = None, ex
    try:
        got = ck.evaluate(expr, local_dict=dict(env))
    except ck.Error as ex:
        return None if np_error is not None else "ckernel raised %s" % ex
    if np_error is not None:
        return "NumPy raised %r, ckernel did not" % np_error
    if np.asarray(got).dtype != np.asarray(want).dtype:
        return "dtype %s, NumPy's %s" % (np.asarray(got).dtype, np.asarray(want).dtype)
    if np.shape(got) != np.shape(want):
        return "shape %s, NumPy's %s" % (np.shape(got), np.shape(want))
    if not nt.equal(want, got, False):
        return "values differ"
    return None


@pytest.mark.parametrize("test_scalar", [0, 1, 2])
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_numexpr_expressions_agree_with_numpy(dtype, test_scalar):
    env = arrays(dtype, test_scalar)
    cases, wrong = 0, []
    for _section, exprs in nt.tests:
        for expr in exprs:
            if skipped(expr, dtype, test_scalar):
                continue
            cases += 1
            why = run_case(expr, env)
            if why is not None:
                wrong.append("%s: %s" % (expr, why))
    assert cases > 50
    assert not wrong, "%d of %d differ from NumPy:\n%s" % (len(wrong), cases, "\n".join(wrong))
