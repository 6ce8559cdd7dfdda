"""python/tests/test_cache.py: the kernel cache (python/src/cache.c). Small runs over ndarrays
reuse the kernel built for the same types and layouts; everything that makes a kernel differ
must make the key differ (strides, shape, dtype, alignment, error mode, flags, the callable
and its signatures), and whatever the uncached run checks (read-only destinations, overlap)
must still be checked. Expected values are NumPy's on the same data.
"""
import ctypes
import threading

import numpy as np

import ckernel as ck
from ckernel import _ckernel
from conftest import raises_status


def stats():
    hits, misses, _ = _ckernel._cache_stats()
    return hits, misses


def test_repeated_calls_reuse_the_kernel_and_give_numpy_results():
    a, b, o = np.arange(10.0), np.arange(10.0)[::-1].copy(), np.empty(10)
    h0, m0 = stats()
    for k in range(5):
        a[0] = k
        assert ck.call("add", a, b, out=o) is o
        assert np.array_equal(o, a + b)
    h1, m1 = stats()
    assert m1 - m0 == 1 and h1 - h0 == 4


def test_new_results_are_new_arrays():
    a = np.arange(6, dtype=np.int16).reshape(2, 3)
    r1 = ck.call("multiply", a, a)
    r2 = ck.call("multiply", a, a + 1)
    assert r1 is not r2 and r1.dtype == np.int16 and r1.shape == (2, 3)
    assert np.array_equal(r1, a * a) and np.array_equal(r2, a * (a + 1))
    s = [ck.call("add", np.array(2.5), np.array(float(k))) for k in range(3)]  # 0-d: NumPy scalars
    assert s == [2.5, 3.5, 4.5] and all(isinstance(x, np.float64) for x in s)


def test_layouts_of_the_same_shape_and_dtype_get_their_own_kernels():
    base = np.arange(64, dtype=np.float64)
    raw = np.zeros(8 * 8 + 1, dtype=np.uint8)
    unaligned = np.frombuffer(raw.data, dtype=np.float64, count=8, offset=1)
    assert not unaligned.flags.aligned
    unaligned[:] = np.arange(8.0) * 3  # writable: frombuffer over a writable array's memory
    views = [base[:8], base[::8], base[7::-1], base[10:18], base[:16].reshape(2, 8)[1],
             np.broadcast_to(base[5:6], (8,)), unaligned]
    out = np.zeros(8)
    for v in views + views:  # the second round runs the cached kernels
        ck.call("subtract", v, 1.0, out=out)
        assert np.array_equal(out, v - 1.0), v
        d = np.zeros(8, dtype=np.int64)
        ck.assign(d, v)
        assert np.array_equal(d, v.astype(np.int64)), v
        assert ck.call("add", v, v).tolist() == (v + v).tolist()
    for dt in (np.float32, np.int32, np.uint8, np.complex64):  # one layout, other dtypes
        x = np.arange(8).astype(dt)
        assert np.array_equal(ck.call("add", x, x, out=np.empty(8, dt)), x + x)


def test_the_error_mode_and_flags_are_part_of_the_key():
    d = np.zeros(3, dtype=np.uint8)
    src = np.array([1, 300, 2])
    for _ in range(2):
        ck.assign(d, src, errmode="nocheck")
        assert d.tolist() == [1, 44, 2]
    with raises_status("CK_ERR_OVERFLOW", "300"):
        ck.assign(d, src)
    c = ck.Callable("libc_abs_cached")
    c.add_native("i)i", ctypes.CDLL("libc.so.6").abs)
    x = np.array([-1.0, 2.0])
    assert ck.call(c, x, allow_unsafe=True).tolist() == [1, 2]
    with raises_status("CK_ERR_TYPE", "unsafe"):
        ck.call(c, x)


def test_a_new_signature_changes_the_selection():
    libc = ctypes.CDLL("libc.so.6")
    libm = ctypes.CDLL("libm.so.6")
    c = ck.Callable("abs_grows")
    c.add_native("d)d", libm.fabs)
    x = np.array([-3, 4], dtype=np.int32)
    for _ in range(2):
        r = ck.call(c, x)
        assert r.dtype == np.float64 and r.tolist() == [3.0, 4.0]
    c.add_native("i)i", libc.abs)  # now an exact fit for int32
    r = ck.call(c, x)
    assert r.dtype == np.int32 and r.tolist() == [3, 4]


def test_read_only_destinations_and_overlap_are_still_checked():
    a = np.arange(8.0)
    o = np.zeros(8)
    ck.call("add", a, a, out=o)
    ck.call("add", a, a, out=o)
    ro = np.zeros(8)
    ro.flags.writeable = False
    with raises_status("CK_ERR_INVALID", "read-only"):
        ck.call("add", a, a, out=ro)
    with raises_status("CK_ERR_INVALID", "read-only"):
        ck.assign(ro, a)
    assert not ro.any()
    # The layouts of a[:7] and a[1:] are those of two separate arrays; here they overlap.
    squares = np.arange(9.0) ** 2  # a shifted copy is no smear of itself
    other = squares.copy()
    ck.assign(other[1:], other[:8] + 100)  # warms the key of (8 * float64 <- 8 * float64)
    buf = squares.copy()
    ck.assign(buf[1:], buf[:8])            # the same key, overlapping: NumPy's result
    expected = squares.copy()
    np.copyto(expected[1:], expected[:8].copy())
    assert np.array_equal(buf, expected)
    ones = np.ones(8)
    ck.call("add", other[:8], ones, out=np.zeros(9)[1:])  # the key, warmed without overlap
    buf = squares.copy()
    ck.call("add", buf[:8], ones, out=buf[1:])
    assert np.array_equal(buf, np.concatenate([[0.0], squares[:8] + 1.0]))


def test_a_kernel_evicted_while_it_runs(hang_watchdog):
    """A kernel running with the GIL released is evicted by other threads' runs (more kernels
    than the cache holds); it must finish on its own memory and be freed after."""
    entered, release = threading.Event(), threading.Event()

    def slow_negate(x):
        entered.set()
        release.wait(60)
        return -x

    fn = ctypes.CFUNCTYPE(ctypes.c_double, ctypes.c_double)(slow_negate)
    c = ck.Callable("slow_negate")
    c.add_native("d)d", fn)
    result = {}
    x = np.arange(3.0)
    t = threading.Thread(target=lambda: result.setdefault("r", ck.call(c, x)))
    t.start()
    assert entered.wait(60)
    for n in range(1, 80):  # 79 different shapes: every slot replaced, twice
        v = np.arange(float(n))
        assert np.array_equal(ck.call("add", v, v), v + v)
    release.set()
    t.join(60)
    assert result["r"].tolist() == [-0.0, -1.0, -2.0]
    assert np.array_equal(ck.call(c, x), -x)  # built again, and it runs


def test_large_runs_are_not_cached():
    a = np.ones(1 << 15)  # 256 KiB: two grains or more, split over threads instead
    h0, m0 = stats()
    for _ in range(2):
        ck.call("add", a, a, out=np.empty_like(a))
        assert ck.call("add", a, a).sum() == 2 * a.size
        col, row = np.ones((200, 1)), np.ones(200)  # a small pair, a large result
        assert ck.call("add", col, row).shape == (200, 200)
    assert stats() == (h0, m0)
