#!/usr/bin/env python3
"""Grades a student's kvlab tree for one stage (docs/grading.md).

    make grade SUBMISSION=dir STAGE=stageN [PRIVATE_TESTS=dir] [N=...]
    grade_submission.py --submission DIR --stage stageN [flags]

The submission is a kvlab tree (a handout with the student's code). The
grade builds the instructor's kit (this checkout) with the submission's
stageN_*/src and stageN_*/include put in, everything else, tests included,
from the kit. A stage folder's rooms (subfolders with a tests/groups.txt of
their own) are assignments of their own: stage4_wormhole takes only
stage4_compressed_trie/wormhole's src and include, and stage4 only the
stage folder's own (the compressed trie), since that folder has a
tests/groups.txt too; stage 5, rooms only, is stage5_memory, stage5_trie,
or stage5 for both (grading/source_tree.py). Then, each in its own
processes under a time and a memory limit:

  build          Release, and every sanitizer build the rubric asks for
  test groups    the assignment's tests/groups.txt, one process per group
                 over the test binaries built in its folders
  sanitizers     the groups that pass, rerun under ASan+UBSan (and TSan
                 where the rubric has tsan_clean): clean or not
  private tests  PRIVATE_TESTS=dir: the instructor's extra gtest files,
                 compiled against the submission
  workload       kvgrade on the assignment's store at N pairs (default
                 1,000,000): load, checked phase, timed threads, memory;
                 where the rubric judges a metric relative to the kit's
                 reference store (x>=, x<=), the reference's kvgrade runs
                 beside the submission's in each of --rounds rounds,
                 first in odd rounds and second in even ones, and each
                 metric scores the median of the rounds' ratios

Every one of those processes runs in a sandbox (grading/sandbox.py,
bubblewrap): no network, only the files its step needs, limits on time,
CPU, memory, processes, file size and disk. Where no sandbox can start the
grader refuses, unless --unsandboxed says to run without one.

Points come from benchmarks/rubric.txt: the stage's lines, where an
assignment has lines of its own (stage4_wormhole) those for their metrics.
Prints a table and a
<<< BEGIN GRADE ... >>> END GRADE block, and writes the JSON. Exit status:
0 when the submission was graded, whatever its score; 2 when it could not
be (a usage error, a missing folder, a bad rubric or groups file, no
sandbox).
"""

import argparse
import contextlib
import dataclasses
import fcntl
import os
import shutil
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from grading import groups as groups_mod  # noqa: E402
from grading import machine, parts, relative, report, rubric  # noqa: E402
from grading import source_tree  # noqa: E402
from grading import sandbox as sandbox_mod  # noqa: E402

KIT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
# The store each assignment's workload runs on (the Makefile's
# STAGE_STORE_*): an assignment without its own entry (stage5_memory) runs
# its stage's.
STAGE_STORES = {"stage1": "avl", "stage2": "btree", "stage3": "trie_bst",
                "stage3_ect": "ect", "stage4": "ctrie",
                "stage4_wormhole": "wormhole", "stage5": "hyperion"}
DEFAULT_N = 1_000_000
DEFAULT_THREADS = 4
DEFAULT_SECONDS = 5.0
# Beside the reference: each of the 2 x rounds runs is shorter, so that the
# workload takes about three times its single run's time, not ten. Five
# rounds, so that the median of the per-round ratios outvotes two rounds
# that a burst of load hit on one side (docs/experiments/grading.md).
DEFAULT_ROUNDS = 5
DEFAULT_RELATIVE_SECONDS = 2.0
SEED = 42
DEFAULT_DISK_MIB = 1024
DEFAULT_MAX_PROCESSES = 512


def store_for(assignment, stage):
    """The workload's store of an assignment of `stage`; None if neither
    has one."""
    return STAGE_STORES.get(assignment) or STAGE_STORES.get(stage)


def parse_args(argv):
    limits = parts.Limits()
    p = argparse.ArgumentParser(
        description="Grades a student's kvlab tree for one stage.",
        epilog="docs/grading.md explains every part and the rubric.")
    p.add_argument("--submission", required=True,
                   help="the student's kvlab tree")
    p.add_argument("--stage", required=True, help="stage1 ... stage5, or an "
                   "assignment in a room of a stage: stage4_wormhole (stage4: "
                   "the compressed trie alone), stage5_memory, stage5_trie "
                   "(stage5: both)")
    p.add_argument("--name", help="the submission's name in the report "
                   "(default: the folder's name)")
    p.add_argument("--kit", default=KIT, help="the instructor's kvlab "
                   "checkout (default: the one holding this script)")
    p.add_argument("--work", help="where trees, builds and logs go (default: "
                   "KIT/build/grade/STAGE; kept between grades so that a "
                   "class builds the kit once)")
    p.add_argument("--json", help="also write the grade's JSON here")
    p.add_argument("--private-tests", help="a folder of extra GoogleTest .cc "
                   "files compiled against the submission")
    p.add_argument("--rubric", help="default: KIT/benchmarks/rubric.txt")
    p.add_argument("--groups", help="the test groups (default: the kit's "
                   "STAGE_*/tests/groups.txt, or the room's "
                   "STAGE_*/ROOM/tests/groups.txt, else one group per "
                   "binary)")
    p.add_argument("--store", help="the workload's store (default: the "
                   "assignment's: " + ", ".join(f"{k} {v}" for k, v in
                                            STAGE_STORES.items()) + ")")
    p.add_argument("--n", type=int, default=DEFAULT_N,
                   help=f"workload pairs (default {DEFAULT_N:,})")
    p.add_argument("--threads", type=int, default=DEFAULT_THREADS)
    p.add_argument("--seconds", type=float, default=None,
                   help="the timed phase's length of one run (default "
                   f"{DEFAULT_SECONDS:g}, or {DEFAULT_RELATIVE_SECONDS:g} "
                   "when the rubric compares with the reference)")
    p.add_argument("--rounds", type=int, default=DEFAULT_ROUNDS,
                   help="workload rounds, each running the submission "
                   "and the kit's reference store, when the rubric has x>= "
                   f"or x<= lines (default {DEFAULT_ROUNDS})")
    p.add_argument("--test-scale", type=float, default=1.0,
                   help="run the stage's tests at this fraction of their "
                   "sizes (KVLAB_TEST_SCALE; default 1, the full sizes). "
                   "For the grader's own fixture tests: a grade given to a "
                   "student keeps the default")
    p.add_argument("--jobs", type=int, default=limits.jobs)
    p.add_argument("--build-timeout", type=float,
                   default=limits.build_timeout)
    p.add_argument("--group-timeout", type=float,
                   default=limits.group_timeout,
                   help="seconds for one test group in Release")
    p.add_argument("--sanitizer-timeout", type=float,
                   default=limits.sanitizer_timeout,
                   help="seconds for one group under a sanitizer")
    p.add_argument("--workload-timeout", type=float,
                   default=limits.workload_timeout)
    p.add_argument("--memory-mib", type=int, default=limits.memory_mib,
                   help="address space of a test process")
    p.add_argument("--sanitizer-memory-mib", type=int,
                   default=limits.sanitizer_memory_mib,
                   help="resident memory of a sanitized test process")
    p.add_argument("--workload-memory-mib", type=int,
                   default=limits.workload_memory_mib)
    p.add_argument("--disk-mib", type=int, default=DEFAULT_DISK_MIB,
                   help="the sandbox's /tmp, a test's only writable place "
                   f"(default {DEFAULT_DISK_MIB})")
    p.add_argument("--max-processes", type=int,
                   default=DEFAULT_MAX_PROCESSES,
                   help="processes and threads at once in one sandboxed "
                   f"run (default {DEFAULT_MAX_PROCESSES})")
    p.add_argument("--private-report", choices=("count", "names"),
                   default="count", help="what the report says of failed "
                   "private tests: how many (default), or also their names")
    p.add_argument("--unsandboxed", action="store_true",
                   help="run the submission's code with no sandbox, with "
                   "the grader's rights, where none can start: only for "
                   "code you trust")
    p.add_argument("--quiet", action="store_true",
                   help="no progress lines on stderr")
    args = p.parse_args(argv)
    if args.n <= 0 or args.threads <= 0 or (args.seconds is not None and
                                            args.seconds <= 0):
        p.error("--n, --threads and --seconds must be positive")
    if args.rounds <= 0:
        p.error("--rounds must be positive")
    if not 0 < args.test_scale <= 1:
        p.error("--test-scale must be in (0, 1]")
    if args.disk_mib <= 0 or args.max_processes <= 0:
        p.error("--disk-mib and --max-processes must be positive")
    return args


@contextlib.contextmanager
def locked(work):
    """One grade at a time in a work folder (they share its builds)."""
    with open(os.path.join(work, ".lock"), "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"grade: waiting for the grade running in {work}",
                  file=sys.stderr)
            fcntl.flock(lock, fcntl.LOCK_EX)
        yield


class Grader:
    def __init__(self, args, sandbox=None):
        self.args = args
        # None: the submission's code runs unconfined (--unsandboxed).
        self.sandbox = sandbox
        self.kit = os.path.abspath(args.kit)
        self.submission = os.path.abspath(args.submission)
        if not os.path.isdir(self.submission):
            raise source_tree.TreeError(f"{args.submission} is not a folder")
        # A stage, or an assignment in a room of one (stage4_wormhole):
        # only its folders' sources are the submission's, only the test
        # binaries built there run, with its groups, rubric lines (its
        # stage's where it has none of its own) and store.
        self.assignment = args.stage
        self.unit = source_tree.resolve_stage(self.kit, args.stage)
        self.stage, self.stage_dir = self.unit.stage, self.unit.stage_dir
        self.student_dirs = list(self.unit.folders)
        groups_paths = list(self.unit.groups)
        self.rubric_path = os.path.abspath(
            args.rubric or os.path.join(self.kit, "benchmarks", "rubric.txt"))
        all_rules = rubric.read_rubric(self.rubric_path)
        if not rubric.knows(all_rules, self.assignment):
            raise rubric.RubricError(
                f"{self.rubric_path} has no rules for {self.assignment} (it "
                f"has {', '.join(rubric.stages_of(all_rules))})")
        self.rules = rubric.rules_for(all_rules, self.assignment)
        self.store = args.store or store_for(self.assignment, self.stage)
        if not self.store:
            raise source_tree.TreeError(f"name the workload's store for "
                                        f"{self.assignment} with --store")
        self.plan, files, self.notes = source_tree.plan_tree(
            self.kit, self.submission, self.student_dirs)
        self.notes += source_tree.sibling_changes(self.kit, self.submission,
                                                  self.unit)
        self.sha256 = source_tree.submission_hash(self.submission, files)
        self.name = args.name or os.path.basename(
            os.path.normpath(self.submission))
        self.private = None
        if args.private_tests:
            self.private = os.path.abspath(args.private_tests)
            if not os.path.isdir(self.private) or not any(
                    f.endswith(".cc") for f in os.listdir(self.private)):
                raise source_tree.TreeError(
                    f"{args.private_tests} is not a folder of .cc files")
            # Private tests kept in the kit's checkout stay out of the tree
            # the submission is built in (and so out of its sight).
            self.plan = source_tree.without(self.plan, self.kit, self.private)
        # The kit's groups (the tree's are the same file); None: one group
        # per test binary, known once the Release build has listed them.
        if args.groups:
            groups_paths = [args.groups]
        groups_paths = [p for p in groups_paths if os.path.exists(p)]
        self.groups = None
        if groups_paths:
            self.groups = [g for p in groups_paths
                           for g in groups_mod.read_groups(p)]
            names = [g.name for g in self.groups]
            twice = sorted({n for n in names if names.count(n) > 1})
            if twice:
                raise groups_mod.GroupsError(
                    f"{', '.join(groups_paths)}: groups named twice: "
                    f"{', '.join(twice)}")
        self.limits = parts.Limits(
            build_timeout=args.build_timeout, group_timeout=args.group_timeout,
            sanitizer_timeout=args.sanitizer_timeout,
            workload_timeout=args.workload_timeout,
            memory_mib=args.memory_mib,
            sanitizer_memory_mib=args.sanitizer_memory_mib,
            workload_memory_mib=args.workload_memory_mib, jobs=args.jobs)
        # One work folder per stage: its assignments share the builds.
        self.work = os.path.abspath(args.work or os.path.join(
            self.kit, "build", "grade", self.stage))
        self.tree = os.path.join(self.work, "tree")
        # The kit's own sources, built once per work folder and kept, so
        # that a class's grades share them: the reference whose workload
        # runs beside each submission's.
        self.relative = any(r.relative for r in self.rules)
        self.seconds = args.seconds or (DEFAULT_RELATIVE_SECONDS
                                        if self.relative else DEFAULT_SECONDS)
        self.ref_tree = os.path.join(self.work, "reference", "tree")
        self.ref_plan = None
        if self.relative:
            self.ref_plan = source_tree.plan_tree(
                self.kit, self.kit, self.student_dirs)[0]
            if self.private:
                self.ref_plan = source_tree.without(self.ref_plan, self.kit,
                                                    self.private)
        safe = "".join(c if c.isalnum() or c in "-_." else "_"
                       for c in self.name)
        self.logs = os.path.join(self.work, "logs",
                                 f"{safe}-{self.sha256[:12]}")
        # The tests run at full size whatever the instructor's shell says,
        # unless --test-scale says otherwise.
        self.env = {k: v for k, v in os.environ.items()
                    if k not in ("KVLAB_TEST_SCALE", "ASAN_OPTIONS",
                                 "UBSAN_OPTIONS", "TSAN_OPTIONS",
                                 "LSAN_OPTIONS", "KVLAB_RUBRIC")}
        if args.test_scale != 1:
            self.env["KVLAB_TEST_SCALE"] = f"{args.test_scale:g}"
            self.notes.append(f"the tests ran at {args.test_scale:g} of "
                              "their sizes (--test-scale): not a grade to "
                              "give")
        self.notes.append("sandbox: " + (
            sandbox.describe() if sandbox else sandbox_mod.Sandbox(
                enabled=False).describe()))

    def say(self, text):
        if not self.args.quiet:
            print(f"grade: {text}", file=sys.stderr, flush=True)

    # What each step's processes see, sandboxed (grading/sandbox.py).

    def cache_dirs(self):
        """The compiler cache the builds use, if any (CCACHE_DIR with a
        ccache launcher): compilers write it, nothing the submission runs
        sees it."""
        launcher = " ".join(self.env.get(k, "") for k in (
            "CMAKE_CXX_COMPILER_LAUNCHER", "CMAKE_C_COMPILER_LAUNCHER"))
        cache = self.env.get("CCACHE_DIR", "")
        if "ccache" in launcher and cache and os.path.isdir(cache):
            return (cache,)
        return ()

    def build_view(self, directory, private=False):
        """A build: the tree (and the private tests' sources, while CMake
        configures and they compile) read-only, its build directory
        writable."""
        os.makedirs(directory, exist_ok=True)
        private = (self.private,) if private and self.private else ()
        return sandbox_mod.View(readable=(self.tree, *private),
                                writable=(directory, *self.cache_dirs()))

    def reference_build_view(self, directory):
        """The reference's build: its tree read-only, its build directory
        writable."""
        os.makedirs(directory, exist_ok=True)
        return sandbox_mod.View(readable=(self.ref_tree,),
                                writable=(directory, *self.cache_dirs()))

    def run_view(self, directory, private_binary=False):
        """A run: the tree and the build read-only, the private tests'
        binary and objects masked except in their own run."""
        benchmarks = os.path.join(directory, "benchmarks")
        hidden = () if private_binary else (
            os.path.join(benchmarks, "private_test"),
            os.path.join(benchmarks, "CMakeFiles", "private_test.dir"))
        return sandbox_mod.View(readable=(self.tree, directory),
                                hidden=hidden)

    def rule(self, metric):
        found = [r for r in self.rules if r.metric == metric]
        return found[0] if found else None

    def sanitizer_metrics(self):
        return [m for m in parts.SANITIZERS if self.rule(m)]

    # The grade.

    def run(self):
        start = time.monotonic()
        os.makedirs(self.work, exist_ok=True)
        with locked(self.work):
            changed = source_tree.sync_tree(self.plan, self.tree)
            if self.ref_plan is not None:
                source_tree.sync_tree(self.ref_plan, self.ref_tree)
            shutil.rmtree(self.logs, ignore_errors=True)
            os.makedirs(self.logs)
            self.say(f"{self.name} ({self.sha256[:12]}), {self.assignment}: tree "
                     f"in {self.tree} ({changed} files written)")
            grade = self.grade()
        grade.notes.append(f"graded in {time.monotonic() - start:.0f} s")
        return grade

    def grade(self):
        builds = self.build_all()
        release = builds["release"]
        reference = self.build_reference() if release.ok and \
            self.relative else None
        grade_parts = [self.build_part(builds)]
        group_runs, groups_part = self.group_part(release)
        grade_parts.append(groups_part)
        for metric in self.sanitizer_metrics():
            grade_parts.append(self.sanitizer_part(
                metric, builds.get(parts.SANITIZERS[metric][0]), group_runs))
        if self.private and self.rule("private_tests"):
            grade_parts.append(self.private_part(release))
        elif self.private:
            self.notes.append("the rubric has no private_tests line for "
                              f"{self.assignment}: the private tests did not "
                              "run")
        workload_part, workload = self.workload_part(release, reference)
        grade_parts.append(workload_part)
        described = {name: self.describe_build(b)
                     for name, b in builds.items()}
        if reference is not None:
            described["reference"] = self.describe_build(reference)
        return report.Grade(
            submission=self.name, sha256=self.sha256, stage=self.assignment,
            store=self.store, kit_commit=source_tree.kit_commit(self.kit),
            date=machine.utc_now(), machine=machine.machine_info(),
            builds=described,
            options={"n": self.args.n, "threads": self.args.threads,
                     "seconds": self.seconds, "seed": SEED,
                     **({"rounds": self.args.rounds} if self.relative
                        else {}),
                     **({"test_scale": self.args.test_scale}
                        if self.args.test_scale != 1 else {})},
            limits={**dataclasses.asdict(self.limits), **(
                {"disk_mib": self.sandbox.disk_mib,
                 "max_processes": self.sandbox.max_processes}
                if self.sandbox else {"sandbox": False})},
            parts=grade_parts, workload=workload, notes=list(self.notes),
            logs=self.logs)

    def build_all(self):
        builds = {}
        private_flags = [f"-DKVLAB_PRIVATE_TESTS={self.private or ''}",
                         "-DKVLAB_PRIVATE_TESTS_STAGE="
                         f"{self.stage if self.private else ''}",
                         "-DKVLAB_PRIVATE_TESTS_ASSIGNMENT="
                         f"{self.assignment if self.private else ''}"]
        self.say(f"building Release ({self.assignment}'s tests and kvgrade)")
        directory = os.path.join(self.work, "release")
        release = parts.run_build(
            "release", self.tree, directory,
            ["-DCMAKE_BUILD_TYPE=Release", *private_flags], self.stage,
            ["kvgrade"], self.limits, self.env, self.logs, self.sandbox,
            self.build_view(directory, private=True),
            self.build_view(directory), self.owns_binary)
        builds["release"] = release
        self.say(f"Release: {'ok' if release.ok else release.reason} "
                 f"({release.seconds:.0f} s)")
        for metric in self.sanitizer_metrics():
            name, flags, title = parts.SANITIZERS[metric]
            if not release.ok:
                builds[name] = parts.Build(
                    name, os.path.join(self.work, name),
                    reason="not built: the Release build failed")
                continue
            self.say(f"building {title} ({self.assignment}'s tests)")
            directory = os.path.join(self.work, name)
            view = self.build_view(directory)
            built = parts.run_build(
                name, self.tree, directory,
                [*flags, "-DKVLAB_PRIVATE_TESTS=",
                 "-DKVLAB_PRIVATE_TESTS_STAGE=",
                 "-DKVLAB_PRIVATE_TESTS_ASSIGNMENT="], self.stage, [],
                self.limits, self.env, self.logs, self.sandbox, view, view,
                self.owns_binary)
            builds[name] = built
            self.say(f"{title}: {'ok' if built.ok else built.reason} "
                     f"({built.seconds:.0f} s)")
        return builds

    def build_reference(self):
        """kvgrade built in Release from the kit's own sources, in the work
        folder's reference/ (kept: after the first grade, a no-op)."""
        directory = os.path.join(self.work, "reference", "release")
        self.say("building the reference's kvgrade (the kit's sources)")
        built = parts.run_tool_build(
            "reference", self.ref_tree, directory,
            ["-DCMAKE_BUILD_TYPE=Release", "-DKVLAB_PRIVATE_TESTS=",
             "-DKVLAB_PRIVATE_TESTS_STAGE=",
             "-DKVLAB_PRIVATE_TESTS_ASSIGNMENT="], ["kvgrade"], self.limits,
            self.env, self.logs, self.sandbox,
            self.reference_build_view(directory))
        self.say(f"reference: {'ok' if built.ok else built.reason} "
                 f"({built.seconds:.0f} s)")
        return built

    def owns_binary(self, build_dir, binary):
        """Whether a test binary of the stage's (tests-stageN.txt) was
        built from this assignment's folders: stage 4's ctrie tests, not
        its wormhole room's."""
        return self.unit.owns(os.path.relpath(binary, build_dir))

    def describe_build(self, build):
        flags = parts.compile_flags(build.directory, self.student_dirs[0])
        compiler = machine.compiler_version(build.directory)
        return f"{compiler}; {flags}" if flags else compiler

    def build_part(self, builds):
        rule = self.rule("build")
        failed = [(name, b) for name, b in builds.items() if not b.ok]
        value = 0.0 if failed else 1.0
        earned, passed = rubric.judge(rule, value) if rule else (0.0, not
                                                                 failed)
        reason = ""
        if failed:
            name, b = failed[0]
            reason = f"{parts.build_title(name)} build failed: {b.reason}"
        return report.Part("build", "build", earned,
                           rule.points if rule else 0, passed, value, reason)

    def group_part(self, release):
        rule = self.rule("test_groups")
        max_points = rule.points if rule else 0
        if self.groups is None and release.ok:
            self.groups = groups_mod.groups_per_binary(release.binaries)
        groups = self.groups
        if not release.ok or not groups:
            return [], report.Part("test_groups", "test groups", 0.0,
                                   max_points, False, 0.0,
                                   "not run: the Release build failed")
        runs, details = [], []
        each = max_points / len(groups)
        for group in groups:
            run = parts.run_group(
                group, release.binaries, timeout=self.limits.group_timeout,
                memory_mib=self.limits.memory_mib, sanitized=False,
                env=self.env, log_dir=self.logs, label="release",
                tree=self.tree, sandbox=self.sandbox,
                view=self.run_view(release.directory))
            runs.append(run)
            self.say(f"group {group.name}: "
                     f"{'PASS' if run.passed else 'FAIL ' + run.reason} "
                     f"({run.seconds:.1f} s)")
            next_step = " ".join(
                s for s in (group.next_step,
                            f"({group.docs})" if group.docs else "") if s)
            details.append(report.Detail(
                "group", group.name, run.passed,
                (f"{run.tests_passed}/{run.tests} tests" +
                 ("" if run.passed else f": {run.reason}")),
                each if run.passed else 0.0, each, next_step))
        passing = sum(1 for r in runs if r.passed)
        value = passing / len(groups)
        earned, passed = rubric.judge(rule, value) if rule else (0.0, True)
        return runs, report.Part(
            "test_groups", "test groups", earned, max_points, passed, value,
            f"{passing} of {len(groups)} groups pass", details)

    def sanitizer_part(self, metric, build, group_runs):
        name, _, title = parts.SANITIZERS[metric]
        rule = self.rule(metric)
        part = report.Part(metric, title, 0.0, rule.points, False, 0.0)
        passing = [r.name for r in group_runs if r.passed]
        if build is None or not build.ok:
            part.reason = (build.reason if build and build.reason.startswith(
                "not built") else f"the {title} build failed")
            return part
        if not passing:
            part.reason = "no test group passes in Release: nothing to rerun"
            return part
        groups = {g.name: g for g in self.groups}
        env = dict(self.env)
        memory = self.limits.sanitizer_memory_mib
        env["ASAN_OPTIONS"] = "detect_leaks=1:abort_on_error=0"
        env["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
        env["TSAN_OPTIONS"] = "halt_on_error=1:second_deadlock_stack=1"
        unclean = []
        for group_name in passing:
            run = parts.run_group(
                groups[group_name], build.binaries,
                timeout=self.limits.sanitizer_timeout, memory_mib=memory,
                sanitized=True, env=env, log_dir=self.logs, label=name,
                tree=self.tree, sandbox=self.sandbox,
                view=self.run_view(build.directory))
            self.say(f"{title} {group_name}: "
                     f"{'clean' if run.passed else run.reason} "
                     f"({run.seconds:.1f} s)")
            part.details.append(report.Detail(
                "sanitizer", f"{group_name}", run.passed,
                "clean" if run.passed else run.reason))
            if not run.passed:
                unclean.append(f"{group_name}: {run.reason}")
        value = 0.0 if unclean else 1.0
        part.points, part.passed = rubric.judge(rule, value)
        part.value = value
        count = len(passing)
        part.reason = (f"{count} passing group{'s' if count > 1 else ''} "
                       "rerun clean" if not unclean else unclean[0])
        return part

    def private_part(self, release):
        rule = self.rule("private_tests")
        part = report.Part("private_tests", "private tests", 0.0, rule.points,
                           False, 0.0)
        if not release.ok:
            part.reason = "not run: the Release build failed"
            return part
        self.say("building the private tests")
        ok, why, _ = parts.build_targets(
            "private", self.tree, release.directory, ["private_test"],
            self.limits, self.env, self.logs, self.sandbox,
            self.build_view(release.directory, private=True))
        if not ok:
            # The compiler's message may quote the private sources.
            part.reason = ("the private tests do not build against the "
                           "submission (the compiler's message is in "
                           "build-private.log)")
            return part
        binary = os.path.join(release.directory, "benchmarks",
                              "private_test")
        tests, passed, why = parts.run_private_tests(
            binary, timeout=self.limits.group_timeout,
            memory_mib=self.limits.memory_mib, env=self.env,
            log_dir=self.logs, tree=self.tree, sandbox=self.sandbox,
            view=self.run_view(release.directory, private_binary=True),
            show_names=self.args.private_report == "names")
        part.value = passed / tests if tests else 0.0
        part.points, part.passed = rubric.judge(rule, part.value)
        part.reason = f"{passed} of {tests} pass" + (f": {why}" if why else "")
        self.say(f"private tests: {part.reason}")
        return part

    def kvgrade_run(self, kvgrade, log_dir, view):
        metrics, correct, why = parts.run_workload(
            kvgrade, store=self.store, stage=self.assignment, n=self.args.n,
            threads=self.args.threads, seconds=self.seconds, seed=SEED,
            rubric_path=self.rubric_path, limits=self.limits, env=self.env,
            log_dir=log_dir, tree=self.tree, sandbox=self.sandbox, view=view)
        return relative.Run(metrics or {}, correct, why)

    def workload_session(self, release, reference):
        """The submission's kvgrade runs, and the reference's in turn with
        them where the rubric compares the two (same seed, N, threads,
        seconds and limits)."""
        kvgrade = os.path.join("benchmarks", "kvgrade")
        mine = os.path.join(release.directory, kvgrade)

        def submission_run(i):
            self.say(f"workload round {i}: the submission's {self.store}")
            return self.kvgrade_run(
                mine, self.logs if reference is None else
                os.path.join(self.logs, f"workload-{i}"),
                self.run_view(release.directory))

        if reference is None:
            return relative.Session([submission_run(1)], [])

        def reference_run(i):
            self.say(f"workload round {i}: the reference's {self.store}")
            return self.kvgrade_run(
                os.path.join(reference.directory, kvgrade),
                os.path.join(self.logs, f"reference-{i}"),
                sandbox_mod.View(readable=(self.ref_tree,
                                           reference.directory)))

        return relative.interleave(submission_run, reference_run,
                                   self.args.rounds)

    def workload_part(self, release, reference=None):
        rules = [rubric.scaled_for_n(r, self.args.n) for r in
                 rubric.for_submission(self.rules)
                 if r.metric in rubric.WORKLOAD_METRICS]
        part = report.Part("workload", "workload", 0.0,
                           sum(r.points for r in rules), False)
        workload = {"correct": False, "failure": "", "metrics": {}}
        if not release.ok:
            part.reason = workload["failure"] = \
                "not run: the Release build failed"
            return part, workload
        self.say(f"workload: kvgrade --store={self.store} --n={self.args.n}")
        session = self.workload_session(
            release, reference if self.relative and reference is not None
            and reference.ok else None)
        correct, why = session.correct, session.reason
        if len(session.submission) == 1 and not self.relative:
            metrics = session.submission[0].metrics
        else:
            metrics = relative.medians(session.submission, sorted({
                k for r in session.submission for k in r.metrics}))
        workload = {"correct": correct, "failure": why, "metrics": metrics}
        ref_metrics, ratios, ref_why = {}, {}, ""
        if self.relative:
            if reference is None or not reference.ok:
                ref_why = ("the reference's build failed: " +
                           (reference.reason if reference else "not built"))
            elif session.reference and not session.reference_correct:
                ref_why = "the reference's workload failed: " + next(
                    r.reason for r in session.reference if not r.correct)
            ref_metrics = relative.medians(session.reference, sorted({
                k for r in session.reference for k in r.metrics})) \
                if not ref_why else {}
            scored = sorted(set(rubric.WORKLOAD_METRICS) - {"correct"})
            ratios, rounds = relative.judged_ratios(session, scored) \
                if not ref_why else ({}, {})
            wall = relative.paired_ratios(session, list(
                relative.SCORED_AS)) if not ref_why else {}
            if ref_why:
                self.notes.append(f"no speed compared: {ref_why}")
            workload.update({
                "rounds": len(session.submission),
                "reference": {"correct": session.reference_correct,
                              "failure": ref_why, "metrics": ref_metrics,
                              "rounds": len(session.reference)},
                "ratios": ratios,
                "round_ratios": rounds,
                "wall_ratios": wall,
                "first": session.first,
                "runs": {"submission": [r.metrics for r in
                                        session.submission],
                         "reference": [r.metrics for r in
                                       session.reference]}})
        floors_ok = {}
        for r in rules:
            if r.floor:
                passed = rubric.judge(r, metrics.get(r.metric))[1]
                floors_ok[r.metric] = floors_ok.get(r.metric, True) and passed
        all_pass = correct
        for r in rules:
            value = metrics.get(r.metric) if r.metric != "correct" else (
                metrics.get("correct") if not self.relative else
                (1 if correct else 0))
            shown = report.number(value)
            if r.relative:
                value = ratios.get(r.metric)
                earned, passed = rubric.judge(r, value)
                shown = self.ratio_text(r.metric, metrics, ref_metrics,
                                        value, ref_why,
                                        workload.get("round_ratios", {}),
                                        workload.get("wall_ratios", {}))
                if earned and not floors_ok.get(r.metric, True):
                    earned, passed = 0.0, False
                    shown += f" (no points: {r.metric}'s floor fails)"
            else:
                earned, passed = rubric.judge(r, value)
                if r.floor:
                    shown += " (a floor: the ratio line's points need it)"
            if not correct and r.metric != "correct":
                # A wrong store gets no points for speed (as in kvgrade).
                earned, passed = 0.0, False
                shown += " (no points: the store is not correct)"
            all_pass &= passed
            part.points += earned
            part.details.append(report.Detail(
                "workload", r.describe(), passed, shown, earned, r.points))
        part.passed = all_pass
        part.reason = why
        if self.relative and not why:
            part.reason = (f"{len(session.submission)} rounds, each beside "
                           f"the reference's {self.store}: the median of "
                           "their ratios")
        self.say(f"workload: {'correct' if correct else why}")
        return part, workload

    @staticmethod
    def ratio_text(metric, mine, reference, ratio, why, rounds=None,
                   wall=None):
        """"0.97 x per CPU s (0.95 0.97 0.99), wall 0.91 x: 241,000 vs the
        reference's 248,000": the judged ratio (the median of the rounds'
        ratios, per CPU second for a speed metric), each round's, the
        wall-clock ratio, and the medians of the two sides' figures."""
        if ratio is None:
            return (f"{report.number(mine.get(metric))}, no reference "
                    f"figure" + (f" ({why})" if why else ""))
        each = (rounds or {}).get(metric, [])
        listed = f" ({' '.join(f'{x:.2f}' for x in each)})" \
            if len(each) > 1 else ""
        cpu = " per CPU s" if metric in relative.SCORED_AS else ""
        clock = (wall or {}).get(metric)
        clock = f", wall {clock:.2f} x" if clock is not None else ""
        return (f"{ratio:.2f} x{cpu}{listed}{clock}: "
                f"{report.number(mine.get(metric))} vs the reference's "
                f"{report.number(reference.get(metric))}")


UNSANDBOXED_WARNING = """\
grade_submission: *** NO SANDBOX (--unsandboxed) ***
grade_submission: the submission's code builds and runs with your rights: it
grade_submission: can read and change your files, other submissions and the
grade_submission: grades, and reach the network. Grade only code you trust."""


def make_sandbox(args):
    """The grade's Sandbox, or None with --unsandboxed. Raises SandboxError
    where none can start."""
    if args.unsandboxed:
        print(UNSANDBOXED_WARNING, file=sys.stderr)
        return None
    return sandbox_mod.Sandbox.create(disk_mib=args.disk_mib,
                                      max_processes=args.max_processes)


def main(argv):
    args = parse_args(argv)
    try:
        sandbox = make_sandbox(args)
    except sandbox_mod.SandboxError as e:
        print(f"grade_submission: refusing to grade: no sandbox can start "
              f"here: {e}.\ngrade_submission: --unsandboxed (make grade "
              "UNSANDBOXED=1) grades without one, with your rights: only "
              "for code you trust (docs/grading.md#the-sandbox)",
              file=sys.stderr)
        return 2
    try:
        grader = Grader(args, sandbox)
    except (source_tree.TreeError, rubric.RubricError,
            groups_mod.GroupsError) as e:
        print(f"grade_submission: {e}", file=sys.stderr)
        return 2
    grade = grader.run()
    sys.stdout.write(report.format_table(grade))
    sys.stdout.write("\n")
    sys.stdout.write(report.format_block(grade))
    if sandbox is None:
        print(UNSANDBOXED_WARNING, file=sys.stderr)
    report.write_json(grade, os.path.join(grader.logs, "grade.json"))
    if args.json:
        directory = os.path.dirname(os.path.abspath(args.json))
        os.makedirs(directory, exist_ok=True)
        report.write_json(grade, args.json)
        print(f"grade: wrote {args.json}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
