#!/usr/bin/env python3
"""Checks that a course handout is what docs/teaching.md promises: it builds
under -Werror, and every test group of every stage handed out fails on its
stubs, each test naming a function to write.

Usage: handout_check.py [--stages "stage1 stage2"] [--jobs N] [--keep DIR]

Steps, each timed:
  1. benchmarks/tools/handout.py writes the handout into a temporary
     directory (or DIR with --keep, which is left in place);
  2. the handout holds no marker line, no chapter of it quotes a line of
     the code it cuts, and its docs' links resolve (docs/tools/check_docs.py);
  3. CMake configures it and builds only the stages' test binaries (and
     their exercises' where a stage has them, and the durability chapter's,
     which every handout cuts), with -Werror and without -O or -g (the
     fastest build that still compiles every line);
  4. benchmarks/tools/progress.py runs each binary and expects every group
     of the stage's tests/groups.txt to fail, and every exercise test.

That the same groups all pass on the reference tree is checked by
`progress.py run --lint --expect pass` on the reference binaries (ctest
tests handout_groups_stageN). Exit status 0 if every check holds.
Standard library only.
"""

import argparse
import os
import re
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

MARKER = re.compile(r"^\s*(//|#|<!--) ?handout:")


def step(title):
    print("handout_check: %s" % title, flush=True)
    return time.monotonic()


def done(start):
    print("  %.1f s" % (time.monotonic() - start), flush=True)


def run(cmd, **kwargs):
    proc = subprocess.run(cmd, text=True, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, **kwargs)
    if proc.returncode != 0:
        print(proc.stdout[-6000:])
        raise SystemExit("handout_check: failed (%d): %s" %
                         (proc.returncode, " ".join(cmd)))
    return proc.stdout


def cut_lines(stages):
    """{stage: set of the significant lines inside its cut regions}: lines
    long enough that finding one in a chapter means the chapter quotes the
    cut code."""
    files = handout.tracked_files(ROOT)
    rooms = handout.rooms_of(files)
    lines = {s: set() for s in stages}
    for f in files:
        stage = handout.unit_of(f, rooms)
        if stage not in stages or not f.endswith(handout.CPP_SUFFIXES):
            continue
        inside = False
        with open(os.path.join(ROOT, f), encoding="utf-8") as fh:
            for line in fh:
                if handout.CPP_END.match(line):
                    inside = False
                elif handout.CPP_STUB.match(line) or handout.CPP_CUT.match(line):
                    inside = True
                elif inside and len(line.strip()) >= 30 and \
                        not line.strip().startswith("//"):
                    lines[stage].add(line.strip())
    return lines


def test_binary(build, folder, unit):
    """The test binary whose groups.txt lies in `folder`: the first of the
    stage's test binaries (build/tests-<stage>.txt) built in that folder, as
    `make stageN test` picks it."""
    stage = re.match(r"^stage\d+", unit).group(0)
    with open(os.path.join(build, "tests-%s.txt" % stage)) as f:
        for line in f:
            path = line.strip()
            if os.path.dirname(path) == os.path.join(build, folder):
                return path
    raise SystemExit("handout_check: no test binary of %s in %s" %
                     (stage, folder))


def check_tree(out, stages):
    """Problems of the written handout: leftover markers, quoted cut code."""
    problems = []
    quoted = cut_lines(stages)
    for top, dirs, names in os.walk(out):
        dirs[:] = [d for d in dirs if d != "build"]
        for name in names:
            path = os.path.join(top, name)
            rel = os.path.relpath(path, out)
            if rel.startswith(os.path.join("benchmarks", "tools")) or \
                    rel == os.path.join("docs", "teaching.md"):
                continue  # the tools and the chapter that explain markers
            try:
                with open(path, encoding="utf-8") as fh:
                    text = fh.read()
            except UnicodeDecodeError:
                continue
            for number, line in enumerate(text.split("\n"), 1):
                if MARKER.match(line):
                    problems.append("%s:%d: a marker is left: %s" %
                                    (rel, number, line.strip()))
            if rel.endswith(".md"):
                for stage in stages:
                    for line in quoted[stage]:
                        if line in text:
                            problems.append("%s quotes code %s cuts: %s" %
                                            (rel, stage, line))
    return problems


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--stages", default="")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep", help="write the handout here and keep it")
    args = parser.parse_args(argv[1:])
    total = time.monotonic()

    tmp = None
    if args.keep:
        out = os.path.abspath(args.keep)
    else:
        tmp = tempfile.mkdtemp(prefix="kvlab-handout-")
        out = os.path.join(tmp, "handout")
    try:
        t = step("writing the handout to %s" % out)
        cmd = [sys.executable, os.path.join(HERE, "handout.py"), out]
        if args.stages:
            cmd += ["--stages", args.stages]
        print("  " + run(cmd).strip().split("\n")[0])
        files = handout.tracked_files(ROOT)
        available = handout.marked_stages(ROOT, files)
        stages = handout.parse_stages(args.stages, available) \
            if args.stages else available
        dirs = handout.stage_dirs(files)
        rooms = handout.rooms_of(files)
        # Each unit's folder: the stage's, or its assignment's room.
        folders = {s: rooms[s].prefix.rstrip("/") if s in rooms
                   else dirs[s] for s in stages}
        done(t)

        t = step("checking it for markers, quoted cut code and dead links")
        problems = check_tree(out, stages)
        for p in problems:
            print("  " + p)
        if problems:
            raise SystemExit("handout_check: %d problem(s)" % len(problems))
        run([sys.executable, os.path.join(out, "docs", "tools",
                                          "check_docs.py"), out])
        done(t)

        t = step("configuring (CMAKE_BUILD_TYPE=None: -Werror, no -O, no -g)")
        build = os.path.join(out, "build", "check")
        run(["cmake", "-S", out, "-B", build, "-G", "Ninja",
             "-DCMAKE_BUILD_TYPE=None"])
        done(t)

        exercises = [s for s in stages if os.path.exists(os.path.join(
            ROOT, folders[s], "tests", "exercises_test.cc"))]
        # The durability chapter's exercises, cut in every handout.
        if os.path.exists(os.path.join(ROOT, "common", "tests", "durable",
                                       "exercises_test.cc")):
            exercises.append("durability")
            folders["durability"] = "common"
        binaries = {s: test_binary(build, folders[s], s) for s in stages}
        targets = sorted({os.path.basename(b) for b in binaries.values()}) + \
            ["%s_exercises" % s for s in exercises]
        t = step("building %s (-j%d)" % (" ".join(targets), args.jobs))
        run(["cmake", "--build", build, "-j", str(args.jobs), "--target"] +
            targets)
        done(t)

        failures = 0
        for stage in stages:
            t = step("running %s on its stubs: every group must fail" % stage)
            groups_file = os.path.join(out, folders[stage], "tests",
                                       "groups.txt")
            binary = binaries[stage]
            groups = progress.load_groups(groups_file)
            results, errors = progress.run_binary(binary, groups, timeout=600)
            outcomes = progress.summarize(groups, results, errors)
            for o in outcomes:
                state = "passes" if o.ok else "fails"
                names = ", ".join(o.stubs[:3]) or (o.error or "no stub named")
                print("  %-22s %s (%d/%d), stops at %s" %
                      (o.group.name, state, o.passed, o.passed + o.failed,
                       names))
                if o.ok or not o.ran:
                    failures += 1
                    print("  ^ expected to fail on the stubs")
                elif not o.stubs:
                    failures += 1
                    print("  ^ no failing test names a stub")
            done(t)
        for stage in exercises:
            t = step("running %s's exercises on their stubs: every test must "
                     "fail" % stage)
            binary = os.path.join(build, folders[stage],
                                  "%s_exercises" % stage)
            every = [progress.Group(1, "exercises", "*", "", "")]
            results, errors = progress.run_binary(binary, every, timeout=600)
            (o,) = progress.summarize(every, results, errors)
            print("  %d of %d fail, stopping at %s" %
                  (o.failed, o.passed + o.failed, ", ".join(o.stubs)))
            if o.passed or not o.failed or o.error:
                failures += 1
                print("  ^ expected every exercise test to fail")
            done(t)
        if failures:
            raise SystemExit("handout_check: %d group(s) wrong" % failures)
        print("handout_check: ok, %d stage(s), %.0f s in all" %
              (len(stages), time.monotonic() - total))
        return 0
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
