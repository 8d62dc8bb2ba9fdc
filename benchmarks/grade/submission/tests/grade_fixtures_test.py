#!/usr/bin/env python3
"""The grader on real submissions: the kit's own stage 1 (full marks) and
broken copies of it, each a patch in fixtures/stage1/, graded exactly as
an instructor would (grade_submission.py in its own process) at a small
size. Each variant must lose points on exactly the parts listed below, for
the reason given.

Usage: grade_fixtures_test.py --kit ROOT --work DIR VARIANT...

The work folder keeps the grader's builds between runs, so only the first
variant builds the kit (a Release and an ASan+UBSan build); each later one
recompiles the files its patch touches.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "fixtures", "stage1")
sys.path.insert(0, os.path.dirname(HERE))

from grading import source_tree  # noqa: E402

# For each variant: the parts that lose points, each with a piece of its
# reason (None: any reason, where a thread schedule decides which test
# trips first); the test groups that fail; and the score out of 210.
# Every other part must get full points.
EXPECTED = {
    "reference": ({}, set(), 210),
    # The successor's right subtree is dropped: the plain tree loses keys.
    "two_children_loses_keys": (
        {"test_groups": "4 of 8 groups pass"},
        {"bst-delete", "bst-rank", "conformance-bst", "differential"}, 180),
    # AVL's GetNth counts from 1: its tests, the private tests and the
    # workload's checked phase all see wrong keys.
    "getnth_off_by_one": (
        {"test_groups": "5 of 8 groups pass",
         "private_tests": "GetNthWalksTheSortedOrder failed",
         "workload": "checked phase: course check failed"},
        {"avl-delete", "conformance-avl", "differential"}, 67.5),
    # Put("") into an empty AVL tree dereferences a null root.
    "empty_key_crash": (
        {"test_groups": "7 of 8 groups pass",
         "private_tests": "TheEmptyKeyIsTheFirstKey crashed (SIGSEGV)"},
        {"conformance-avl"}, 195.8),
    # Scan's descent never advances past a key smaller than the start.
    "scan_never_returns": (
        {"test_groups": "3 of 8 groups pass"},
        {"bst-rank", "avl-delete", "conformance-bst", "conformance-avl",
         "differential"}, 172.5),
    # Deleted nodes are counted out but never freed: only ASan sees it.
    "leaks_deleted_nodes": (
        {"asan_clean": "LeakSanitizer: "}, set(), 190),
}
# What makes a variant's failure reason: a group's, for these.
GROUP_REASONS = {
    "empty_key_crash": {"conformance-avl": "crashed (SIGSEGV) in Stage1/"
                        "KVStoreConformanceTest.EmptyKeyAndEmptyValue/avl"},
    "scan_never_returns": {g: "timed out after" for g in (
        "bst-rank", "avl-delete", "conformance-bst", "conformance-avl",
        "differential")},
    "two_children_loses_keys": {"bst-delete": "BstStoreTest."
                                "DeleteCoversEveryCase failed"},
}


def make_submission(kit, variant, parent):
    """A copy of the kit's tree, with the variant's patch applied."""
    submission = os.path.join(parent, variant)
    for rel in source_tree.kit_files(kit):
        target = os.path.join(submission, rel)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(os.path.join(kit, rel), target)
    if variant != "reference":
        patch = os.path.join(FIXTURES, variant + ".patch")
        result = subprocess.run(
            ["patch", "-p1", "--batch", "--forward", "--silent", "-i", patch],
            cwd=submission, capture_output=True, text=True)
        if result.returncode != 0:
            raise AssertionError(
                f"{variant}.patch no longer applies to the kit's stage 1; "
                f"remake it against the current sources:\n{result.stdout}"
                f"{result.stderr}")
    return submission


def grade(kit, work, submission, variant):
    json_path = os.path.join(work, f"{variant}.json")
    if os.path.exists(json_path):
        os.remove(json_path)
    command = [
        sys.executable, os.path.join(os.path.dirname(HERE),
                                     "grade_submission.py"),
        "--kit", kit, "--work", work, "--submission", submission,
        "--stage", "stage1", "--name", variant,
        "--groups", os.path.join(FIXTURES, "groups.txt"),
        "--private-tests", os.path.join(FIXTURES, "private"),
        "--n", "20000", "--threads", "2", "--seconds", "1",
        "--group-timeout", "15", "--sanitizer-timeout", "120",
        "--workload-timeout", "120", "--json", json_path]
    result = subprocess.run(command, capture_output=True, text=True)
    sys.stdout.write(result.stdout)
    sys.stderr.write(result.stderr)
    if result.returncode != 0:
        raise AssertionError(f"the grader exited {result.returncode}")
    with open(json_path, encoding="utf-8") as f:
        return json.load(f), result.stdout


def check(variant, grade_json, stdout):
    """The problems with a variant's grade: [] if it is the expected one."""
    expected_parts, expected_groups, expected_score = EXPECTED[variant]
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
    if set(failing) != expected_groups:
        problems.append(f"failing groups: {sorted(failing)}, expected "
                        f"{sorted(expected_groups)}")
    for group, piece in GROUP_REASONS.get(variant, {}).items():
        if group in failing and piece not in failing[group]:
            problems.append(f"group {group}: '{failing[group]}' lacks "
                            f"'{piece}'")
    if abs(grade_json["score"] - expected_score) > 0.05:
        problems.append(f"score {grade_json['score']}, expected "
                        f"{expected_score}")
    if grade_json["max_score"] != 210:
        problems.append(f"max score {grade_json['max_score']}, expected 210")
    for marker in ("<<< BEGIN GRADE", ">>> END GRADE",
                   f"score: {grade_json['score']:g}/210"):
        if marker not in stdout:
            problems.append(f"the output lacks '{marker}'")
    if len(grade_json["sha256"]) != 64 or not grade_json["kit_commit"]:
        problems.append("the grade does not name the submission and kit")
    return problems


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--kit", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("variants", nargs="+", choices=sorted(EXPECTED))
    args = parser.parse_args(argv)
    kit, work = os.path.abspath(args.kit), os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    failed = []
    with tempfile.TemporaryDirectory(prefix="kvlab-grade-fixtures-") as tmp:
        for variant in args.variants:
            print(f"=== {variant}", flush=True)
            submission = make_submission(kit, variant, tmp)
            grade_json, stdout = grade(kit, work, submission, variant)
            problems = check(variant, grade_json, stdout)
            for problem in problems:
                print(f"FAIL {variant}: {problem}")
            if problems:
                failed.append(variant)
            else:
                print(f"ok {variant}: {grade_json['score']:g}/210")
    if failed:
        print(f"{len(failed)} variant(s) graded wrongly: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
