#!/usr/bin/env python3
"""The progress table of a stage: which of its test groups pass, and what to
write next (docs/teaching.md).

Each stage lists its tests in the order a student builds the stage, in
stageN_*/tests/groups.txt, one group a line:

    group-name | gtest filter | next function(s) to write | docs section

Blank lines and lines starting with # are comments. The filter is a
GoogleTest --gtest_filter ("A.*:B.C-A.D": patterns with * and ?, joined by
":", negative ones after "-"). Every enabled test of the stage's binary
belongs to exactly one group.

Usage:
  progress.py table GROUPS JUNIT [--binary PATH] [--ctest-log PATH]
      The table from ctest's JUnit file (ctest --output-junit), as
      `make stageN test` prints it after the tests ran. A test whose binary
      crashed (it started and never reported a result) marks its group
      `crashed`, with the signal ctest's console output (--ctest-log) names
      and the first line the test printed before it died. Exit status 0.
  progress.py run GROUPS BINARY [--expect pass|fail] [--lint] [--quiet]
      Runs the test binary once (GoogleTest JSON output; a run that crashes
      is repeated group by group) and prints the table. --expect pass: exit
      1 unless every group passes; --expect fail: exit 1 unless every group
      fails (the stubs of a handout). --lint: lint first.
  progress.py lint GROUPS BINARY
      Checks groups.txt against the binary's test list: every group selects
      a test, every enabled test is in exactly one group.

As a module: load_groups(), matches(), results_from_junit(),
results_from_gtest_json(), run_binary(), summarize(). Standard library only.
"""

import argparse
import fnmatch
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree

# What kvlab::NotImplemented throws (common/include/kvlab/not_implemented.h).
STUB_MESSAGE = re.compile(r"([\w:~<>]+) is not written yet: read ([^\s\"]+)")

PASSED, FAILED, SKIPPED = "passed", "failed", "skipped"


class Group:
    def __init__(self, number, name, filter, next_functions, docs):
        self.number, self.name, self.filter = number, name, filter
        self.next_functions, self.docs = next_functions, docs


class GroupsError(Exception):
    pass


def load_groups(path):
    """The groups of a groups.txt, in order."""
    groups = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = [field.strip() for field in line.split("|")]
            if len(fields) != 4 or not all(fields):
                raise GroupsError("%s:%d: want 'name | filter | next "
                                  "function(s) | docs section', got: %s" %
                                  (path, number, line))
            if any(g.name == fields[0] for g in groups):
                raise GroupsError("%s:%d: group %s named twice" %
                                  (path, number, fields[0]))
            groups.append(Group(len(groups) + 1, *fields))
    if not groups:
        raise GroupsError("%s: no groups" % path)
    return groups


def test_name(name):
    """"Suite.Test/param" without the "  # GetParam() = ..." that ctest's
    names of parameterized tests carry."""
    return name.split("  #", 1)[0].strip()


def _pattern_matches(pattern, name):
    # GoogleTest patterns know only * and ?; brackets are literal.
    pattern = pattern.replace("[", "[[]")
    return fnmatch.fnmatchcase(name, pattern)


def matches(gtest_filter, name):
    """Whether GoogleTest's --gtest_filter=gtest_filter selects `name`."""
    positive, _, negative = gtest_filter.partition("-")
    positives = [p for p in positive.split(":") if p] or ["*"]
    negatives = [p for p in negative.split(":") if p]
    return (any(_pattern_matches(p, name) for p in positives) and
            not any(_pattern_matches(p, name) for p in negatives))


def enabled(name):
    return "DISABLED_" not in name


class Result:
    """One test's outcome; `output` is what it printed (for stub names).
    `crash` is set when the test's process died before reporting a result:
    (how it died, e.g. "SIGABRT", the first line it printed while it ran)."""

    def __init__(self, status, output="", crash=None):
        self.status, self.output, self.crash = status, output, crash


# ctest's console line for a test that died of a signal:
# "  3/31 Test  #3: BstOneKeyTest.Put .....Subprocess aborted***Exception: ..."
CTEST_EXCEPTION = re.compile(
    r"Test\s+#\d+: (\S+) \.*\s*([A-Za-z][\w ]*?)\s*\*\*\*Exception")
CTEST_TIMEOUT = re.compile(r"Test\s+#\d+: (\S+) \.*\s*\*\*\*Timeout")
# ctest's words for a signal, by the signal's name.
CTEST_SIGNALS = {"Subprocess aborted": "SIGABRT", "SegFault": "SIGSEGV",
                 "Illegal": "SIGILL", "Numerical": "SIGFPE",
                 "Bus error": "SIGBUS", "Child killed": "SIGKILL",
                 "Interrupt": "SIGINT"}
# "[  FAILED  ] Suite.Test/0, where GetParam() = x (3 ms)": the name ends
# at a space or a comma.
GTEST_STATUS = re.compile(r"^\[ +(RUN|OK|FAILED|SKIPPED) +\] ([^\s,]+)")


def crash_signals(ctest_log):
    """{test name: "SIGABRT"...} for the tests ctest saw die of a signal."""
    signals = {}
    try:
        with open(ctest_log, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = CTEST_EXCEPTION.search(line)
                if m:
                    signals[m.group(1)] = CTEST_SIGNALS.get(m.group(2),
                                                            m.group(2))
                m = CTEST_TIMEOUT.search(line)
                if m:
                    signals[m.group(1)] = "timed out"
    except OSError:
        pass
    return signals


def crash_of(name, output):
    """The first line `name` printed after it started, if its output shows
    it started and never ended (its process died); None if it ended. The
    line is "" if it printed nothing before dying."""
    started, ended, first = False, False, None
    for line in output.split("\n"):
        m = GTEST_STATUS.match(line.strip())
        if m:
            if m.group(1) == "RUN" and m.group(2) == name:
                started = True
            elif started and m.group(2) == name:
                ended = True
            continue
        if started and first is None and line.strip():
            first = line.strip()
    if not started or ended:
        return None
    return first or ""


def results_from_junit(path, signals=None):
    """{test name: Result} from ctest's --output-junit file; `signals`
    (crash_signals()) names how crashed tests died."""
    signals = signals or {}
    results = {}
    for case in ElementTree.parse(path).getroot().iter("testcase"):
        name = test_name(case.get("name", ""))
        status = case.get("status", "")
        output = "".join(e.text or "" for e in case
                         if e.tag in ("system-out", "failure"))
        if status == "run" and case.find("failure") is None:
            results[name] = Result(PASSED, output)
        elif status in ("fail",) or case.find("failure") is not None:
            first = crash_of(name, output)
            crash = None
            if first is not None or name in signals:
                crash = (signals.get(name, "died"), first or "")
            results[name] = Result(FAILED, output, crash)
        elif status in ("notrun", "disabled") or \
                case.find("skipped") is not None:
            results[name] = Result(SKIPPED, output)
        else:
            results[name] = Result(FAILED, output)
    return results


def results_from_gtest_json(path):
    """{test name: Result} from GoogleTest's --gtest_output=json file."""
    with open(path, encoding="utf-8") as f:
        report = json.load(f)
    results = {}
    for suite in report.get("testsuites", []):
        for case in suite.get("testsuite", []):
            name = "%s.%s" % (case["classname"], case["name"])
            failures = case.get("failures", [])
            output = "\n".join(f.get("failure", "") for f in failures)
            if case.get("status") != "RUN" or \
                    case.get("result") in ("SKIPPED", "SUPPRESSED"):
                status = SKIPPED
            else:
                status = FAILED if failures else PASSED
            results[name] = Result(status, output)
    return results


def list_tests(binary):
    """The enabled tests of a GoogleTest binary, by --gtest_list_tests."""
    out = subprocess.run([binary, "--gtest_list_tests"], check=True,
                         capture_output=True, text=True).stdout
    names, suite = [], None
    for line in out.split("\n"):
        if not line.strip() or line.startswith("Running main()"):
            continue
        if not line.startswith(" "):
            suite = line.split("#", 1)[0].strip()
        else:
            names.append(suite + test_name(line.strip()))
    return [n for n in names if enabled(n)]


def signal_name(number):
    """"SIGABRT" for 6; "signal N" for a number Python does not name."""
    try:
        return signal.Signals(number).name
    except ValueError:
        return "signal %d" % number


def _run_gtest(binary, gtest_filter, timeout):
    """Runs `binary` with `gtest_filter`: ({name: Result}, None) or
    (partial results, why it stopped) if it crashed or timed out."""
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.json")
        try:
            proc = subprocess.run(
                [binary, "--gtest_filter=" + gtest_filter,
                 "--gtest_output=json:" + report],
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                timeout=timeout)
        except subprocess.TimeoutExpired:
            return {}, "timed out after %d s" % timeout
        if proc.returncode < 0 or not os.path.exists(report):
            tail = proc.stderr.strip().split("\n")[-1:] if proc.stderr else []
            return {}, "crashed: %s%s" % (
                signal_name(-proc.returncode) if proc.returncode < 0
                else "exit %d" % proc.returncode,
                ": " + tail[0] if tail else "")
        return results_from_gtest_json(report), None


def run_binary(binary, groups, timeout=1800):
    """Runs the tests of `groups` and returns ({name: Result}, {group name:
    why its run stopped}). One run of the binary; if it crashes, each group
    runs on its own so one crash does not hide the others."""
    all_filter = ":".join(g.filter.partition("-")[0] or "*" for g in groups)
    results, error = _run_gtest(binary, all_filter, timeout)
    if error is None:
        return results, {}
    results, errors = {}, {}
    for g in groups:
        group_results, error = _run_gtest(binary, g.filter, timeout)
        results.update(group_results)
        if error is not None:
            errors[g.name] = error
    return results, errors


class GroupOutcome:
    """`crashes`: [(test name, how it died, first line it printed)]."""

    def __init__(self, group, passed, failed, skipped, stubs, error,
                 crashes=None):
        self.group = group
        self.passed, self.failed, self.skipped = passed, failed, skipped
        self.stubs, self.error = stubs, error
        self.crashes = crashes or []

    @property
    def ok(self):
        return not self.failed and not self.error and self.passed > 0

    @property
    def ran(self):
        return self.passed + self.failed > 0 or self.error is not None


def summarize(groups, results, errors=None):
    """One GroupOutcome per group, in order."""
    errors = errors or {}
    outcomes = []
    for g in groups:
        passed = failed = skipped = 0
        stubs, crashes = [], []
        for name, r in results.items():
            if not enabled(name) or not matches(g.filter, name):
                continue
            if r.status == PASSED:
                passed += 1
            elif r.status == FAILED:
                failed += 1
                if r.crash:
                    crashes.append((name,) + tuple(r.crash))
                    continue  # a crash is the student's code, not a stub
                for function, _ in STUB_MESSAGE.findall(r.output):
                    if function not in stubs:
                        stubs.append(function)
            else:
                skipped += 1
        outcomes.append(GroupOutcome(g, passed, failed, skipped, stubs,
                                     errors.get(g.name), crashes))
    return outcomes


def print_table(title, outcomes, binary=None, out=sys.stdout):
    width = max(len(o.group.name) for o in outcomes)
    print("", file=out)
    print(title, file=out)
    for o in outcomes:
        total = o.passed + o.failed
        if o.error:
            state = "FAILED (%s)" % o.error
        elif o.crashes:
            state = "FAILED (crashed: %s)" % o.crashes[0][1]
        elif not o.ran:
            state = "not run"
        else:
            state = "passed" if o.ok else "FAILED"
        line = "  %2d  %-*s  %4d/%-4d %s" % (o.group.number, width,
                                             o.group.name, o.passed, total,
                                             state)
        if not o.ok:
            line += "  -> " + o.group.next_functions
        print(line, file=out)
    first = next((o for o in outcomes if not o.ok), None)
    if first is None:
        print("All %d groups pass." % len(outcomes), file=out)
        return
    g = first.group
    print("Next: %s (group %d, %s); read %s" %
          (g.next_functions, g.number, g.name, g.docs), file=out)
    for name, how, line in first.crashes[:1]:
        print("  %s crashed (%s)%s" % (name, how, ": " + line if line else
                                       ", printing nothing first"), file=out)
        if len(first.crashes) > 1:
            print("  (%d more tests of the group crashed)" %
                  (len(first.crashes) - 1), file=out)
    if first.stubs:
        print("  its tests stop at the stub%s of %s" %
              ("s" if len(first.stubs) > 1 else "",
               ", ".join(first.stubs[:4]) +
               (", ..." if len(first.stubs) > 4 else "")), file=out)
    if binary:
        print("  run this group alone: %s --gtest_filter='%s'" %
              (binary, g.filter), file=out)


def lint(groups, names):
    """Problems of `groups` against the test names of the binary."""
    problems = []
    for g in groups:
        if not any(matches(g.filter, n) for n in names):
            problems.append("group %s selects no test" % g.name)
    for n in names:
        owners = [g.name for g in groups if matches(g.filter, n)]
        if len(owners) != 1:
            problems.append("test %s is in %s" %
                            (n, "no group" if not owners else
                             "groups " + ", ".join(owners)))
    return problems


def title_for(groups_path):
    folder = os.path.dirname(os.path.dirname(os.path.abspath(groups_path)))
    stage = os.path.basename(folder)
    parent = os.path.basename(os.path.dirname(folder))
    if re.match(r"^stage\d+_", parent):
        stage = "%s/%s" % (parent, stage)  # an assignment of a stage
    return "Progress of %s (%s):" % (stage, os.path.relpath(groups_path))


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    table = sub.add_parser("table")
    table.add_argument("groups")
    table.add_argument("junit")
    table.add_argument("--binary")
    table.add_argument("--ctest-log",
                       help="ctest's console output: how crashed tests died")
    run = sub.add_parser("run")
    run.add_argument("groups")
    run.add_argument("binary")
    run.add_argument("--expect", choices=("pass", "fail"))
    run.add_argument("--lint", action="store_true",
                     help="first check groups.txt against the binary")
    run.add_argument("--quiet", action="store_true")
    run.add_argument("--timeout", type=int, default=1800)
    check = sub.add_parser("lint")
    check.add_argument("groups")
    check.add_argument("binary")
    args = parser.parse_args(argv[1:])

    try:
        groups = load_groups(args.groups)
    except (OSError, GroupsError) as e:
        print("progress: %s" % e, file=sys.stderr)
        return 2

    if args.command == "table":
        if not os.path.exists(args.junit):
            print("progress: no test results in %s" % args.junit,
                  file=sys.stderr)
            return 0
        signals = crash_signals(args.ctest_log) if args.ctest_log else {}
        outcomes = summarize(groups, results_from_junit(args.junit, signals))
        print_table(title_for(args.groups), outcomes, args.binary)
        return 0

    if args.command == "lint":
        problems = lint(groups, list_tests(args.binary))
        for p in problems:
            print("%s: %s" % (args.groups, p))
        return 1 if problems else 0

    if args.lint:
        problems = lint(groups, list_tests(args.binary))
        for p in problems:
            print("%s: %s" % (args.groups, p), file=sys.stderr)
        if problems:
            return 1
    results, errors = run_binary(os.path.abspath(args.binary), groups,
                                 args.timeout)
    outcomes = summarize(groups, results, errors)
    if not args.quiet:
        print_table(title_for(args.groups), outcomes, args.binary)
    if args.expect == "pass":
        wrong = [o for o in outcomes if not o.ok]
    elif args.expect == "fail":
        wrong = [o for o in outcomes if o.ok or not o.ran]
    else:
        wrong = []
    for o in wrong:
        print("progress: group %s %s, expected to %s" %
              (o.group.name, "passes" if o.ok else "fails or did not run",
               args.expect), file=sys.stderr)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
