"""The workload run beside the kit's reference store, and the medians and
ratios that the rubric's x>= and x<= lines judge (docs/grading.md).

A busy machine slows the submission and the reference alike when they take
turns in one session, so their ratio moves far less than either figure:
rounds alternate, submission then reference (A B A B ...), each round with
the same seed, pairs and threads, and each metric's median over the rounds
is compared.
"""

import dataclasses
import statistics

from . import rubric

# Below these, a figure is mostly the machine's noise (a load of 20,000
# pairs takes some 20 ms, and one descheduling doubles it): both sides
# count as at least this much before their ratio is taken.
RESOLUTION = {"load_seconds": 0.1, "cpu_seconds": 0.1}


@dataclasses.dataclass
class Run:
    """One kvgrade run: its metrics (None if it gave none), whether every
    checked answer matched, and why not."""
    metrics: dict
    correct: bool
    reason: str = ""


@dataclasses.dataclass
class Session:
    """The rounds of one grade: the submission's runs and the reference's,
    in the order they ran."""
    submission: list
    reference: list

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


def interleave(run_submission, run_reference, rounds):
    """Runs run_submission(i) and run_reference(i), each returning a Run,
    alternately for i = 1 .. rounds. Stops after a submission run that is
    not correct (a wrong store earns no speed points, so its speed need not
    be measured again) and runs no more reference rounds once one fails
    (the kit's store is broken: nothing to compare with)."""
    session = Session([], [])
    for i in range(1, rounds + 1):
        run = run_submission(i)
        session.submission.append(run)
        if not run.correct:
            break
        if session.reference and not session.reference[-1].correct:
            continue
        session.reference.append(run_reference(i))
    return session


def medians(runs, metrics=rubric.WORKLOAD_METRICS):
    """{metric: median over the runs that measured it} for the named
    metrics that every run of a correct session measured; the median of an
    even count is the mean of the middle two."""
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


def ratios(submission_medians, reference_medians):
    """{metric: ratio} for every metric both sides have (correct aside),
    each side raised to the metric's RESOLUTION first."""
    def floor(metric, value):
        least = RESOLUTION.get(metric)
        return value if least is None or value is None else max(value, least)
    return {m: ratio(floor(m, submission_medians[m]),
                     floor(m, reference_medians.get(m)))
            for m in submission_medians if m != "correct" and
            m in reference_medians}
