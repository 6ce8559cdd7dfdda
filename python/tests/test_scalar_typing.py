"""python/tests/test_scalar_typing.py: scalars in a call (Python numbers, NumPy scalars, 0-d
arrays) are typed as NumPy 1.24 types them: beside arrays of their kind or higher, by their
value (np.min_scalar_type, with NumPy's rule for small non-negative integers), else by their
own type. Every binary ufunc ckernel has, over every array dtype and a set of scalars at the
edges of each type's range, in both argument orders, against NumPy's result dtype (or its
refusal) and, for the functions whose values NumPy and ckernel share bit for bit, its values.
"""
import warnings

import numpy as np
import pytest

import ckernel as ck
from test_ufuncs import TYPES, VMATH, ours

SCALARS = [True, False, 0, 1, 127, 128, 255, 256, 300, 32767, 32768, 65535, 65536, 70000,
           2**31 - 1, 2**31, 2**32, 2**40, 2**63 - 1, 2**63, 2**64 - 1, -1, -128, -129,
           -32769, -2**31 - 1, -2**63, 0.5, 0.1, -2.5, 65504.0, 70000.0, 3.4e38, 1e39, 1e300,
           float("inf"), float("nan"), 1j, 0.5 - 2j, 1e39j, np.int8(5), np.int8(-5),
           np.uint8(200), np.int64(300), np.uint64(7), np.float16(2.0), np.float32(0.1),
           np.float64(1e300), np.complex64(1j), np.bool_(True), np.array(300),
           np.array(0.1, np.float32), np.array(-1, np.int16)]


def numpy_call(fn, args):
    """NumPy's result, or None where it refuses."""
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            return np.asarray(fn(*args))
    except TypeError:  # UFuncTypeError is one
        return None
    except ValueError:  # integers to negative integer powers
        return "domain"


def ck_call(name, args):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return np.asarray(ck.call(name, *args))
    except ck.Error as e:
        assert e.status in ("CK_ERR_TYPE", "CK_ERR_DOMAIN"), (name, args, str(e))
        return "domain" if e.status == "CK_ERR_DOMAIN" else None


def binary():
    return [n for n in ours() if getattr(np, n).nin == 2 and getattr(np, n).nout == 1
            and getattr(np, n).signature is None]  # matmul takes no scalars


@pytest.mark.parametrize("name", binary())
def test_scalars_beside_arrays_type_as_numpy_1_24(name):
    fn = getattr(np, name)
    exact = name not in VMATH
    wrong = []
    for dt in TYPES:
        array = np.array([3, 2], dtype=dt)
        for s in SCALARS:
            for args in ((array, s), (s, array)):
                want, got = numpy_call(fn, args), ck_call(name, args)
                if isinstance(got, str) or isinstance(want, str):  # integers to negative powers
                    assert name == "power" and got == want, (args, want, got)
                    continue
                if (want is None) != (got is None) or (
                        want is not None and want.dtype != got.dtype):
                    wrong.append("%s%r: NumPy %s, ckernel %s" % (
                        name, (dt if args[0] is array else repr(s),
                               dt if args[1] is array else repr(s)),
                        None if want is None else want.dtype, None if got is None else got.dtype))
                elif want is not None and exact and not np.array_equal(
                        want, got, equal_nan=want.dtype.kind in "fc"):
                    wrong.append("%s(%r, %r): NumPy %r, ckernel %r" % (
                        name, args[0], args[1], want, got))
    assert not wrong, "%d differ, e.g.\n%s" % (len(wrong), "\n".join(wrong[:20]))


def test_scalars_alone_keep_their_own_types():
    for a in SCALARS:
        for b in (1, 2.5, np.int8(1), np.float32(1)):
            want, got = numpy_call(np.add, (a, b)), ck_call("add", (a, b))
            if want is None or want.dtype == object:
                continue
            assert got is not None and got.dtype == want.dtype, (a, b, want.dtype, got)
