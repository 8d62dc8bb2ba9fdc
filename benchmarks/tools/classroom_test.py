#!/usr/bin/env python3
"""A handout's GitHub Actions workflow, run here as a runner would run it
(make grade-check): handout.py writes a stage 1 handout, which is made a
git repository as GitHub Classroom makes one from a template; the workflow
is read with a YAML parser and checked (runs on every push, one job per
assignment in the handout's .kvlab-kit); then each job's steps run in
order in the handout, with the matrix's values put in: the checkout is the
handout itself, a step after a failed one runs only if its `if:` says
`!cancelled()`. On a fresh handout the tests fail on the stubs (the step
fails and prints the progress table) and the grade still runs and prints
a grade block with less than full marks.

With --parse-only (make test, in seconds): handouts of stage 1, of stage
4's two assignments (the compressed trie and its wormhole room) and of
stage 5's two, each workflow read and checked, nothing run.

The handouts are written to a temporary folder (a handout must lie outside
the kit) and removed after.

Usage: classroom_test.py --kit ROOT [--parse-only]
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import classroom  # noqa: E402

EXPRESSION = re.compile(r"\$\{\{\s*matrix\.(\w+)\s*\}\}")


def fail(message):
    raise AssertionError(message)


def read_workflow(handout):
    with open(os.path.join(handout, classroom.WORKFLOW),
              encoding="utf-8") as f:
        workflow = yaml.safe_load(f)
    # YAML 1.1 reads the key `on` as the boolean true.
    triggers = workflow.get("on", workflow.get(True))
    if not isinstance(triggers, dict) or "push" not in triggers:
        fail(f"the workflow does not run on push: {triggers}")
    jobs = workflow.get("jobs") or {}
    if list(jobs) != ["grade"]:
        fail(f"jobs {list(jobs)}, expected one, 'grade'")
    return jobs["grade"]


def make_handout(kit, handout, stages):
    subprocess.run([sys.executable, os.path.join(HERE, "handout.py"),
                    handout, "--stages", stages, "--source", kit],
                   check=True, stdout=subprocess.DEVNULL)


def stage_groups(handout):
    """The names of the groups in the handout's stage1_bst/tests/groups.txt."""
    with open(os.path.join(handout, "stage1_bst", "tests", "groups.txt"),
              encoding="utf-8") as f:
        return [line.split("|")[0].strip() for line in f
                if line.strip() and not line.lstrip().startswith("#")]


def check_matrix(job, handout):
    """The job's matrix entries, which must be the handout's assignments
    (its .kvlab-kit), in order."""
    entries = job["strategy"]["matrix"]["include"]
    with open(os.path.join(handout, ".kvlab-kit"), encoding="utf-8") as f:
        stamp = dict(line.split(": ", 1) for line in f.read().splitlines())
    if [e["assignment"] for e in entries] != stamp["assignments"].split():
        fail(f"matrix {entries}, the handout's assignments "
             f"{stamp['assignments']}")
    return entries


def run_job(job, matrix, handout):
    """Runs a job's steps for one matrix entry: [(step name, exit status,
    output)]."""
    outcomes, failed = [], False
    for step in job["steps"]:
        if "uses" in step:
            if not step["uses"].startswith("actions/checkout@"):
                fail(f"a step uses {step['uses']}, which no local run has")
            outcomes.append(("checkout", 0, ""))
            continue
        condition = str(step.get("if", ""))
        if failed and "!cancelled()" not in condition:
            outcomes.append((step["name"], None, "skipped"))
            continue
        command = EXPRESSION.sub(lambda m: str(matrix[m.group(1)]),
                                 step["run"])
        if "${{" in command:
            fail(f"an expression this test cannot fill in: {command}")
        print(f"=== {step['name']}: {command}", flush=True)
        result = subprocess.run(["bash", "-eo", "pipefail", "-c", command],
                                cwd=handout, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
        print(result.stdout[-4000:], flush=True)
        outcomes.append((step["name"], result.returncode, result.stdout))
        failed |= result.returncode != 0
    return outcomes


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--kit", required=True)
    parser.add_argument("--parse-only", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="kvlab-classroom-") as work:
        return (parse_only if args.parse_only else run_workflow)(
            os.path.abspath(args.kit), work)


def parse_only(kit, work):
    for stages, want in (("stage1", ["stage1"]),
                         ("stage4 stage4_wormhole",
                          ["stage4", "stage4_wormhole"]),
                         ("stage5", ["stage5_memory", "stage5_trie"])):
        handout = os.path.join(work, stages.replace(" ", "-"))
        make_handout(kit, handout, stages)
        entries = check_matrix(read_workflow(handout), handout)
        if [(e["assignment"], e["stage"]) for e in entries] != [
                (a, a[:6]) for a in want]:
            fail(f"the {stages} handout's matrix: {entries}")
        job = read_workflow(handout)
        runs = [s["run"] for s in job["steps"] if "run" in s]
        if runs != ["cmake/deps.sh build",
                    "make test STAGE=${{ matrix.assignment }}",
                    "make grade SUBMISSION=. STAGE=${{ matrix.assignment }} "
                    "UNSANDBOXED=1"]:
            fail(f"the steps: {runs}")
        print(f"ok {stages}: {len(entries)} jobs, steps {runs}")
    return 0


def run_workflow(kit, work):
    handout = os.path.join(work, "handout")
    make_handout(kit, handout, "stage1")
    for command in (["init", "-q", "-b", "main"], ["add", "-A"],
                    ["-c", "user.name=kvlab", "-c", "user.email=kvlab@localhost",
                     "commit", "-q", "-m", "handout"]):
        subprocess.run(["git", "-C", handout, *command], check=True)

    job = read_workflow(handout)
    entries = check_matrix(job, handout)
    names = [s.get("name", s.get("uses")) for s in job["steps"]]
    print("steps: " + "; ".join(names))

    outcomes = run_job(job, entries[0], handout)
    status = {name: code for name, code, _ in outcomes}
    output = {name: out for name, _, out in outcomes}
    problems = []
    if status.get("Install the packages the build needs") != 0:
        problems.append("the packages step failed")
    tests = "Tests and progress table"
    if status.get(tests) in (0, None):
        problems.append(f"the tests passed on the stubs: {status.get(tests)}")
    table = [line.split() for line in output.get(tests, "").splitlines()]
    for group in stage_groups(handout):
        if not any(len(row) > 3 and row[1] == group and row[3] == "FAILED"
                   for row in table):
            problems.append(f"the progress table has no FAILED row for "
                            f"the group {group}")
    if "BstStore::" not in output.get(tests, ""):
        problems.append("the progress table names no function to write")
    grade = output.get("Grade", "")
    match = re.search(r"^score: ([\d.]+)/([\d.]+)$", grade, re.M)
    if status.get("Grade") != 0 or "<<< BEGIN GRADE" not in grade or \
            not match:
        problems.append(f"the grade step (exit {status.get('Grade')}) "
                        "printed no grade block")
    elif float(match.group(1)) >= float(match.group(2)):
        problems.append(f"the stubs got full marks: {match.group(0)}")
    for problem in problems:
        print(f"FAIL: {problem}")
    if not problems:
        print(f"ok: {len(outcomes)} steps ran as a runner runs them; "
              f"grade {match.group(0)}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
