#!/usr/bin/env python3
"""Breaks each function a stage leaves to the student, one at a time, and
shows which test groups catch it: every group that names a function in
tests/groups.txt must fail when that function returns a wrong answer, not
only when the structure's shape is wrong (docs/teaching.md).

Usage: group_audit.py STAGE [--jobs N] [--timeout S] [--keep DIR]
                      [--only FUNCTION[,FUNCTION...]] [--named-only]

STAGE is a stage or an assignment (stage1, stage5_memory). The breaks are in
the stage's tests/mutations.txt, one a line:

    function | what is wrong | file (under the stage's folder) | text |
    replacement

Blank lines and lines starting with # are comments. `text` must occur
exactly once in the file; "\\n" in either column is a line break; no column
can hold " | ", the separator. Each break is a plausible wrong answer (an
off-by-one rank, the wrong pair deleted, a key not found), one the compiler
accepts.

Steps: the tree is copied to a temporary directory (or DIR with --keep);
CMake configures it without -O or -g (CMAKE_BUILD_TYPE=None; only the
test binary is built). The test binary is the first one CMake places in the assignment's
own folder (in the list build/tests-stageN.txt of kvlab_add_test). It is
built and run unbroken first: every group must pass, else exit status 2.
Then for each break: the file is changed, the binary rebuilt, every group
run (KVLAB_TEST_SCALE=0.25, a run that hangs stops at --timeout; with
--named-only only the groups that name the function), the file restored.
The table says which groups failed and whether one that names the
function did, with the first tests that failed there, so that a new
test's catch shows. Exit status 1 if a break got past every group naming its
function, 2 on a broken mutations file or a failing reference.

Standard library only.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
import handout  # noqa: E402
import progress  # noqa: E402


class Break:
    def __init__(self, number, function, what, path, text, replacement):
        self.number, self.function, self.what = number, function, what
        self.path, self.text, self.replacement = path, text, replacement


def load_breaks(path):
    """The breaks of a mutations.txt, in order."""
    breaks = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            fields = [x.strip() for x in line.split(" | ")]
            if len(fields) != 5 or not all(fields[:4]):
                raise ValueError("%s:%d: want 'function | what is wrong | "
                                 "file | text | replacement'" %
                                 (path, number))
            text, replacement = (x.replace("\\n", "\n") for x in fields[3:])
            breaks.append(Break(number, fields[0], fields[1], fields[2],
                                text, replacement))
    return breaks


def names_function(group, function):
    """Whether the group's next-function column names `function` (by its
    whole name or its last part, "DeleteNth" for "AvlStore::DeleteNth")."""
    words = [w.strip(" ,;:()") for w in group.next_functions.split()]
    short = function.split("::")[-1]
    return function in words or (short in words and "::" not in short and
                                 not any("::" + short in w for w in words
                                         if w != function))


def run(cmd, **kwargs):
    proc = subprocess.run(cmd, text=True, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, **kwargs)
    return proc.returncode, proc.stdout


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("stage")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=int, default=120)
    parser.add_argument("--keep", help="copy the tree here and keep it")
    parser.add_argument("--only", help="only the breaks of these functions "
                        "(comma-separated)")
    parser.add_argument("--named-only", action="store_true",
                        help="run only the groups that name the broken "
                        "function (the verdict is the same, the table "
                        "shows fewer failing groups; faster)")
    args = parser.parse_args(argv[1:])

    files = handout.tracked_files(ROOT)
    dirs = handout.stage_dirs(files)
    rooms = handout.rooms_of(files)
    if args.stage in rooms:
        folder = rooms[args.stage].prefix.rstrip("/")
    elif args.stage in dirs:
        folder = dirs[args.stage]
    else:
        print("group_audit: no stage %s" % args.stage, file=sys.stderr)
        return 2
    try:
        breaks = load_breaks(os.path.join(ROOT, folder, "tests",
                                          "mutations.txt"))
        groups = progress.load_groups(os.path.join(ROOT, folder, "tests",
                                                   "groups.txt"))
    except (OSError, ValueError, progress.GroupsError) as e:
        print("group_audit: %s" % e, file=sys.stderr)
        return 2
    all_breaks = breaks
    if args.only:
        only = args.only.split(",")
        breaks = [b for b in breaks if b.function in only]

    tmp = None
    if args.keep:
        tree = os.path.abspath(args.keep)
    else:
        tmp = tempfile.mkdtemp(prefix="kvlab-audit-")
        tree = os.path.join(tmp, "tree")
    try:
        for f in files:
            copy_if_changed(os.path.join(ROOT, f), os.path.join(tree, f))
        # A kept tree's objects may hold a break of an earlier run whose
        # file was restored with an older timestamp: every file a break
        # touches is compiled again.
        for b in all_breaks:
            os.utime(os.path.join(tree, folder, b.path))
        build = os.path.join(tree, "build", "audit")
        status, out = run(["cmake", "-S", tree, "-B", build, "-G", "Ninja",
                           "-DCMAKE_BUILD_TYPE=None",
                           # AUTO, the default: stage 3's ect room needs
                           # the benchmark layer's libraries; only the test
                           # binary is built either way.
                           "-DKVLAB_BENCHMARKS=AUTO"])
        if status:
            print(out[-4000:])
            return 2
        binary = test_binary(build, args.stage, folder)
        if binary is None:
            print("group_audit: no test binary of %s in %s" %
                  (args.stage, os.path.join(build, folder)), file=sys.stderr)
            return 2
        target = os.path.basename(binary)
        env = dict(os.environ, KVLAB_TEST_SCALE="0.25")
        # The reference first: a group that fails unbroken (or a --timeout
        # too short for it) would make every break look caught.
        start = time.monotonic()
        status, out = run(["cmake", "--build", build, "-j", str(args.jobs),
                           "--target", target])
        if status:
            print(out[-3000:])
            return 2
        built = time.monotonic()
        results, errors = run_groups(binary, groups, env, args.timeout)
        failing = [o.group.name for o in
                   progress.summarize(groups, results, errors) if not o.ok]
        if failing:
            print("group_audit: the reference fails %s: %s" % (
                ", ".join(failing), "; ".join(
                    "%s (%s)" % (g, catchers(groups, g, results, errors))
                    for g in failing)), file=sys.stderr)
            return 2
        print("group_audit: the reference passes every group (built in "
              "%.0f s, ran in %.0f s)" % (built - start,
                                         time.monotonic() - built))
        missed = 0
        print("%-26s %-44s %s" % ("function", "break", "groups failing"))
        for b in breaks:
            path = os.path.join(tree, folder, b.path)
            with open(path, encoding="utf-8") as f:
                original = f.read()
            if original.count(b.text) != 1:
                print("group_audit: mutations.txt:%d: the text occurs %d "
                      "times in %s" % (b.number, original.count(b.text),
                                       b.path), file=sys.stderr)
                return 2
            start = time.monotonic()
            with open(path, "w", encoding="utf-8") as f:
                f.write(original.replace(b.text, b.replacement))
            try:
                status, out = run(["cmake", "--build", build, "-j",
                                   str(args.jobs), "--target", target])
                if status:
                    print(out[-3000:])
                    print("group_audit: mutations.txt:%d does not compile" %
                          b.number, file=sys.stderr)
                    return 2
                named = [g for g in groups if names_function(g, b.function)]
                run_here = named if args.named_only else groups
                results, errors = run_groups(binary, run_here, env,
                                             args.timeout)
            finally:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(original)
            outcomes = progress.summarize(run_here, results, errors)
            failing = [o.group.name for o in outcomes if not o.ok]
            named = [g.name for g in named]
            caught = [g for g in failing if g in named]
            if not caught:
                missed += 1
            verdict = ("caught by %s" % ", ".join(
                "%s (%s)" % (g, catchers(groups, g, results, errors))
                for g in caught) if caught else
                       "MISSED by %s" % (", ".join(named) or
                                         "(no group names it)"))
            print("%-26s %-44s %s; %s (%.0f s)" % (
                b.function, b.what, ", ".join(failing) or "none",
                verdict, time.monotonic() - start), flush=True)
        print("group_audit: %d of %d breaks caught by a group naming the "
              "function" % (len(breaks) - missed, len(breaks)))
        return 1 if missed else 0
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


def copy_if_changed(src, dst):
    """Copies `src` to `dst` unless it holds the same bytes already. The
    copy gets a new timestamp, so that a tree kept with --keep rebuilds what
    changed but nothing else."""
    if not os.path.isfile(src):
        return
    with open(src, "rb") as f:
        data = f.read()
    if os.path.isfile(dst):
        with open(dst, "rb") as f:
            if f.read() == data:
                return
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    with open(dst, "wb") as f:
        f.write(data)
    shutil.copymode(src, dst)


def run_groups(binary, groups, env, timeout):
    """progress.run_binary with `env` added to the environment."""
    if not groups:
        return {}, {}
    old_env = os.environ.copy()
    os.environ.update(env)
    try:
        return progress.run_binary(binary, groups, timeout)
    finally:
        os.environ.clear()
        os.environ.update(old_env)


def catchers(groups, name, results, errors):
    """What in group `name` failed: its first three failing tests, "+N"
    more if there are, or why its run stopped (a crash, a timeout)."""
    if errors.get(name):
        return errors[name]
    group = next(g for g in groups if g.name == name)
    failed = sorted(t for t, r in results.items()
                    if r.status == progress.FAILED and
                    progress.matches(group.filter, t))
    if not failed:
        return "no test failed"
    return ", ".join(failed[:3]) + (" +%d" % (len(failed) - 3)
                                    if len(failed) > 3 else "")


def test_binary(build, unit, folder):
    """The test binary of a stage or assignment: the first one that CMake's
    list of the stage's tests (build/tests-stageN.txt, kvlab_add_test)
    places directly in the assignment's folder, as `make stageN test` finds
    it (stage3_test, ect_test, stage4_wormhole_test, stage5_memory_test);
    None if there is none."""
    stage = handout.re.match(r"^stage\d+", unit).group(0)
    want = os.path.realpath(os.path.join(build, folder))
    try:
        with open(os.path.join(build, "tests-%s.txt" % stage),
                  encoding="utf-8") as f:
            paths = [line.strip() for line in f if line.strip()]
    except OSError:
        return None
    for path in paths:
        if os.path.realpath(os.path.dirname(path)) == want:
            return path
    return None


if __name__ == "__main__":
    sys.exit(main(sys.argv))
