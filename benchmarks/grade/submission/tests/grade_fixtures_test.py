#!/usr/bin/env python3
"""The grader on real submissions: the kit's own stages (full marks) and
broken copies of them, each a patch in fixtures/STAGE/, graded as an
instructor would (grade_submission.py in its own process), only smaller: a
workload of 20,000 pairs (expected.json's workload_n where a store's fixed
overhead needs more for its bytes per key) on 2 threads with 2 s timed
phases, beside the reference in the grader's 5 rounds, the stage's tests
at a quarter of their sizes (expected.json's test_scale where a smaller
one keeps every grade and saves time) and 10 s for a test group
(expected.json's group_timeout where a group needs longer, or where a
copy's hangs make a shorter one worth it). Each variant must score what
fixtures/STAGE/expected.json says (or up to its score_up_to, where a
copy's speed ratio falls in a ratio line's partial band and its share of
the line's points follows the machine), losing points on exactly the parts
and test groups it lists, for the reasons it gives ("": any reason, where
a crash or a thread schedule decides which test trips first).

Hostile copies (expected.json variants with "hostile": an act) test the
grader's sandbox: one patch (its "patch") makes the submission's first Put
in one test group's run do the act that fixtures/STAGE/hostile/hostile.h
names, aimed at targets this test sets up: another submission's file
holding a secret, the private tests' sources, a listener on 127.0.0.1, a
grade in the grades folder (the work folder here); or a fork bomb, an
allocation, a disk filler, a sleep. Each must be refused or stopped by a
limit, and this test checks what the grade cannot show: nothing connected,
no grade written, no secret in the grade's logs or report. Their workload
is the reference's code (the act is in a test group's run), so they are
graded with fixtures/STAGE/hostile/rubric.txt (a variant's "rubric"):
the same parts and points, the workload judged once against absolute
lines far from the reference instead of in five rounds beside it, which
the reference's own grade already does.
expected.json's grader_flags (tight limits) apply to all of a stage's
grades.

Usage: grade_fixtures_test.py --kit ROOT --work DIR [--test-scale X]
                              [--unsandboxed] STAGE|STAGE/VARIANT...

STAGE alone is its reference and then every broken copy. All stages share
one work folder, and so the grader's builds: the first grade builds the kit
(Release, ASan+UBSan, and TSan for stage 4), each later one what its stage
adds or its patch changes. After a reference grade the work folder (the
tree and its builds) is saved; each broken copy is graded from that saved
state and the state put back after it, so the build only ever recompiles
what one patch changes, never the files a previous patch touched. The
grader itself runs exactly as on a student's tree.

Where the time goes (docs/grading.md has the figures): about half is the
grader's builds, each object compiled once per run (a compiler cache has
nothing to find on a clean clone), half the test groups, mostly the
sanitizer reruns of stages 4 and 5 and the hangs of stage 1's
scan_never_returns, each waiting out its group timeout. Stage 5's
expected.json shortens the first with test_scale (stage 4 keeps a quarter:
its race fixture needs enough operations for ThreadSanitizer to see the
race), stage 1's the second with group_timeout; neither changes a grade.
"""

import argparse
import json
import os
import hashlib
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "fixtures")
# The workload's pairs and a test group's seconds in Release, unless the
# stage's expected.json says otherwise.
DEFAULT_N = 20_000
DEFAULT_GROUP_TIMEOUT = 10
FIXTURE_SECONDS = 2
# The tests' sizes (the grader's --test-scale), unless the stage's
# expected.json says otherwise (test_scale: stage 5, whose sanitizer rerun
# is most of grade-check's test time).
DEFAULT_TEST_SCALE = 0.25
sys.path.insert(0, os.path.dirname(HERE))

from grading import source_tree  # noqa: E402


def fixture_names():
    """The stages and assignments with fixtures (FIXTURES/NAME/expected.json),
    in the order grade-check grades them."""
    names = [n for n in os.listdir(FIXTURES)
             if os.path.isfile(os.path.join(FIXTURES, n, "expected.json"))]
    return sorted(names, key=lambda n: (int(n[5:].split("_")[0]), n))


def load_expected(stage):
    with open(os.path.join(FIXTURES, stage, "expected.json"),
              encoding="utf-8") as f:
        return json.load(f)


class Targets:
    """What the hostile copies aim at, and what shows whether they hit it:
    a listener on 127.0.0.1 counting connections, another submission's
    file holding a secret, the private tests' sources, the grades folder."""

    SECRET_OF_THE_PRIVATE_TESTS = "An instructor's private tests"

    def __init__(self, kit, work, parent):
        self.work = work
        self.secret = "kvlab-secret-" + hashlib.sha256(
            os.urandom(16)).hexdigest()[:16]
        self.other = os.path.join(parent, "another-student", "stage1_bst",
                                  "src", "avl_store.cc")
        os.makedirs(os.path.dirname(self.other))
        with open(self.other, "w", encoding="utf-8") as f:
            f.write(f"// {self.secret}\n")
        self.kit = kit
        self.connections = 0
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            self.connections += 1
            connection.close()

    def private_sources(self, stage):
        """The private tests' sources, and where a copy of the kit in the
        grader's tree would hold them."""
        found = []
        private = os.path.join(FIXTURES, stage, "private")
        for name in sorted(os.listdir(private)):
            path = os.path.join(private, name)
            found += [path, os.path.join(self.work, "tree", os.path.relpath(
                path, self.kit))]
        return found

    def grade_file(self, stage):
        return os.path.join(self.work, f"{stage}-reference.json")

    def planted_file(self):
        return os.path.join(self.work, "planted-by-a-submission.json")

    def header(self, stage, act):
        """hostile_target.h: the act and its targets."""
        def text(value):
            return json.dumps(value)  # a C++ string literal for plain paths
        sources = ", ".join(text(p) for p in self.private_sources(stage))
        return (
            "// Written by grade_fixtures_test.py: the act and its targets.\n"
            "#ifndef KVLAB_STAGE1_SRC_HOSTILE_TARGET_H_\n"
            "#define KVLAB_STAGE1_SRC_HOSTILE_TARGET_H_\n"
            "namespace kvlab_hostile {\n"
            f"constexpr const char* kAct = {text(act)};\n"
            f"constexpr const char* kOtherFile = {text(self.other)};\n"
            f"constexpr const char* kPrivateSources[] = {{{sources}}};\n"
            f"constexpr const char* kGradeFile = "
            f"{text(self.grade_file(stage))};\n"
            f"constexpr const char* kPlantedFile = "
            f"{text(self.planted_file())};\n"
            f"constexpr int kPort = {self.port};\n"
            "}  // namespace kvlab_hostile\n"
            "#endif  // KVLAB_STAGE1_SRC_HOSTILE_TARGET_H_\n")

    def snapshot(self, stage):
        """The grade file's hash and the connections so far."""
        try:
            with open(self.grade_file(stage), "rb") as f:
                digest = hashlib.sha256(f.read()).hexdigest()
        except OSError:
            digest = None
        return digest, self.connections

    def problems(self, stage, before, log_dir, stdout):
        """What a hostile copy got past the sandbox."""
        found = []
        digest, connections = self.snapshot(stage)
        if connections != before[1]:
            found.append(f"the submission connected to 127.0.0.1:{self.port}"
                         f" ({connections - before[1]} connections)")
        if digest != before[0]:
            found.append(f"the submission changed {self.grade_file(stage)}")
        if os.path.exists(self.planted_file()):
            found.append(f"the submission wrote {self.planted_file()}")
            os.remove(self.planted_file())
        texts = [stdout]
        for dirpath, _, filenames in os.walk(log_dir or "/nonexistent"):
            for name in filenames:
                with open(os.path.join(dirpath, name), "rb") as f:
                    texts.append(f.read().decode("utf-8", errors="replace"))
        for secret, whose in ((self.secret, "another submission's file"), (
                self.SECRET_OF_THE_PRIVATE_TESTS, "the private tests' source")):
            if any(secret in t for t in texts):
                found.append(f"{whose} reached the grade's logs or report")
        return found

    def close(self):
        self.listener.close()


def make_submission(kit, stage, variant, parent, want=None, targets=None):
    """A copy of the kit's tree, with the variant's patch applied (and a
    hostile copy's act and targets written beside it)."""
    want = want or {}
    submission = os.path.join(parent, f"{stage}-{variant}")
    for rel in source_tree.kit_files(kit):
        target = os.path.join(submission, rel)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(os.path.join(kit, rel), target)
    if "hostile" in want:
        src = os.path.join(submission, source_tree.resolve_stage(
            kit, stage).folders[0], "src")
        shutil.copy(os.path.join(FIXTURES, stage, "hostile", "hostile.h"),
                    src)
        with open(os.path.join(src, "hostile_target.h"), "w",
                  encoding="utf-8") as f:
            f.write(targets.header(stage, want["hostile"]))
    if variant != "reference":
        patch = os.path.join(FIXTURES, stage,
                             want.get("patch", variant) + ".patch")
        result = subprocess.run(
            ["patch", "-p1", "--batch", "--forward", "--silent", "-i", patch],
            cwd=submission, capture_output=True, text=True)
        if result.returncode != 0:
            raise AssertionError(
                f"{variant}.patch no longer applies to the kit's {stage}; "
                f"remake the patches with fixtures/make_patches.py {stage}:"
                f"\n{result.stdout}{result.stderr}")
    return submission


def rubric_for(stage, variant, expected):
    """The rubric a variant is graded with; None for the course's. A stage
    whose reference sits near the course's workload thresholds has its own
    (fixtures/STAGE/rubric.txt): the expected grade must not depend on how
    busy the machine is. A variant may name its own (its "rubric", relative
    to fixtures/STAGE): the hostile copies'."""
    own = expected["variants"][variant].get("rubric")
    path = os.path.join(FIXTURES, stage, own or "rubric.txt")
    if os.path.exists(path):
        return path
    if own:
        raise AssertionError(f"{variant}'s rubric {path} is missing")
    return None


def grade(kit, work, stage, submission, variant, test_scale, expected,
          unsandboxed=False):
    name = f"{stage}-{variant}"
    if test_scale is None:
        test_scale = expected.get("test_scale", DEFAULT_TEST_SCALE)
    json_path = os.path.join(work, f"{name}.json")
    if os.path.exists(json_path):
        os.remove(json_path)
    command = [
        sys.executable, os.path.join(os.path.dirname(HERE),
                                     "grade_submission.py"),
        "--kit", kit, "--work", work, "--submission", submission,
        "--stage", stage, "--name", name,
        "--groups", os.path.join(FIXTURES, stage, "groups.txt"),
        "--n", str(expected.get("workload_n", DEFAULT_N)),
        # 2 s timed phases, the grader's own with a reference beside: at
        # 1 s the median of an unchanged trie_bst copy's five per-CPU-second
        # ratios fell to 0.56 on the loaded machine, at 2 s it stayed
        # within 0.88 and 1.31 (docs/experiments/grading.md).
        "--threads", "2", "--seconds", str(FIXTURE_SECONDS),
        "--test-scale", f"{test_scale:g}", "--group-timeout",
        str(expected.get("group_timeout", DEFAULT_GROUP_TIMEOUT)),
        "--sanitizer-timeout", "120",
        "--workload-timeout", "120", "--json", json_path,
        "--private-report", "names", *expected.get("grader_flags", [])]
    if unsandboxed:
        command.append("--unsandboxed")
    private = os.path.join(FIXTURES, stage, "private")
    if os.path.isdir(private):
        command += ["--private-tests", private]
    rubric = rubric_for(stage, variant, expected)
    if rubric:
        command += ["--rubric", rubric]
    result = subprocess.run(command, capture_output=True, text=True)
    sys.stdout.write(result.stdout)
    sys.stderr.write(result.stderr)
    if result.returncode != 0:
        raise AssertionError(f"the grader exited {result.returncode}")
    with open(json_path, encoding="utf-8") as f:
        return json.load(f), result.stdout + result.stderr


def check(expected, variant, grade_json, stdout):
    """The problems with a variant's grade: [] if it is the expected one."""
    want = expected["variants"][variant]
    expected_parts = want["parts"]
    expected_groups = want["failing_groups"]
    expected_score = want["score"]
    max_score = expected["max_score"]
    problems = []
    lost = {p["metric"]: p for p in grade_json["parts"]
            if p["points"] < p["max_points"] - 1e-9}
    if set(lost) != set(expected_parts):
        problems.append(f"parts losing points: {sorted(lost)}, expected "
                        f"{sorted(expected_parts)}")
    for metric, piece in expected_parts.items():
        reason = lost.get(metric, {}).get("reason", "")
        if metric in lost and piece and piece not in reason:
            problems.append(f"{metric}: reason '{reason}' lacks '{piece}'")
    groups = [p for p in grade_json["parts"] if p["metric"] == "test_groups"]
    failing = {d["name"]: d["text"] for d in groups[0]["details"]
               if not d["passed"]} if groups else {}
    if set(failing) != set(expected_groups):
        problems.append(f"failing groups: {sorted(failing)}, expected "
                        f"{sorted(expected_groups)}")
    for group, piece in expected_groups.items():
        if group in failing and piece not in failing[group]:
            problems.append(f"group {group}: '{failing[group]}' lacks "
                            f"'{piece}'")
    # score_up_to: a copy whose speed ratio falls in a ratio line's
    # partial band earns a share of its points that follows the machine.
    highest = want.get("score_up_to", expected_score)
    if not expected_score - 0.05 <= grade_json["score"] <= highest + 0.05:
        problems.append(f"score {grade_json['score']}, expected "
                        f"{expected_score}" + (
                            f" to {highest}" if highest != expected_score
                            else ""))
    if grade_json["max_score"] != max_score:
        problems.append(f"max score {grade_json['max_score']}, expected "
                        f"{max_score}")
    for marker in ("<<< BEGIN GRADE", ">>> END GRADE",
                   f"score: {grade_json['score']:g}/{max_score:g}"):
        if marker not in stdout:
            problems.append(f"the output lacks '{marker}'")
    if len(grade_json["sha256"]) != 64 or not grade_json["kit_commit"]:
        problems.append("the grade does not name the submission and kit")
    return problems


# The work folder's entries that make a grade's starting state: the tree
# and the build directories beside it (grade_submission.py's layout).
STATE = ("tree", "release", "asan", "tsan")
SAVED = "reference-state"


def save_state(work):
    """Copies the tree and builds to work/SAVED, timestamps kept (Ninja
    compares them)."""
    saved = os.path.join(work, SAVED)
    shutil.rmtree(saved, ignore_errors=True)
    os.makedirs(saved)
    for name in STATE:
        if os.path.isdir(os.path.join(work, name)):
            subprocess.run(["cp", "-a", os.path.join(work, name), saved],
                           check=True)


def restore_state(work):
    """Puts the saved tree and builds back: copies each saved file whose
    size or timestamp differs from the one in place (a grade rewrites a few
    sources, objects and binaries, not the hundreds of megabytes of the
    builds), and removes what the saved state does not hold."""
    saved = os.path.join(work, SAVED)
    for name in STATE:
        source, target = os.path.join(saved, name), os.path.join(work, name)
        if not os.path.isdir(source):
            shutil.rmtree(target, ignore_errors=True)
            continue
        for dirpath, dirnames, filenames in os.walk(target, topdown=False):
            rel = os.path.relpath(dirpath, target)
            for entry in filenames + dirnames:
                there = os.path.join(dirpath, entry)
                if not os.path.lexists(os.path.join(source, rel, entry)):
                    if os.path.isdir(there) and not os.path.islink(there):
                        shutil.rmtree(there)
                    else:
                        os.remove(there)
        for dirpath, _, filenames in os.walk(source):
            rel = os.path.relpath(dirpath, source)
            os.makedirs(os.path.join(target, rel), exist_ok=True)
            for entry in filenames:
                old = os.lstat(os.path.join(dirpath, entry))
                there = os.path.join(target, rel, entry)
                try:
                    now = os.lstat(there)
                    if (now.st_size, now.st_mtime_ns, now.st_mode) == (
                            old.st_size, old.st_mtime_ns, old.st_mode):
                        continue
                    os.remove(there)
                except FileNotFoundError:
                    pass
                shutil.copy2(os.path.join(dirpath, entry), there,
                             follow_symlinks=False)


def expand(names):
    """STAGE/VARIANT names: a bare STAGE is its reference, then every
    variant of its expected.json."""
    out = []
    for name in names:
        stage, _, variant = name.partition("/")
        if variant:
            out.append((stage, variant))
        else:
            variants = list(load_expected(stage)["variants"])
            out += [(stage, "reference")] + [
                (stage, v) for v in variants if v != "reference"]
    return out


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--kit", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--test-scale", type=float,
                        help="the stage's tests at this fraction of their "
                        "sizes (the grader's --test-scale; default: "
                        "expected.json's test_scale, else "
                        f"{DEFAULT_TEST_SCALE:g})")
    parser.add_argument("--unsandboxed", action="store_true",
                        help="grade without the sandbox (the hostile copies "
                        "then fail: the proof that they test it)")
    parser.add_argument("variants", nargs="+", metavar="STAGE[/VARIANT]")
    args = parser.parse_args(argv)
    kit, work = os.path.abspath(args.kit), os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    failed = []
    saved = False
    with tempfile.TemporaryDirectory(prefix="kvlab-grade-fixtures-") as tmp:
        targets = Targets(kit, work, tmp)
        try:
            for stage, variant in expand(args.variants):
                name = f"{stage}/{variant}"
                expected = load_expected(stage)
                if variant not in expected["variants"]:
                    parser.error(f"{stage}/expected.json has no {variant}")
                print(f"=== {name}", flush=True)
                start = time.monotonic()
                want = expected["variants"][variant]
                submission = make_submission(kit, stage, variant, tmp, want,
                                             targets)
                before = targets.snapshot(stage)
                try:
                    grade_json, stdout = grade(
                        kit, work, stage, submission, variant,
                        args.test_scale, expected, args.unsandboxed)
                finally:
                    # A reference leaves the state to start from; a broken
                    # copy is undone.
                    if variant == "reference":
                        save_state(work)
                        saved = True
                    elif saved:
                        restore_state(work)
                problems = check(expected, variant, grade_json, stdout)
                if "hostile" in want:
                    problems += targets.problems(stage, before,
                                                 grade_json.get("logs"),
                                                 stdout)
                for problem in problems:
                    print(f"FAIL {name}: {problem}")
                if problems:
                    failed.append(name)
                else:
                    print(f"ok {name}: {grade_json['score']:g}/"
                          f"{expected['max_score']:g} "
                          f"({time.monotonic() - start:.0f} s)", flush=True)
        finally:
            targets.close()
            shutil.rmtree(os.path.join(work, SAVED), ignore_errors=True)
    if failed:
        print(f"{len(failed)} variant(s) graded wrongly: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
