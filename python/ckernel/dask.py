"""ckernel.dask: ckernel calls over Dask arrays, chunk by chunk.

When the data outgrows one machine, Dask distributes it and ckernel stays the engine of each
chunk: ``ckernel.dask.call(name, *args)`` is a lazy dask.array whose every chunk is
``ckernel.call(name, *chunks)`` (dask.array.blockwise, the chunks of the arguments aligned
as NumPy broadcasts them). The result's dtype is the one ckernel gives for the arguments'
dtypes (ckernel.call on empty arrays of those dtypes, on the client, before anything runs:
a call that selects no signature fails there). docs/python.md §10 has the pattern for
callables of your own on a cluster: every worker registers them itself.
"""
try:
    import dask.array as da
    from dask.base import tokenize
except ImportError as e:  # pragma: no cover - Debian's python3-dask is a dependency
    raise ImportError("ckernel.dask needs Dask (Debian: python3-dask): %s" % e) from e
import numpy as np

from ckernel._ckernel import Error, call as _call

__all__ = ["call"]


def _error(status, message):
    e = Error(message)
    e.status = status
    return e


def _chunk(*blocks, ck_name, errmode, allow_unsafe):
    """One chunk of the result: ckernel.call on the arguments' chunks."""
    return _call(ck_name, *blocks, errmode=errmode, allow_unsafe=allow_unsafe)


def call(name, *args, errmode="fractional", allow_unsafe=False):
    """A dask.array of ckernel.call(name, *args) computed chunk by chunk.

    name is a registered callable's name (a ckernel.Callable object cannot go to other
    processes: register it on the workers, docs/python.md §10). Arguments are Dask arrays,
    NumPy arrays (or anything NumPy makes one of: one chunk each) and Python or NumPy
    numbers (passed to every chunk's call as they are, so Python numbers stay weak); at
    least one is an array. They broadcast as in ckernel.call; the chunks of broadcast
    dimensions are unified by Dask. errmode and allow_unsafe are ckernel.call's."""
    if not isinstance(name, str):
        raise _error("CK_ERR_TYPE", "ckernel.dask.call takes a registered callable's name, not "
                     "a %s (register it on every worker: docs/python.md)" % type(name).__name__)
    operands, metas = [], []
    for i, a in enumerate(args):
        if isinstance(a, (bool, int, float, complex, np.generic)):
            operands += [a, None]
            metas.append(a)
            continue
        if not isinstance(a, da.Array):
            if not hasattr(a, "__array__") and not isinstance(a, (list, tuple)):
                raise _error("CK_ERR_TYPE", "argument %d: a %s is not an array (Dask or NumPy "
                             "arrays and numbers are)" % (i + 1, type(a).__name__))
            a = da.asarray(a)
        if a.dtype == object:
            raise _error("CK_ERR_TYPE", "argument %d: object arrays have no ckernel type" % (i + 1))
        operands += [a, tuple(range(a.ndim))[::-1]]  # right-aligned, as broadcasting is
        metas.append(np.empty((0,) * a.ndim, dtype=a.dtype))
    arrays = [a for a in operands[::2] if isinstance(a, da.Array)]
    if not arrays:
        raise _error("CK_ERR_INVALID", "ckernel.dask.call needs at least one array argument")
    meta = _call(name, *metas, errmode=errmode, allow_unsafe=allow_unsafe)
    if isinstance(meta, np.generic):  # 0-d arrays only: ckernel returns a NumPy scalar
        meta = np.asarray(meta)
    if not isinstance(meta, np.ndarray):
        raise _error("CK_ERR_TYPE", "%s gives a result NumPy cannot hold (%s): Dask's chunks "
                     "are NumPy arrays" % (name, getattr(meta, "type", type(meta).__name__)))
    ndim = max(a.ndim for a in arrays)
    token = tokenize(name, errmode, allow_unsafe, *args)
    return da.blockwise(_chunk, tuple(range(ndim))[::-1], *operands,
                        name="ckernel-%s-%s" % (name, token), dtype=meta.dtype,
                        meta=meta, ck_name=name, errmode=errmode,
                        allow_unsafe=bool(allow_unsafe))
