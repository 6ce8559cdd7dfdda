"""python/tests/test_bfloat16.py: bfloat16, which NumPy lacks, as a ckernel.Array type:
literals and Python values in, Python floats out, results of calls, evaluations and
reductions as ckernel.Arrays, casts into NumPy float32 (exact: float32's top half, checked
against the bits shifted by NumPy) and from it (rounded to nearest even, checked against the
rounding written out on the bits), and NumPy refusing to view it.
"""
import numpy as np
import pytest

import ckernel as ck


def bf16_bits_to_float32(bits):
    """The exact float32 of bfloat16 bits: the bits shifted up."""
    return (np.asarray(bits, dtype=np.uint32) << np.uint32(16)).view(np.float32)


def float32_to_bf16_bits(f):
    """Round to nearest even on the bits (NaN aside): add 0x7fff and the lowest kept bit."""
    u = np.asarray(f, dtype=np.float32).view(np.uint32).astype(np.uint64)
    one, sixteen = np.uint64(1), np.uint64(16)
    return ((u + np.uint64(0x7FFF) + ((u >> sixteen) & one)) >> sixteen).astype(np.uint16)


def test_values_in_and_out():
    a = ck.Array([1.5, None, -3.0, 1e-40], type="4 * ?bfloat16")
    assert a.type == "4 * ?bfloat16"
    got = a.tolist()
    assert got[:3] == [1.5, None, -3.0]
    assert got[3] == float(bf16_bits_to_float32(float32_to_bf16_bits(np.float32(1e-40))))
    assert str(ck.Array("[0.1, 256, 257]", type="3 * bfloat16")) == "[0.1, 256, 256]"  # 0.1 reads back as 0x3dcd


def test_casts_to_and_from_numpy_float32():
    rng = np.random.default_rng(7)
    bits = rng.integers(0, 1 << 16, 4096, dtype=np.uint32)
    bits = bits[(bits & 0x7FFF) <= 0x7F80]          # no NaNs: their payloads are not compared
    want = bf16_bits_to_float32(bits)
    a = ck.Array([0.0] * want.size, type="%d * bfloat16" % want.size)
    ck.assign(a, want, errmode="inexact")                           # every one exact
    out = np.empty(want.size, dtype=np.float32)
    ck.assign(out, a)
    assert out.view(np.uint32).tolist() == want.view(np.uint32).tolist()
    f = rng.standard_normal(4096).astype(np.float32) * np.float32(1e3)
    b = ck.Array([0.0] * 4096, type="4096 * bfloat16")
    ck.assign(b, f, errmode="nocheck")
    back = np.empty(4096, dtype=np.float32)
    ck.assign(back, b)
    assert (back.view(np.uint32) >> 16).astype(np.uint16).tolist() == \
        float32_to_bf16_bits(f).tolist()


def test_calls_evaluations_and_reductions_give_arrays():
    b = ck.Array([1, 2, 3], type="3 * bfloat16")
    s = ck.call("add", b, b)
    assert isinstance(s, ck.Array) and s.type == "3 * bfloat16" and s.tolist() == [2, 4, 6]
    assert ck.call("add", b, np.float32(0.5)).dtype == np.float32      # selects float32
    e = ck.evaluate("a * 2 + 1", a=b)
    assert isinstance(e, ck.Array) and e.tolist() == [3, 5, 7]
    ones = ck.Array([1.0] * 300, type="300 * bfloat16")
    assert ck.reduce("sum", ones).tolist() == 300.0                 # folded in float32
    assert ck.reduce("max", ck.Array([1, None, 7], type="3 * ?bfloat16"), skipna=True).tolist() == 7


def test_numpy_cannot_view_it():
    b = ck.Array([1, 2], type="2 * bfloat16")
    with pytest.raises(ck.Error, match="NumPy has no such dtype"):
        np.asarray(b)
