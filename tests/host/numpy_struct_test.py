"""tests/host/numpy_struct_test.py: NumPy structured arrays assigned through ckernel's structs
and tuples, loaded with ctypes as numpy_test.py loads it, in place on NumPy's own buffers;
NumPy, or values computed here in Python, is the oracle.

NumPy assigns a structured array to another BY POSITION: `dst[...] = src` and
numpy.copyto(dst, src, casting='unsafe') cast field i of the source into field i of the
destination whatever the names (checked first, on the installed NumPy). ckernel matches struct
fields by name unless the evaluation context has CK_EVAL_FIELDS_BY_POSITION; with it,
ck_assign must write the same values.

Wrapping (ck_array_wrap over arr.ctypes.data): the type is the dtype's datashape ("3 * {x:
int32, v: 2 * float64}", or a tuple "(int32, 2 * float64)" for the same records); the arrmeta
is {dim_size, stride} per ndarray dimension from its strides, then the record's: the offsets
table holding NumPy's field offsets (dtype.fields[name][1]), then each field's arrmeta where
ck_type_field_arrmeta_offset puts it (a sub-array field: {n, stride} per dimension, C order
inside the record). An aligned dtype (align=True) must have exactly ckernel's C layout (its
offsets and itemsize are checked against ck_type_field_offset and ck_type_data_size); a
packed one keeps its own offsets, with the records NumPy's itemsize apart.

Every destination lives in a buffer of guard bytes (numpy_test.guarded); after ck_assign, each
leaf field of each record equals NumPy's result bit for bit (NaN payloads excepted), no byte
outside the records changed, and the source is unchanged. Padding inside a record is not
compared (NumPy leaves it alone; ckernel may copy it along with a run of bit-identical fields).

Cases:
  * every scalar pair inside a field: {a: S, b: uint8, c: int32} into {c: D, a: int16,
    b: float32} (names reordered, so by name would differ), values exact in D so NumPy's cast
    is defined, aligned and packed on either side;
  * layouts: 0-d, contiguous, strided, reversed, an odd byte stride, 2-d C order, 2-d
    transposed source, 2-d with gaps and reversed rows, a broadcast source; over records with
    reordered names, nested structs, fixed sub-array fields, sub-arrays of structs, bool,
    float16 and a quoted field name, and bit-identical records (a byte copy), aligned and
    packed;
  * tuples against structs: the same records wrapped as a tuple type on one side or both;
  * by name (no flag) on reordered and nested fields, against values computed in Python;
    mismatched names and a mismatched field count refused with nothing written (NumPy refuses
    the latter too);
  * ck_parallel_assign of (2000, 64) records on 2 threads;
  * ck_array_format of struct and tuple arrays read back (a small literal parser) and compared
    with NumPy's values, and exact text for hand-written records;
  * no ckernel allocation live after any case, nor at the end.

usage: python3 numpy_struct_test.py PATH_TO_LIBCKERNEL_SO   (last line: "N passed, M failed")
"""
import ctypes as C
import functools
import os
import re
import sys
import time
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy_test as nt  # noqa: E402  (load, Checker, guarded, values, elements_match)

warnings.simplefilter("ignore")  # complex -> real casts of exact values warn
np.seterr(all="ignore")

GUARD = nt.GUARD
# include/ckernel/status.h, eval.h, types.h
CK_OK, CK_ERR_TYPE = 0, 4
CK_EVAL_FIELDS_BY_POSITION = 0x40
# The first id after the scalar rows of include/ckernel/scalar_types.h (one X(C, ...) each).
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "include",
                       "ckernel", "scalar_types.h")) as _f:
    CK_TYPE_FIXED_DIM = sum(1 for _l in _f if _l.lstrip().startswith("X(C, "))
INTP = C.sizeof(C.c_ssize_t)


def load(path):
    lib = nt.load(path)
    p, i, z = C.c_void_p, C.c_int, C.c_size_t
    sigs = {
        "ck_type_get_id": (i, [p]),
        "ck_type_data_size": (z, [p]),
        "ck_type_arrmeta_size": (z, [p]),
        "ck_type_element": (p, [p]),
        "ck_type_field_count": (z, [p]),
        "ck_type_field": (p, [p, z]),
        "ck_type_field_offset": (z, [p, z]),
        "ck_type_field_arrmeta_offset": (z, [p, z]),
    }
    for name, (res, args) in sigs.items():
        fn = getattr(lib, name)
        fn.restype = res
        fn.argtypes = args
    return lib


def ctx(by_position=True, max_threads=0, grain_bytes=0):
    c = nt.eval_ctx(max_threads, grain_bytes)
    c.flags = CK_EVAL_FIELDS_BY_POSITION if by_position else 0
    return c


# ---------------------------------------------------------------------------------------
# dtypes as datashapes, and their leaves.

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def name_ds(name):
    if IDENT.match(name):
        return name
    return "'" + name.replace("\\", "\\\\").replace("'", "\\'") + "'"


def elem_ds(dt, as_tuple=False):
    """The datashape of one value of dtype dt; as_tuple spells its records tuples (nested
    ones too: a struct inside a tuple still matches a struct by name)."""
    if dt.subdtype is not None:
        base, shape = dt.subdtype
        return " * ".join([str(n) for n in shape] + [elem_ds(base, as_tuple)])
    if dt.names is not None:
        parts = [elem_ds(dt.fields[n][0], as_tuple) for n in dt.names]
        if as_tuple:
            return "(" + ", ".join(parts) + ")"
        return "{" + ", ".join("%s: %s" % (name_ds(n), p)
                               for n, p in zip(dt.names, parts)) + "}"
    return dt.name


def record(fields, aligned):
    """A structured dtype; nested records in `fields` are lists, made with the same align."""
    out = []
    for f in fields:
        if isinstance(f[1], list):
            f = (f[0], record(f[1], aligned)) + tuple(f[2:])
        out.append(f)
    return np.dtype(out, align=aligned)


def leaves(dt, path=()):
    """(path, scalar dtype) of every leaf field of dtype dt, in position order; a sub-array
    field's leaves carry its extra dimensions in the array they select."""
    if dt.subdtype is not None:
        yield from leaves(dt.subdtype[0], path)
    elif dt.names is not None:
        for n in dt.names:
            yield from leaves(dt.fields[n][0], path + (n,))
    else:
        yield path, dt


def get(arr, path):
    for n in path:
        arr = arr[n]
    return arr


@functools.lru_cache(maxsize=None)
def exact_values(src, dst):
    """Values of scalar type src that dst holds exactly (numpy_test's candidates)."""
    return tuple(nt.pair_values(src, dst)[0])


def fill_records(shape, src_dt, dst_dt, seed, by_name=False):
    """Records of src_dt whose every leaf holds values exact in the destination leaf it goes
    to (by position, or the same path by name)."""
    arr = np.zeros(shape, dtype=src_dt)
    if by_name:
        dst_of = dict(leaves(dst_dt))
        pairs = [(p, s, dst_of[p]) for p, s in leaves(src_dt)]
    else:
        pairs = [(p, s, d) for (p, s), (_, d) in zip(leaves(src_dt), leaves(dst_dt))]
    for k, (path, s, d) in enumerate(pairs):
        view = get(arr, path)
        view[...] = nt.fill(view.shape, s.name, list(exact_values(s.name, d.name)), seed + k)
    return arr


# ---------------------------------------------------------------------------------------
# Wrapping NumPy's buffers.

def record_meta(lib, ck, t, dt, meta, at, what):
    """Writes the arrmeta of ckernel type t for NumPy dtype dt at intptr index `at` of meta;
    for an aligned dtype, checks that NumPy's layout is ckernel's C layout."""
    if dt.subdtype is not None:
        base, shape = dt.subdtype
        stride = base.itemsize * int(np.prod(shape))
        for n in shape:
            stride //= n
            ck.check(lib.ck_type_get_id(t) == CK_TYPE_FIXED_DIM, what + ": no fixed dim")
            meta[at], meta[at + 1] = n, stride
            at += 2
            t = lib.ck_type_element(t)
        dt = base
    if dt.names is None:
        return
    if dt.isalignedstruct:
        ck.check(lib.ck_type_data_size(t) == dt.itemsize and
                 all(lib.ck_type_field_offset(t, i) == dt.fields[n][1]
                     for i, n in enumerate(dt.names)),
                 "%s: the aligned dtype %s is not ckernel's C layout" % (what, dt))
    for i, n in enumerate(dt.names):
        meta[at + i] = dt.fields[n][1]
        fo = lib.ck_type_field_arrmeta_offset(t, i)
        record_meta(lib, ck, lib.ck_type_field(t, i), dt.fields[n][0], meta, at + fo // INTP,
                    what)


class Wrapped:
    """ck_array_wrap of an ndarray of records over its own memory; freed with free()."""

    def __init__(self, lib, ck, arr, as_tuple=False, what=""):
        self.lib = lib
        self.ds = " * ".join([str(n) for n in arr.shape] + [elem_ds(arr.dtype, as_tuple)])
        self.t = C.c_void_p()
        if lib.ck_type_parse(self.ds.encode(), C.byref(self.t)) != CK_OK:
            raise RuntimeError("ck_type_parse(%s): %s" % (self.ds, ck.error()))
        size = lib.ck_type_arrmeta_size(self.t)
        self.meta = (C.c_ssize_t * max(1, size // INTP))()
        rec = self.t.value
        for k, (n, s) in enumerate(zip(arr.shape, arr.strides)):
            self.meta[2 * k], self.meta[2 * k + 1] = n, s
            rec = lib.ck_type_element(rec)
        record_meta(lib, ck, rec, arr.dtype, self.meta, 2 * arr.ndim, what)
        self.a = C.c_void_p()
        rc = lib.ck_array_wrap(self.t, C.cast(self.meta, C.c_void_p), arr.ctypes.data, None,
                               C.byref(self.a))
        if rc != CK_OK:
            lib.ck_type_decref(self.t)
            raise RuntimeError("ck_array_wrap(%s): %s" % (self.ds, ck.error()))

    def free(self):
        self.lib.ck_array_free(self.a)
        self.lib.ck_type_decref(self.t)


# ---------------------------------------------------------------------------------------
# One assignment, checked.

def leaf_bytes(arr):
    """The bytes of every leaf field (a copy of a record array does not keep its padding)."""
    return b"".join(np.ascontiguousarray(get(arr, p)).tobytes() for p, _ in leaves(arr.dtype))


def compare_leaves(ck, got, want, what):
    """Every leaf field of every record equal (NaN payloads excepted)."""
    ok = True
    for (path, dt), _ in zip(leaves(got.dtype), leaves(want.dtype)):
        g, w = get(got, path), get(want, path)
        same, nan_note = nt.elements_match(g, w, dt.name)
        ck.nan_payload_notes += nan_note
        if not ck.check(same, "%s: field %s differs" % (what, ".".join(path))):
            ok = False
            gf, wf = np.ascontiguousarray(g).reshape(-1), np.ascontiguousarray(w).reshape(-1)
            bad = [i for i in range(gf.size) if gf[i:i + 1].tobytes() != wf[i:i + 1].tobytes()]
            for i in bad[:3]:
                print("    element %d: ckernel %r, expected %r" % (i, gf[i], wf[i]))
    return ok


def run_case(lib, ck, what, src, dst_dt, shape, strides, expect, by_position=True,
             src_tuple=False, dst_tuple=False, parallel=None):
    """ck_assign (or ck_parallel_assign with context `parallel`) of src into a guarded
    destination of dst_dt; expect(want_view) writes the expected records into a guarded
    buffer of the same layout."""
    got_buf, got, mask = nt.guarded(shape, dst_dt, strides)
    want_buf, want, _ = nt.guarded(shape, dst_dt, strides)
    expect(want)
    src_before = leaf_bytes(src)
    live0 = ck.live()
    ws = wd = None
    try:
        ws = Wrapped(lib, ck, src, src_tuple, what)
        wd = Wrapped(lib, ck, got, dst_tuple, what)
        ck.check(lib.ck_array_data(wd.a) == got.ctypes.data, what + ": not NumPy's buffer")
        if parallel is None:
            rc = lib.ck_assign(wd.a, ws.a, C.byref(ctx(by_position)))
        else:
            rc = lib.ck_parallel_assign(wd.a, ws.a, C.byref(parallel))
        if ck.check(rc == CK_OK, "%s: %s -> %s: %s %s" % (what, ws.ds, wd.ds, ck.status(rc),
                                                          ck.error())):
            compare_leaves(ck, got, want, "%s (%s <- %s)" % (what, wd.ds, ws.ds))
        ck.check(bool(np.all(got_buf[~mask] == GUARD)),
                 what + ": a byte outside the destination's records changed")
        ck.check(leaf_bytes(src) == src_before, what + ": source changed")
    finally:
        for w in (wd, ws):
            if w is not None:
                w.free()
        ck.check(ck.live() == live0, what + ": ckernel allocations left live")


def numpy_positional(src):
    return lambda want: np.copyto(want, src, casting="unsafe")


def python_by_name(src):
    """Each destination leaf from the source leaf of the same path, element by element
    through Python values (int, float, complex, bool)."""
    def expect(want):
        for path, _ in leaves(want.dtype):
            w, s = get(want, path), np.broadcast_to(get(src, path), get(want, path).shape)
            for idx in np.ndindex(w.shape):
                w[idx] = s[idx].item()
    return expect


def numpy_is_positional(ck):
    """The premise: NumPy's structured assignment ignores names."""
    src = np.array([(1, 2.5)], dtype=[("x", "i4"), ("y", "f8")])
    for assign in (lambda d: d.__setitem__(Ellipsis, src),
                   lambda d: np.copyto(d, src, casting="unsafe")):
        dst = np.zeros(1, dtype=[("y", "f8"), ("x", "i4")])
        assign(dst)
        ck.check(dst["y"][0] == 1.0 and dst["x"][0] == 2,
                 "NumPy %s assigned %r by name, not by position" % (np.__version__, dst))


# ---------------------------------------------------------------------------------------
# Layouts: (name, make) with make(src_dt, dst_dt, seed, fill) -> (source, dst shape, dst
# strides); fill(shape, src_dt, dst_dt, seed) makes the records the source is a view of.

def layouts():
    n, m, k = 23, 4, 6

    def contiguous(s, d, e, fill=fill_records):
        return fill((n,), s, d, e), (n,), (d.itemsize,)

    def scalar(s, d, e, fill=fill_records):
        return fill((), s, d, e), (), ()

    def strided(s, d, e, fill=fill_records):
        return fill((3 * n,), s, d, e)[::3], (n,), (2 * d.itemsize,)

    def reversed_(s, d, e, fill=fill_records):
        return fill((n,), s, d, e)[::-1], (n,), (-d.itemsize,)

    def odd_stride(s, d, e, fill=fill_records):
        return fill((n,), s, d, e), (n,), (2 * d.itemsize + 1,)

    def c_2d(s, d, e, fill=fill_records):
        return fill((m, k), s, d, e), (m, k), (k * d.itemsize, d.itemsize)

    def transposed(s, d, e, fill=fill_records):
        return fill((k, m), s, d, e).T, (m, k), (k * d.itemsize, d.itemsize)

    def gaps_reversed(s, d, e, fill=fill_records):
        src = fill((m, 2 * k), s, d, e)[::-1, ::2]
        return src, (m, k), (-(k + 2) * d.itemsize, d.itemsize)

    def broadcast(s, d, e, fill=fill_records):
        return fill((k,), s, d, e), (m, k), (k * d.itemsize, d.itemsize)

    return [("0-d", scalar), ("contiguous", contiguous), ("strided", strided),
            ("reversed", reversed_), ("odd-stride", odd_stride), ("2-d", c_2d),
            ("2-d-transposed-src", transposed), ("2-d-gaps-reversed", gaps_reversed),
            ("broadcast-(k,)", broadcast)]


# (name, source fields, destination fields): positional counterparts, names differing.
RECORDS = [
    ("reordered", [("x", "i4"), ("y", "f8")], [("y", "f8"), ("x", "i4")]),
    ("nested", [("p", [("a", "i2"), ("b", "f4")]), ("q", "u1"), ("t", "c8")],
     [("r", [("c", "f8"), ("d", "i4")]), ("s", "i8"), ("u", "c16")]),
    ("sub-array", [("v", "f8", (3,)), ("w", "i4"), ("m", "i2", (2, 3))],
     [("u", "f4", (3,)), ("t", "f8"), ("k", "i8", (2, 3))]),
    ("sub-array-of-structs", [("pts", [("x", "f4"), ("y", "i2")], (2,)), ("n", "u2")],
     [("q", [("a", "f8"), ("b", "i8")], (2,)), ("c", "f2")]),
    ("bool-half-quoted", [("a b", "?"), ("h", "f2"), ("z", "u8")],
     [("flag", "u1"), ("h", "f4"), ("it's", "f8")]),
    ("identical", [("x", "i4"), ("y", "i4"), ("z", "f8")], [("x", "i4"), ("y", "i4"), ("z", "f8")]),
    ("identical-padded", [("a", "i1"), ("b", "f8"), ("c", "i2")],
     [("a", "i1"), ("b", "f8"), ("c", "i2")]),
]
ALIGNMENTS = [("aligned", True, True), ("packed", False, False),
              ("aligned->packed", True, False), ("packed->aligned", False, True)]


def scalar_pairs(lib, ck):
    n = 37
    for si, s in enumerate(nt.SCALARS):
        for di, d in enumerate(nt.SCALARS):
            for al_name, sa, da in ALIGNMENTS:
                sdt = record([("a", s), ("b", "u1"), ("c", "i4")], sa)
                ddt = record([("c", d), ("a", "i2"), ("b", "f4")], da)
                src = fill_records((n,), sdt, ddt, seed=14 * si + di)
                run_case(lib, ck, "%s -> %s in a field, %s" % (s, d, al_name), src, ddt, (n,),
                         (ddt.itemsize,), numpy_positional(src))
                ck.count("scalar pair in a field")


def layout_cases(lib, ck):
    for rec_name, sf, df in RECORDS:
        for al_name, sa, da in ALIGNMENTS:
            sdt, ddt = record(sf, sa), record(df, da)
            for li, (lname, make) in enumerate(layouts()):
                src, shape, strides = make(sdt, ddt, li)
                run_case(lib, ck, "%s %s %s" % (rec_name, al_name, lname), src, ddt, shape,
                         strides, numpy_positional(src))
                ck.count("layout")


def tuple_cases(lib, ck):
    for rec_name, sf, df in RECORDS[:4]:
        for al_name, sa, da in ALIGNMENTS[:2]:
            sdt, ddt = record(sf, sa), record(df, da)
            src = fill_records((5, 3), sdt, ddt, 7)[:, ::-1]
            for st, dtp, by_pos in [(False, True, False), (True, False, False),
                                    (True, True, False), (False, True, True)]:
                what = "%s %s: %s <- %s%s" % (rec_name, al_name, "tuple" if dtp else "struct",
                                              "tuple" if st else "struct",
                                              " (flag)" if by_pos else "")
                run_case(lib, ck, what, src, ddt, (5, 3), (3 * ddt.itemsize, ddt.itemsize),
                         numpy_positional(src), by_position=by_pos, src_tuple=st,
                         dst_tuple=dtp)
                ck.count("tuple/struct")


BY_NAME = [
    ("reordered", [("x", "i4"), ("y", "f8"), ("z", "i2")],
     [("z", "f8"), ("x", "i8"), ("y", "f4")]),
    ("nested", [("p", [("a", "i2"), ("b", "f4")]), ("q", "u1"), ("v", "u2", (3,))],
     [("v", "f4", (3,)), ("q", "i4"), ("p", [("b", "f8"), ("a", "i8")])]),
    ("quoted", [("a b", "i1"), ("c", "c8")], [("c", "c16"), ("a b", "f2")]),
]


def by_name_cases(lib, ck):
    for rec_name, sf, df in BY_NAME:
        for al_name, sa, da in ALIGNMENTS:
            sdt, ddt = record(sf, sa), record(df, da)
            for li, (lname, make) in enumerate(layouts()[1:5]):
                # Values exact in the leaf of the same name, where each really goes.
                src, shape, strides = make(sdt, ddt, li,
                                           functools.partial(fill_records, by_name=True))
                run_case(lib, ck, "by name %s %s %s" % (rec_name, al_name, lname), src, ddt,
                         shape, strides, python_by_name(src), by_position=False)
                ck.count("by name")


def refusals(lib, ck):
    """Assignments both refuse, or ckernel refuses by name: CK_ERR_TYPE, nothing written."""
    a = fill_records((4,), record([("x", "i4"), ("y", "f8")], True),
                     record([("x", "i4"), ("y", "f8")], True), 3)
    cases = [("names that do not match", a, record([("p", "i4"), ("q", "f8")], True), False,
              False),
             ("2 fields into 1", a, record([("x", "i4")], True), True, True),
             ("2 fields into 3", a, record([("x", "i4"), ("y", "f8"), ("z", "i1")], False),
              True, True)]
    for what, src, ddt, by_pos, numpy_refuses in cases:
        live0 = ck.live()
        got_buf, got, mask = nt.guarded((4,), ddt, (ddt.itemsize,))
        if numpy_refuses:
            try:
                np.copyto(np.zeros(4, ddt), src, casting="unsafe")
                ck.check(False, what + ": NumPy accepted it")
            except (TypeError, ValueError):
                ck.check(True, "")
        ws, wd = Wrapped(lib, ck, src), Wrapped(lib, ck, got)
        lib.ck_clear_error()
        rc = lib.ck_assign(wd.a, ws.a, C.byref(ctx(by_pos)))
        ck.check(rc == CK_ERR_TYPE and "cannot assign" in ck.error(),
                 "%s: %s '%s'" % (what, ck.status(rc), ck.error()))
        ck.check(bool(np.all(got_buf == GUARD)), what + ": a refused assignment wrote")
        wd.free()
        ws.free()
        ck.check(ck.live() == live0, what + ": ckernel allocations left live")
        ck.count("refusal")


def parallel_cases(lib, ck):
    for rec_name, sf, df in [RECORDS[1], RECORDS[2], RECORDS[5]]:
        for al_name, sa, da in ALIGNMENTS[:2]:
            sdt, ddt = record(sf, sa), record(df, da)
            src = fill_records((2000, 64), sdt, ddt, 11)
            run_case(lib, ck, "parallel %s %s" % (rec_name, al_name), src, ddt, (2000, 64),
                     (64 * ddt.itemsize, ddt.itemsize), numpy_positional(src),
                     parallel=ctx(True, 2, 4096))
            ck.count("parallel")


# ---------------------------------------------------------------------------------------
# ck_array_format read back.

TOKEN = re.compile(r"""\s*(?:
    (?P<punct>[\[\]{}(),:])
  | (?P<quoted>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")
  | (?P<num>[-+]?(?:nan|inf|\d+(?:\.\d*)?(?:e[-+]?\d+)?|\.\d+(?:e[-+]?\d+)?)
            (?:(?:[-+](?:nan|inf|\d+(?:\.\d*)?(?:e[-+]?\d+)?|\.\d+(?:e[-+]?\d+)?))?j)?)
  | (?P<word>[A-Za-z_][A-Za-z0-9_]*)
)""", re.X)


def unquote(q):
    body, out, i = q[1:-1], [], 0
    while i < len(body):
        if body[i] == "\\":
            if body[i + 1] == "x":
                out.append(chr(int(body[i + 2:i + 4], 16)))
                i += 4
                continue
            out.append(body[i + 1])
            i += 2
        else:
            out.append(body[i])
            i += 1
    return "".join(out)


def parse_literal(text):
    """ckernel's literal text as Python values: lists, ("struct", [(name, v)]), ("tuple",
    [v]), ("num", text), booleans."""
    toks, pos = [], 0
    while pos < len(text):
        mt = TOKEN.match(text, pos)
        if mt is None or mt.end() == pos:
            if text[pos:].strip() == "":
                break
            raise ValueError("bad literal at %d: %r" % (pos, text[pos:pos + 20]))
        toks.append((mt.lastgroup, mt.group(mt.lastgroup)))
        pos = mt.end()
    at = [0]

    def take(kind=None, val=None):
        k, v = toks[at[0]]
        if (kind and k != kind) or (val and v != val):
            raise ValueError("expected %s %s, found %r" % (kind, val, v))
        at[0] += 1
        return v

    def value():
        k, v = toks[at[0]]
        if v == "[":
            take()
            out = []
            while toks[at[0]][1] != "]":
                out.append(value())
                if toks[at[0]][1] == ",":
                    take()
            take(val="]")
            return out
        if v in ("{", "("):
            take()
            close, items = ("}" if v == "{" else ")"), []
            while toks[at[0]][1] != close:
                if v == "{":
                    nk, nv = toks[at[0]]
                    take()
                    name = unquote(nv) if nk == "quoted" else nv
                    take(val=":")
                    items.append((name, value()))
                else:
                    items.append(value())
                if toks[at[0]][1] == ",":
                    take()
            take(val=close)
            return ("struct" if v == "{" else "tuple", items)
        take()
        if k == "word":
            return {"true": True, "false": False}[v]
        return ("num", v)  # read by the field's type: "-0" is a float's -0.0

    out = value()
    if at[0] != len(toks):
        raise ValueError("trailing tokens")
    return out


def to_numpy_input(v, dt):
    """Parsed literal -> what np.array(..., dtype=dt) takes; struct names checked."""
    if isinstance(v, list):
        sub = dt.subdtype[0] if dt.subdtype is not None else dt
        return [to_numpy_input(x, sub) for x in v]
    if isinstance(v, tuple) and v[0] == "num":
        return {"i": int, "u": int, "f": float, "c": complex}[dt.kind](v[1])
    if isinstance(v, tuple) and v[0] in ("struct", "tuple"):
        kind, items = v
        if kind == "struct":
            if [n for n, _ in items] != list(dt.names):
                raise ValueError("names %r, dtype %r" % ([n for n, _ in items], dt.names))
            items = [x for _, x in items]
        return tuple(to_numpy_input(x, dt.fields[n][0]) for x, n in zip(items, dt.names))
    return v


def format_cases(lib, ck):
    for rec_name, sf, df in RECORDS:
        for al_name, _, da in ALIGNMENTS[:2]:
            ddt = record(df, da)
            arr = fill_records((6, 4), ddt, ddt, 5)[::-1, 1::2]  # a view: reversed, strided
            for as_tuple in (False, True):
                what = "ck_array_format of %s %s%s" % (rec_name, al_name,
                                                       " as a tuple" if as_tuple else "")
                live0 = ck.live()
                w = Wrapped(lib, ck, arr, as_tuple, what)
                text = nt.formatted(lib, lib.ck_array_format, w.a)
                w.free()
                try:
                    back = np.array(to_numpy_input(parse_literal(text), ddt), dtype=ddt)
                    compare_leaves(ck, back, arr, what)
                except (ValueError, TypeError, KeyError, IndexError) as e:
                    ck.check(False, "%s: %r does not read back: %s" % (what, text, e))
                ck.check(ck.live() == live0, what + ": ckernel allocations left live")
                ck.count("format")
    # Exact text, by hand.
    cases = [(np.array([(1, 2.5), (-3, 4.0)], dtype=[("x", "i4"), ("y", "f8")]), False,
              "[{x: 1, y: 2.5}, {x: -3, y: 4}]"),
             (np.array([(1, 2.5), (-3, 4.0)], dtype=[("x", "i4"), ("y", "f8")]), True,
              "[(1, 2.5), (-3, 4)]"),
             (np.array([(True, [0.5, -1.0, 2.0])], dtype=np.dtype(
                 [("a b", "?"), ("v", "f4", (3,))]))[::-1], False,
              "[{'a b': true, v: [0.5, -1, 2]}]"),
             (np.array(((7, 0.25), 300), dtype=record([("p", [("a", "i1"), ("b", "f2")]),
                                                       ("q", "u2")], False)), False,
              "{p: {a: 7, b: 0.25}, q: 300}")]
    for arr, as_tuple, want in cases:
        live0 = ck.live()
        w = Wrapped(lib, ck, arr, as_tuple, want)
        text = nt.formatted(lib, lib.ck_array_format, w.a)
        w.free()
        ck.check(text == want, "ck_array_format gave %r, expected %r" % (text, want))
        ck.check(ck.live() == live0, want + ": ckernel allocations left live")
        ck.count("format")


def main():
    if len(sys.argv) != 2:
        print("usage: numpy_struct_test.py PATH_TO_LIBCKERNEL_SO")
        return 2
    t0 = time.monotonic()
    lib = load(sys.argv[1])
    ck = nt.Checker(lib)
    numpy_is_positional(ck)
    scalar_pairs(lib, ck)
    layout_cases(lib, ck)
    tuple_cases(lib, ck)
    by_name_cases(lib, ck)
    refusals(lib, ck)
    parallel_cases(lib, ck)
    format_cases(lib, ck)
    ck.check(ck.live() == 0, "%d ckernel blocks still live at the end" % ck.live())
    print("ckernel %s, numpy %s, %s" % (lib.ck_version_string().decode(), np.__version__,
                                        sys.executable))
    print("cases run: %s" % ", ".join("%s %d" % kv for kv in sorted(ck.counts.items())))
    if ck.nan_payload_notes:
        print("note: %d fields matched only up to NaN payload bits" % ck.nan_payload_notes)
    print("%.1f s" % (time.monotonic() - t0))
    print("%d passed, %d failed" % (ck.passed, ck.failed))
    return 0 if ck.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
