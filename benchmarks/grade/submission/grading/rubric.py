"""benchmarks/rubric.txt: points per part of a submission grade.

One rule a line, whitespace-separated, '#' starts a comment:

    stage   metric        op     threshold  points
    *       correct       ==     1          40
    stage1  tps           >=     40000      25
    *       test_groups   share  1          60

A stage's line applies to each of its assignments (stage4_wormhole) unless
the assignment has a line of the same metric: its own lines replace the
stage's for their metrics. '*' lines apply to every stage and assignment.

The workload metrics are kvgrade's (correct, load_seconds, tps, cpu_seconds,
peak_rss_mib, bytes_per_key); the submission parts are build, test_groups,
asan_clean, tsan_clean and private_tests. The operators >=, <= and == give
all the points or none; share (submission parts only) gives points x
min(value / threshold, 1). kvgrade (rubric.cc) reads the same file and
leaves the submission parts out.
"""

import dataclasses
import math
import re

WORKLOAD_METRICS = ("correct", "load_seconds", "tps", "cpu_seconds",
                    "peak_rss_mib", "bytes_per_key")
PART_METRICS = ("build", "test_groups", "asan_clean", "tsan_clean",
                "private_tests")
# The course loads 10,000,000 pairs: load_seconds thresholds are for that.
COURSE_N = 10_000_000


class RubricError(Exception):
    """A rubric that cannot be used; the message names the line."""


@dataclasses.dataclass(frozen=True)
class Rule:
    stage: str
    metric: str
    op: str
    threshold: float
    points: int
    line: int = 0

    def describe(self):
        return f"{self.metric} {self.op} {self.threshold:g}"


def parse_rubric(text, source="rubric.txt"):
    rules = []
    for number, raw in enumerate(text.splitlines(), start=1):
        fields = raw.split("#", 1)[0].split()
        if not fields:
            continue
        where = f"{source}:{number}"
        if len(fields) != 5:
            raise RubricError(
                f"{where}: expected 5 fields: stage metric op threshold points")
        stage, metric, op, threshold, points = fields
        if metric not in WORKLOAD_METRICS + PART_METRICS:
            raise RubricError(f"{where}: unknown metric '{metric}'")
        ops = (">=", "<=", "==") + (("share",) if metric in PART_METRICS
                                    else ())
        if op not in ops:
            raise RubricError(f"{where}: operator '{op}' is not one of "
                              f"{', '.join(ops)} for {metric}")
        try:
            value = float(threshold)
        except ValueError:
            value = math.nan
        if not math.isfinite(value) or (op == "share" and value <= 0):
            raise RubricError(f"{where}: threshold '{threshold}' is not a "
                              "usable number")
        if not points.isdigit():
            raise RubricError(f"{where}: points '{points}' is not a "
                              "non-negative integer")
        rules.append(Rule(stage, metric, op, value, int(points), number))
    if not rules:
        raise RubricError(f"{source}: no rules")
    return rules


def read_rubric(path):
    try:
        with open(path, encoding="utf-8") as f:
            return parse_rubric(f.read(), path)
    except OSError as e:
        raise RubricError(f"cannot read the rubric {path}: {e.strerror}") from e


def stage_of(assignment):
    """"stage4" for "stage4_wormhole" and "stage4"; a name that is not
    stageN[_...] is its own stage."""
    match = re.fullmatch(r"(stage\d+)_.+", assignment)
    return match.group(1) if match else assignment


def rules_for(rules, stage):
    """The rules of `stage`, a stage or an assignment of one, in file
    order: the '*' ones, its own, and (for an assignment) its stage's of
    the metrics it has no line of its own for."""
    base = stage_of(stage)
    own = {r.metric for r in rules if r.stage == stage} if base != stage \
        else set()
    return [r for r in rules if r.stage in ("*", stage) or (
        base != stage and r.stage == base and r.metric not in own)]


def stages_of(rules):
    """The stages and assignments with lines of their own."""
    return sorted({r.stage for r in rules if r.stage != "*"})


def knows(rules, stage):
    """Whether the rubric has lines for `stage` or for its stage."""
    names = stages_of(rules)
    return stage in names or stage_of(stage) in names


def scaled_for_n(rule, n):
    """`rule` as it applies to a workload of n pairs: a load time limit is
    the course's time per pair times n; the other limits do not depend on
    n."""
    if rule.metric != "load_seconds" or n == COURSE_N:
        return rule
    return dataclasses.replace(rule, threshold=rule.threshold * n / COURSE_N)


def judge(rule, value):
    """(points earned, passed) for a measured value; None fails."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return 0.0, False
    if rule.op == "share":
        fraction = min(max(value / rule.threshold, 0.0), 1.0)
        return rule.points * fraction, fraction >= 1.0
    passed = {">=": value >= rule.threshold,
              "<=": value <= rule.threshold,
              "==": value == rule.threshold}[rule.op]
    return (float(rule.points) if passed else 0.0), passed
