"""The parts of a submission grade, each run in its own limited processes:
the builds, the test groups, the sanitizer reruns, the private tests and
the course workload (kvgrade). Each returns what it measured and, when it
went wrong, a reason a student can act on; none raises for anything the
submission does. Each takes the grade's Sandbox (sandbox.py; None: no
confinement) and the View of the files its processes may see.
"""

import dataclasses
import json
import os
import re

from . import gtest_log
from .limits import run_limited
from .sandbox import View

SANITIZERS = {
    # rubric metric: (build directory, CMake flags, report name)
    "asan_clean": ("asan", ["-DCMAKE_BUILD_TYPE=Debug",
                            "-DKVLAB_SANITIZE=address"], "ASan+UBSan"),
    "tsan_clean": ("tsan", ["-DCMAKE_BUILD_TYPE=Debug",
                            "-DKVLAB_SANITIZE=thread"], "TSan"),
}


def build_title(name):
    """'Release' for the release build, 'ASan+UBSan' for asan, ..."""
    for directory, _, title in SANITIZERS.values():
        if directory == name:
            return title
    return "Release" if name == "release" else name


@dataclasses.dataclass
class Limits:
    build_timeout: float = 3600
    build_memory_mib: int = 8192  # resident, a whole build's processes
    group_timeout: float = 300
    sanitizer_timeout: float = 900
    workload_timeout: float = 900
    memory_mib: int = 4096  # a test process's address space
    sanitizer_memory_mib: int = 8192  # a sanitized one's resident memory
    workload_memory_mib: int = 8192
    jobs: int = 2


@dataclasses.dataclass
class Build:
    name: str  # "release", "asan", "tsan"
    directory: str
    ok: bool = False
    reason: str = ""
    seconds: float = 0.0
    binaries: list = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class GroupRun:
    name: str
    passed: bool
    tests: int = 0
    tests_passed: int = 0
    reason: str = ""
    seconds: float = 0.0


def shorten(text, tree):
    """`text` with the tree's absolute path taken out and on one line."""
    text = text.replace(tree.rstrip("/") + "/", "")
    text = " ".join(text.split())
    return text if len(text) <= 300 else text[:297] + "..."


_COMPILE_ERROR = re.compile(r"^\S+:\d+(?::\d+)?: (?:fatal )?error: .*")
_LINK_ERROR = re.compile(r".*(?:undefined reference to|multiple definition "
                         r"of|cannot find -l).*")


def first_build_error(output):
    """The line of a failed configure or build that says why."""
    lines = output.splitlines()
    for pattern in (_COMPILE_ERROR, _LINK_ERROR):
        for line in lines:
            if pattern.match(line.strip()):
                return line.strip()
    for i, line in enumerate(lines):
        if line.startswith("CMake Error"):
            rest = [l.strip() for l in lines[i + 1:i + 4] if l.strip()]
            return " ".join([line.strip()] + rest)
        if line.startswith("ninja: error:"):
            return line.strip()
    tail = [l.strip() for l in lines if l.strip()]
    return tail[-1] if tail else "no output"


def stage_binaries(build_dir, stage):
    """The stage's test binaries, from the build's tests-<stage>.txt."""
    try:
        with open(os.path.join(build_dir, f"tests-{stage}.txt"),
                  encoding="utf-8") as f:
            return [line.strip() for line in f if line.strip()]
    except OSError:
        return []


# No build step runs a program built from the submission: gtest's test
# discovery waits for ctest instead of running each test binary as it is
# linked, so a build directory shared by a class holds only what compilers
# wrote.
NO_DISCOVERY_AT_BUILD = "-DCMAKE_GTEST_DISCOVER_TESTS_DISCOVERY_MODE=PRE_TEST"
# A file a build writes (an object, a binary, a log): at most this much.
BUILD_FILE_MIB = 4096


def _configure(result, tree, cmake_flags, limits, env, log_dir, sandbox,
               view):
    """Configures result.directory from `tree` with Ninja, adding the time
    to `result`; on failure sets result.reason and answers False."""
    configure = run_limited(
        ["cmake", "-S", tree, "-B", result.directory, "-G", "Ninja",
         *cmake_flags, NO_DISCOVERY_AT_BUILD],
        timeout=limits.build_timeout, memory_mib=limits.build_memory_mib,
        resident=True, max_output_mib=BUILD_FILE_MIB, env=env,
        log_path=os.path.join(log_dir, f"configure-{result.name}.log"),
        sandbox=sandbox, view=view)
    result.seconds += configure.seconds
    if configure.status != "ok":
        result.reason = shorten(f"configure ({configure.describe()}): "
                                f"{first_build_error(configure.output)}", tree)
        return False
    return True


def run_build(name, tree, directory, cmake_flags, stage, extra_targets,
              limits, env, log_dir, sandbox=None, configure_view=None,
              build_view=None, keep=None):
    """Configures `directory` from `tree` and builds the stage's test
    binaries plus `extra_targets`; with `keep`, a test binary only where
    keep(directory, binary) says (an assignment's). The Build says whether
    it worked."""
    result = Build(name, directory)
    if not _configure(result, tree, cmake_flags, limits, env, log_dir,
                      sandbox, configure_view):
        return result
    binaries = [b for b in stage_binaries(directory, stage)
                if keep is None or keep(directory, b)]
    if not binaries:
        result.reason = (f"the kit's build lists no test binary for {stage}"
                         + (" in the assignment's folders" if keep else ""))
        return result
    targets = [os.path.basename(b) for b in binaries] + list(extra_targets)
    ok, reason, seconds = build_targets(name, tree, directory, targets,
                                        limits, env, log_dir, sandbox,
                                        build_view)
    result.seconds += seconds
    result.ok, result.reason, result.binaries = ok, reason, binaries
    return result


def run_tool_build(name, tree, directory, cmake_flags, targets, limits, env,
                   log_dir, sandbox=None, view=None):
    """Configures `directory` from `tree` and builds `targets` alone (the
    reference's kvgrade): a Build with no test binaries."""
    result = Build(name, directory)
    if not _configure(result, tree, cmake_flags, limits, env, log_dir,
                      sandbox, view):
        return result
    ok, reason, seconds = build_targets(name, tree, directory, targets,
                                        limits, env, log_dir, sandbox, view)
    result.seconds += seconds
    result.ok, result.reason = ok, reason
    return result


def build_targets(name, tree, directory, targets, limits, env, log_dir,
                  sandbox=None, view=None):
    """(ok, reason, seconds) of building `targets` in `directory`."""
    outcome = run_limited(
        ["cmake", "--build", directory, "-j", str(limits.jobs), "--target",
         *targets],
        timeout=limits.build_timeout, memory_mib=limits.build_memory_mib,
        resident=True, max_output_mib=BUILD_FILE_MIB, env=env,
        log_path=os.path.join(log_dir, f"build-{name}.log"),
        sandbox=sandbox, view=view)
    if outcome.status == "ok":
        return True, "", outcome.seconds
    why = (first_build_error(outcome.output) if outcome.status == "failed"
           else outcome.describe())
    return False, shorten(why, tree), outcome.seconds


_FLAG = re.compile(r"^-(?:O\w*|g\w*|DNDEBUG|std=\S+|march=\S+|"
                   r"fsanitize=\S+|fno-sanitize-recover=\S+)$")


def compile_flags(build_dir, stage_dir):
    """The flags that shape the code (-O, -g, -DNDEBUG, -std, -fsanitize)
    a stage source was compiled with in `build_dir`, from CMake's
    compile_commands.json; '' if unknown."""
    try:
        with open(os.path.join(build_dir, "compile_commands.json"),
                  encoding="utf-8") as f:
            commands = json.load(f)
    except (OSError, ValueError):
        return ""
    for entry in commands:
        if f"/{stage_dir}/src/" in entry.get("file", ""):
            words = entry.get("command", "").split()
            seen = []
            for w in words:
                if _FLAG.match(w) and w not in seen:
                    seen.append(w)
            return " ".join(seen)
    return ""


def _safe(name):
    return re.sub(r"[^\w.-]", "_", name)


def run_tests(binary, gtest_filter, *, timeout, memory_mib, sanitized, env,
              log_dir, label, sandbox=None, view=None):
    """Runs the tests of `binary` that `gtest_filter` selects, in one
    process. Returns (listed test names, TestLog, Outcome, report): report
    is the sanitizer's, or None. A binary whose tests cannot even be listed
    returns its listing's Outcome and no names."""
    base = os.path.join(log_dir, _safe(label))
    listing = run_limited([binary, "--gtest_list_tests",
                           f"--gtest_filter={gtest_filter}"],
                          timeout=min(timeout, 120), memory_mib=memory_mib,
                          resident=sanitized, env=env,
                          log_path=base + ".list.log", sandbox=sandbox,
                          view=view)
    if listing.status != "ok":
        return [], gtest_log.TestLog(), listing, gtest_log.sanitizer_report(
            listing.output)
    names = [n for n in gtest_log.parse_test_list(listing.output)
             if not gtest_log.is_disabled(n)]
    if not names:
        return [], gtest_log.TestLog(), listing, None
    outcome = run_limited([binary, f"--gtest_filter={gtest_filter}",
                           "--gtest_color=no"],
                          timeout=timeout, memory_mib=memory_mib,
                          resident=sanitized, env=env,
                          log_path=base + ".log", sandbox=sandbox, view=view)
    log = gtest_log.parse_test_output(outcome.output)
    report = gtest_log.sanitizer_report(outcome.output) if sanitized else None
    return names, log, outcome, report


def test_failure_reason(names, log, outcome, report, tree):
    """Why a run of tests did not pass ('' if it did)."""
    if report:
        where = f" in {log.unfinished}" if log.unfinished else ""
        return shorten(report + where, tree)
    if outcome.status in ("timeout", "crashed", "memory", "output", "error"):
        where = f" in {log.unfinished}" if log.unfinished else ""
        message = log.messages.get(log.unfinished, "") if log.unfinished \
            else ""
        return shorten(f"{outcome.describe()}{where}"
                       f"{': ' + message if message else ''}", tree)
    if log.failed:
        return failed_tests_reason(log, tree)
    done = set(log.passed) | set(log.skipped)
    missing = [n for n in names if n not in done]
    if missing:
        return shorten(f"{len(missing)} of {len(names)} tests did not run "
                       f"(first: {missing[0]}); {outcome.describe()}", tree)
    if outcome.status != "ok":
        return shorten(f"the test binary ended with {outcome.describe()}",
                       tree)
    return ""


def count_tests(names, log):
    """(passed, counted) among `names`: a skipped test (a thread-safety test
    on a store that is not thread-safe) counts neither way, as in the
    progress table of `make stageN test`, so both show the same counts."""
    skipped = set(log.skipped)
    passed = set(log.passed)
    counted = [n for n in names if n not in skipped]
    return sum(1 for n in counted if n in passed), len(counted)


def clearest_failure(log):
    """The failed test whose message says most plainly what went wrong: an
    assertion with its place and both sides first, then the shortest
    message; among equals, the one that ran first."""
    def clarity(indexed):
        index, name = indexed
        message = log.messages.get(name, "")
        return (not gtest_log.is_assertion(message), not message,
                len(message), index)
    return min(enumerate(log.failed), key=clarity)[1]


def failed_tests_reason(log, tree):
    """The clearest failure with its message, then each other failed test
    as "Name failed" (as many as fit in 300 characters with the message cut
    in its middle to what is left, but at least its first 60)."""
    best = clearest_failure(log)
    others = [n for n in log.failed if n != best]
    named, rest = [], []
    for name in others:
        if rest or len("; ".join(named + [name])) > 150:
            rest.append(name)
        else:
            named.append(name)
    tail = "".join(f"; {n} failed" for n in named)
    if rest:
        tail += f"; {len(rest)} more failed"
    message = log.messages.get(best, "")
    room = max(60, 300 - len(f"{best} failed: ") - len(tail))
    message = gtest_log.cut_middle(message, room)
    return shorten(f"{best} failed{': ' + message if message else ''}"
                   f"{tail}", tree)


def run_group(group, binaries, *, timeout, memory_mib, sanitized, env,
              log_dir, label, tree, sandbox=None, view=None):
    """One group of tests over the stage's binaries (or its own binary)."""
    chosen = [b for b in binaries
              if group.binary is None or os.path.basename(b) == group.binary]
    result = GroupRun(group.name, passed=False)
    reasons = []
    for binary in chosen:
        names, log, outcome, report = run_tests(
            binary, group.gtest_filter, timeout=timeout,
            memory_mib=memory_mib, sanitized=sanitized, env=env,
            log_dir=log_dir,
            label=f"{label}-{group.name}-{os.path.basename(binary)}",
            sandbox=sandbox, view=view)
        result.seconds += outcome.seconds
        if not names:
            if outcome.status != "ok" or report:
                reasons.append(
                    "listing the tests: " + (report or outcome.describe()))
            continue
        result.tests += count_tests(names, log)[1]
        result.tests_passed += count_tests(names, log)[0]
        why = test_failure_reason(names, log, outcome, report, tree)
        if why:
            reasons.append(why)
    if result.tests == 0 and not reasons:
        reasons.append(f"no test matches the filter {group.gtest_filter}")
    result.passed = not reasons
    result.reason = "; ".join(reasons)
    return result


def run_private_tests(binary, *, timeout, memory_mib, env, log_dir, tree,
                      sandbox=None, view=None, show_names=True):
    """(tests, passed, reason) for the private test binary. A test that
    crashes or hangs fails alone: the run resumes after it. The reason
    names the failed tests only with `show_names`: what the binary prints
    is the submission's to forge, and it can read the binary's strings."""
    listing = run_limited([binary, "--gtest_list_tests"], timeout=120,
                          memory_mib=memory_mib, env=env,
                          log_path=os.path.join(log_dir, "private.list.log"),
                          sandbox=sandbox, view=view)
    if listing.status != "ok":
        return 0, 0, shorten(f"listing the private tests: "
                             f"{listing.describe()}", tree)
    names = [n for n in gtest_log.parse_test_list(listing.output)
             if not gtest_log.is_disabled(n)]
    if not names:
        return 0, 0, "the private tests binary has no tests"
    finished, passed, failures = set(), set(), []
    for attempt in range(len(names)):
        exclude = ":".join(sorted(finished))
        outcome = run_limited(
            [binary, "--gtest_color=no",
             f"--gtest_filter=*{'-' + exclude if exclude else ''}"],
            timeout=timeout, memory_mib=memory_mib, env=env,
            log_path=os.path.join(log_dir, f"private.{attempt}.log"),
            sandbox=sandbox, view=view)
        log = gtest_log.parse_test_output(outcome.output)
        passed.update(log.passed + log.skipped)
        finished.update(log.passed + log.skipped + log.failed)
        for name in log.failed:
            failures.append(f"{name} failed")
        if log.unfinished is None:
            break
        finished.add(log.unfinished)
        failures.append(f"{log.unfinished} {outcome.describe()}")
        if finished >= set(names):
            break
    count = sum(1 for n in names if n in passed)
    reason = ""
    if count < len(names):
        reason = f"{len(names) - count} of {len(names)} failed"
        if show_names:
            reason = shorten(reason + ": " + "; ".join(failures[:3]), tree)
    return len(names), count, reason


def read_kvgrade_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def run_workload(kvgrade, *, store, stage, n, threads, seconds, seed,
                 rubric_path, limits, env, log_dir, tree, sandbox=None,
                 view=None):
    """kvgrade on the stage's store. Returns (metrics or None, correct,
    reason): the metrics kvgrade's JSON holds; reason says why the workload
    is not correct or did not finish. Sandboxed, kvgrade writes its JSON
    into log_dir/workload, the one folder it may write."""
    out_dir = os.path.join(log_dir, "workload")
    os.makedirs(out_dir, exist_ok=True)
    json_path = os.path.join(out_dir, "kvgrade.json")
    if os.path.exists(json_path):
        os.remove(json_path)
    if sandbox is not None:
        view = view or View()
        view = View(readable=tuple(view.readable) + (rubric_path,),
                    writable=tuple(view.writable) + (out_dir,),
                    hidden=view.hidden)
    # kvgrade's own limits stop a store that is merely slow with a clear
    # message; a store that never returns from a call meets ours.
    budget = limits.workload_timeout
    command = [kvgrade, f"--store={store}", f"--stage={stage}", f"--n={n}",
               f"--threads={threads}", f"--seconds={seconds:g}",
               f"--seed={seed}", f"--json={json_path}",
               f"--rubric={rubric_path}",
               f"--load_timeout={budget * 0.5:g}",
               f"--check_timeout={budget * 0.2:g}",
               # The memory limit below guards the machine instead of
               # kvgrade's sample load, which would run the store twice.
               "--allow_memory_overcommit"]
    outcome = run_limited(command, timeout=budget,
                          memory_mib=limits.workload_memory_mib, env=env,
                          log_path=os.path.join(log_dir, "kvgrade.log"),
                          sandbox=sandbox, view=view)
    grade = read_kvgrade_json(json_path)
    if grade is None:
        last = [l for l in outcome.output.splitlines() if l.strip()]
        detail = f": {last[-1]}" if last and outcome.status == "failed" \
            else ""
        return None, False, shorten(f"kvgrade {outcome.describe()}{detail}",
                                    tree)
    metrics = grade.get("metrics", {})
    correct = bool(grade.get("correct"))
    reason = "" if correct else shorten(grade.get("failure", "incorrect"),
                                        tree)
    if outcome.status not in ("ok", "failed"):
        reason = shorten(f"kvgrade {outcome.describe()}", tree)
        correct = False
    return metrics, correct, reason
