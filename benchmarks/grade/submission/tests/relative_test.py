#!/usr/bin/env python3
"""Unit tests of speed and memory graded against the reference store: the
rubric's ratio lines and floors and their partial points, the rounds and
which side runs first, the pairing of each round's runs, the median of the
rounds' ratios, and the workload part they score, with a fake kvgrade.
Standard library only; well under a second."""

import argparse
import os
import sys
import tempfile
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
KIT = os.path.normpath(os.path.join(HERE, "..", "..", "..", ".."))

from grading import parts, relative, report, rubric  # noqa: E402
import grade_submission  # noqa: E402

RUBRIC = """\
*       correct        ==   1       40
stage1  load_seconds   <=   90      15
stage1  load_seconds   x<=  2       15
stage1  load_seconds   max  360     0
stage1  tps            >=   40000   25
stage1  tps            x>=  0.5     25
stage1  tps            min  10000   0
stage1  bytes_per_key  <=   220     20
stage1  bytes_per_key  x<=  1.25    20
stage1  bytes_per_key  max  330     0
stage1  cpu_seconds    <=   100     5
"""


class RatioRubricTest(unittest.TestCase):
    def test_ratio_lines_and_floors_parse(self):
        rules = rubric.parse_rubric(RUBRIC)
        tps = [r for r in rules if r.metric == "tps"]
        self.assertEqual([(r.op, r.relative, r.floor) for r in tps],
                         [(">=", False, False), ("x>=", True, False),
                          ("min", False, True)])
        self.assertEqual(tps[1].describe(), "tps >= 0.5 x ref")
        self.assertEqual(tps[2].describe(), "tps min 10000")

    def test_a_submission_grade_drops_absolute_lines_of_ratio_metrics(self):
        rules = rubric.for_submission(rubric.rules_for(
            rubric.parse_rubric(RUBRIC), "stage1"))
        self.assertEqual([(r.metric, r.op) for r in rules], [
            ("correct", "=="), ("load_seconds", "x<="),
            ("load_seconds", "max"), ("tps", "x>="), ("tps", "min"),
            ("bytes_per_key", "x<="), ("bytes_per_key", "max"),
            ("cpu_seconds", "<=")])
        # A '*' floor gates nothing in a stage without a ratio line.
        shared = rubric.parse_rubric("stage1 tps x>= 1 25\n"
                                     "stage2 tps >= 1 25\n* tps min 5 0\n")
        self.assertEqual([r.op for r in rubric.for_submission(
            rubric.rules_for(shared, "stage2"))], [">="])
        # Without a ratio line the absolute lines stay, as before.
        plain = rubric.parse_rubric("* correct == 1 40\n* tps >= 5 25\n")
        self.assertEqual(rubric.for_submission(plain), plain)

    def test_ratios_and_floors_judge_at_least_and_at_most(self):
        rules = {(r.metric, r.op): r for r in rubric.parse_rubric(RUBRIC)}
        judge = rubric.judge
        self.assertEqual(judge(rules["tps", "x>="], 0.5), (25.0, True))
        self.assertEqual(judge(rules["tps", "x>="], 3.0), (25.0, True))
        self.assertEqual(judge(rules["load_seconds", "x<="], 2.0),
                         (15.0, True))
        self.assertEqual(judge(rules["load_seconds", "x<="], 0.1),
                         (15.0, True))
        self.assertEqual(judge(rules["tps", "min"], 9999)[1], False)
        self.assertEqual(judge(rules["bytes_per_key", "max"], 330)[1], True)
        self.assertEqual(judge(rules["tps", "x>="], None), (0.0, False))

    def test_short_of_a_ratio_line_points_fall_in_proportion(self):
        rules = {(r.metric, r.op): r for r in rubric.parse_rubric(RUBRIC)}
        judge = rubric.judge
        tps, load = rules["tps", "x>="], rules["load_seconds", "x<="]
        # x>= 0.5: all at 0.5, none at 0.25 (half the line), linear between.
        self.assertEqual(judge(tps, 0.49), (24.0, False))
        self.assertEqual(judge(tps, 0.45), (20.0, False))
        self.assertEqual(judge(tps, 0.375), (12.5, False))
        self.assertEqual(judge(tps, 0.25), (0.0, False))
        self.assertEqual(judge(tps, 0.1), (0.0, False))
        # x<= 2: all at 2, none at 4 (twice the line).
        self.assertEqual(judge(load, 2.2), (13.5, False))
        self.assertEqual(judge(load, 3.0), (7.5, False))
        self.assertEqual(judge(load, 4.0), (0.0, False))
        self.assertEqual(judge(load, 9.0), (0.0, False))
        # Absolute lines and floors stay all or nothing.
        self.assertEqual(judge(rules["tps", ">="], 39999), (0.0, False))
        self.assertEqual(judge(rules["bytes_per_key", "<="], 221),
                         (0.0, False))

    def test_a_ratio_does_not_scale_with_n_and_a_load_floor_does(self):
        rules = {(r.metric, r.op): r for r in rubric.parse_rubric(RUBRIC)}
        ratio = rubric.scaled_for_n(rules["load_seconds", "x<="], 1_000_000)
        self.assertEqual(ratio.threshold, 2)
        floor = rubric.scaled_for_n(rules["load_seconds", "max"], 1_000_000)
        self.assertAlmostEqual(floor.threshold, 36)

    def test_errors_name_the_line(self):
        for text, message in (
                ("* correct x>= 1 40\n", "operator 'x>=' is not one of"),
                ("* build min 1 10\n", "operator 'min' is not one of"),
                ("* tps x>= 0 25\n", "threshold '0'"),
                ("* tps x>= 1 25\n* tps min 5 3\n",
                 "rubric.txt:2: a floor (min) carries 0 points"),
                ("stage1 tps >= 1 25\nstage1 tps min 5 0\n",
                 "rubric.txt:2: a floor of tps without a ratio line")):
            with self.assertRaises(rubric.RubricError) as caught:
                rubric.parse_rubric(text)
            self.assertIn(message, str(caught.exception))

    def test_the_shipped_rubric_judges_every_stage_by_ratio(self):
        rules = rubric.read_rubric(os.path.join(KIT, "benchmarks",
                                                "rubric.txt"))
        for stage in ("stage1", "stage2", "stage3", "stage3_ect", "stage4",
                      "stage4_wormhole", "stage5"):
            mine = rubric.for_submission(rubric.rules_for(rules, stage))
            for metric in ("load_seconds", "tps", "bytes_per_key"):
                ops = sorted(r.op for r in mine if r.metric == metric)
                self.assertEqual(len(ops), 2, (stage, metric))
                self.assertIn(ops[1], rubric.RATIO_OPS, (stage, metric))
                self.assertIn(ops[0], rubric.FLOOR_OPS, (stage, metric))
            # The same 100 workload points as before: floors add none.
            self.assertEqual(sum(r.points for r in mine if r.metric in
                                 rubric.WORKLOAD_METRICS), 100, stage)


def run(tps, correct=True, **more):
    return relative.Run({"tps": tps, "correct": int(correct), **more},
                        correct, "" if correct else "checked phase: wrong")


class InterleaveTest(unittest.TestCase):
    def test_rounds_alternate_which_side_runs_first(self):
        order = []

        def mine(i):
            order.append(f"A{i}")
            return run(100 + i)

        def ref(i):
            order.append(f"B{i}")
            return run(200 + i)

        session = relative.interleave(mine, ref, 5)
        self.assertEqual(order, ["B1", "A1", "A2", "B2", "B3", "A3", "A4",
                                 "B4", "B5", "A5"])
        self.assertEqual(session.first, ["reference", "submission"] * 2 +
                         ["reference"])
        self.assertTrue(session.correct and session.reference_correct)
        # Each round's two runs are paired, whichever ran first.
        self.assertEqual([(a.metrics["tps"], b.metrics["tps"])
                          for a, b in session.pairs()],
                         [(100 + i, 200 + i) for i in range(1, 6)])

    def test_a_wrong_submission_stops_the_rounds(self):
        order = []
        answers = iter([run(1), run(2, correct=False), run(3)])

        def mine(i):
            order.append(f"A{i}")
            return next(answers)

        def ref(i):
            order.append(f"B{i}")
            return run(9)

        session = relative.interleave(mine, ref, 3)
        self.assertEqual(order, ["B1", "A1", "A2"])
        self.assertFalse(session.correct)
        self.assertEqual(session.reason, "checked phase: wrong")
        # The round whose submission run failed is no pair.
        self.assertEqual(len(session.pairs()), 1)

    def test_a_failed_reference_is_not_run_again(self):
        order = []

        def mine(i):
            order.append(f"A{i}")
            return run(1)

        def ref(i):
            order.append(f"B{i}")
            return run(0, correct=False)

        session = relative.interleave(mine, ref, 3)
        self.assertEqual(order, ["B1", "A1", "A2", "A3"])
        self.assertTrue(session.correct)
        self.assertFalse(session.reference_correct)
        self.assertEqual(session.pairs(), [])
        self.assertEqual(relative.paired_ratios(session, ["tps"]), {})

    def test_medians_and_ratios(self):
        runs = [run(300, bytes_per_key=200), run(100, bytes_per_key=210),
                run(200, bytes_per_key=190)]
        self.assertEqual(relative.medians(runs),
                         {"correct": 1, "tps": 200, "bytes_per_key": 200})
        # An even count: the mean of the middle two.
        self.assertEqual(relative.medians(runs[:2])["tps"], 200)
        # A run without figures (kvgrade crashed) does not count.
        self.assertEqual(relative.medians(runs + [relative.Run({}, False)])
                         ["tps"], 200)
        self.assertEqual(relative.ratios({"tps": 100, "correct": 1,
                                          "bytes_per_key": 5},
                                         {"tps": 400, "correct": 1}),
                         {"tps": 0.25})
        self.assertIsNone(relative.ratio(1.0, 0.0))
        # A load too short to time is no worse than the reference's.
        self.assertEqual(relative.ratios({"load_seconds": 0.05},
                                         {"load_seconds": 0.02}),
                         {"load_seconds": 1.0})
        self.assertAlmostEqual(relative.ratios(
            {"load_seconds": 0.3}, {"load_seconds": 0.02})["load_seconds"],
            3.0)
        self.assertIsNone(relative.ratio(None, 1.0))

    def test_the_median_of_the_rounds_ratios_not_the_ratio_of_medians(self):
        # A burst of load hits the submission in round 1 and the reference
        # in round 2; each round's ratio is what counts.
        session = relative.Session(
            [run(100), run(200), run(50)], [run(50), run(400), run(50)])
        self.assertEqual(relative.round_ratios(session, ["tps"]),
                         {"tps": [2.0, 0.5, 1.0]})
        self.assertEqual(relative.paired_ratios(session, ["tps"]),
                         {"tps": 1.0})
        # The ratio of the medians would be 100 / 50.
        self.assertEqual(relative.ratios(relative.medians(session.submission),
                                         relative.medians(session.reference))
                         ["tps"], 2.0)
        # Paired by round: shifted by one, the ratios would differ.
        slow = relative.Session([run(10), run(20), run(40)],
                                [run(20), run(40), run(80)])
        self.assertEqual(relative.paired_ratios(slow, ["tps"]),
                         {"tps": 0.5})
        # An even count: the mean of the middle two.
        four = relative.Session([run(1), run(2), run(3), run(8)],
                                [run(1)] * 4)
        self.assertEqual(relative.paired_ratios(four, ["tps"])["tps"], 2.5)

    def test_cpu_throughput_is_operations_per_cpu_second(self):
        metrics = {"timed_ops": 600, "timed_cpu_seconds": 3.0, "tps": 100}
        self.assertEqual(relative.with_cpu_metrics(metrics)["cpu_tps"], 200)
        self.assertNotIn("cpu_tps", relative.with_cpu_metrics(
            {"timed_ops": 600, "timed_cpu_seconds": 0}))
        session = relative.Session(
            [relative.Run({"timed_ops": 300, "timed_cpu_seconds": 1.0,
                           "tps": 100}, True)],
            [relative.Run({"timed_ops": 600, "timed_cpu_seconds": 1.5,
                           "tps": 300}, True)])
        got = relative.paired_ratios(session, ["tps", "cpu_tps"])
        self.assertAlmostEqual(got["tps"], 1 / 3)
        self.assertAlmostEqual(got["cpu_tps"], 300 / 400)


class FakeKvgrade:
    """parts.run_workload's stand-in: answers from two scripts of figures,
    the submission's and the reference's, by the binary it was given."""

    def __init__(self, mine, reference):
        self.scripts = {"mine": list(mine), "reference": list(reference)}
        self.calls = []

    def __call__(self, kvgrade, **kwargs):
        who = "reference" if "/reference/" in kvgrade else "mine"
        self.calls.append((who, kwargs["seconds"], kwargs["n"],
                           kwargs["threads"], kwargs["seed"],
                           kwargs["limits"]))
        metrics, correct = self.scripts[who].pop(0)
        return dict(metrics, correct=int(correct)), correct, (
            "" if correct else "checked phase: course check failed")


def grader(rubric_text, rounds=3):
    """A Grader with just what its workload part reads."""
    work = tempfile.mkdtemp(prefix="relative_test_")
    path = os.path.join(work, "rubric.txt")
    with open(path, "w", encoding="utf-8") as f:
        f.write(rubric_text)
    g = grade_submission.Grader.__new__(grade_submission.Grader)
    g.args = argparse.Namespace(n=1_000_000, threads=4, rounds=rounds,
                                quiet=True)
    g.rules = rubric.rules_for(rubric.read_rubric(path), "stage1")
    g.relative = any(r.relative for r in g.rules)
    g.seconds = 2.0
    g.assignment, g.store, g.rubric_path = "stage1", "avl", path
    g.limits, g.env, g.notes, g.sandbox = parts.Limits(), {}, [], None
    g.work, g.tree = work, os.path.join(work, "tree")
    g.logs = os.path.join(work, "logs")
    g.ref_tree = os.path.join(work, "reference", "tree")
    release = parts.Build("release", os.path.join(work, "release"), ok=True)
    reference = parts.Build("reference", os.path.join(work, "reference",
                                                      "release"), ok=True)
    return g, release, reference


def figures(load, tps, bpk, cores=2.0, load_cpu=None):
    """kvgrade's figures of a run with a 2 s timed phase in which the
    process got `cores` CPUs' time, and a load that took load_cpu CPU
    seconds (default: all of its wall time)."""
    return {"load_seconds": load, "tps": tps, "bytes_per_key": bpk,
            "cpu_seconds": 10, "timed_seconds": 2.0, "timed_ops": tps * 2,
            "timed_cpu_seconds": 2.0 * cores,
            "load_cpu_seconds": load if load_cpu is None else load_cpu}


class WorkloadPartTest(unittest.TestCase):
    def score(self, mine, reference, rubric_text=RUBRIC, built=True):
        g, release, ref = grader(rubric_text)
        if not built:
            ref.ok, ref.reason = False, "Release build failed: x.cc:1: error"
        fake = FakeKvgrade(mine, reference)
        with mock.patch.object(parts, "run_workload", fake):
            part, workload = g.workload_part(release, ref)
        return part, workload, fake, g

    def test_a_copy_of_the_reference_earns_every_point_on_a_busy_machine(
            self):
        # The machine slows in round 2 and 3: both sides alike.
        mine = [(figures(2.5, 250000, 200), True),
                (figures(6.0, 90000, 201), True),
                (figures(5.0, 100000, 200), True)]
        ref = [(figures(2.4, 240000, 200), True),
               (figures(6.2, 95000, 200), True),
               (figures(5.5, 98000, 200), True)]
        part, workload, fake, _ = self.score(mine, ref)
        self.assertEqual([c[0] for c in fake.calls],
                         ["reference", "mine", "mine", "reference",
                          "reference", "mine"])
        # Same seconds, N, threads, seed and limits on both sides.
        self.assertEqual(len({repr(c[1:]) for c in fake.calls}), 1)
        # cpu_seconds, without a ratio line, is judged as it is.
        self.assertEqual((part.points, part.max_points), (105, 105))
        self.assertTrue(part.passed)
        self.assertEqual(workload["rounds"], 3)
        self.assertEqual(workload["metrics"]["tps"], 100000)
        self.assertEqual(workload["reference"]["metrics"]["tps"], 98000)
        # The median of the rounds' ratios (250/240, 90/95, 100/98).
        self.assertAlmostEqual(workload["ratios"]["tps"], 100000 / 98000)
        self.assertEqual([round(x, 3) for x in
                          workload["round_ratios"]["tps"]],
                         [1.042, 0.947, 1.02])
        self.assertEqual(workload["first"],
                         ["reference", "submission", "reference"])
        self.assertEqual(len(workload["runs"]["reference"]), 3)
        self.assertIn("3 rounds, each beside the reference's avl: the "
                      "median of their ratios", part.reason)
        tps = [d for d in part.details if d.name == "tps >= 0.5 x ref"][0]
        self.assertEqual(tps.text, "1.02 x per CPU s (1.04 0.95 1.02), "
                         "wall 1.02 x: 100,000 vs the reference's 98,000")
        block = report.format_block(report.Grade(
            submission="s", sha256="0", stage="stage1", store="avl",
            kit_commit="k", date="d", machine={
                "cpu": "c", "cores": 2, "memory_bytes": 2**30,
                "kernel": "k"}, builds={},
            options={"n": 1, "rounds": 3}, limits={}, parts=[part],
            workload=workload, notes=[], logs=""))
        self.assertIn("workload: tps >= 0.5 x ref | PASS | 25/25 | 1.02 x "
                      "per CPU s (1.04 0.95 1.02), wall 1.02 x: 100,000 vs "
                      "the reference's 98,000", block)
        self.assertIn("workload: n=1 rounds=3", block)

    def test_speed_is_judged_per_cpu_second_so_a_hog_does_not_count(self):
        # Another process takes a core in the submission's runs of rounds
        # 1 to 3: its wall-clock tps and load time suffer, its CPU figures
        # do not.
        mine = [(figures(6.0, 40000, 200, cores=0.8, load_cpu=3.0), True)
                ] * 3 + [(figures(3.0, 100000, 200), True)] * 2
        ref = [(figures(3.0, 100000, 200), True)] * 5
        g, release, reference = grader(RUBRIC, rounds=5)
        with mock.patch.object(parts, "run_workload",
                               FakeKvgrade(mine, ref)):
            part, workload = g.workload_part(release, reference)
        self.assertEqual(workload["ratios"]["tps"], 1.0)
        self.assertEqual(workload["ratios"]["load_seconds"], 1.0)
        self.assertEqual(workload["round_ratios"]["tps"], [1.0] * 5)
        self.assertAlmostEqual(workload["wall_ratios"]["tps"], 0.4)
        self.assertAlmostEqual(workload["wall_ratios"]["load_seconds"], 2.0)
        self.assertEqual(part.points, 105)
        # The same submission, slow per CPU second too, loses them.
        slow = [(figures(6.0, 40000, 200), True)] * 5
        g, release, reference = grader(RUBRIC, rounds=5)
        with mock.patch.object(parts, "run_workload",
                               FakeKvgrade(slow, ref)):
            part, workload = g.workload_part(release, reference)
        self.assertAlmostEqual(workload["ratios"]["tps"], 0.4)
        self.assertEqual({d.name: d.points for d in part.details}
                         ["tps >= 0.5 x ref"], 15.0)

    def test_a_fifth_as_fast_and_too_big_loses_those_lines_only(self):
        mine = [(figures(13.0, 20000, 320), True)] * 3
        ref = [(figures(3.0, 100000, 100), True)] * 3
        part, _, _, _ = self.score(mine, ref)
        earned = {d.name: d.points for d in part.details}
        self.assertEqual(earned["load_seconds <= 2 x ref"], 0)
        self.assertEqual(earned["tps >= 0.5 x ref"], 0)
        self.assertEqual(earned["bytes_per_key <= 1.25 x ref"], 0)
        self.assertEqual(earned["correct == 1"], 40)
        self.assertEqual(part.points, 45)

    def test_a_little_short_of_a_line_loses_a_little(self):
        mine = [(figures(3.3, 45000, 200), True)] * 3
        ref = [(figures(3.0, 100000, 200), True)] * 3
        part, _, _, _ = self.score(mine, ref)
        detail = {d.name: d for d in part.details}
        self.assertEqual(detail["tps >= 0.5 x ref"].points, 20.0)
        self.assertFalse(detail["tps >= 0.5 x ref"].passed)
        self.assertEqual(detail["load_seconds <= 2 x ref"].points, 15)
        self.assertEqual(part.points, 100)
        self.assertFalse(part.passed)

    def test_a_floor_that_fails_takes_its_ratio_lines_points(self):
        # As fast as a reference that is itself hopelessly slow.
        mine = [(figures(2.0, 5000, 200), True)] * 3
        ref = [(figures(2.0, 5000, 200), True)] * 3
        part, _, _, _ = self.score(mine, ref)
        detail = {d.name: d for d in part.details}
        self.assertEqual(detail["tps >= 0.5 x ref"].points, 0)
        self.assertIn("tps's floor fails", detail["tps >= 0.5 x ref"].text)
        self.assertFalse(detail["tps min 10000"].passed)
        self.assertEqual(part.points, 80)

    def test_a_wrong_store_earns_nothing_and_stops(self):
        mine = [(figures(2.0, 250000, 200), True),
                (figures(2.0, 250000, 200), False)]
        ref = [(figures(2.0, 250000, 200), True)]
        part, workload, fake, _ = self.score(mine, ref)
        self.assertEqual([c[0] for c in fake.calls],
                         ["reference", "mine", "mine"])
        self.assertEqual(part.points, 0)
        self.assertFalse(workload["correct"])
        self.assertIn("course check failed", part.reason)

    def test_a_broken_reference_scores_no_ratio_and_says_why(self):
        mine = [(figures(2.0, 250000, 200), True)] * 3
        part, workload, fake, g = self.score(mine, [], built=False)
        self.assertEqual([c[0] for c in fake.calls], ["mine"])
        self.assertEqual(part.points, 45)
        self.assertIn("no reference figure (the reference's build failed",
                      {d.name: d.text for d in part.details}
                      ["tps >= 0.5 x ref"])
        self.assertIn("no speed compared", g.notes[0])
        self.assertEqual(workload["reference"]["metrics"], {})

    def test_a_rubric_without_ratio_lines_runs_kvgrade_once(self):
        plain = ("* correct == 1 40\nstage1 tps >= 40000 25\n"
                 "stage1 load_seconds <= 90 15\n")
        part, workload, fake, _ = self.score(
            [(figures(2.0, 50000, 200), True)], [], rubric_text=plain)
        self.assertEqual([c[0] for c in fake.calls], ["mine"])
        self.assertEqual(part.points, 80)
        self.assertNotIn("rounds", workload)


if __name__ == "__main__":
    unittest.main()
