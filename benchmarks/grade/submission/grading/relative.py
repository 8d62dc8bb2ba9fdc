"""The workload run beside the kit's reference store, and the ratios that
the rubric's x>= and x<= lines judge (docs/grading.md).

A grade runs the submission's kvgrade and the reference's in rounds, both
in every round with the same seed, pairs, threads and limits. The order
alternates, reference first in odd rounds and submission first in even
ones (R S, S R, R S, ...), so that neither side always runs in the other's
wake (a warm or a fragmented machine, a hog that starts between them).
Each round gives one ratio submission / reference per metric, and a metric
is judged by the median of its per-round ratios: a busy spell slows the two
runs of its round alike and cancels in their ratio, and one round that a
burst of load hit on one side only is outvoted by the others. Speed is
compared per CPU second of each run (SCORED_AS), which another process on
the machine does not take. The median of the submission's own figures and
of the reference's is kept for the report and for the floors, not for the
ratio.
"""

import dataclasses
import statistics

from . import rubric

# Below these, a figure is mostly the machine's noise (a load of 20,000
# pairs takes some 20 ms, and one descheduling doubles it): both sides
# count as at least this much before their ratio is taken.
RESOLUTION = {"load_seconds": 0.1, "cpu_seconds": 0.1,
              "load_cpu_seconds": 0.1}

# What a ratio line of a speed metric judges: the run's figure per CPU
# second of the process (user + sys), not per wall second. Another process
# on the machine takes wall time from a run, not its CPU time: on the
# shared 2-core course machine the median of an identical trie_bst copy's
# five per-round tps ratios reached 0.44 wall-clock and 0.56 per CPU
# second at 1 s phases, and stayed within 0.88-1.31 per CPU second at 2 s
# (docs/experiments/grading.md). tps is judged as the timed phase's
# operations per CPU second (cpu_tps), load_seconds as the load's CPU
# seconds; the wall-clock ratios are shown beside them, and the absolute
# floors stay in wall-clock figures. What CPU time does not see, a thread
# asleep on a lock or on the disk, it does not charge: the floors and,
# for a store's own locking, the cost of a contended lock's sleeps and
# wake-ups (system time) still do.
SCORED_AS = {"tps": "cpu_tps", "load_seconds": "load_cpu_seconds"}
CPU_METRICS = tuple(SCORED_AS.values())


@dataclasses.dataclass
class Run:
    """One kvgrade run: its metrics (None if it gave none), whether every
    checked answer matched, and why not."""
    metrics: dict
    correct: bool
    reason: str = ""


@dataclasses.dataclass
class Session:
    """The rounds of one grade: the submission's runs and the reference's.
    reference[i], where present, ran in the same round as submission[i];
    first[i] names the side that ran first in round i + 1."""
    submission: list
    reference: list
    first: list = dataclasses.field(default_factory=list)

    @property
    def correct(self):
        """The submission is correct when every one of its runs is."""
        return bool(self.submission) and all(r.correct
                                             for r in self.submission)

    @property
    def reference_correct(self):
        return bool(self.reference) and all(r.correct for r in self.reference)

    @property
    def reason(self):
        """Why the submission is not correct: its first failed run's
        reason."""
        return next((r.reason for r in self.submission if not r.correct), "")

    def pairs(self):
        """(submission run, reference run) of every round in which both
        ran and were correct."""
        return [(s, r) for s, r in zip(self.submission, self.reference)
                if s.correct and r.correct]


def reference_first(round_number):
    """Whether the reference runs first in round round_number (1-based):
    in odd rounds, so that over two rounds each side runs first once."""
    return round_number % 2 == 1


def interleave(run_submission, run_reference, rounds):
    """Runs run_submission(i) and run_reference(i), each returning a Run,
    in rounds i = 1 .. rounds, the reference first in odd rounds and the
    submission first in even ones. Stops after a submission run that is
    not correct (a wrong store earns no speed points, so its speed need not
    be measured again) and runs no more reference rounds once one fails
    (the kit's store is broken: nothing to compare with)."""
    session = Session([], [])

    def reference_ok():
        return not session.reference or session.reference[-1].correct

    for i in range(1, rounds + 1):
        if reference_first(i) and reference_ok():
            session.first.append("reference")
            session.reference.append(run_reference(i))
            run = run_submission(i)
            session.submission.append(run)
            if not run.correct:
                break
            continue
        session.first.append("submission")
        run = run_submission(i)
        session.submission.append(run)
        if not run.correct:
            break
        if reference_ok():
            session.reference.append(run_reference(i))
    return session


def with_cpu_metrics(metrics):
    """metrics with cpu_tps (timed operations per CPU second of the timed
    phase) added where kvgrade gave what it needs."""
    out = dict(metrics)
    ops, cpu = metrics.get("timed_ops"), metrics.get("timed_cpu_seconds")
    if isinstance(ops, (int, float)) and isinstance(cpu, (int, float)) \
            and cpu > 0:
        out["cpu_tps"] = ops / cpu
    return out


def medians(runs, metrics=rubric.WORKLOAD_METRICS):
    """{metric: median over the runs that measured it} for the named
    metrics; the median of an even count is the mean of the middle two."""
    out = {}
    for metric in metrics:
        values = [r.metrics.get(metric) for r in runs if r.metrics]
        values = [v for v in values if isinstance(v, (int, float))]
        if values:
            out[metric] = statistics.median(values)
    return out


def ratio(submission, reference):
    """submission / reference, or None where either is missing or the
    reference is not positive."""
    if submission is None or reference is None or reference <= 0:
        return None
    return submission / reference


def floored(metric, value):
    """value raised to the metric's RESOLUTION."""
    least = RESOLUTION.get(metric)
    return value if least is None or value is None else max(value, least)


def ratios(submission_metrics, reference_metrics):
    """{metric: ratio} for every numeric metric both sides have (correct
    aside), each side raised to the metric's RESOLUTION first."""
    out = {}
    for m, mine in submission_metrics.items():
        theirs = reference_metrics.get(m)
        if m == "correct" or not isinstance(mine, (int, float)) or \
                not isinstance(theirs, (int, float)):
            continue
        out[m] = ratio(floored(m, mine), floored(m, theirs))
    return out


def round_ratios(session, metrics):
    """{metric: [the ratio of each round, in order]} over the rounds in
    which both sides ran correctly and measured the metric."""
    out = {m: [] for m in metrics}
    for mine, theirs in session.pairs():
        each = ratios(with_cpu_metrics(mine.metrics),
                      with_cpu_metrics(theirs.metrics))
        for m in metrics:
            if each.get(m) is not None:
                out[m].append(each[m])
    return {m: v for m, v in out.items() if v}


def paired_ratios(session, metrics):
    """{metric: the median of its per-round ratios}."""
    return {m: statistics.median(v)
            for m, v in round_ratios(session, metrics).items()}


def scored_as(metric):
    """The figure whose per-round ratios a ratio line of `metric` judges:
    SCORED_AS's CPU figure for a speed metric, else the metric itself."""
    return SCORED_AS.get(metric, metric)


def judged_ratios(session, metrics):
    """({metric: the median of the rounds' ratios of scored_as(metric)},
    {metric: those rounds' ratios}): what the ratio lines judge."""
    each = round_ratios(session, [scored_as(m) for m in metrics])
    rounds = {m: each[scored_as(m)] for m in metrics if scored_as(m) in each}
    return {m: statistics.median(v) for m, v in rounds.items()}, rounds
