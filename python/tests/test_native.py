"""python/tests/test_native.py: native functions as callables: ckernel.Callable.add_native with
a Numba @cfunc, a ctypes function from the C library and a ctypes callback into Python, lifted
by ckernel over fixed, var and pointer dimensions with broadcasting and argument casts;
registered under their names; and the GIL released while kernels run (a Python callback
called from oneTBB's worker threads needs it, and would deadlock if the caller kept it).
Expected values are computed here in Python (math.hypot, the formulas).
"""
import ctypes
import gc
import math
import threading

import numpy as np
import pytest

import ckernel as ck
from conftest import raises_status


def test_a_ctypes_function_of_the_c_library():
    libm = ctypes.CDLL("libm.so.6")
    c = ck.Callable("libm_hypot")
    c.add_native("dd)d", libm.hypot)
    assert c.name == "libm_hypot" and c.signatures() == ["(float64, float64) -> float64"]
    r = ck.call(c, np.array([3, 5], dtype=np.int32), np.array([[4], [12]], dtype=np.int8))
    assert r.dtype == np.float64 and r.tolist() == [[5.0, math.hypot(5, 4)], [math.hypot(3, 12), 13.0]]


def test_allow_unsafe_lets_selection_use_an_unsafe_conversion():
    c = ck.Callable("libc_abs")
    c.add_native("i)i", ctypes.CDLL("libc.so.6").abs)
    x = np.array([-1.0, 2.0, -3.0])
    with raises_status("CK_ERR_TYPE", "unsafe"):
        ck.call(c, x)  # float64 -> int32 may lose a value
    r = ck.call(c, x, allow_unsafe=True)
    assert r.dtype == np.int32 and r.tolist() == [1, 2, 3]
    with raises_status("CK_ERR_FRACTIONAL", "2.5"):  # the cast still checks, in errmode
        ck.call(c, np.array([2.5]), allow_unsafe=True)
    assert ck.call(c, np.array([-2.5]), allow_unsafe=True, errmode="nocheck").tolist() == [2]


def test_a_python_callback_keeps_alive_and_runs_on_worker_threads(hang_watchdog):
    """Were the GIL held while the kernel runs, a worker's callback would wait for it forever
    (hang_watchdog ends that with the stacks)."""
    threads = set()

    def twice_plus(x, y):
        threads.add(threading.get_ident())
        return 2.0 * x + y

    fn = ctypes.CFUNCTYPE(ctypes.c_double, ctypes.c_double, ctypes.c_double)(twice_plus)
    c = ck.Callable("py_twice_plus")
    c.add_native("dd)d", fn)
    del fn  # the Callable keeps the callback alive
    gc.collect()
    ck.set_num_threads(2)
    try:
        x = np.arange(200_000, dtype=np.float64).reshape(2000, 100)
        r = ck.call(c, x, 1.0)  # large: split over threads, each taking the GIL in the callback
    finally:
        ck.set_num_threads(0)
    assert np.array_equal(r, 2.0 * x + 1.0)  # (threads: which ran it; one or more)


def test_add_native_refusals():
    c = ck.Callable("refusals")
    with raises_status("CK_ERR_PARSE", "column 2"):
        c.add_native("dx)d", ctypes.CDLL("libm.so.6").hypot)
    with raises_status("CK_ERR_UNSUPPORTED", "float16"):
        c.add_native("ee)e", ctypes.CDLL("libm.so.6").hypot)
    with raises_status("CK_ERR_TYPE", "address"):
        c.add_native("dd)d", "hypot")
    with raises_status("CK_ERR_INVALID", "0"):
        c.add_native("dd)d", 0)
    with raises_status("CK_ERR_INVALID"):
        ck.Callable("not a name")
    with raises_status("CK_ERR_TYPE", "ckernel.Callable"):
        ck.register("add")
    with raises_status("CK_ERR_INVALID"):
        ck.register(ck.Callable("add"))  # the name is taken
    assert c.signatures() == []


# ---- Numba ----

numba = pytest.importorskip("numba")
from numba import cfunc, types  # noqa: E402


@cfunc(types.float64(types.float64, types.float64), nopython=True)
def nb_hypot(x, y):
    return math.sqrt(x * x + y * y)


@cfunc(types.int64(types.int64, types.int64, types.int64), nopython=True)
def nb_clamp(x, lo, hi):
    return lo if x < lo else hi if x > hi else x


def test_numba_cfunc_over_ragged_arrays():
    c = ck.Callable("nb_hypot")
    c.add_native("dd)d", nb_hypot)  # the @cfunc object: its .address, kept alive
    ck.register(c)
    assert ck.callables()["nb_hypot"] == ["(float64, float64) -> float64"]
    x = ck.Array([[3, 5, 20], [8]], type="2 * var * int32")  # int32 arguments cast to float64
    y = np.array([[4], [6]], dtype=np.float32)                 # (2, 1): broadcast along each row
    r = ck.call("nb_hypot", x, y)
    assert isinstance(r, ck.Array) and r.type == "2 * var * float64"
    assert r.tolist() == [[5.0, math.hypot(5, 4), math.hypot(20, 4)], [10.0]]
    assert ck.call("nb_hypot", x, 0).tolist() == [[3.0, 5.0, 20.0], [8.0]]  # a Python scalar
    p = ck.Array([[3], None], type="2 * var * float64")
    with raises_status("CK_ERR_UNINITIALIZED"):
        ck.call("nb_hypot", p, 1.0)
    ptr = ck.Array([[3, 4], [0, 1]], type="2 * pointer[2 * float64]")
    assert ck.call("nb_hypot", ptr, 4.0).tolist() == [[5.0, math.hypot(4, 4)], [4.0, math.hypot(1, 4)]]


def test_numba_cfunc_with_three_arguments_and_numpy():
    c = ck.Callable("nb_clamp")
    c.add_native("qqq)q", nb_clamp.address)  # a plain address works too: c keeps nothing alive
    x = np.arange(-5, 5, dtype=np.int16)[::-1]
    r = ck.call(c, x, np.int8(-2), 3)
    assert r.dtype == np.int64 and r.tolist() == [min(max(v, -2), 3) for v in x.tolist()]
    out = np.zeros((2, 10), dtype=np.float64)
    ck.call(c, x, -1, 1, out=out)
    assert out.tolist() == [[float(min(max(v, -1), 1)) for v in x.tolist()]] * 2
