#!/usr/bin/env python3
"""The Gradescope package end to end (make grade-check): package.py writes
stage 1's autograder zip; it is unpacked into a scratch root laid out as
Gradescope lays out /autograder (source/, submission/, results/,
run_autograder copied beside them); setup.sh runs (its package step finds
everything installed here, then it grades the kit's reference); then
run_autograder grades uploads, each checked against Gradescope's
results.json specification and the scores the grader's fixtures expect
(fixtures/stage1/expected.json, graded at the same small sizes):

  reference, inside a top folder   full marks, every entry passed
  getnth_off_by_one                its score; the private tests fail, and
                                   are shown only once grades are published
  an upload without stage1_bst/    score 0, the reason in the output

Usage: gradescope_test.py --kit ROOT --work DIR
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
SUBMISSION_DIR = os.path.dirname(HERE)
sys.path.insert(0, SUBMISSION_DIR)
sys.path.insert(0, HERE)

import grade_fixtures_test as fixtures  # noqa: E402
from grading import gradescope, groups  # noqa: E402

STAGE = "stage1"
# A private test of fixtures/stage1/private: its name must not reach what a
# student sees before the grades are published.
PRIVATE_TEST_NAME = "GetNthWalksTheSortedOrder"


def unpack(archive, target):
    """Extracts like unzip: file modes kept (zipfile drops them)."""
    with zipfile.ZipFile(archive) as z:
        for info in z.infolist():
            path = z.extract(info, target)
            mode = (info.external_attr >> 16) & 0o777
            if mode:
                os.chmod(path, mode)


def grader_flags(expected):
    return ["--n", str(expected.get("workload_n", fixtures.DEFAULT_N)),
            "--threads", "2", "--seconds", "1", "--test-scale",
            f"{expected.get('test_scale', fixtures.DEFAULT_TEST_SCALE):g}",
            "--group-timeout",
            str(expected.get("group_timeout", fixtures.DEFAULT_GROUP_TIMEOUT)),
            "--sanitizer-timeout", "120", "--workload-timeout", "120"]


def check_results(data, expected, variant, group_names):
    """The problems with one results.json ([] if none)."""
    problems = gradescope.schema_problems(data)
    want = expected["variants"][variant] if variant else None
    tests = data.get("tests", [])
    total = sum(t["score"] for t in tests)
    if abs(total - data["score"]) > 0.05:
        problems.append(f"tests add up to {total}, the score is "
                        f"{data['score']}")
    if want is None:
        if data["score"] != 0 or "no stage1_bst/" not in data["output"]:
            problems.append(f"an upload without the stage: {data}")
        return problems
    if abs(data["score"] - want["score"]) > 0.05:
        problems.append(f"score {data['score']}, expected {want['score']}")
    max_total = sum(t["max_score"] for t in tests)
    if abs(max_total - expected["max_score"]) > 0.05:
        problems.append(f"max scores add up to {max_total}, expected "
                        f"{expected['max_score']}")
    names = [t["name"] for t in tests]
    for group in group_names:
        if names.count(f"test group: {group}") != 1:
            problems.append(f"no single entry for test group {group}")
    for part in ("build", "ASan+UBSan", "private tests"):
        if part not in names:
            problems.append(f"no entry for the part '{part}': {names}")
    if not any(n.startswith("workload: ") for n in names):
        problems.append("no workload entry")
    failing = {t["name"][len("test group: "):] for t in tests
               if t["name"].startswith("test group: ") and
               t["status"] == "failed"}
    if failing != set(want["failing_groups"]):
        problems.append(f"failing groups {sorted(failing)}, expected "
                        f"{sorted(want['failing_groups'])}")
    for t in tests:
        private = t["name"] == "private tests"
        visibility = "after_published" if private else "visible"
        if t["visibility"] != visibility:
            problems.append(f"{t['name']}: visibility {t['visibility']}")
        if PRIVATE_TEST_NAME in t["output"]:
            problems.append(f"{t['name']} shows a private test's name")
    if PRIVATE_TEST_NAME in data["output"]:
        problems.append("the summary shows a private test's name")
    # The package grades with the grader's default report of private tests,
    # a count without names (grade_fixtures_test checks the names, which
    # it asks for with --private-report names).
    if "private_tests" in want["parts"]:
        entry = [t for t in tests if t["name"] == "private tests"][0]
        if not re.search(r"\b\d+ of \d+ failed\b", entry["output"]):
            problems.append(f"private tests: '{entry['output']}' does not "
                            "say how many failed")
    return problems


def run_autograder(root, upload_from, nested):
    """Gradescope's per-submission step: a fresh submission/ and results/,
    then /autograder/run_autograder with /autograder as the working
    directory."""
    for name in ("submission", "results"):
        shutil.rmtree(os.path.join(root, name), ignore_errors=True)
    os.makedirs(os.path.join(root, "results"))
    target = os.path.join(root, "submission")
    if upload_from:
        shutil.copytree(upload_from, os.path.join(target, nested)
                        if nested else target)
    else:
        os.makedirs(target)
        with open(os.path.join(target, "README.md"), "w") as f:
            f.write("the wrong files\n")
    env = dict(os.environ, KVLAB_AUTOGRADER_ROOT=root)
    result = subprocess.run([os.path.join(root, "run_autograder")], cwd=root,
                            env=env, capture_output=True, text=True)
    sys.stdout.write(result.stdout[-3000:])
    sys.stderr.write(result.stderr[-3000:])
    if result.returncode != 0:
        raise AssertionError(f"run_autograder exited {result.returncode}")
    with open(os.path.join(root, "results", "results.json"),
              encoding="utf-8") as f:
        return json.load(f)


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--kit", required=True)
    parser.add_argument("--work", required=True)
    args = parser.parse_args(argv)
    kit, work = os.path.abspath(args.kit), os.path.abspath(args.work)
    expected = fixtures.load_expected(STAGE)
    stage_fixtures = os.path.join(fixtures.FIXTURES, STAGE)
    groups_file = os.path.join(stage_fixtures, "groups.txt")
    group_names = [g.name for g in groups.read_groups(groups_file)]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    archive = os.path.join(work, "autograder.zip")
    subprocess.run(
        [sys.executable, os.path.join(SUBMISSION_DIR, "gradescope",
                                      "package.py"), "--kit", kit,
         "--stage", STAGE, "--out", archive, "--private-tests",
         os.path.join(stage_fixtures, "private"), "--groups", groups_file,
         "--grader-flags", " ".join(grader_flags(expected))], check=True)
    root = os.path.join(work, "autograder")
    unpack(archive, os.path.join(root, "source"))
    for name in ("setup.sh", "run_autograder"):
        if not os.access(os.path.join(root, "source", name), os.X_OK):
            raise AssertionError(f"{name} is not executable in the zip")
    shutil.copy2(os.path.join(root, "source", "run_autograder"),
                 os.path.join(root, "run_autograder"))
    start = time.monotonic()
    subprocess.run([os.path.join(root, "source", "setup.sh")], check=True,
                   cwd=os.path.join(root, "source"))
    with open(os.path.join(root, "source", "reference-grade.json"),
              encoding="utf-8") as f:
        warm = json.load(f)
    print(f"setup.sh: the reference graded {warm['score']:g}/"
          f"{warm['max_score']:g} ({time.monotonic() - start:.0f} s)")

    failed = []
    uploads = [("reference", "kvlab-main"), ("getnth_off_by_one", ""),
               (None, "")]
    for variant, nested in uploads:
        start = time.monotonic()
        name = variant or "no stage folder"
        upload = fixtures.make_submission(kit, STAGE, variant, work) \
            if variant else None
        data = run_autograder(root, upload, nested)
        problems = check_results(data, expected, variant, group_names)
        for problem in problems:
            print(f"FAIL {name}: {problem}")
        if problems:
            failed.append(name)
        else:
            print(f"ok {name}: {data['score']:g}, {len(data['tests'])} "
                  f"entries ({time.monotonic() - start:.0f} s)", flush=True)
        if upload:
            shutil.rmtree(upload)
    if failed:
        print(f"results.json wrong for: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
