"""python/tests/dask_kernels.py: callables of our own for test_dask.py's cluster, in the
pattern docs/python.md §10 gives: a module the workers can import that compiles its Numba
functions and registers them (register(), idempotent), and a worker plugin that calls it on
every worker, those that join later too."""
import math

from distributed import WorkerPlugin
from numba import cfunc, types

import ckernel as ck


@cfunc(types.float64(types.float64, types.float64))
def nb_hypot(x, y):
    return math.sqrt(x * x + y * y)


@cfunc(types.int32(types.int32))
def nb_halve(x):
    return x // 2


def register():
    """Registers dask_hypot ("dd)d") and dask_halve ("i)i") in this process, once."""
    have = ck.callables()
    for name, sig, fn in (("dask_hypot", "dd)d", nb_hypot), ("dask_halve", "i)i", nb_halve)):
        if name not in have:
            c = ck.Callable(name)
            c.add_native(sig, fn)
            ck.register(c)


class RegisterKernels(WorkerPlugin):
    """client.register_worker_plugin(RegisterKernels()): every worker registers them."""
    name = "ckernel-test-kernels"

    def setup(self, worker):
        register()
