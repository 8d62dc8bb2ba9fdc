"""The README of a course handout: what a student meets first, written for
the stages handed out (handout.py calls readme_text(); the reference
tree's own README.md is for its readers, not for students).

Standard library only.
"""

import re

# `make stage1 test` on a fresh clone of a stage 1 handout, packages
# present, no compiler cache: configuring, building common/ and stage 1 (28
# targets) and the stage's ctest tests took 159 s to the first progress
# table on the 2-core course machine at a load average of 11 to 13
# (2026-11-29).
FIRST_TABLE_MINUTES = 3


def _stage_word(unit):
    """"stage1" for "stage1" and "stage5" for "stage5_memory"."""
    return re.match(r"^stage\d+", unit).group(0)


def _chapter(unit, dirs, rooms):
    if unit in rooms:
        return rooms[unit].chapter
    return "docs/%s.md" % dirs[unit]


def _folder(unit, dirs, rooms):
    if unit in rooms:
        return rooms[unit].prefix.rstrip("/")
    return dirs[unit]


def readme_text(units, dirs, rooms, counts):
    """The handout's README.md. `units` are the stages or assignments
    handed out, in order; `dirs` maps "stage1" to its folder; `rooms` are
    handout.rooms_of(); `counts` maps a unit to (functions to write,
    exercise answers to write): handout.count_stubs()."""
    first = units[0]
    word = _stage_word(first)
    rows = []
    for unit in units:
        functions, exercises = counts.get(unit, (0, 0))
        written = "%d" % functions
        if exercises:
            written += ", and %d exercise answer%s" % (
                exercises, "s" if exercises > 1 else "")
        rows.append("| `%s` | `%s/` | %s | [%s](%s#your-task) |" % (
            unit, _folder(unit, dirs, rooms), written,
            _chapter(unit, dirs, rooms)[len("docs/"):],
            _chapter(unit, dirs, rooms)))
    stage_table = "\n".join(rows)
    return """\
# kvlab: the course handout

This is your copy of kvlab, a course on how an in-memory key-value store
gets fast and small, one stage at a time: a binary search tree, a B-tree,
tries, a compressed trie with a node pool and reader-writer locks, and the
Hyperion trie with its own memory manager. Every store serves one
interface (`common/include/kvlab/kv_store.h`) and passes one test suite.

In this copy, the heart of each assignment below is yours to write. The
functions are stubs: each throws, naming itself and the section of the
chapter that explains it, so the first failing test tells you where to read.

| assignment | folder | functions to write | chapter |
| --- | --- | --- | --- |
%(stage_table)s

Start with [docs/getting-started.md](docs/getting-started.md): the first
hour, step by step.

## The first command

```sh
make %(word)s test
```

On a Debian or Ubuntu machine it first installs the few packages the
stages need (the compiler, CMake, Ninja, Abseil, GoogleTest; `cmake/deps.sh
stage` names them), then builds the stage and runs its tests. The first
run takes about %(minutes)d minutes on a 2-core machine; later runs
rebuild only what you changed.

## Reading the progress table

The run ends with a table of the stage's test groups, in the order you
write the stage:

```
Progress of stage1_bst (stage1_bst/tests/groups.txt):
   1  empty                    0/3    FAILED  -> FindNode (src/tree_search.cc)
   2  one-key                  0/2    FAILED  -> BstStore::PutImpl
   ...
Next: FindNode (src/tree_search.cc) (group 1, empty); read docs/stage1_bst.md#2-search-and-insert
  its tests stop at the stub of FindNode
  run this group alone: build/debug/stage1_bst/stage1_test --gtest_filter='BstEmptyTest.*:FindNodeTest.*'
```

Each row is one group: how many of its tests pass, and the function to
write next. `Next:` names the first group that does not pass yet and the
section to read; the last line runs that group alone, which is quicker
while you work on it. A group marked `FAILED (crashed: SIGSEGV)` died in
your code (a null pointer, a failed assertion); the line under the table
quotes what the test printed before it died. When every group passes the
table ends with `All N groups pass.`

## Seeing your structure

```sh
make draw ARGS="--store=avl --op='put b 1' --op='put a 2' --op='put c 3' --out=draw-out"
```

draws the store after each operation; open `draw-out/index.html` to step
through the drawings ([docs/kvlab-draw.md](docs/kvlab-draw.md)). It builds
the whole kit, so it installs the rest of its packages the first time.

## Handing in

Your course says where to hand in (a git repository it gave you, or an
archive). What is graded is the assignment's folder, its `src/` and
`include/`: the grader puts them into a fresh copy of this kit, builds it,
runs each test group, the sanitizers, and a timed workload
([docs/grading.md](docs/grading.md)). Before you hand in, run
`make %(word)s test` once more: every group should pass.
""" % {"stage_table": stage_table, "word": word,
       "minutes": FIRST_TABLE_MINUTES}
