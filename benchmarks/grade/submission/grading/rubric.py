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
min(value / threshold, 1).

The operators x>= and x<= (a workload metric other than correct) judge the
submission against the kit's reference store, run beside it in the same
session, round by round: the median of the rounds' ratios submission /
reference earns all the points at or past the threshold, none at half it
(x>=) or twice it (x<=), and in proportion between (RATIO_SPAN). min and
max are floors, absolute
bounds with 0 points that the metric must also meet for its ratio line to
earn anything:

    stage1  tps  >=   40000  25   # kvgrade alone (make grade STORE=)
    stage1  tps  x>=  0.5    25   # a submission grade: half the reference's
    stage1  tps  min  10000   0   # ... and at least 10,000 whatever the ratio

Where a stage judges a metric by ratio, a submission grade leaves that
metric's absolute lines (>=, <=, ==) out; kvgrade (rubric.cc) reads the
same file and leaves the submission parts, the ratio lines and the floors
out: without a reference, it judges the absolute lines.
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
# Operators judging the ratio submission / reference.
RATIO_OPS = ("x>=", "x<=")
# A ratio line's points fall in proportion from the line to RATIO_SPAN
# times as far from it: x>= 0.5 earns nothing at 0.25, x<= 2 nothing at 4.
RATIO_SPAN = 2.0
# Absolute bounds that gate a ratio line of the same metric.
FLOOR_OPS = ("min", "max")


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

    @property
    def relative(self):
        """Whether the rule judges the ratio to the reference store."""
        return self.op in RATIO_OPS

    @property
    def floor(self):
        return self.op in FLOOR_OPS

    def describe(self):
        if self.floor:
            return f"{self.metric} {self.op} {self.threshold:g}"
        if self.relative:
            return f"{self.metric} {self.op[1:]} {self.threshold:g} x ref"
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
        ops = (">=", "<=", "==") + (
            ("share",) if metric in PART_METRICS else
            () if metric == "correct" else RATIO_OPS + FLOOR_OPS)
        if op not in ops:
            raise RubricError(f"{where}: operator '{op}' is not one of "
                              f"{', '.join(ops)} for {metric}")
        try:
            value = float(threshold)
        except ValueError:
            value = math.nan
        if not math.isfinite(value) or (op in ("share",) + RATIO_OPS
                                        and value <= 0):
            raise RubricError(f"{where}: threshold '{threshold}' is not a "
                              "usable number")
        if not points.isdigit():
            raise RubricError(f"{where}: points '{points}' is not a "
                              "non-negative integer")
        rules.append(Rule(stage, metric, op, value, int(points), number))
    check_floors(rules, source)
    if not rules:
        raise RubricError(f"{source}: no rules")
    return rules


def check_floors(rules, source):
    """A floor (min, max) carries 0 points, and gates a ratio line: its
    stage (or assignment) must judge the metric by ratio."""
    for r in rules:
        if not r.floor:
            continue
        where = f"{source}:{r.line}"
        if r.points:
            raise RubricError(f"{where}: a floor ({r.op}) carries 0 points: "
                              "it only gates its metric's ratio line")
        stages = [r.stage] if r.stage != "*" else stages_of(rules)
        if not any(x.relative and x.metric == r.metric
                   for st in stages for x in rules_for(rules, st)):
            raise RubricError(f"{where}: a floor of {r.metric} without a "
                              f"ratio line (x>=, x<=) of {r.metric} to gate")


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
    n; a ratio to the reference does not either."""
    if rule.metric != "load_seconds" or n == COURSE_N or rule.relative:
        return rule
    return dataclasses.replace(rule, threshold=rule.threshold * n / COURSE_N)


def for_submission(rules):
    """`rules` (one stage's) as a submission grade judges them: a metric
    with a ratio line loses its absolute lines (kvgrade's) and keeps its
    floors; a floor of a metric without one (a '*' floor) gates
    nothing."""
    ratio = {r.metric for r in rules if r.relative}
    return [r for r in rules if (r.metric in ratio) == (r.relative or
                                                        r.floor)]


def ratio_fraction(rule, value):
    """The fraction of an x>= or x<= line's points a ratio earns: 1 on
    the line's side of it, 0 beyond RATIO_SPAN times as far (half the line
    for x>=, twice it for x<=), in proportion between. A ratio that noise
    pushes just past the line costs a few points, not the line's all."""
    t = rule.threshold
    if rule.op == "x>=":
        zero = t / RATIO_SPAN
        fraction = (value - zero) / (t - zero)
    else:
        zero = t * RATIO_SPAN
        fraction = (zero - value) / (zero - t)
    return min(max(fraction, 0.0), 1.0)


def judge(rule, value):
    """(points earned, passed) for a measured value (for an x>= or x<=
    rule, the ratio submission / reference, earning points in proportion
    short of the line: ratio_fraction); None fails."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return 0.0, False
    if rule.op == "share":
        fraction = min(max(value / rule.threshold, 0.0), 1.0)
        return rule.points * fraction, fraction >= 1.0
    if rule.relative:
        fraction = ratio_fraction(rule, value)
        # Tenths of a point: a report need not show a ratio's noise.
        return round(rule.points * fraction, 1), fraction >= 1.0
    at_least = rule.op in (">=", "x>=", "min")
    passed = (value >= rule.threshold if at_least else
              value <= rule.threshold if rule.op in ("<=", "x<=", "max")
              else value == rule.threshold)
    return (float(rule.points) if passed else 0.0), passed
