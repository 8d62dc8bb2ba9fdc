#!/usr/bin/env python3
"""Ranks many submission grades (make leaderboard GRADES=dir).

Reads every grade JSON (grade_submission.py --json) in GRADES and writes
GRADES/leaderboard.md and GRADES/leaderboard.html (or into --out): one
ranked table per stage, by score, then throughput; the HTML page also draws
each stage's throughput against bytes per key as an inline SVG chart. The
page is self-contained: no scripts, nothing fetched.

Exit status: 0 when written; 2 when GRADES holds no submission grade.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from grading import leaderboard, machine  # noqa: E402


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("grades", help="a folder of grade JSON files")
    parser.add_argument("--out", help="where to write (default: GRADES)")
    args = parser.parse_args(argv)
    if not os.path.isdir(args.grades):
        print(f"leaderboard: {args.grades} is not a folder", file=sys.stderr)
        return 2
    entries, notes = leaderboard.load_grades(args.grades)
    for note in notes:
        print(f"leaderboard: {note}", file=sys.stderr)
    if not entries:
        print(f"leaderboard: no submission grade in {args.grades} (make "
              "grade SUBMISSION=... writes them there)", file=sys.stderr)
        return 2
    stages = leaderboard.ranked(entries)
    date = machine.utc_now()
    out = args.out or args.grades
    os.makedirs(out, exist_ok=True)
    for name, text in (("leaderboard.md",
                        leaderboard.markdown(stages, notes, date)),
                       ("leaderboard.html",
                        leaderboard.html_page(stages, notes, date))):
        path = os.path.join(out, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        print(f"leaderboard: wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
