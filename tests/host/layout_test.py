"""tests/host/layout_test.py: the source layout keeps showing the architecture
(docs/design.md §1):
  (a) no folder under src/ holds more than MAX_FILES files (CMakeLists.txt counted);
  (b) the include graph between the folders of src/ has no cycle. A folder is the directory
      of a file (src/kinds/reduce, not src/kinds); A -> B when a file in A includes a header
      of B ("kinds/reduce/x.h": the project writes includes relative to src/; a header of
      the file's own folder may also be named alone). Headers found in neither place (the
      public ckernel/... ones, the generated *.dispatch.h and targets/cpu_compiled.h) are
      no edge. The includes of ALLOWED are left out of the graph: each an essential callback
      edge, with its reason; an entry that no longer occurs is an error too, so the list
      stays exact.
A cycle found is printed folder by folder, with the includes that make each of its edges.
The checks are first shown to catch a planted violation (a 21-file folder, a cycle).

    layout_test.py [SRC_DIR]    (default: the src/ of this checkout)
"""
import collections
import os
import re
import sys
import tempfile

MAX_FILES = 20

# (including file, included header), both relative to src/: the include edges that may
# close a cycle. None today: the leaves' makers never call back into the walks (a walk is
# handed a leaf maker as a function pointer, no include), and kinds/describe.c, which asks
# every leaf family to describe its leaves, sits above the kinds and leaves rather than in
# core, which they all include.
ALLOWED = {
}

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def folder_files(src):
    """{folder relative to src ('' for src itself): [file names]}, hidden files left out."""
    out = {}
    for d, dirs, files in os.walk(src):
        dirs[:] = sorted(x for x in dirs if not x.startswith("."))
        rel = os.path.relpath(d, src)
        out["" if rel == "." else rel] = sorted(f for f in files if not f.startswith("."))
    return out


def include_edges(src, folders):
    """{(A, B): [(file, header), ...]} for A != B, and the set of every (file, header)."""
    known = {os.path.join(d, f) for d, fs in folders.items() for f in fs}
    edges = collections.defaultdict(list)
    seen = set()
    for d, fs in folders.items():
        for f in fs:
            if not f.endswith((".c", ".h", ".cpp", ".hpp")):
                continue
            path = os.path.join(d, f)
            with open(os.path.join(src, path), encoding="utf-8", errors="replace") as fh:
                text = fh.read()
            for h in INCLUDE.findall(text):
                if h in known:
                    header = h
                elif os.path.normpath(os.path.join(d, h)) in known:
                    header = os.path.normpath(os.path.join(d, h))
                else:
                    continue
                seen.add((path, header))
                if (path, header) in ALLOWED:
                    continue
                b = os.path.dirname(header)
                if b != d:
                    edges[(d, b)].append((path, header))
    return edges, seen


def find_cycle(edges):
    """One cycle of the folder graph as a list of folders [A, B, ..., A], or None."""
    graph = collections.defaultdict(set)
    for a, b in edges:
        graph[a].add(b)
    state = {}  # 1: on the current path, 2: done
    path = []

    def visit(v):
        state[v] = 1
        path.append(v)
        for w in sorted(graph[v]):
            if state.get(w) == 1:
                return path[path.index(w):] + [w]
            if w not in state:
                found = visit(w)
                if found:
                    return found
        path.pop()
        state[v] = 2
        return None

    for v in sorted(graph):
        if v not in state:
            found = visit(v)
            if found:
                return found
    return None


def check(src, out):
    """The failures of src's layout, each a line; the report goes to out."""
    failures = []
    folders = folder_files(src)
    for d, fs in sorted(folders.items()):
        if len(fs) > MAX_FILES:
            failures.append("src/%s holds %d files (at most %d): %s"
                            % (d, len(fs), MAX_FILES, " ".join(fs)))
    edges, seen = include_edges(src, folders)
    for f, h in sorted(ALLOWED):
        if (f, h) not in seen:
            failures.append("ALLOWED names an include that no longer occurs: %s -> %s" % (f, h))
    cycle = find_cycle(edges)
    if cycle:
        failures.append("include cycle between folders: " + " -> ".join(cycle))
        for a, b in zip(cycle, cycle[1:]):
            for f, h in edges[(a, b)]:
                failures.append("    %s -> %s:  %s includes \"%s\"" % (a, b, f, h))
    busiest = max(folders.items(), key=lambda kv: len(kv[1]))
    print("%d folders, the largest src/%s (%d files); %d include edges between folders, "
          "%d allowed includes" % (len(folders), busiest[0], len(busiest[1]), len(edges),
                                   len(ALLOWED)), file=out)
    return failures


def plant(root, files):
    for path, text in files.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as fh:
            fh.write(text)


def self_test():
    """The checks catch what they are for: failures, one a line; [] when they do."""
    bad = []
    with open(os.devnull, "w") as null, tempfile.TemporaryDirectory() as tmp:
        plant(tmp, {"a/x.h": "", "a/x.c": '#include "a/x.h"\n#include "b/y.h"\n',
                    "b/y.h": "", "b/y.c": '#include "y.h"\n#include "c/z.h"\n',
                    "c/z.h": '#include "ckernel/types.h"\n'})
        if check(tmp, null):
            bad.append("a tree without a cycle is refused")
        plant(tmp, {"c/z.c": '#include "a/x.h"\n'})
        f = check(tmp, null)
        if not any("cycle" in x and "a -> b -> c -> a" in x for x in f):
            bad.append("the cycle a -> b -> c -> a is not found: %r" % f)
        if not any('c/z.c includes "a/x.h"' in x for x in f):
            bad.append("the cycle's includes are not listed: %r" % f)
    with open(os.devnull, "w") as null, tempfile.TemporaryDirectory() as tmp:
        plant(tmp, {"d/f%02d.c" % i: "" for i in range(MAX_FILES)})
        if check(tmp, null):
            bad.append("a folder of %d files is refused" % MAX_FILES)
        plant(tmp, {"d/CMakeLists.txt": ""})
        if not any("holds %d files" % (MAX_FILES + 1) in x for x in check(tmp, null)):
            bad.append("a folder of %d files is not refused" % (MAX_FILES + 1))
    return bad


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "src")
    src = os.path.abspath(src)
    failures = ["self-test: " + x for x in self_test()]
    failures += check(src, sys.stdout)
    for x in failures:
        print("FAILED: " + x if not x.startswith("    ") else x)
    print("layout of %s: %s" % (src, "FAILED" if failures else "passed"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
