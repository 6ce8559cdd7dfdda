"""ckernel for Python: NumPy arrays and ragged arrays through ckernel's composed kernels.

    import ckernel as ck
    ck.assign(dst, src)                         # in place, any strides, zero copies
    a = ck.Array("[[1, 2], [3]]", type="2 * var * int32")
    r = ck.call("add", x, y)                    # NumPy out for fixed dims, else ck.Array
    y = ck.evaluate("a * x + b", a=2.0, x=x, b=y)   # one kernel, no temporaries
    s = ck.reduce("sum", x, axis=(0, 2))        # NumPy's result types; ragged data too
    c = ck.accumulate("cumsum", x, axis=-1)
    d = ck.dask.call("add", dask_x, dask_y)     # a dask.array, chunk by chunk

docs/python.md is the manual. Everything here is the C extension ckernel._ckernel, over
ckernel's public C API.
"""
from ckernel._ckernel import (  # noqa: F401  (the package's interface)
    Array,
    Callable,
    Error,
    __version__,
    accumulate,
    assign,
    build_options,
    call,
    callables,
    evaluate,
    explain,
    get_num_threads,
    reduce,
    register,
    set_num_threads,
)


def __getattr__(name):
    """ckernel.dask (Dask arrays chunk by chunk) is imported when first used: importing Dask
    takes longer than everything else here."""
    if name == "dask":
        import importlib
        return importlib.import_module("ckernel.dask")
    raise AttributeError("module 'ckernel' has no attribute %r" % name)


__all__ = ["Array", "Callable", "Error", "accumulate", "assign", "call", "callables", "evaluate",
           "explain", "get_num_threads", "reduce", "register", "set_num_threads"]
