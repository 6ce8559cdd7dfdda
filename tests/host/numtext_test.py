"""tests/host/numtext_test.py: ckernel's number text against Python and NumPy, through the
public API (ck_array_format, ck_array_parse) loaded with ctypes, as a Python extension would.

  * float64 printing: the literal ck_array_format writes for arrays of about 1.1 million
    values (wrapped NumPy buffers) is Python's repr of each value, character for character:
    random bit patterns (subnormals, the largest binade, NaN and infinities among them),
    every power of two and its neighbours, ties between two shortest candidates, powers of
    ten, k / 10^j, integers around 2^53 and 10^16, the layout's thresholds.
  * float32 printing: the digits and exponent of NumPy's repr (its own shortest algorithm)
    for about 300 thousand values. The layout is Python's rule on the shortest digits'
    exponent (NumPy applies it to the value: its 1e-04 is 0.0001 here), so digits and
    exponent are compared, not the text.
  * reading: Python's repr text and random decimal text (1 to 30 digits, the point anywhere,
    exponents over the whole range; 200 to 800 digits; exactly halfway between adjacent
    doubles, and a hair either side) through ck_array_parse into float64 gives the value of
    Python's float(), which is correctly rounded, bit for bit; NumPy's float32 repr text
    reads back into float32 bit for bit.
  * all of the above again, on fewer values, with the process in a comma-decimal locale
    (de_DE.UTF-8: an installed one, or the one tests/types compiles into the build tree,
    found through LOCPATH), when one can be had.

usage: python3 numtext_test.py PATH_TO_LIBCKERNEL_SO   (last line: "N passed, M failed")
"""
import ctypes as C
import locale
import math
import os
import random
import struct
import sys
import time
from decimal import Decimal, getcontext

import numpy as np


# The loader, the checker and the allocation counters are numpy_test.py's.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy_test as nt  # noqa: E402
AllocStats, load = nt.AllocStats, nt.load


def ck_format(lib, arr):
    """ck_array_format of a 1-d contiguous float32/float64 NumPy array, wrapped in place."""
    name = {np.float64: b"float64", np.float32: b"float32"}[arr.dtype.type]
    t, a, text = C.c_void_p(), C.c_void_p(), C.c_void_p()
    if lib.ck_type_parse(b"%d * %s" % (len(arr), name), C.byref(t)) != 0:
        raise RuntimeError(lib.ck_last_error())
    meta = (C.c_ssize_t * 2)(len(arr), arr.itemsize)
    rc = lib.ck_array_wrap(t, C.cast(meta, C.c_void_p), arr.ctypes.data, None, C.byref(a))
    if rc == 0:
        rc = lib.ck_array_format(a, C.byref(text))
    err = lib.ck_last_error()
    lib.ck_array_free(a)
    lib.ck_type_decref(t)
    if rc != 0:
        raise RuntimeError(err)
    s = C.string_at(text.value).decode()
    lib.ck_free(text)
    assert s[0] == "[" and s[-1] == "]", s[:40]
    return s[1:-1].split(", ") if len(s) > 2 else []


def ck_parse(lib, texts, dtype):
    """ck_array_parse of "[t0, t1, ...]" as N * float64/float32: the values, or the error."""
    name = {np.float64: b"float64", np.float32: b"float32"}[dtype]
    t, a = C.c_void_p(), C.c_void_p()
    lib.ck_type_parse(b"%d * %s" % (len(texts), name), C.byref(t))
    rc = lib.ck_array_parse(t, ("[" + ", ".join(texts) + "]").encode(), C.byref(a))
    lib.ck_type_decref(t)
    if rc != 0:
        return None, lib.ck_last_error().decode(errors="replace")
    size = len(texts) * np.dtype(dtype).itemsize
    values = np.frombuffer(C.string_at(lib.ck_array_data(a), size), dtype=dtype).copy()
    lib.ck_array_free(a)
    return values, ""


def digits_and_exponent(text):
    """'-1.5e-07' -> ('15', -7), '100.0' -> ('1', 2): significant digits, first one's power."""
    mant, _, exp = text.lstrip("-").partition("e")
    ip, _, fp = mant.partition(".")
    digits = (ip + fp).lstrip("0")
    lead = len(ip) - 1 - (len(ip + fp) - len((ip + fp).lstrip("0")))
    digits = digits.rstrip("0") or "0"
    return digits, (int(exp) if exp else 0) + (lead if digits != "0" else 0)


def float64_values(rng, n):
    """Random bit patterns of every class, and the cases that test shortest printing."""
    bits = np.frombuffer(rng.randbytes(8 * n), dtype=np.uint64).copy()
    bits[1::16] &= np.uint64(0x800FFFFFFFFFFFFF)   # subnormal (or zero)
    bits[2::16] |= np.uint64(0x7FE0000000000000)   # the largest binade (inf and NaN too)
    bits[3::16] &= np.uint64(0x801FFFFFFFFFFFFF)   # around the smallest normal
    vals = list(bits.view(np.float64))
    for e in range(-1074, 1024):
        p = math.ldexp(1.0, e)
        vals += [p, -p, math.nextafter(p, 0.0), math.nextafter(p, math.inf)]
    for k in range(1, 4000, 2):  # ties between two shortest candidates, at several scales
        for shift in (2, 3, 6, 9, 12, 20):
            vals.append(math.ldexp(float((1 << 52) + k), -shift))
    for e in range(-325, 309):
        for m in (1, 2, 5, 9, 15, 123456789):
            vals.append(float("%de%d" % (m, e)))
    for j in range(1, 20):
        vals += [k / 10.0 ** j for k in range(1, 200)]
    vals += [float(2 ** 53 + k) for k in range(-300, 300)]
    vals += [1e16 + k * 2.0 for k in range(-300, 300)]
    vals += [0.0, -0.0, 1e-4, 9.999999999999999e-05, 1e-5, 1e15, 9999999999999998.0, 1e16,
             math.inf, -math.inf, math.nan, 0.1, 0.2, 0.3, 1 / 3, 2 / 3]
    return np.array(vals, dtype=np.float64)


def float32_values(rng, n):
    bits = np.frombuffer(rng.randbytes(4 * n), dtype=np.uint32).copy()
    bits[1::16] &= np.uint32(0x807FFFFF)
    bits[2::16] |= np.uint32(0x7F000000)
    vals = list(bits.view(np.float32))
    for e in range(-149, 128):
        p = np.float32(math.ldexp(1.0, e))
        vals += [p, np.nextafter(p, np.float32(0)), np.nextafter(p, np.float32(np.inf))]
    for k in range(1, 4000, 2):
        for shift in (2, 3, 5, 8):
            vals.append(np.float32(math.ldexp(float((1 << 23) + k), -shift)))
    vals += [np.float32(x) for x in (0.1, 1e-4, 1e-5, 1e16, 3.4028235e38, 1e-45, 16777216.0)]
    return np.array(vals, dtype=np.float32)


def random_decimals(rng, n):
    """Decimal text of ckernel's literal grammar that stays below float64's overflow."""
    out = []
    for _ in range(n):
        nd = rng.randint(1, 30)
        digits = "".join(rng.choice("0123456789") for _ in range(nd))
        point = rng.randint(0, nd)
        mant = digits[:point] + ("." if point < nd or rng.random() < 0.2 else "") + digits[point:]
        if mant.startswith("."):
            mant = ("0" if rng.random() < 0.5 else "") + mant
        e = rng.randint(-360, 307 - point)  # below 10^308: no overflow
        sign = rng.choice(["", "-", "+"])
        out.append("%s%s%s" % (sign, mant, rng.choice(["e%d" % e, "E%+d" % e, ""])))
    for _ in range(200):  # long texts
        nd = rng.randint(200, 800)
        out.append("0." + "".join(rng.choice("0123456789") for _ in range(nd)) +
                   "e%d" % rng.randint(-300, 300))
    return out


def halfway_decimals(rng, n):
    """Exactly halfway between adjacent doubles, and a hair either side of it."""
    getcontext().prec = 2000
    out = []
    for i in range(n):
        bits = rng.getrandbits(63) & 0x7FEFFFFFFFFFFFFF
        if i % 4 == 0:
            bits &= 0x001FFFFFFFFFFFFF  # subnormal and smallest normal: hundreds of digits
        lo = struct.unpack("<d", struct.pack("<Q", bits))[0]
        hi = math.nextafter(lo, math.inf)
        if math.isinf(hi):
            continue
        mid = (Decimal(lo) + Decimal(hi)) / 2
        text = "{:e}".format(mid)
        mant, _, exp = text.partition("e")
        out += [text, mant + "000000000000000000001e" + exp]
        if mant[-1] not in "0.":
            out.append(mant[:-1] + chr(ord(mant[-1]) - 1) + "9999999999999999999e" + exp)
    return out


def literal_text(r):
    """ckernel's literal of a float whose repr is r: the same text, but an integral value in
    fixed layout has no point ("2", where repr gives "2.0"): the type says it is a float."""
    return r[:-2] if r.endswith(".0") else r


def compare_format64(lib, ck, vals, where):
    got = ck_format(lib, vals)
    want = [literal_text(repr(float(v))) for v in vals]
    ck.check(len(got) == len(want), "%s: %d texts for %d values" % (where, len(got), len(want)))
    bad = [(g, w) for g, w in zip(got, want) if g != w]
    ck.check(not bad, lambda: "%s: %d of %d float64 texts differ from repr, first: %s"
             % (where, len(bad), len(want), bad[:5]))
    return got


def compare_format32(lib, ck, vals, where):
    got = ck_format(lib, vals)
    want = [repr(v) for v in vals]
    bad = []
    for g, w in zip(got, want):
        if w in ("nan", "inf", "-inf"):
            same = g == w
        else:
            same = (g.startswith("-") == w.startswith("-") and
                    digits_and_exponent(g) == digits_and_exponent(w))
        if not same:
            bad.append((g, w))
    ck.check(len(got) == len(want) and not bad, lambda: "%s: %d of %d float32 texts differ "
             "from NumPy's digits, first: %s" % (where, len(bad), len(want), bad[:5]))
    return got


def compare_parse(lib, ck, texts, dtype, want, where):
    got, err = ck_parse(lib, texts, dtype)
    if not ck.check(got is not None, "%s: ck_array_parse failed: %s" % (where, err)):
        return
    gb = got.view(np.uint64 if dtype == np.float64 else np.uint32)
    wb = np.asarray(want, dtype=dtype).view(gb.dtype)
    nan = np.isnan(np.asarray(want, dtype=dtype))
    bad = np.nonzero((gb != wb) & ~(nan & np.isnan(got)))[0]
    ck.check(len(bad) == 0, lambda: "%s: %d of %d values differ, first: %s" % (
        where, len(bad), len(texts),
        [(texts[i], float(got[i]), float(np.asarray(want, dtype=dtype)[i])) for i in bad[:5]]))


def run_all(lib, ck, rng, n64, n32, ndec, nhalf, where):
    v64 = float64_values(rng, n64)
    texts = compare_format64(lib, ck, v64, where)
    compare_parse(lib, ck, texts, np.float64, v64, where + ", repr text read back")
    v32 = float32_values(rng, n32)
    texts32 = compare_format32(lib, ck, v32, where)
    compare_parse(lib, ck, texts32, np.float32, v32, where + ", float32 text read back")
    compare_parse(lib, ck, [repr(v) for v in v32 if np.isfinite(v)], np.float32,
                  [v for v in v32 if np.isfinite(v)], where + ", NumPy's float32 repr read")
    dec = random_decimals(rng, ndec)
    compare_parse(lib, ck, dec, np.float64, [float(t) for t in dec],
                  where + ", random decimals")
    half = halfway_decimals(rng, nhalf)
    compare_parse(lib, ck, half, np.float64, [float(t) for t in half],
                  where + ", halfway decimals")


def enter_comma_locale():
    for name in ("de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8"):
        try:
            locale.setlocale(locale.LC_ALL, name)
        except locale.Error:
            continue
        if locale.localeconv()["decimal_point"] == ",":
            return name
    locale.setlocale(locale.LC_ALL, "C")
    return None


def main():
    if len(sys.argv) != 2:
        print("usage: numtext_test.py PATH_TO_LIBCKERNEL_SO")
        return 2
    t0 = time.monotonic()
    lib = load(sys.argv[1])
    ck = nt.Checker(lib)
    rng = random.Random(20240611)
    run_all(lib, ck, rng, 1000000, 250000, 100000, 5000, "C locale")
    name = enter_comma_locale()
    if name is not None:
        # Python itself now writes "1,5" through the locale's own functions; float() and
        # repr() stay locale-independent, and so must ckernel.
        ck.check(locale.format_string("%.1f", 1.5) == "1,5", "%s is not in force" % name)
        run_all(lib, ck, rng, 50000, 20000, 20000, 500, name)
        locale.setlocale(locale.LC_ALL, "C")
        print("comma-decimal locale: %s" % name)
    else:
        print("comma-decimal locale: none could be had (Debian: locales); the C locale only")
    st = AllocStats()
    lib.ck_get_alloc_stats(C.byref(st))
    ck.check(st.live == 0, "%d ckernel blocks still live at the end" % st.live)
    print("ckernel %s, numpy %s, %s" % (lib.ck_version_string().decode(), np.__version__,
                                        sys.executable))
    print("%.1f s" % (time.monotonic() - t0))
    print("%d passed, %d failed" % (ck.passed, ck.failed))
    return 0 if ck.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
