#!/usr/bin/env python3
"""Writes the grades in a folder as CSV for a course's gradebook.

    make gradebook [GRADES=results/grades] [CSV=file]
    gradebook.py GRADES [--out FILE]

One row per student: per stage, score, maximum, each rubric part's points,
the submission's sha256, the kit commit and the grade's date (the latest
grade of a student and stage when there are several). Exit status 2 when
GRADES holds no submission grade.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from grading import gradebook  # noqa: E402


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("grades", help="a folder of grade JSON files")
    parser.add_argument("--out", help="default: GRADES/grades.csv")
    args = parser.parse_args(argv)
    if not os.path.isdir(args.grades):
        print(f"gradebook: {args.grades} is not a folder", file=sys.stderr)
        return 2
    entries, notes = gradebook.load(args.grades)
    for note in notes:
        print(f"gradebook: {note}", file=sys.stderr)
    if not entries:
        print(f"gradebook: no submission grade in {args.grades}",
              file=sys.stderr)
        return 2
    out = args.out or os.path.join(args.grades, "grades.csv")
    with open(out, "w", encoding="utf-8", newline="") as f:
        f.write(gradebook.to_csv(entries))
    students = len({e.name for e in entries})
    print(f"gradebook: wrote {out} ({students} students, "
          f"{len(entries)} grades)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
