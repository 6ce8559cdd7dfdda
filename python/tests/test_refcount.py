"""python/tests/test_refcount.py: references and memory. Every argument's reference count is
what it was after calls that succeed and calls that fail; results hold exactly the references
their caller has; and 100,000 calls through every path (assign, call with and without out=,
reduce, accumulate, Arrays over NumPy, literals, errors) leave the process's resident memory and ckernel's live
allocations where they were (the resident set is not compared under AddressSanitizer, whose
quarantine holds freed memory).
"""
import gc
import os
import sys

import numpy as np

import ckernel as ck
from conftest import SANITIZED

PAGE = os.sysconf("SC_PAGE_SIZE")


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE


def paths(x, y, out, bad, dst_ragged, ragged, native):
    """One round of every path; returns how many ckernel calls it made."""
    ck.call("add", x, y, out=out)
    ck.call("multiply", x, 2.5)
    ck.assign(out, x)
    ck.call(native, ragged, 1.0)
    ck.assign(dst_ragged, ragged)
    np.asarray(ck.Array(x)).sum()
    ck.Array([[1, 2], [3]]).tolist()
    try:
        ck.call("add", x, bad)
    except ck.Error:
        pass
    try:
        ck.assign(np.zeros(1, np.uint8), [300])
    except ck.Error:
        pass
    try:
        ck.Array("[1", type="2 * int8")
    except ck.Error:
        pass
    ck.reduce("sum", ragged, axis=0)
    ck.accumulate("cumsum", x, out=out)
    try:
        ck.reduce("min", ragged, axis=5)
    except ck.Error:
        pass
    return 13


def fixtures():
    import ctypes
    c = ck.Callable("rc_hypot")
    c.add_native("dd)d", ctypes.CDLL("libm.so.6").hypot)
    return dict(x=np.arange(16, dtype=np.int32), y=np.linspace(0, 1, 16), out=np.zeros(16),
                bad=np.array(["s"] * 16), dst_ragged=ck.Array("[null, null]", type="2 * var * float32"),
                ragged=ck.Array([[1.0, 2.0], [3.0]]), native=c)


def test_arguments_keep_their_reference_counts():
    f = fixtures()
    before = {k: sys.getrefcount(v) for k, v in f.items()}
    for _ in range(200):
        paths(**f)
    gc.collect()
    after = {k: sys.getrefcount(v) for k, v in f.items()}
    assert after == before


def test_results_hold_only_their_callers_reference():
    x = np.arange(4.0)
    r = ck.call("add", x, x)
    assert sys.getrefcount(r) == 2  # r and getrefcount's argument
    a = ck.call("add", ck.Array([[1], [2, 3]]), 1)
    assert sys.getrefcount(a) == 2
    out = np.zeros(4)
    n = sys.getrefcount(out)
    r2 = ck.call("add", x, x, out=out)
    assert r2 is out and sys.getrefcount(out) == n + 1
    del r2
    view = ck.Array(x)
    n = np.asarray(view)
    assert sys.getrefcount(view) == 3  # view, n's base, the argument
    del n
    assert sys.getrefcount(view) == 2
    e = None
    try:
        ck.call("add", x, "s")
    except ck.Error as exc:
        e = exc
    assert e is not None and sys.getrefcount(e) == 2


def test_no_growth_over_100000_calls():
    f = fixtures()
    for _ in range(1000):  # warm up: allocator pools, caches, the first errors
        paths(**f)
    gc.collect()
    live = ck._ckernel._alloc_live()
    rss = rss_bytes()
    calls = 0
    while calls < 100_000:
        calls += paths(**f)
    gc.collect()
    grown = rss_bytes() - rss
    assert ck._ckernel._alloc_live() == live
    if SANITIZED:  # AddressSanitizer's quarantine keeps freed memory: RSS says nothing there
        return
    # 100,000 calls: a leak of 16 bytes a call would be 1.6 MB.
    assert grown < 1 << 20, "the resident set grew by %d bytes over %d calls" % (grown, calls)
