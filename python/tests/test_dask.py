"""python/tests/test_dask.py: ckernel.dask.call, a ckernel call over Dask arrays chunk by
chunk: chunks aligned as NumPy broadcasts, the result's dtype ckernel's, errors raised where
NumPy's would be (the selection when the graph is made, a value when it runs, with the
status). Then on a distributed.LocalCluster of two worker processes on the loopback: a
4000 x 4000 float64 array in 1000 x 1000 chunks plus a row, against NumPy, and Numba
callables that every worker registers itself (dask_kernels.py, the pattern of
docs/python.md §10). Expected values are NumPy's on the same data. Skipped, with the reason,
without Dask (the first tests) or distributed (the cluster); the cluster's tests, its start and
its close are bounded by module_hang_watchdog (conftest.py).
"""
import math

import numpy as np
import pytest

da = pytest.importorskip("dask.array", reason="Dask is not installed (Debian: python3-dask)")
import dask  # noqa: E402

import ckernel as ck  # noqa: E402
from conftest import raises_status  # noqa: E402


def test_chunks_broadcast_and_the_dtype_is_ckernels():
    col = da.from_array(np.arange(5, dtype=np.int16).reshape(5, 1), chunks=(2, 1))
    row = da.from_array(np.arange(7, dtype=np.int16) - 3, chunks=3)
    r = ck.dask.call("multiply", col, row)
    assert isinstance(r, da.Array) and r.dtype == np.int16 and r.shape == (5, 7)
    assert r.chunks == ((2, 2, 1), (3, 3, 1))
    with dask.config.set(scheduler="threads"):
        assert np.array_equal(r.compute(), np.arange(5).reshape(5, 1) * (np.arange(7) - 3))
    # Python numbers stay weak chunk by chunk: float32 stays float32.
    x = da.ones((4, 6), dtype=np.float32, chunks=(3, 4))
    s = ck.dask.call("add", x, 0.5)
    assert s.dtype == np.float32 and np.array_equal(s.compute(scheduler="sync"),
                                                    np.full((4, 6), 1.5, np.float32))
    # NumPy arguments are one chunk each, unified with the others'.
    v = ck.dask.call("subtract", x, np.arange(6.0))
    assert v.dtype == np.float64 and v.chunks == ((3, 1), (4, 2))
    assert np.array_equal(v.compute(scheduler="sync"), np.ones((4, 6)) - np.arange(6.0))
    z = ck.dask.call("add", da.from_array(np.float32(1.5)), 1)  # 0-d: scalars alone,
    assert z.dtype == np.float64 and z.compute(scheduler="sync") == 2.5  # as NumPy's


def test_errors_come_when_numpy_would_raise_them():
    x = da.from_array(np.arange(4, dtype=np.int8), chunks=2)
    y = ck.dask.call("add", x, 300)  # typed by its value, as NumPy 1.24 types it: int16
    assert y.dtype == np.int16 and y.compute(scheduler="sync").tolist() == [300, 301, 302, 303]
    with raises_status("CK_ERR_TYPE"):  # NumPy's object array: before anything runs
        ck.dask.call("add", x, 2**64)
    with raises_status("CK_ERR_INVALID"):
        ck.dask.call("add", 1, 2)  # no array: nothing for Dask to chunk
    with raises_status("CK_ERR_TYPE", "name"):
        ck.dask.call(ck.Callable("local"), x)
    with raises_status("CK_ERR_TYPE", "argument 2"):
        ck.dask.call("add", x, "text")
    with raises_status("CK_ERR_TYPE"):  # a ragged result has no chunk of NumPy's
        ck.dask.call("add", x, ck.Array([[1], [2, 3]]))
    with raises_status("CK_ERR_TYPE", "no callable named"):
        ck.dask.call("no_such_callable", x)


@pytest.fixture(scope="module")
def client(module_hang_watchdog):
    distributed = pytest.importorskip(
        "distributed", reason="distributed is not installed (Debian: python3-distributed)")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address=None,
                                       silence_logs=40)
    c = distributed.Client(cluster, timeout="120s")
    try:
        yield c
    finally:
        c.close()
        cluster.close()


def test_a_cluster_of_two_processes(client):
    workers = client.scheduler_info()["workers"]
    assert len(workers) == 2 and all(w.startswith("tcp://127.0.0.1:") for w in workers)
    n, k = 4000, 1000
    x = da.random.RandomState(24).standard_normal((n, n), chunks=(k, k))
    row = da.from_array(np.linspace(-1.0, 1.0, n), chunks=k)
    r = ck.dask.call("add", x, row)
    assert r.dtype == np.float64 and r.chunks == x.chunks
    xs, rows, rs = client.compute([x, row, r], sync=True)
    assert np.array_equal(rs, xs + rows)


def test_numba_callables_registered_by_every_worker(client):
    import dask_kernels
    dask_kernels.register()  # here too: the client computes the result's dtype
    client.register_worker_plugin(dask_kernels.RegisterKernels())
    have = client.run(lambda: sorted(n for n in ck.callables() if n.startswith("dask_")))
    assert list(have.values()) == [["dask_halve", "dask_hypot"]] * 2, have
    x = da.from_array(np.arange(12, dtype=np.int32).reshape(3, 4), chunks=(2, 2))
    y = da.from_array(np.array([[3.0], [4.0], [12.0]]), chunks=(1, 1))
    h = ck.dask.call("dask_hypot", x, y)  # int32 cast to float64, (3, 1) broadcast
    assert h.dtype == np.float64 and h.shape == (3, 4)
    expected = np.array([[math.hypot(v, w) for v in rv] for rv, w in
                         zip(np.arange(12).reshape(3, 4).tolist(), [3.0, 4.0, 12.0])])
    assert np.array_equal(client.compute(h, sync=True), expected)
    half = ck.dask.call("dask_halve", da.arange(-6, 6, chunks=5, dtype=np.int32))
    assert half.dtype == np.int32
    assert client.compute(half, sync=True).tolist() == [v // 2 for v in range(-6, 6)]
    # A value that fails on a worker comes back as ckernel.Error with its status.
    frac = ck.dask.call("dask_halve", da.from_array(np.array([1.0, 4.0, 2.5]), chunks=1),
                        allow_unsafe=True)
    with raises_status("CK_ERR_FRACTIONAL", "2.5"):
        client.compute(frac, sync=True)
