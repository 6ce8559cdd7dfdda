"""python/tests/test_ufunc_half_accuracy.py: the float16 and bfloat16 loops of NumPy's
transcendental functions compute in float32 (SLEEF's, within 1 ULP of float32) and round
once, so each result is within 0.5 ULP of its own type (plus float32's error, 2^-13 of a
float16 ULP, 2^-16 of a bfloat16 one) of the exact value. Checked on every value of the type
(one operand) or 20000 random pairs (two), against float64 NumPy (whose own error is far
below these types' ULPs), with infinities, NaNs and zeros as the exact function has them.
"""
import warnings

import numpy as np
import pytest

import ckernel as ck
from test_ufuncs import VMATH

# (significand bits, smallest normal exponent, largest finite value) of each type.
FORMATS = {"float16": (10, -14, 65504.0), "bfloat16": (7, -126, 3.3895313892515355e38)}
# float_power computes in float64 whatever the arguments (NumPy's loops): not a half loop.
UNARY = sorted(n for n in VMATH if getattr(np, n).nin == 1)
BINARY = sorted(n for n in VMATH - {"float_power"} if getattr(np, n).nin == 2)


def every_value(fmt):
    """Every finite and infinite value of the type, as float64 (NaNs left out)."""
    if fmt == "float16":
        v = np.arange(1 << 16, dtype=np.uint16).view(np.float16).astype(np.float64)
    else:
        v = (np.arange(1 << 16, dtype=np.uint32) << 16).view(np.float32).astype(np.float64)
    return v[~np.isnan(v)]


def ck_values(name, fmt, args):
    arrays = [ck.Array(a.tolist(), type="%d * %s" % (a.size, fmt)) for a in args]
    r = ck.call(name, *arrays)
    return np.array(r.tolist(), dtype=np.float64)


def ulps(got, exact, fmt):
    """|got - exact| in ULPs of the type at exact's magnitude (its subnormals' spacing below
    the smallest normal)."""
    bits, emin, _ = FORMATS[fmt]
    e = np.floor(np.log2(np.maximum(np.abs(exact), 2.0 ** emin)))
    return np.abs(got - exact) / 2.0 ** (e - bits)


def check(name, fmt, args):
    bits, _, top = FORMATS[fmt]
    got = ck_values(name, fmt, args)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        exact = getattr(np, name)(*args)
    bound = 0.5 + 2.0 ** -(24 - bits - 1)  # float32's error in the type's ULPs, doubled
    # The type's largest finite value plus half an ULP rounds to infinity.
    overflow = np.abs(exact) >= top * (1 + 2.0 ** -(bits + 1))
    finite = np.isfinite(exact) & ~overflow
    bad = []
    nan = np.isnan(exact)
    bad += list(np.flatnonzero(nan != np.isnan(got)))
    big = ~nan & ~finite
    bad += list(np.flatnonzero(big & (got != np.copysign(np.inf, exact))))
    err = np.where(finite, ulps(got, np.where(finite, exact, 0), fmt), 0)
    bad += list(np.flatnonzero(finite & ~(err <= bound)))
    # The signs of zero results are the exact function's.
    zero = finite & (exact == 0)
    bad += list(np.flatnonzero(zero & (np.signbit(got) != np.signbit(exact))))
    assert not bad, "%s %s: %d wrong, e.g. %s" % (name, fmt, len(bad), [
        (tuple(float(a[i]) for a in args), float(got[i]), float(exact[i])) for i in bad[:5]])
    return float(np.max(err))


@pytest.mark.parametrize("fmt", sorted(FORMATS))
@pytest.mark.parametrize("name", UNARY)
def test_unary_half_loops_round_once_from_float32(name, fmt):
    check(name, fmt, [every_value(fmt)])


@pytest.mark.parametrize("fmt", sorted(FORMATS))
@pytest.mark.parametrize("name", BINARY)
def test_binary_half_loops_round_once_from_float32(name, fmt):
    rng = np.random.default_rng(2026)
    v = every_value(fmt)
    check(name, fmt, [rng.choice(v, 20000), rng.choice(v, 20000)])
