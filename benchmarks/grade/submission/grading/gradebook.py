"""Grades as a CSV file for a course's gradebook (make gradebook): one row
per student, and for each stage graded its score, its maximum and each
rubric part's points, then the submission's sha256 and the kit commit, so
that a row can be traced to the code and the kit it was graded from.
"""

import csv
import io

from . import leaderboard


def rows(entries):
    """(header, rows) for leaderboard.Entry objects: students sorted by
    name, stages in order, parts in the order the grade lists them."""
    stages = sorted({e.stage for e in entries})
    metrics = {s: [] for s in stages}
    for e in entries:
        for metric in e.parts:
            if metric not in metrics[e.stage]:
                metrics[e.stage].append(metric)
    header = ["student"]
    for s in stages:
        header += [f"{s} score", f"{s} max"]
        header += [f"{s} {m}" for m in metrics[s]]
        header += [f"{s} sha256", f"{s} kit commit", f"{s} graded"]
    by_student = {}
    for e in entries:
        by_student.setdefault(e.name, {})[e.stage] = e
    out = []
    for name in sorted(by_student):
        row = [name]
        for s in stages:
            e = by_student[name].get(s)
            if e is None:
                row += [""] * (2 + len(metrics[s]) + 3)
                continue
            row += [f"{e.score:g}", f"{e.max_score:g}"]
            row += [f"{round(float(e.parts[m]['points']), 2):g}"
                    if m in e.parts else "" for m in metrics[s]]
            row += [e.sha256, e.kit, e.date]
        out.append(row)
    return header, out


def to_csv(entries):
    header, body = rows(entries)
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(body)
    return text.getvalue()


def load(directory):
    """(entries, notes) of the grades in a folder (the leaderboard's)."""
    return leaderboard.load_grades(directory)
