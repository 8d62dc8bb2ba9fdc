#!/usr/bin/env python3
"""Grades one Gradescope submission with the kit in the autograder package.

    run.py [--root /autograder]          run_autograder: grade ROOT/submission
    run.py --warm [--source DIR]         setup.sh: grade the kit's own code,
                                         leaving its builds in the image

The package (make gradescope, package.py) holds the kit in source/kit, the
grade's settings in source/autograder.json and the instructor's private
tests, if any, in source/private. The submission is a kvlab tree: the
upload's top folder, or the one folder under it (an archive of a folder)
that holds the stage's code. Always writes ROOT/results/results.json, even
when the submission cannot be graded (its output then says why); exits 0
unless results.json could not be written.
"""

import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from grading import gradescope, source_tree  # noqa: E402

CONFIG = "autograder.json"


def find_tree(upload, folders):
    """The folder at or below `upload` (three levels at most) holding every
    one of the stage's student `folders`; None if there is none."""
    level = [upload]
    for _ in range(4):
        for candidate in level:
            if all(os.path.isdir(os.path.join(candidate, f))
                   for f in folders):
                return candidate
        level = [os.path.join(d, e) for d in level
                 for e in sorted(os.listdir(d))
                 if os.path.isdir(os.path.join(d, e))
                 and not e.startswith(".")]
    return None


def submitter(root):
    """Who submitted, from Gradescope's submission_metadata.json."""
    try:
        with open(os.path.join(root, "submission_metadata.json"),
                  encoding="utf-8") as f:
            users = json.load(f).get("users") or []
        return str(users[0].get("email") or users[0].get("name"))
    except (OSError, ValueError, IndexError, AttributeError, TypeError):
        return "submission"


def grade_command(source, config, submission, name, json_path):
    kit = os.path.join(source, "kit")
    command = [sys.executable, os.path.join(
        kit, "benchmarks", "grade", "submission", "grade_submission.py"),
        "--kit", kit, "--submission", submission, "--stage", config["stage"],
        "--name", name, "--json", json_path,
        "--jobs", str(max(1, os.cpu_count() or 1))]
    for option, value in (config.get("files") or {}).items():
        command += [f"--{option}", os.path.join(source, value)]
    return command + list(config.get("flags") or [])


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.environ.get(
        "KVLAB_AUTOGRADER_ROOT", "/autograder"))
    parser.add_argument("--source", help="the unpacked package "
                        "(default: ROOT/source)")
    parser.add_argument("--warm", action="store_true",
                        help="grade the kit's own code (setup.sh)")
    args = parser.parse_args(argv)
    source = os.path.abspath(args.source or os.path.join(args.root, "source"))
    with open(os.path.join(source, CONFIG), encoding="utf-8") as f:
        config = json.load(f)
    kit = os.path.join(source, "kit")
    if args.warm:
        out = os.path.join(source, "reference-grade.json")
        command = grade_command(source, config, kit, "reference", out)
        print("setup: grading the kit's reference: " + " ".join(command),
              flush=True)
        return subprocess.run(command).returncode

    start = time.monotonic()
    results_dir = os.path.join(args.root, "results")
    os.makedirs(results_dir, exist_ok=True)
    results_path = os.path.join(results_dir, "results.json")
    folders = source_tree.resolve_stage(kit, config["stage"]).folders
    upload = os.path.join(args.root, "submission")
    tree = find_tree(upload, folders) if os.path.isdir(upload) else None
    if tree is None:
        gradescope.write(gradescope.failure(
            "Not graded: the upload holds no " + " and no ".join(
                f"{f}/" for f in folders) + " folder. Upload your whole "
            "kvlab tree (the handout with your code), or its GitHub "
            "repository.", time.monotonic() - start), results_path)
        return 0
    grade_path = os.path.join(results_dir, "grade.json")
    if os.path.exists(grade_path):
        os.remove(grade_path)
    command = grade_command(source, config, tree, submitter(args.root),
                            grade_path)
    print(" ".join(command), flush=True)
    result = subprocess.run(command, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    sys.stdout.write(result.stdout)
    seconds = time.monotonic() - start
    if result.returncode != 0 or not os.path.exists(grade_path):
        why = [line for line in result.stdout.splitlines()
               if line.startswith("grade_submission:")]
        gradescope.write(gradescope.failure(
            "Not graded: " + (why[-1].partition(": ")[2] if why else
                              f"the grader exited {result.returncode}"),
            seconds), results_path)
        return 0
    with open(grade_path, encoding="utf-8") as f:
        grade = json.load(f)
    data = gradescope.results(grade, seconds)
    made_from = source_tree.read_stamp(tree).get("commit", "")
    if made_from != config.get("kit_commit"):
        # Graded all the same: only the stage's sources come from the upload.
        data["output"] += (f"\nnote: the upload's handout names kit "
                           f"{made_from[:12] or '(none)'}, the autograder's is "
                           f"{config.get('kit_commit', '?')[:12]}")
    gradescope.write(data, results_path)
    print(f"run_autograder: {grade['score']:g}/{grade['max_score']:g}, "
          f"wrote {results_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
