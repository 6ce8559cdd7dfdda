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
import sys as _sys

from ckernel import _ckernel
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
    explain,
    get_num_threads,
    reduce,
    register,
    set_num_threads,
)


def evaluate(expr, /, *, local_dict=None, global_dict=None, out=None, casting=None, **arrays):
    """The expression ("a * x + b") as one kernel over its arguments, broadcast together and
    evaluated in cache-sized chunks without full-size temporaries; numexpr.evaluate's calling
    convention: an argument not passed as a keyword is looked up in local_dict (default: the
    caller's locals), then global_dict (the caller's globals); keywords the expression does
    not name are ignored. out= receives the result (cast into its dtype; with casting= as
    NumPy's 'no', 'equiv', 'safe', 'same_kind' or 'unsafe', the cast must be allowed by it)."""
    names = _ckernel._expression_names(expr)
    missing = [n for n in names if n not in arrays]
    if missing:
        frame = _sys._getframe(1) if local_dict is None or global_dict is None else None
        local = local_dict if local_dict is not None else frame.f_locals
        glob = global_dict if global_dict is not None else frame.f_globals
        for n in missing:
            if n in local:
                arrays[n] = local[n]
            elif n in glob:
                arrays[n] = glob[n]
        del frame
    if out is None or casting is None:
        return _ckernel.evaluate(expr, out=out, **arrays)
    import numpy as np
    result = _ckernel.evaluate(expr, **arrays)
    dtype = getattr(result, "dtype", None)
    target = getattr(out, "dtype", None)
    if dtype is not None and target is not None and not np.can_cast(dtype, target, casting):
        raise TypeError("evaluate: cannot cast the result from %s to %s with casting=%r"
                        % (dtype, target, casting))
    assign(out, result, errmode="nocheck" if casting == "unsafe" else "fractional")
    return out


def __getattr__(name):
    """ckernel.dask (Dask arrays chunk by chunk) is imported when first used: importing Dask
    takes longer than everything else here."""
    if name == "dask":
        import importlib
        return importlib.import_module("ckernel.dask")
    raise AttributeError("module 'ckernel' has no attribute %r" % name)


__all__ = ["Array", "Callable", "Error", "accumulate", "assign", "call", "callables", "evaluate",
           "explain", "get_num_threads", "reduce", "register", "set_num_threads"]
