#!/usr/bin/env python3
"""Writes a course handout of kvlab: the whole tree with the heart of each
chosen stage replaced by stubs (docs/teaching.md).

Usage: handout.py OUT [--stages "stage2 stage4"] [--source ROOT] [--list]

A stage is handed out whole, or, if its folder has rooms (subfolders with
their own tests/groups.txt, as stage5_hyperion/memory/ and trie/), as one
assignment per room: stageN_<room> (stage5_memory, stage5_trie), whose
chapter is docs/<stage folder>_<room>.md or docs/stageN_<room>.md if there
is one, else the stage's docs/<stage folder>.md. "stage5" names all of the
stage's assignments; an assignment not handed out keeps its reference code.
A stage with rooms may keep code outside them (stage 4's ctrie in src/):
that code is the assignment named by the stage alone (stage4), which then
names it alone, as the grader's STAGE=stage4 does (stage4_wormhole is the
room; "stage4 stage4_wormhole" hands out both).
A subfolder without a groups.txt (stage5_hyperion/arenas/, given with the
trie) is no assignment: it is copied as it is.

OUT must not exist yet (or be an empty directory) and must lie outside the
source tree. Without --stages, every stage whose sources carry cut markers
is handed out. --list prints the functions each stage leaves to the
student and writes nothing.

What is copied: the files git tracks (their working-tree content) and new
files it does not ignore, or, outside a git checkout, every file but build
directories and results/. No object files and no history. Then, in the stages handed out:

  C++ sources. The statements between

      // handout: Class::Function -> #docs-anchor
      ...
      // handout: end

  become one call, kvlab::NotImplemented("Class::Function",
  "docs/<chapter>.md#docs-anchor", param, param); (kvlab/not_implemented.h),
  which throws and so fails the test that reaches it with a message naming
  the function and the section to read. The parameters are read from the
  function's signature above the marker. "-> other.md#anchor" names another
  chapter of docs/. Lines between "// handout: cut" and "// handout: end"
  (helpers and comments that would give the solution away) are dropped.

  With every stage, the files of ALWAYS_CUT (the durability chapter's
  exercises in common/), whose markers name that chapter.

  The chapters of what is handed out (docs/<stage>*.md). Lines between
  "<!-- handout:cut -->" and "<!-- handout:end -->" are dropped.

In stages not handed out, and everywhere in CMake files and the Makefile,
only the marker lines go ("# handout: cut" ... "# handout: end" regions of
build files are dropped in every handout: they register the tests that only
make sense in the reference tree). Every marker is checked: regions must
close, anchors must name a heading of their chapter.

Standard library only.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "docs", "tools"))
import check_docs  # noqa: E402  (anchors(): GitHub's heading ids)
import classroom  # noqa: E402  (the workflow a handout carries)
sys.path.insert(0, HERE)
import handout_readme  # noqa: E402

STAGE_DIR = re.compile(r"^(stage\d+)_\w+$")
CPP_SUFFIXES = (".cc", ".h", ".cpp", ".hpp")
BUILD_FILES = ("CMakeLists.txt", "Makefile")
INCLUDE = '#include "kvlab/not_implemented.h"'

# Whole-line markers. A stub marker names the function, the parameters the
# stub hands to NotImplemented, and the docs section.
CPP_STUB = re.compile(r"^(?P<indent>[ \t]*)// handout: "
                      r"(?P<function>[A-Za-z_~][\w:~<>]*) -> (?P<docs>\S+)\s*$")
CPP_CUT = re.compile(r"^\s*// handout: cut\s*$")
CPP_END = re.compile(r"^\s*// handout: end\s*$")
CPP_ANY = re.compile(r"^\s*// handout:")
MD_CUT = re.compile(r"^\s*<!-- handout: ?cut -->\s*$")
MD_END = re.compile(r"^\s*<!-- handout: ?end -->\s*$")
MD_ANY = re.compile(r"^\s*<!-- handout:")
HASH_CUT = re.compile(r"^\s*# handout: cut\s*$")
HASH_END = re.compile(r"^\s*# handout: end\s*$")
HASH_ANY = re.compile(r"^\s*# handout:")
LAST_IDENTIFIER = re.compile(r"([A-Za-z_]\w*)$")
# Instructor material a handout leaves out: the submission grader's broken
# copies of the reference (patches that quote it) and its sample private
# tests (docs/grading.md), the model answers of the exercises
# (docs/instructor/), and each stage's breaks for group_audit.py
# (tests/mutations.txt, which quote reference lines).
INSTRUCTOR_ONLY = ("benchmarks/grade/submission/tests/fixtures/",
                   "docs/instructor/")
INSTRUCTOR_ONLY_NAMES = ("tests/mutations.txt",)


def instructor_only(path):
    return path.startswith(INSTRUCTOR_ONLY) or \
        path.endswith(INSTRUCTOR_ONLY_NAMES)
# Code outside the stages whose stub markers every handout cuts, with the
# chapter its "-> #anchor" markers name: the durability chapter's exercises.
ALWAYS_CUT = {"common/src/durable/exercises.cc": "durability"}


class MarkerError(Exception):
    pass


class Stub:
    """One function left to the student."""

    def __init__(self, path, line, function, params, docs):
        self.path, self.line = path, line
        self.function, self.params, self.docs = function, params, docs


def tracked_files(root):
    """The files git tracks, and new ones it does not ignore (so a file not
    yet committed is handed out too); outside a git checkout, every file but
    build output and results/."""
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z", "--cached",
                              "--others", "--exclude-standard"],
                             check=True, capture_output=True).stdout
        return sorted({f for f in out.decode().split("\0") if f})
    except (OSError, subprocess.CalledProcessError):
        return sorted(check_docs.tracked_files(root))


def stage_of(path):
    """"stage1" for stage1_bst/... and docs/stage1_bst*.md, else None."""
    parts = path.split("/")
    m = STAGE_DIR.match(parts[0])
    if m:
        return m.group(1)
    if len(parts) == 2 and parts[0] == "docs" and parts[1].endswith(".md"):
        m = re.match(r"^(stage\d+)_", parts[1])
        if m:
            return m.group(1)
    return None


class Room:
    """One assignment of a stage handed out in parts: its files (under
    `prefix`) and its chapter."""

    def __init__(self, unit, prefix, chapter):
        self.unit, self.prefix, self.chapter = unit, prefix, chapter


def rooms_of(files):
    """{"stage5_memory": Room, ...}: the subfolders of stage folders that
    hold a tests/groups.txt of their own."""
    rooms = {}
    present = set(files)
    for f in files:
        parts = f.split("/")
        m = STAGE_DIR.match(parts[0])
        if m and len(parts) == 4 and parts[2:] == ["tests", "groups.txt"]:
            unit = "%s_%s" % (m.group(1), parts[1])
            # The room's own chapter: docs/<stage folder>_<room>.md or
            # docs/stageN_<room>.md (docs/stage4_wormhole.md).
            owns = ["docs/%s_%s.md" % (parts[0], parts[1]),
                    "docs/%s_%s.md" % (m.group(1), parts[1])]
            chapter = next((c for c in owns if c in present),
                           "docs/%s.md" % parts[0])
            rooms[unit] = Room(unit, "%s/%s/" % (parts[0], parts[1]), chapter)
    return rooms


def unit_of(path, rooms):
    """What `path` is handed out with: an assignment of `rooms` if it lies
    in one or is its chapter, else stage_of(path)."""
    for room in rooms.values():
        if path.startswith(room.prefix) or path == room.chapter:
            return room.unit
    return stage_of(path)


def stage_number(unit):
    return int(re.match(r"^stage(\d+)", unit).group(1))


def stage_dirs(files):
    """{"stage1": "stage1_bst", ...} for the stage folders present."""
    dirs = {}
    for f in files:
        m = STAGE_DIR.match(f.split("/")[0])
        if m and "/" in f:
            dirs[m.group(1)] = f.split("/")[0]
    return dirs


def split_top_level(text):
    """Splits a parameter list at the commas outside (), <>, [] and {}."""
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch in "(<[{":
            depth += 1
        elif ch in ")>]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    return [p for p in parts if p.strip()]


def parameter_names(lines, marker_index, function, where):
    """The names of the parameters of the function whose body the marker at
    lines[marker_index] opens, read from its signature above the marker.
    Unnamed parameters ("const Node*") are left out: they cannot be
    unused."""
    short = function.split("::")[-1]
    opener = re.compile(r"\b%s\s*\(" % re.escape(short))
    start = next((i for i in range(marker_index - 1,
                                   max(-1, marker_index - 12), -1)
                  if opener.search(lines[i])), None)
    if start is None:
        raise MarkerError("%s: no signature of %s above the marker" %
                          (where, short))
    text = " ".join(re.sub(r"//.*$", "", l) for l in
                    lines[start:marker_index])
    text = re.sub(r"/\*.*?\*/", "", text)
    begin = opener.search(text).end()
    depth, end = 1, begin
    while depth and end < len(text):
        depth += {"(": 1, ")": -1}.get(text[end], 0)
        end += 1
    if depth:
        raise MarkerError("%s: cannot read the parameters of %s" %
                          (where, short))
    names = []
    for param in split_top_level(text[begin:end - 1]):
        param = param.split("=", 1)[0].strip()
        param = re.sub(r"\[[^\]]*\]$", "", param).strip()
        m = LAST_IDENTIFIER.search(param)
        # Named if something type-like comes before the last identifier.
        if m and re.search(r"[\w*&>]$", param[:m.start()].strip()):
            names.append(m.group(1))
    return names


def resolve_docs(root, stage_dir, ref, anchor_cache, where):
    """docs/<file>.md#anchor for a marker's "-> #anchor" or
    "-> file.md#anchor"; checks that the heading exists."""
    name, sep, anchor = ref.partition("#")
    if not sep or not anchor:
        raise MarkerError("%s: the docs reference %r needs a #anchor" %
                          (where, ref))
    doc = "docs/" + (name if name else stage_dir + ".md")
    path = os.path.join(root, doc)
    if not os.path.isfile(path):
        raise MarkerError("%s: no chapter %s" % (where, doc))
    if anchor not in check_docs.anchors(path, anchor_cache):
        raise MarkerError("%s: no heading #%s in %s" % (where, anchor, doc))
    return "%s#%s" % (doc, anchor)


def stub_lines(indent, function, docs, params):
    """The call that replaces a function's statements, wrapped the way
    clang-format (Google style) wraps it when it exceeds 80 columns."""
    args = ['"%s"' % function, '"%s"' % docs] + params
    head = indent + "kvlab::NotImplemented("
    one = head + ", ".join(args) + ");"
    if len(one) <= 80:
        return [one]
    lines, current = [], head
    pad = " " * len(head)
    for i, arg in enumerate(args):
        piece = arg + (");" if i == len(args) - 1 else ",")
        if current not in (head, pad) and \
                len(current) + 1 + len(piece) > 80:
            lines.append(current)
            current = pad
        current += ("" if current in (head, pad) else " ") + piece
    lines.append(current)
    return lines


def process_cpp(text, path, cut, root, stage_dir, anchor_cache, stubs):
    """The file with its regions stubbed or dropped (cut=True), or with only
    the marker lines removed (cut=False)."""
    out = Lines()
    region = None  # (kind, start line, Stub or None)
    lines = text.split("\n")
    for number, line in enumerate(lines, 1):
        where = "%s:%d" % (path, number)
        if CPP_END.match(line):
            if region is None:
                raise MarkerError("%s: 'handout: end' without a start" % where)
            kind, _, stub = region
            if cut and kind == "stub":
                indent = CPP_STUB.match(stub.marker).group("indent")
                for stub_line in stub_lines(indent, stub.function, stub.docs,
                                            stub.params):
                    out.append(stub_line)
            elif cut:
                out.drop()
            region = None
            continue
        m = CPP_STUB.match(line)
        if m or CPP_CUT.match(line):
            if region is not None:
                raise MarkerError("%s: a handout region opens inside the one "
                                  "from line %d" % (where, region[1]))
            if m:
                params = parameter_names(lines, number - 1,
                                         m.group("function"), where)
                docs = resolve_docs(root, stage_dir, m.group("docs"),
                                    anchor_cache, where)
                stub = Stub(path, number, m.group("function"), params, docs)
                stub.marker = line
                if cut:
                    stubs.append(stub)
                region = ("stub", number, stub)
            else:
                region = ("cut", number, None)
            continue
        if CPP_ANY.match(line):
            raise MarkerError("%s: not a handout marker: %s" %
                              (where, line.strip()))
        if region is None or not cut:
            out.append(line)
    if region is not None:
        raise MarkerError("%s:%d: handout region never ends" %
                          (path, region[1]))
    return out.text()


def process_regions(text, path, cut, start, end, any_marker):
    """Markdown and build files: drops start...end regions (cut=True) or
    only the marker lines (cut=False)."""
    out = Lines()
    open_at = None
    for number, line in enumerate(text.split("\n"), 1):
        where = "%s:%d" % (path, number)
        if start.match(line):
            if open_at is not None:
                raise MarkerError("%s: a cut opens inside the one from line "
                                  "%d" % (where, open_at))
            open_at = number
            continue
        if end.match(line):
            if open_at is None:
                raise MarkerError("%s: 'handout: end' without a start" % where)
            open_at = None
            if cut:
                out.drop()
            continue
        if any_marker.match(line):
            raise MarkerError("%s: not a handout marker: %s" %
                              (where, line.strip()))
        if open_at is None or not cut:
            out.append(line)
    if open_at is not None:
        raise MarkerError("%s:%d: handout cut never ends" % (path, open_at))
    return out.text()


class Lines:
    """Output lines; a blank line right after a dropped region is skipped if
    the line before the region was blank too, so no gap doubles."""

    def __init__(self):
        self.lines = []
        self.after_drop = False

    def append(self, line):
        blank = not line.strip()
        if self.after_drop and blank and self.lines and \
                not self.lines[-1].strip():
            return
        self.after_drop = self.after_drop and blank
        self.lines.append(line)

    def drop(self):
        self.after_drop = True

    def text(self):
        return "\n".join(self.lines)


def add_include(text):
    """Adds the NotImplemented header after the file's last #include."""
    if INCLUDE in text:
        return text
    lines = text.split("\n")
    last = max(i for i, l in enumerate(lines) if l.startswith("#include"))
    insert = [INCLUDE]
    if lines[last].startswith("#include <"):
        insert = [""] + insert  # a block of its own after the system headers
    lines[last + 1:last + 1] = insert
    return "\n".join(lines)


def transform(root, path, text, stages_out, dirs, anchor_cache, stubs,
              rooms=None):
    """The handout's version of one text file (unchanged if no rule
    applies). `stages_out` are the units handed out (stages or
    assignments, rooms_of)."""
    rooms = rooms or {}
    if path in ALWAYS_CUT:
        count = len(stubs)
        new = process_cpp(text, path, True, root, ALWAYS_CUT[path],
                          anchor_cache, stubs)
        return add_include(new) if len(stubs) > count else new
    stage = stage_of(path)
    unit = unit_of(path, rooms)
    name = os.path.basename(path)
    cut = unit in stages_out
    if stage and path.endswith(CPP_SUFFIXES):
        count = len(stubs)
        # "-> #anchor" names a heading of the assignment's chapter.
        chapter = rooms[unit].chapter[len("docs/"):-len(".md")] \
            if unit in rooms else dirs.get(stage, "")
        new = process_cpp(text, path, cut, root, chapter, anchor_cache, stubs)
        return add_include(new) if len(stubs) > count else new
    if stage and path.endswith(".md"):
        return process_regions(text, path, cut, MD_CUT, MD_END, MD_ANY)
    if name in BUILD_FILES or name.endswith(".cmake"):
        return process_regions(text, path, True, HASH_CUT, HASH_END, HASH_ANY)
    return text


def clang_format(paths, out):
    """Formats the stubbed files with the tree's .clang-format, if
    clang-format is installed (the stubs compile either way)."""
    tool = shutil.which("clang-format")
    if tool and paths:
        subprocess.run([tool, "-i", "--style=file"] + paths, cwd=out,
                       check=True)


def write_stamp(root, out, stages):
    """OUT/.kvlab-kit: the kit commit the handout was made from (make collect
    checks every student's tree names the same one)."""
    try:
        commit = subprocess.run(["git", "-C", root, "rev-parse", "HEAD"],
                                check=True, capture_output=True,
                                text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    with open(os.path.join(out, ".kvlab-kit"), "w", encoding="utf-8") as fh:
        fh.write("commit: %s\nassignments: %s\n" % (commit, " ".join(stages)))


def is_exercise(stub):
    """Whether a stub is the answer to one of a chapter's exercises (its
    docs section is the chapter's exercises), not a function the stage's
    groups need."""
    return "exercises" in stub.docs.partition("#")[2]


def count_stubs(stubs, units, dirs, rooms):
    """{unit: (functions to write, exercise answers to write)}."""
    counts = {}
    for unit in units:
        where = rooms[unit].prefix if unit in rooms else dirs[unit] + "/"
        # A room lies inside its stage's folder: its stubs are its own.
        mine = [s for s in stubs if s.path.startswith(where) and
                unit_of(s.path, rooms) == unit]
        exercises = sum(1 for s in mine if is_exercise(s))
        counts[unit] = (len(mine) - exercises, exercises)
    return counts


def marked_stages(root, files, dirs=None):
    """The units (stages, or assignments of a stage with rooms) whose C++
    sources carry at least one stub marker, in stage order."""
    rooms = rooms_of(files)
    found = set()
    for f in files:
        unit = unit_of(f, rooms)
        if unit and f.endswith(CPP_SUFFIXES):
            with open(os.path.join(root, f), encoding="utf-8") as fh:
                if any(CPP_STUB.match(l) for l in fh):
                    found.add(unit)
    return sorted(found, key=lambda u: (stage_number(u), u))


def parse_stages(arg, available):
    """The units `arg` names: "stage2", "stage5_memory", or "stage5" (every
    assignment of stage 5); the folder name of a stage handed out whole
    ("stage2_btree") means its stage."""
    units = []
    for word in re.split(r"[\s,]+", arg.strip()):
        if not word:
            continue
        m = re.match(r"^(stage\d+)(_\w+)?$", word)
        if not m:
            raise MarkerError("not a stage: %r (say stage1 ... stage5, or "
                              "an assignment such as stage5_memory)" % word)
        if word in available:
            units.append(word)
            continue
        parts = [u for u in available if u == m.group(1) or
                 u.startswith(m.group(1) + "_")]
        if m.group(2) and parts != [m.group(1)] and parts:
            raise MarkerError("%s is handed out as %s: name one of them, or "
                              "%s for all" % (m.group(1), " and ".join(parts),
                                              m.group(1)))
        if not parts:
            raise MarkerError("%s has no cuts to hand out; stages with cuts: "
                              "%s" % (word, " ".join(available) or "none"))
        units.extend(parts)
    return sorted(set(units), key=lambda u: (stage_number(u), u))


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", nargs="?", help="the directory to write")
    parser.add_argument("--stages", default="",
                        help='stages to hand out, e.g. "stage2 stage4" '
                             "(default: every stage with cuts)")
    parser.add_argument("--source", default=os.path.join(HERE, "..", ".."),
                        help="the reference tree (default: this checkout)")
    parser.add_argument("--list", action="store_true",
                        help="print the functions left to the student")
    args = parser.parse_args(argv[1:])
    root = os.path.abspath(args.source)
    files = [f for f in tracked_files(root)
             if not instructor_only(f)]
    dirs = stage_dirs(files)
    rooms = rooms_of(files)
    try:
        available = marked_stages(root, files, dirs)
        stages = parse_stages(args.stages, available) if args.stages.strip() \
            else available
        if not stages:
            raise MarkerError("no stage of %s has cuts: nothing to hand out"
                              % root)
        if not args.list and not args.out:
            raise MarkerError("name the directory to write, e.g. "
                              "handout.py /tmp/handout")
        out = os.path.abspath(args.out) if args.out else None
        if out and (out == root or out.startswith(root + os.sep)):
            raise MarkerError("%s lies inside the reference tree; write the "
                              "handout elsewhere" % out)
        if out and os.path.exists(out) and (not os.path.isdir(out) or
                                            os.listdir(out)):
            raise MarkerError("%s exists and is not an empty directory" % out)

        anchor_cache, stubs, contents = {}, [], {}
        for f in files:
            src = os.path.join(root, f)
            if not os.path.isfile(src):
                continue  # deleted in the working tree
            with open(src, "rb") as fh:
                data = fh.read()
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                continue  # binary: copied as is
            new = transform(root, f, text, stages, dirs, anchor_cache, stubs,
                            rooms)
            if new != text:
                contents[f] = new
    except MarkerError as e:
        print("handout: %s" % e, file=sys.stderr)
        return 2

    counts = count_stubs(stubs, stages, dirs, rooms)
    if args.list:
        for unit in stages:
            where = rooms[unit].prefix.rstrip("/") if unit in rooms \
                else dirs[unit]
            print("%s (%s): %d functions, %d exercise answers" %
                  ((unit, where) + counts[unit]))
            for s in stubs:
                # The unit's own: a room's stubs lie under its stage's
                # folder too, but belong to the room's assignment.
                if s.path.startswith(where + "/") and \
                        unit_of(s.path, rooms) == unit:
                    print("  %-40s %s:%d  %s" %
                          (s.function, s.path, s.line, s.docs))
        extra = [s for s in stubs if s.path in ALWAYS_CUT]
        if extra:
            print("with every stage (%s):" % ", ".join(sorted(ALWAYS_CUT)))
            for s in extra:
                print("  %-40s %s:%d  %s" % (s.function, s.path, s.line,
                                            s.docs))
        return 0

    os.makedirs(out, exist_ok=True)
    for f in files:
        src = os.path.join(root, f)
        if not os.path.isfile(src):
            continue
        dst = os.path.join(out, f)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if f in contents:
            with open(dst, "w", encoding="utf-8") as fh:
                fh.write(contents[f])
            shutil.copymode(src, dst)
        else:
            shutil.copy2(src, dst)
    clang_format(sorted({s.path for s in stubs}), out)
    # The reference's README is for its readers; students get their own.
    with open(os.path.join(out, "README.md"), "w", encoding="utf-8") as fh:
        fh.write(handout_readme.readme_text(stages, dirs, rooms, counts))
    classroom.write_workflow(out, stages)
    write_stamp(root, out, stages)
    functions = sum(c[0] for c in counts.values())
    exercises = sum(c[1] for c in counts.values())
    print("handout: %s, stages %s: %d functions and %d exercise answers to "
          "write in %d files" % (out, " ".join(stages), functions, exercises,
                                 len({s.path for s in stubs})))
    print("next: cd %s && make %s test" % (out, re.match(r"stage\d+", stages[0]).group(0)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
