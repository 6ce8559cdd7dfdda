"""python/tests/conftest.py: what every suite of the ckernel package shares.

ctest runs each suite with PYTHONPATH=build/python (python/tests/CMakeLists.txt); run by hand,
`PYTHONPATH=build/python /usr/bin/python3 -m pytest python/tests` does the same. Every test is
checked for ckernel allocations left live when it ends (ckernel._ckernel._alloc_live), and
Hypothesis runs a bounded number of examples (CKERNEL_EXAMPLES, 150 by default) with no
deadline and no example database, its caches in a temporary directory (nothing is written into
the tree).
"""
import faulthandler
import gc
import os

import numpy as np
import pytest

import ckernel
from ckernel import _ckernel

try:
    import atexit
    import shutil
    import tempfile

    from hypothesis import settings
    from hypothesis.configuration import set_hypothesis_home_dir

    _home = tempfile.mkdtemp(prefix="ckernel-hypothesis-")  # its caches, out of the tree
    atexit.register(shutil.rmtree, _home, True)
    set_hypothesis_home_dir(_home)

    settings.register_profile("ckernel", max_examples=int(os.environ.get("CKERNEL_EXAMPLES", "150")),
                              deadline=None, database=None, print_blob=True)
    settings.load_profile("ckernel")
except ImportError:  # the property tests skip themselves
    pass

def numpy_on_contiguous(fn, *operands):
    """NumPy's fn on the operands broadcast and copied into contiguous 1-d buffers, shaped
    back: the loops ckernel matches bit for bit. NumPy's 0-d complex multiply (the scalar
    path) fuses a multiply-add on an FMA machine, its strided one may too, so a 0-d or strided
    operand is never handed to NumPy as it is. Its contiguous complex multiply fuses too when
    it takes its AVX-512 loop, which depends on the buffers' alignment (so on the allocator:
    under ASan's it did), so a complex product is NumPy's textbook formula in separate real
    operations, each rounded once: (ar*br - ai*bi) + (ar*bi + ai*br)j, as ckernel's leaves
    and NumPy's plain loop compute it."""
    shape = np.broadcast_shapes(*(np.shape(o) for o in operands))
    flat = [np.array(np.broadcast_to(o, shape), order="C").reshape(-1) for o in operands]
    if fn is np.multiply and len(flat) == 2 and any(f.dtype.kind == "c" for f in flat):
        ct = np.result_type(*flat)
        x, y = (f.astype(ct) for f in flat)
        out = np.empty(x.shape, ct)
        out.real = np.subtract(np.multiply(x.real, y.real), np.multiply(x.imag, y.imag))
        out.imag = np.add(np.multiply(x.real, y.imag), np.multiply(x.imag, y.real))
        return out.reshape(shape)
    r = fn(*flat)
    if isinstance(r, tuple):  # divmod, modf, frexp
        return tuple(x.reshape(shape) for x in r)
    return r.reshape(shape)


SANITIZED = os.environ.get("CKERNEL_TEST_SANITIZED") == "1"
SOURCE_DIR = os.environ.get("CKERNEL_SOURCE_DIR",
                            os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


@pytest.fixture(autouse=True)
def no_ckernel_leak():
    """Whatever a test makes, ckernel holds no more blocks or bytes once its objects are gone."""
    gc.collect()
    before = _ckernel._alloc_live()
    yield
    gc.collect()
    after = _ckernel._alloc_live()
    # More is a leak; less is a failed test before this one whose traceback held its arrays.
    assert after[0] <= before[0] and after[1] <= before[1], \
        "ckernel allocations (blocks, bytes) live after the test: %r, before: %r" % (after, before)


def _watchdog(request):
    """For tests whose failure is a deadlock: after CKERNEL_HANG_SECONDS (240) the process
    exits with every thread's stack on the real stderr (not pytest's capture), long before
    ctest's timeout. It bounds a hang, not the time the work takes. One at a time (Python
    has one such timer)."""
    capman = request.config.pluginmanager.getplugin("capturemanager")
    with capman.global_and_fixture_disabled():
        fd = os.dup(2)
    faulthandler.dump_traceback_later(int(os.environ.get("CKERNEL_HANG_SECONDS", "240")),
                                      exit=True, file=fd)
    yield
    faulthandler.cancel_dump_traceback_later()
    os.close(fd)


@pytest.fixture
def hang_watchdog(request):
    """The watchdog over one test."""
    yield from _watchdog(request)


@pytest.fixture(scope="module")
def module_hang_watchdog(request):
    """The watchdog over a whole module (its module-scoped fixtures too, a cluster's start
    and close): its tests must not use hang_watchdog."""
    yield from _watchdog(request)


def raises_status(status, *fragments):
    """pytest.raises(ckernel.Error) that also checks .status and words of the message."""
    class Check:
        def __enter__(self):
            self.ctx = pytest.raises(ckernel.Error)
            self.info = self.ctx.__enter__()
            return self.info

        def __exit__(self, *exc):
            suppressed = self.ctx.__exit__(*exc)
            e = self.info.value
            assert e.status == status, "status %s, wanted %s: %s" % (e.status, status, e)
            for f in fragments:
                assert f in str(e), "%r not in the message %r" % (f, str(e))
            return suppressed

    return Check()


def fails_at_every_allocation(setup, run):
    """run(setup()) with ckernel's allocations made to fail one after another (the limit
    raised by 8 bytes a time, from what is live): each try raises CK_ERR_NOMEM or gives what
    an unlimited run gives, some try fails, one succeeds, and nothing is left live."""
    limit = _ckernel._set_alloc_limit
    want = run(setup())
    gc.collect()
    start = _ckernel._alloc_live()
    failures = 0
    for extra in range(1, 1 << 20, 8):  # a limit of 0 would be none
        x = setup()
        limit(_ckernel._alloc_live()[1] + extra)
        try:
            got = run(x)
        except ckernel.Error as e:
            assert e.status == "CK_ERR_NOMEM", str(e)
            failures += 1
            continue
        finally:
            limit(0)
        assert got == want
        break
    else:
        raise AssertionError("never succeeded")
    del x
    gc.collect()
    assert failures > 0 and _ckernel._alloc_live() == start
