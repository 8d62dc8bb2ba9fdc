"""A submission grade and its three forms: the table people read, the fixed
block scripts parse, and the JSON the leaderboard reads.

The block is line-oriented, "key: value" between two marker lines, in a
fixed order; parts, groups and workload lines are " | "-separated:

    <<< BEGIN GRADE
    submission: alice
    sha256: 3f2a...
    ...
    part: test_groups | 45/60 | FAIL | 9 of 12 groups pass
    group: bst-delete | FAIL | 0/1 tests | BstStoreTest.X failed: ...
    ...
    score: 175/190
    >>> END GRADE
"""

import dataclasses
import json

from .machine import describe_machine

BEGIN_MARKER = "<<< BEGIN GRADE"
END_MARKER = ">>> END GRADE"
FORMAT = "kvlab-submission-grade/1"


@dataclasses.dataclass
class Detail:
    """One line under a part: a test group, a rerun, a workload rule."""
    kind: str  # "group", "sanitizer", "workload"
    name: str
    passed: bool
    text: str = ""  # what was measured, or why it failed
    points: float | None = None
    max_points: float | None = None
    next_step: str = ""


@dataclasses.dataclass
class Part:
    metric: str  # the rubric metric, or "workload"
    title: str
    points: float
    max_points: float
    passed: bool
    value: float | None = None
    reason: str = ""
    details: list = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Grade:
    submission: str
    sha256: str
    stage: str
    store: str
    kit_commit: str
    date: str
    machine: dict
    builds: dict  # name -> description
    options: dict  # n, threads, seconds, seed
    limits: dict
    parts: list
    workload: dict  # correct, failure, metrics
    notes: list = dataclasses.field(default_factory=list)
    logs: str = ""

    @property
    def score(self):
        return round(sum(p.points for p in self.parts), 1)

    @property
    def max_score(self):
        return round(sum(p.max_points for p in self.parts), 1)


def points(x):
    """10 for 10.0, 4.2 for 4.1666."""
    return str(int(round(x))) if abs(x - round(x)) < 1e-9 else f"{x:.1f}"


def number(value):
    """A measured value as people read it: 2,630,560, 200.5, 0.02804."""
    if value is None:
        return "n/a"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.4g}"


def _status(passed):
    return "PASS" if passed else "FAIL"


def _one_line(text):
    return " ".join(str(text).split())


def format_block(grade):
    out = [BEGIN_MARKER]

    def line(key, value):
        out.append(f"{key}: {_one_line(value)}")

    line("submission", grade.submission)
    line("sha256", grade.sha256)
    line("stage", grade.stage)
    line("store", grade.store)
    line("kit", grade.kit_commit)
    line("machine", describe_machine(grade.machine))
    line("build", "; ".join(f"{k}: {v}" for k, v in grade.builds.items()))
    line("date", grade.date)
    line("workload", " ".join(f"{k}={v}" for k, v in grade.options.items()))
    for part in grade.parts:
        line("part", " | ".join([part.metric,
                                 f"{points(part.points)}/"
                                 f"{points(part.max_points)}",
                                 _status(part.passed), _one_line(part.reason)]))
        for d in part.details:
            fields = [d.name, _status(d.passed)]
            if d.points is not None:
                fields.append(f"{points(d.points)}/{points(d.max_points)}")
            fields.append(_one_line(d.text))
            line(d.kind, " | ".join(fields))
    line("score", f"{points(grade.score)}/{points(grade.max_score)}")
    out.append(END_MARKER)
    return "\n".join(out) + "\n"


def format_table(grade):
    rows = []
    for part in grade.parts:
        rows.append((part.title, f"{points(part.points)}/"
                     f"{points(part.max_points)}", _status(part.passed),
                     part.reason))
        for d in part.details:
            text = d.text
            if not d.passed and d.next_step:
                text = f"{text} -> next: {d.next_step}"
            rows.append(("  " + d.name, "", _status(d.passed), text))
    total = grade.max_score
    percent = f"{100 * grade.score / total:.1f}%" if total else "-"
    rows.append(("total", f"{points(grade.score)}/{points(total)}", percent,
                 ""))
    width = max(len(r[0]) for r in rows) + 2
    lines = [
        f"kvlab grade: {grade.submission}, {grade.stage} "
        f"(store {grade.store})",
        f"  submission sha256  {grade.sha256}",
        f"  kit commit         {grade.kit_commit}",
        f"  machine            {describe_machine(grade.machine)}",
    ]
    for name, description in grade.builds.items():
        lines.append(f"  build {name:<12} {description}")
    lines.append("  workload           " + ", ".join(
        f"{k} {v}" for k, v in grade.options.items()))
    for note in grade.notes:
        lines.append(f"  note               {note}")
    lines.append("")
    lines.append(f"  {'part':<{width}}{'points':<10}{'result':<8}"
                 "reason / measured")
    for name, pts, status, text in rows:
        lines.append(f"  {name:<{width}}{pts:<10}{status:<8}{text}".rstrip())
    if grade.logs:
        lines.append(f"  logs: {grade.logs}")
    return "\n".join(lines) + "\n"


def to_json(grade):
    return {
        "format": FORMAT,
        "submission": grade.submission,
        "sha256": grade.sha256,
        "stage": grade.stage,
        "store": grade.store,
        "kit_commit": grade.kit_commit,
        "date": grade.date,
        "machine": grade.machine,
        "builds": grade.builds,
        "options": grade.options,
        "limits": grade.limits,
        "notes": grade.notes,
        "parts": [dataclasses.asdict(p) for p in grade.parts],
        "workload": grade.workload,
        "score": grade.score,
        "max_score": grade.max_score,
        "logs": grade.logs,
    }


def write_json(grade, path):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(to_json(grade), f, indent=1, sort_keys=False)
        f.write("\n")
