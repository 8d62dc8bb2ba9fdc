#!/usr/bin/env python3
"""Grades a whole class, one submission after another, with a progress bar
and a summary.

    make grade-class SUBMISSIONS=submissions STAGE=stage1 [PRIVATE_TESTS=dir]
    grade_class.py --submissions DIR --stage STAGE [--grades DIR] [...]

Every folder of SUBMISSIONS (make collect's layout) is graded by
grade_submission.py in its own process, as make grade SUBMISSION= grades
one; the grades share one work folder, so the kit is built once and each
submission recompiles only its own files. Each grade's JSON goes to
GRADES/<name>-<stage>.json and its full output to GRADES/logs/. The
summary (also GRADES/summary-<stage>.txt) lists every score, the
submissions that could not be graded and why, and those make collect
flagged (SUBMISSIONS/collect.json). Then make leaderboard and make
gradebook read GRADES.

Exit status: 0 when every submission was graded (whatever its score), 1
when some could not be, 2 on a usage error.
"""

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from grading import collect, source_tree  # noqa: E402
from grading.report import points  # noqa: E402

GRADER = os.path.join(HERE, "grade_submission.py")
KIT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
BAR = 24


def minutes(seconds):
    seconds = int(round(seconds))
    return f"{seconds // 60}m{seconds % 60:02d}s"


class Progress:
    """One line redrawn in place on a terminal, one line per step
    elsewhere (a log file, a CI job)."""

    def __init__(self, total, stream=sys.stderr):
        self.total, self.stream = total, stream
        self.start = time.monotonic()
        self.tty = stream.isatty()

    def show(self, done, text):
        filled = BAR * done // self.total if self.total else BAR
        elapsed = time.monotonic() - self.start
        left = (f", about {minutes(elapsed / done * (self.total - done))} "
                "left" if done and done < self.total else "")
        line = (f"grade-class [{'#' * filled}{'.' * (BAR - filled)}] "
                f"{done}/{self.total} {text} ({minutes(elapsed)}{left})")
        if self.tty:
            self.stream.write("\r\033[K" + line)
            if done == self.total:
                self.stream.write("\n")
        else:
            self.stream.write(line + "\n")
        self.stream.flush()


def flagged(submissions):
    """{name: problems} from make collect's manifest, if there is one."""
    try:
        with open(os.path.join(submissions, collect.MANIFEST),
                  encoding="utf-8") as f:
            manifest = json.load(f)
    except (OSError, ValueError):
        return {}
    return {s["name"]: s["problems"] for s in manifest.get("students", [])
            if s.get("problems")}


def check_stage(args):
    """Why the kit cannot grade --stage (a typo, an assignment the stage
    does not have), or "": asked once, not once per submission. The kit is
    the grader's (--kit among the grader flags, else this checkout)."""
    flags = shlex.split(args.grader_flags)
    kit = KIT
    for i, flag in enumerate(flags):
        if flag == "--kit" and i + 1 < len(flags):
            kit = flags[i + 1]
        elif flag.startswith("--kit="):
            kit = flag[len("--kit="):]
    try:
        source_tree.resolve_stage(kit, args.stage)
    except (source_tree.TreeError, OSError) as e:
        return str(e)
    return ""


def grade_one(args, name, grades):
    """(grade JSON or None, why not)."""
    json_path = os.path.join(grades, f"{name}-{args.stage}.json")
    if os.path.exists(json_path):
        os.remove(json_path)
    command = [args.python, args.grader, "--submission",
               os.path.join(args.submissions, name), "--stage", args.stage,
               "--name", name, "--json", json_path, "--quiet",
               "--jobs", str(args.jobs)]
    if args.private_tests:
        command += ["--private-tests", args.private_tests]
    command += shlex.split(args.grader_flags)
    os.makedirs(os.path.join(grades, "logs"), exist_ok=True)
    log = os.path.join(grades, "logs", f"{name}-{args.stage}.txt")
    with open(log, "w", encoding="utf-8") as out:
        result = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT)
    if result.returncode == 0 and os.path.exists(json_path):
        with open(json_path, encoding="utf-8") as f:
            return json.load(f), ""
    with open(log, encoding="utf-8", errors="replace") as f:
        lines = [line.strip() for line in f if line.strip()]
    why = lines[-1] if lines else f"the grader exited {result.returncode}"
    return None, why.removeprefix("grade_submission: ")


def summary(stage, results, flags):
    graded = [(n, g) for n, g, _ in results if g is not None]
    lines = [f"grade-class: {stage}, {len(graded)} of {len(results)} "
             "submissions graded"]
    if graded:
        scores = [g["score"] for _, g in graded]
        top = graded[0][1]["max_score"]
        lines.append(
            f"  scores out of {points(top)}: median {points(statistics.median(scores))}, "
            f"mean {statistics.mean(scores):.1f}, min {points(min(scores))}, "
            f"max {points(max(scores))}; full marks: "
            f"{sum(1 for s in scores if s >= top - 1e-9)}")
    width = max([len(n) for n, _, _ in results] + [7])
    lines.append(f"  {'student':<{width}}  score     notes")
    for name, grade, why in results:
        score = (f"{points(grade['score'])}/{points(grade['max_score'])}"
                 if grade else "-")
        notes = [why] if why else []
        if grade:
            notes += [f"{p['title']}: {p['reason']}" for p in grade["parts"]
                      if p["points"] < p["max_points"] - 1e-9][:2]
        notes += flags.get(name, [])
        lines.append(f"  {name:<{width}}  {score:<9} {'; '.join(notes)}"
                     .rstrip())
    return "\n".join(lines) + "\n"


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--submissions", required=True,
                        help="one folder per student (make collect)")
    parser.add_argument("--stage", required=True)
    parser.add_argument("--grades", default="results/grades")
    parser.add_argument("--private-tests")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--grader-flags", default="",
                        help="more grade_submission.py flags")
    parser.add_argument("--grader", default=GRADER, help=argparse.SUPPRESS)
    parser.add_argument("--python", default=sys.executable,
                        help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if not os.path.isdir(args.submissions):
        print(f"grade-class: {args.submissions} is not a folder",
              file=sys.stderr)
        return 2
    why = check_stage(args)
    if why:
        print(f"grade-class: {why}", file=sys.stderr)
        return 2
    names = sorted(e for e in os.listdir(args.submissions)
                   if os.path.isdir(os.path.join(args.submissions, e))
                   and not e.startswith("."))
    if not names:
        print(f"grade-class: {args.submissions} holds no submission folder",
              file=sys.stderr)
        return 2
    os.makedirs(args.grades, exist_ok=True)
    flags = flagged(args.submissions)
    progress = Progress(len(names))
    progress.show(0, "starting")
    results = []
    for done, name in enumerate(names, start=1):
        grade, why = grade_one(args, name, args.grades)
        results.append((name, grade, why))
        progress.show(done, f"{name}: " + (
            f"{points(grade['score'])}/{points(grade['max_score'])}"
            if grade else "not graded"))
    text = summary(args.stage, results, flags)
    sys.stdout.write(text)
    with open(os.path.join(args.grades, f"summary-{args.stage}.txt"), "w",
              encoding="utf-8") as f:
        f.write(text)
    return 0 if all(g is not None for _, g, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
