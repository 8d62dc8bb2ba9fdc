#!/usr/bin/env python3
"""Unit tests of the submission grader's pieces: groups and rubric files,
GoogleTest and sanitizer output, limited processes, the tree a grade
builds, the report and the leaderboard. Standard library only; seconds."""

import contextlib
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest
import xml.etree.ElementTree as ElementTree

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
KIT = os.path.normpath(os.path.join(HERE, "..", "..", "..", ".."))

from grading import groups, gtest_log, leaderboard, limits  # noqa: E402
from grading import parts, report, rubric, source_tree  # noqa: E402
import grade_fixtures_test  # noqa: E402
import grade_submission  # noqa: E402


class GroupsTest(unittest.TestCase):
    def test_parses_groups_in_order_and_skips_comments(self):
        parsed = groups.parse_groups(textwrap.dedent("""\
            # name | filter | next | docs
            empty | A.* | Find (src/a.cc) | docs/x.md#2-search

            two | B.C:B.D-B.E | Put, Delete | docs/x.md#3
            """))
        self.assertEqual([g.name for g in parsed], ["empty", "two"])
        self.assertEqual(parsed[1].gtest_filter, "B.C:B.D-B.E")
        self.assertEqual(parsed[0].next_step, "Find (src/a.cc)")
        self.assertEqual(parsed[0].docs, "docs/x.md#2-search")
        self.assertIsNone(parsed[0].binary)

    def test_errors_name_the_line(self):
        for text, message in (
                ("a | A.* | x\n", "groups.txt:1: expected 4 fields"),
                ("a | A.* | x | y\na | B.* | x | y\n", ":2: group 'a' "
                 "appears twice"),
                ("a b | A.* | x | y\n", "has spaces"),
                ("a |  | x | y\n", "empty gtest filter"),
                ("# only a comment\n", "no groups")):
            with self.assertRaises(groups.GroupsError) as caught:
                groups.parse_groups(text)
            self.assertIn(message, str(caught.exception))

    def test_without_a_file_each_binary_is_a_group(self):
        parsed = groups.groups_per_binary(["/b/stage5_test",
                                           "/b/stage5_memory_test"])
        self.assertEqual([(g.name, g.gtest_filter, g.binary) for g in parsed],
                         [("stage5_test", "*", "stage5_test"),
                          ("stage5_memory_test", "*", "stage5_memory_test")])

    @unittest.skipUnless(os.path.isdir(grade_fixtures_test.FIXTURES),
                         "a course handout has no fixtures")
    def test_the_fixture_groups_parse(self):
        for stage, count in (("stage1", 8), ("stage2", 9), ("stage3", 8),
                             ("stage4", 6), ("stage4_wormhole", 6),
                             ("stage5", 18)):
            parsed = groups.read_groups(os.path.join(
                grade_fixtures_test.FIXTURES, stage, "groups.txt"))
            self.assertEqual(len(parsed), count, stage)


class RubricTest(unittest.TestCase):
    def test_the_shipped_rubric_has_every_part_for_every_stage(self):
        rules = rubric.read_rubric(os.path.join(KIT, "benchmarks",
                                                "rubric.txt"))
        for stage in ("stage1", "stage2", "stage3", "stage4", "stage5"):
            metrics = [r.metric for r in rubric.rules_for(rules, stage)]
            for metric in ("correct", "load_seconds", "tps", "bytes_per_key",
                           "build", "test_groups", "asan_clean",
                           "private_tests"):
                self.assertIn(metric, metrics, stage)
            self.assertEqual("tsan_clean" in metrics, stage == "stage4")

    def test_share_gives_a_share_of_the_points(self):
        rule = rubric.parse_rubric("* test_groups share 1 60\n")[0]
        self.assertEqual(rubric.judge(rule, 0.5), (30.0, False))
        self.assertEqual(rubric.judge(rule, 1.0), (60.0, True))
        self.assertEqual(rubric.judge(rule, None), (0.0, False))
        lenient = rubric.parse_rubric("* test_groups share 0.8 60\n")[0]
        self.assertEqual(rubric.judge(lenient, 0.9), (60.0, True))

    def test_comparisons_give_all_or_nothing(self):
        rules = rubric.parse_rubric(
            "* correct == 1 40\nstage1 tps >= 100 25 # fast\n"
            "stage1 bytes_per_key <= 220 20\n")
        self.assertEqual(rubric.judge(rules[0], 1), (40.0, True))
        self.assertEqual(rubric.judge(rules[1], 99.9), (0.0, False))
        self.assertEqual(rubric.judge(rules[2], 220), (20.0, True))
        self.assertEqual(rubric.judge(rules[2], float("nan")), (0.0, False))
        self.assertEqual(len(rubric.rules_for(rules, "stage2")), 1)
        self.assertEqual(rubric.stages_of(rules), ["stage1"])

    def test_an_assignments_lines_replace_its_stages_of_that_metric(self):
        rules = rubric.parse_rubric(
            "* correct == 1 40\nstage4 tps >= 200000 25\n"
            "stage4 bytes_per_key <= 210 20\n"
            "stage4_wormhole bytes_per_key <= 300 20\n"
            "stage4_wormhole tps >= 100000 25\n")
        lines = lambda name: [(r.stage, r.metric)  # noqa: E731
                              for r in rubric.rules_for(rules, name)]
        self.assertEqual(lines("stage4"), [
            ("*", "correct"), ("stage4", "tps"), ("stage4", "bytes_per_key")])
        self.assertEqual(lines("stage4_wormhole"), [
            ("*", "correct"), ("stage4_wormhole", "bytes_per_key"),
            ("stage4_wormhole", "tps")])
        # Without lines of its own an assignment is judged as its stage.
        self.assertEqual(lines("stage4_other"), lines("stage4"))
        self.assertTrue(rubric.knows(rules, "stage4_other"))
        self.assertFalse(rubric.knows(rules, "stage5_memory"))
        self.assertEqual(rubric.stage_of("stage4_wormhole"), "stage4")
        self.assertEqual(rubric.stage_of("stage4"), "stage4")

    def test_load_time_limits_scale_with_n(self):
        rule = rubric.parse_rubric("stage1 load_seconds <= 90 15\n")[0]
        self.assertAlmostEqual(rubric.scaled_for_n(rule, 1_000_000).threshold,
                               9.0)
        self.assertEqual(rubric.scaled_for_n(rule, 10_000_000), rule)
        tps = rubric.parse_rubric("stage1 tps >= 40000 25\n")[0]
        self.assertEqual(rubric.scaled_for_n(tps, 1000), tps)

    def test_errors_name_the_line(self):
        for text, message in (
                ("* tps >= 1\n", ":1: expected 5 fields"),
                ("\n* speed >= 1 1\n", ":2: unknown metric 'speed'"),
                ("* tps share 1 1\n", "operator 'share' is not one of"),
                ("* build >= x 1\n", "threshold 'x'"),
                ("* test_groups share 0 1\n", "threshold '0'"),
                ("* build == 1 -1\n", "points '-1'"),
                ("# nothing\n", "no rules")):
            with self.assertRaises(rubric.RubricError) as caught:
                rubric.parse_rubric(text)
            self.assertIn(message, str(caught.exception))


GTEST_OUTPUT = """\
Running main() from gtest_main.cc
[==========] Running 5 tests from 2 test suites.
[ RUN      ] Bst.Good
[       OK ] Bst.Good (0 ms)
[ RUN      ] Stage1/Conf.Nth/avl
bst_test.cc:42: Failure
Expected equality of these values:
  got
    Which is: 2
[  FAILED  ] Stage1/Conf.Nth/avl, where GetParam() = avl (1 ms)
[ RUN      ] Bst.Skipped
[  SKIPPED ] Bst.Skipped (0 ms)
[ RUN      ] Bst.Throws
unknown file: Failure
C++ exception with description "Put is not written yet" thrown in the test body.
[  FAILED  ] Bst.Throws (0 ms)
[ RUN      ] Bst.Crashes
about to go
"""


class GtestLogTest(unittest.TestCase):
    def test_reads_each_test_and_the_one_that_never_ended(self):
        log = gtest_log.parse_test_output(
            GTEST_OUTPUT + "[  FAILED  ] 1 test, listed below:\n")
        self.assertEqual(log.passed, ["Bst.Good"])
        self.assertEqual(log.failed, ["Stage1/Conf.Nth/avl", "Bst.Throws"])
        self.assertEqual(log.skipped, ["Bst.Skipped"])
        self.assertEqual(log.unfinished, "Bst.Crashes")
        self.assertEqual(log.messages["Stage1/Conf.Nth/avl"],
                         "bst_test.cc:42: Expected equality of these values: "
                         "got Which is: 2")
        self.assertIn("not written yet", log.messages["Bst.Throws"])
        self.assertEqual(log.messages["Bst.Crashes"], "about to go")

    def test_a_long_comparison_keeps_its_expected_side(self):
        value = "(" + "a-long-drawing-of-the-tree " * 20 + ")"
        log = gtest_log.parse_test_output(
            "[ RUN      ] Avl.Draw\n"
            "avl_test.cc:7: Failure\n"
            "Expected equality of these values:\n"
            "  store.DebugString()\n"
            f"    Which is: \"{value}\"\n"
            "  kExpected\n"
            "    Which is: \"(b (a) (c))\"\n"
            "[  FAILED  ] Avl.Draw (0 ms)\n")
        message = log.messages["Avl.Draw"]
        self.assertLessEqual(len(message), gtest_log.MESSAGE_LIMIT)
        self.assertTrue(message.startswith("avl_test.cc:7: Expected "
                                           "equality"), message)
        self.assertTrue(message.endswith('kExpected Which is: "(b (a) '
                                         '(c))"'), message)
        self.assertIn("...", message)

    def test_skipped_tests_count_neither_way(self):
        log = gtest_log.parse_test_output(GTEST_OUTPUT)
        names = ["Bst.Good", "Stage1/Conf.Nth/avl", "Bst.Skipped",
                 "Bst.Throws", "Bst.Crashes"]
        self.assertEqual(parts.count_tests(names, log), (1, 4))

    def test_the_clearest_failure_comes_first(self):
        log = gtest_log.parse_test_output(
            "[ RUN      ] Conf.Stub\n"
            "unknown file: Failure\n"
            "C++ exception with description \"F is not written yet\" "
            "thrown in the test body.\n"
            "[  FAILED  ] Conf.Stub (0 ms)\n"
            "[ RUN      ] Conf.Long\n"
            "t.cc:1: Failure\n"
            "Value of: " + "x" * 150 + "\n"
            "[  FAILED  ] Conf.Long (0 ms)\n"
            "[ RUN      ] Conf.Nth\n"
            "t.cc:2: Failure\n"
            "Expected equality of these values:\n"
            "  store.GetNth(1)\n    Which is: \"b\"\n  \"a\"\n"
            "[  FAILED  ] Conf.Nth (0 ms)\n")
        self.assertEqual(parts.clearest_failure(log), "Conf.Nth")
        reason = parts.failed_tests_reason(log, "/t")
        self.assertTrue(reason.startswith(
            'Conf.Nth failed: t.cc:2: Expected equality of these values: '
            'store.GetNth(1) Which is: "b" "a"; Conf.Stub failed; '
            'Conf.Long failed'), reason)

    def test_lists_tests_and_knows_the_disabled_ones(self):
        names = gtest_log.parse_test_list(textwrap.dedent("""\
            Running main() from gtest_main.cc
            Bst.
              Good
              DISABLED_Slow
            Stage1/Conf.  # TypeParam = x
              Nth/avl  # GetParam() = avl
            """))
        self.assertEqual(names, ["Bst.Good", "Bst.DISABLED_Slow",
                                 "Stage1/Conf.Nth/avl"])
        self.assertEqual([gtest_log.is_disabled(n) for n in names],
                         [False, True, False])
        self.assertTrue(gtest_log.is_disabled("DISABLED_Suite.Test"))
        self.assertTrue(gtest_log.is_disabled("P/DISABLED_Suite.Test/1"))

    def test_names_the_first_sanitizer_report(self):
        leak = ("==1==ERROR: LeakSanitizer: detected memory leaks\n\n"
                "Direct leak of 48 byte(s) in 2 object(s) allocated from:\n"
                "SUMMARY: AddressSanitizer: 48 byte(s) leaked in 2 "
                "allocation(s).\n")
        self.assertEqual(gtest_log.sanitizer_report(leak),
                         "LeakSanitizer: 48 byte(s) leaked in 2 "
                         "allocation(s).")
        uaf = ("==7==ERROR: AddressSanitizer: heap-use-after-free on address "
               "0x6 at pc 0x5\nSUMMARY: AddressSanitizer: heap-use-after-free "
               "/t/stage1_bst/src/a.cc:12 in F\n")
        self.assertEqual(gtest_log.sanitizer_report(uaf),
                         "AddressSanitizer: heap-use-after-free "
                         "/t/stage1_bst/src/a.cc:12 in F")
        ub = ("/t/src/a.cc:3:7: runtime error: signed integer overflow: "
              "2147483647 + 1\nSUMMARY: UndefinedBehaviorSanitizer: "
              "undefined-behavior /t/src/a.cc:3:7 in\n")
        self.assertEqual(gtest_log.sanitizer_report(ub),
                         "UndefinedBehaviorSanitizer: runtime error: signed "
                         "integer overflow: 2147483647 + 1 at /t/src/a.cc:3:7")
        race = ("WARNING: ThreadSanitizer: data race (pid=9)\nSUMMARY: "
                "ThreadSanitizer: data race /t/w.cc:5 in Put\n")
        self.assertEqual(gtest_log.sanitizer_report(race),
                         "ThreadSanitizer: data race /t/w.cc:5 in Put")
        self.assertIsNone(gtest_log.sanitizer_report(GTEST_OUTPUT))


def python(code):
    return [sys.executable, "-c", textwrap.dedent(code)]


class LimitsTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.log = os.path.join(self.dir.name, "log")

    def tearDown(self):
        self.dir.cleanup()

    def run_limited(self, code, **kwargs):
        kwargs.setdefault("timeout", 30)
        return limits.run_limited(python(code), log_path=self.log, **kwargs)

    def test_exit_statuses_and_output(self):
        ok = self.run_limited("print('hello')")
        self.assertEqual((ok.status, ok.exit_code, ok.describe()),
                         ("ok", 0, ""))
        self.assertEqual(ok.output, "hello\n")
        failed = self.run_limited("import sys; sys.exit(3)")
        self.assertEqual((failed.status, failed.describe()),
                         ("failed", "exit status 3"))
        crashed = self.run_limited(
            "import os, signal; os.kill(os.getpid(), signal.SIGSEGV)")
        self.assertEqual((crashed.status, crashed.describe()),
                         ("crashed", "crashed (SIGSEGV)"))
        missing = limits.run_limited(["/nonexistent/binary"], timeout=5,
                                     log_path=self.log)
        self.assertEqual(missing.status, "error")
        self.assertIn("cannot run", missing.describe())

    def test_a_hang_is_killed_with_its_children_at_the_limit(self):
        pid_file = os.path.join(self.dir.name, "child")
        start = time.monotonic()
        outcome = self.run_limited(f"""
            import subprocess, time
            child = subprocess.Popen(["sleep", "60"])
            open({pid_file!r}, "w").write(str(child.pid))
            time.sleep(60)
            """, timeout=1.0)
        self.assertLess(time.monotonic() - start, 20)
        self.assertEqual(outcome.status, "timeout")
        self.assertEqual(outcome.describe(), "timed out after 1 s")
        with open(pid_file) as f:
            child = int(f.read())
        # Gone, or a zombie its new parent has yet to reap.
        time.sleep(0.2)
        try:
            with open(f"/proc/{child}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            state = "gone"
        self.assertIn(state, ("gone", "Z"))

    def test_memory_limits(self):
        # The address-space limit fails the allocation where it is made.
        address = self.run_limited("x = bytearray(512 << 20)",
                                   memory_mib=256)
        self.assertNotEqual(address.status, "ok")
        self.assertIn("MemoryError", address.output)
        # The resident limit kills the whole session from outside.
        resident = self.run_limited("""
            import time
            x = bytearray(400 << 20)
            time.sleep(30)
            """, memory_mib=200, resident=True)
        self.assertEqual(resident.status, "memory")
        self.assertEqual(resident.describe(),
                         "ran out of memory (limit 200 MiB)")
        # An uncaught std::bad_alloc is reported as running out of memory.
        bad_alloc = self.run_limited("""
            import os, signal, sys
            print("terminate called after throwing an instance of "
                  "'std::bad_alloc'", flush=True)
            os.kill(os.getpid(), signal.SIGABRT)
            """, memory_mib=4096)
        self.assertEqual(bad_alloc.status, "memory")

    def test_output_is_limited(self):
        # A program killed by SIGXFSZ at the limit (the default action)...
        killed = limits.run_limited(["yes"], timeout=30, max_output_mib=1,
                                    log_path=self.log)
        self.assertEqual((killed.status, killed.signal_name),
                         ("output", signal.SIGXFSZ.name))
        self.assertEqual(killed.describe(),
                         "killed for writing too much output")
        self.assertLessEqual(os.path.getsize(self.log), 1 << 20)
        # ... or one that ignores the signal and fails its write instead.
        failed = self.run_limited(
            "import sys\nwhile True: sys.stdout.write('x' * 65536)",
            max_output_mib=1)
        self.assertEqual(failed.status, "output")


def write(root, rel, text, mode=0o644):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, mode)


class SourceTreeTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        base = self.dir.name
        self.kit = os.path.join(base, "kit")
        self.submission = os.path.join(base, "student")
        self.tree = os.path.join(base, "tree")
        for rel in ("CMakeLists.txt", "stage1_bst/CMakeLists.txt",
                    "stage1_bst/src/a.cc", "stage1_bst/src/b.cc",
                    "stage1_bst/include/kvlab/stage1/a.h",
                    "stage1_bst/tests/a_test.cc", "common/x.cc",
                    "build/debug/junk"):
            write(self.kit, rel, "kit " + rel)
        write(self.kit, "cmake/deps.sh", "#!/bin/sh\n", 0o755)
        for rel in ("stage1_bst/src/a.cc", "stage1_bst/src/extra.h",
                    "stage1_bst/include/kvlab/stage1/a.h",
                    "stage1_bst/tests/a_test.cc"):
            write(self.submission, rel, "student " + rel)

    def tearDown(self):
        self.dir.cleanup()

    def test_stage_folders(self):
        self.assertEqual(source_tree.stage_dir_name(self.kit, "stage1"),
                         "stage1_bst")
        for stage, message in (("stage2", "no stage2_*/"),
                               ("phase1", "not a stage name")):
            with self.assertRaises(source_tree.TreeError) as caught:
                source_tree.stage_dir_name(self.kit, stage)
            self.assertIn(message, str(caught.exception))

    def test_the_tree_is_the_kit_with_the_students_src_and_include(self):
        plan, files, notes = source_tree.plan_tree(self.kit, self.submission,
                                                   "stage1_bst")
        self.assertEqual(files, ["stage1_bst/include/kvlab/stage1/a.h",
                                 "stage1_bst/src/a.cc",
                                 "stage1_bst/src/extra.h"])
        self.assertEqual(plan["stage1_bst/src/a.cc"],
                         os.path.join(self.submission, "stage1_bst/src/a.cc"))
        # The tests are the kit's, whatever the submission holds.
        self.assertEqual(plan["stage1_bst/tests/a_test.cc"],
                         os.path.join(self.kit, "stage1_bst/tests/a_test.cc"))
        self.assertNotIn("stage1_bst/src/b.cc", plan)
        self.assertNotIn("build/debug/junk", plan)
        self.assertEqual(notes, [
            "missing from the submission (the kit has them): "
            "stage1_bst/src/b.cc",
            "not in the kit (compiled only if included): "
            "stage1_bst/src/extra.h"])

    def test_private_tests_in_the_kit_stay_out_of_the_tree(self):
        plan = {"stage1_bst/src/a.cc": "a", "private/t.cc": "t",
                "private2/u.cc": "u"}
        self.assertEqual(source_tree.without(
            plan, self.kit, os.path.join(self.kit, "private")),
            {"stage1_bst/src/a.cc": "a", "private2/u.cc": "u"})
        # A folder outside the kit leaves the plan as it is.
        self.assertEqual(source_tree.without(plan, self.kit, self.tree), plan)

    def test_sync_writes_only_what_differs(self):
        plan, _, _ = source_tree.plan_tree(self.kit, self.submission,
                                           "stage1_bst")
        self.assertEqual(source_tree.sync_tree(plan, self.tree), len(plan))
        self.assertTrue(os.access(os.path.join(self.tree, "cmake/deps.sh"),
                                  os.X_OK))
        write(self.tree, "stale/file.cc", "left over")
        self.assertEqual(source_tree.sync_tree(plan, self.tree), 1)
        self.assertFalse(os.path.exists(os.path.join(self.tree, "stale")))
        write(self.submission, "stage1_bst/src/a.cc", "student, again")
        self.assertEqual(source_tree.sync_tree(plan, self.tree), 1)
        with open(os.path.join(self.tree, "stage1_bst/src/a.cc")) as f:
            self.assertEqual(f.read(), "student, again")

    def test_the_hash_covers_names_and_bytes_in_sorted_order(self):
        files = ["stage1_bst/src/a.cc", "stage1_bst/src/extra.h"]
        first = source_tree.submission_hash(self.submission, files)
        self.assertEqual(first, source_tree.submission_hash(
            self.submission, list(reversed(files))))
        self.assertEqual(len(first), 64)
        write(self.submission, "stage1_bst/src/a.cc", "student 2")
        self.assertNotEqual(first, source_tree.submission_hash(
            self.submission, files))

    def test_a_submission_without_the_stage_is_refused(self):
        with self.assertRaises(source_tree.TreeError):
            source_tree.plan_tree(self.kit, self.submission, "stage2_btree")

    def test_a_stage_in_rooms_is_graded_room_by_room_or_whole(self):
        for room in ("memory", "trie"):
            for rel in ("src/a.cc", "tests/groups.txt"):
                write(self.kit, f"stage5_hyperion/{room}/{rel}", "kit")
            write(self.submission, f"stage5_hyperion/{room}/src/a.cc",
                  "student " + room)
        write(self.kit, "stage5_hyperion/CMakeLists.txt", "kit")
        unit = source_tree.resolve_stage(self.kit, "stage5_memory")
        self.assertEqual((unit.stage, unit.stage_dir, unit.folders),
                         ("stage5", "stage5_hyperion",
                          ("stage5_hyperion/memory",)))
        self.assertEqual(unit.groups, (os.path.join(
            self.kit, "stage5_hyperion/memory/tests/groups.txt"),))
        self.assertEqual(unit.siblings, ("stage5_hyperion/trie",))
        plan, files, _ = source_tree.plan_tree(self.kit, self.submission,
                                               unit.folders)
        # The other assignment's sources are the kit's.
        self.assertEqual(files, ["stage5_hyperion/memory/src/a.cc"])
        self.assertEqual(plan["stage5_hyperion/trie/src/a.cc"],
                         os.path.join(self.kit,
                                      "stage5_hyperion/trie/src/a.cc"))
        # Without groups of its own at its top, the stage is every room.
        unit = source_tree.resolve_stage(self.kit, "stage5")
        self.assertEqual(unit.folders, ("stage5_hyperion/memory",
                                        "stage5_hyperion/trie"))
        self.assertEqual((len(unit.groups), unit.others, unit.siblings),
                         (2, (), ()))
        self.assertEqual(source_tree.resolve_stage(self.kit, "stage1").folders,
                         ("stage1_bst",))
        for name, message in (("stage5_arena", "no assignment stage5_arena "
                               "(it has stage5_memory, stage5_trie)"),
                              ("stage1_x", "graded whole")):
            with self.assertRaises(source_tree.TreeError) as caught:
                source_tree.resolve_stage(self.kit, name)
            self.assertIn(message, str(caught.exception))

    def root_and_room_kit(self):
        """A stage 4 shaped as the kit's: its own code and groups at the
        folder's top, a room wormhole/ with its own, a shared sync/."""
        for rel in ("CMakeLists.txt", "src/trie.cc", "include/kvlab/t.h",
                    "tests/groups.txt", "sync/src/epoch.cc",
                    "wormhole/src/leaf.cc", "wormhole/include/kvlab/w.h",
                    "wormhole/tests/groups.txt"):
            write(self.kit, f"stage4_ct/{rel}", "kit " + rel)
        for rel in ("src/trie.cc", "include/kvlab/t.h", "wormhole/src/leaf.cc",
                    "wormhole/include/kvlab/w.h", "sync/src/epoch.cc"):
            write(self.submission, f"stage4_ct/{rel}", "kit " + rel)

    def test_a_stage_with_its_own_groups_and_a_room_is_two_assignments(self):
        self.root_and_room_kit()
        self.assertEqual(source_tree.assignments_of(self.kit, "stage4"),
                         ["stage4", "stage4_wormhole"])
        stage = source_tree.resolve_stage(self.kit, "stage4")
        self.assertEqual((stage.folders, stage.others, stage.siblings),
                         (("stage4_ct",), ("stage4_ct/wormhole",),
                          ("stage4_ct/wormhole",)))
        self.assertEqual(stage.groups, (os.path.join(
            self.kit, "stage4_ct/tests/groups.txt"),))
        room = source_tree.resolve_stage(self.kit, "stage4_wormhole")
        self.assertEqual((room.folders, room.others, room.siblings),
                         (("stage4_ct/wormhole",), (), ("stage4_ct",)))
        self.assertEqual(room.groups, (os.path.join(
            self.kit, "stage4_ct/wormhole/tests/groups.txt"),))
        # What each takes from the submission: never the other's sources,
        # nor the shared sync/.
        _, files, _ = source_tree.plan_tree(self.kit, self.submission,
                                            stage.folders)
        self.assertEqual(files, ["stage4_ct/include/kvlab/t.h",
                                 "stage4_ct/src/trie.cc"])
        _, files, _ = source_tree.plan_tree(self.kit, self.submission,
                                            room.folders)
        self.assertEqual(files, ["stage4_ct/wormhole/include/kvlab/w.h",
                                 "stage4_ct/wormhole/src/leaf.cc"])
        # Its test binaries: the stage's own, not the room's.
        self.assertTrue(stage.owns("stage4_ct/stage4_test"))
        self.assertFalse(stage.owns("stage4_ct/wormhole/stage4_wormhole_test"))
        self.assertTrue(room.owns("stage4_ct/wormhole/stage4_wormhole_test"))
        self.assertFalse(room.owns("stage4_ct/stage4_test"))
        self.assertFalse(stage.owns("stage5_x/stage5_test"))
        with self.assertRaises(source_tree.TreeError) as caught:
            source_tree.resolve_stage(self.kit, "stage4_sync")
        self.assertIn("(it has stage4, stage4_wormhole)", str(caught.exception))

    def test_changes_to_the_other_assignment_are_noted_not_graded(self):
        self.root_and_room_kit()
        stage = source_tree.resolve_stage(self.kit, "stage4")
        room = source_tree.resolve_stage(self.kit, "stage4_wormhole")
        self.assertEqual(source_tree.sibling_changes(
            self.kit, self.submission, stage), [])
        write(self.submission, "stage4_ct/wormhole/src/leaf.cc", "student")
        write(self.submission, "stage4_ct/wormhole/src/new.h", "student")
        notes = source_tree.sibling_changes(self.kit, self.submission, stage)
        self.assertEqual(len(notes), 1)
        self.assertIn("changes 2 files of stage4_ct/wormhole/src and "
                      "include (stage4_ct/wormhole/src/leaf.cc, "
                      "stage4_ct/wormhole/src/new.h), which belong to "
                      "stage4_wormhole", notes[0])
        self.assertEqual(source_tree.sibling_changes(
            self.kit, self.submission, room), [])
        write(self.submission, "stage4_ct/src/trie.cc", "student")
        self.assertIn("which belong to stage4;", source_tree.sibling_changes(
            self.kit, self.submission, room)[0])


class KitAssignmentsTest(unittest.TestCase):
    """The kit's own stages resolve to the code their groups test."""

    def resolve(self, name):
        return source_tree.resolve_stage(KIT, name)

    def test_stage4_is_the_compressed_trie_and_its_room_the_wormhole(self):
        stage = self.resolve("stage4")
        self.assertEqual(stage.folders, ("stage4_compressed_trie",))
        self.assertEqual(stage.others, ("stage4_compressed_trie/wormhole",))
        self.assertEqual(stage.groups, (os.path.join(
            KIT, "stage4_compressed_trie/tests/groups.txt"),))
        self.assertEqual(grade_submission.store_for("stage4", "stage4"),
                         "ctrie")
        room = self.resolve("stage4_wormhole")
        self.assertEqual(room.folders, ("stage4_compressed_trie/wormhole",))
        self.assertEqual(room.groups, (os.path.join(
            KIT, "stage4_compressed_trie/wormhole/tests/groups.txt"),))
        self.assertEqual(grade_submission.store_for("stage4_wormhole",
                                                    "stage4"), "wormhole")
        self.assertTrue(stage.owns("stage4_compressed_trie/stage4_test"))
        self.assertFalse(stage.owns(
            "stage4_compressed_trie/wormhole/stage4_wormhole_test"))

    def test_stage5_is_every_room_and_stage5_memory_one(self):
        stage = self.resolve("stage5")
        self.assertEqual(stage.folders, ("stage5_hyperion/memory",
                                         "stage5_hyperion/trie"))
        self.assertEqual(len(stage.groups), 2)
        room = self.resolve("stage5_memory")
        self.assertEqual(room.folders, ("stage5_hyperion/memory",))
        self.assertEqual(grade_submission.store_for("stage5_memory",
                                                    "stage5"), "hyperion")

    def test_every_assignment_has_a_groups_file_and_rubric_lines(self):
        rules = rubric.read_rubric(os.path.join(KIT, "benchmarks",
                                                "rubric.txt"))
        for stage in ("stage1", "stage2", "stage3", "stage4", "stage5"):
            for name in source_tree.assignments_of(KIT, stage):
                unit = self.resolve(name)
                self.assertTrue(all(os.path.isfile(g) for g in unit.groups),
                                name)
                self.assertTrue(rubric.knows(rules, name), name)
                self.assertIsNotNone(
                    grade_submission.store_for(name, unit.stage), name)


@unittest.skipUnless(os.path.isdir(grade_fixtures_test.FIXTURES),
                     "a course handout has no fixtures")
class FixturePatchesTest(unittest.TestCase):
    """Every broken copy of every fixture changes a file the grader takes
    from the submission for the fixture's assignment. A patch that changes
    none is graded on the kit's own sources: the reference's sha256, "0
    files written", full marks, and the fixture test then proves nothing
    about the grader (as stage 4's copies were once graded on the wormhole
    room's sources, untouched). Seconds: only the assignment's src/ and
    include/ and the patched files are copied."""

    def test_every_broken_copy_changes_what_its_assignment_grades(self):
        kit_names = source_tree.kit_files(KIT)
        for name in grade_fixtures_test.fixture_names():
            unit = source_tree.resolve_stage(KIT, name)
            graded = [r for r in kit_names
                      if source_tree.is_student_path(r, unit.folders)]
            expected = grade_fixtures_test.load_expected(name)
            for variant, want in expected["variants"].items():
                if variant == "reference":
                    continue
                with self.subTest(fixture=name, variant=variant):
                    self.check_patch(unit, graded, os.path.join(
                        grade_fixtures_test.FIXTURES, name,
                        want.get("patch", variant) + ".patch"))

    def check_patch(self, unit, graded, patch):
        with open(patch, encoding="utf-8") as f:
            touched = [line[len("+++ b/"):].split("\t")[0].strip()
                       for line in f if line.startswith("+++ b/")]
        self.assertTrue(touched, f"{patch} changes no file")
        with tempfile.TemporaryDirectory() as copy:
            for rel in sorted(set(graded) | set(touched)):
                if os.path.isfile(os.path.join(KIT, rel)):
                    os.makedirs(os.path.dirname(os.path.join(copy, rel)),
                                exist_ok=True)
                    shutil.copy2(os.path.join(KIT, rel),
                                 os.path.join(copy, rel))
            files, _ = source_tree.submission_files(copy, unit.folders)
            reference = source_tree.submission_hash(copy, files)
            result = subprocess.run(
                ["patch", "-p1", "--batch", "--forward", "--silent", "-i",
                 patch], cwd=copy, capture_output=True, text=True)
            self.assertEqual(result.returncode, 0, f"{patch} does not apply: "
                             f"{result.stdout}{result.stderr}")
            files, _ = source_tree.submission_files(copy, unit.folders)
            self.assertNotEqual(
                source_tree.submission_hash(copy, files), reference,
                f"{os.path.basename(patch)} changes none of the files "
                f"{unit.name} takes from a submission ("
                f"{', '.join(f + '/src, include' for f in unit.folders)}; "
                f"it changes {', '.join(touched)}): graded, it would be the "
                "reference")


class PartsTest(unittest.TestCase):
    def test_first_build_error(self):
        self.assertEqual(parts.first_build_error(
            "[3/9] Building CXX object x.o\nFAILED: x.o\n/t/stage1_bst/src/"
            "a.cc:4:3: error: 'Nod' was not declared\n   4 | Nod* n;\n"
            "ninja: build stopped: subcommand failed.\n"),
            "/t/stage1_bst/src/a.cc:4:3: error: 'Nod' was not declared")
        self.assertIn("undefined reference to `kvlab::F()'",
                      parts.first_build_error(
                          "/usr/bin/ld: a.o: in function `G':\na.cc:(.text+0x"
                          "5): undefined reference to `kvlab::F()'\ncollect2:"
                          " error: ld returned 1 exit status\n"))
        self.assertEqual(parts.first_build_error(
            "ninja: error: '/t/src/b.cc', needed by 'b.o', missing and no "
            "known rule to make it\n"),
            "ninja: error: '/t/src/b.cc', needed by 'b.o', missing and no "
            "known rule to make it")
        self.assertEqual(parts.first_build_error(
            "CMake Error at stage1_bst/CMakeLists.txt:2 (add_library):\n"
            "  Cannot find source file:\n\n    src/b.cc\n"),
            "CMake Error at stage1_bst/CMakeLists.txt:2 (add_library): "
            "Cannot find source file: src/b.cc")

    def test_reasons_name_the_test_and_how_it_ended(self):
        log = gtest_log.parse_test_output(GTEST_OUTPUT)
        names = ["Bst.Good", "Stage1/Conf.Nth/avl", "Bst.Skipped",
                 "Bst.Throws", "Bst.Crashes"]

        def outcome(status, **kw):
            return limits.Outcome(status, kw.get("code"), kw.get("signal"),
                                  1.0, "", 15, None)

        self.assertEqual(parts.test_failure_reason(
            names, log, outcome("crashed", signal="SIGSEGV"), None, "/t"),
            "crashed (SIGSEGV) in Bst.Crashes: about to go")
        self.assertEqual(parts.test_failure_reason(
            names, log, outcome("timeout"), None, "/t"),
            "timed out after 15 s in Bst.Crashes: about to go")
        self.assertEqual(parts.test_failure_reason(
            names, log, outcome("ok"), "LeakSanitizer: 8 byte(s) leaked",
            "/t"), "LeakSanitizer: 8 byte(s) leaked in Bst.Crashes")
        log.unfinished = None
        self.assertEqual(parts.test_failure_reason(
            names, log, outcome("failed", code=1), None, "/t"),
            "Stage1/Conf.Nth/avl failed: bst_test.cc:42: "
            "Expected equality of these values: got Which is: 2; Bst.Throws "
            "failed")
        log.failed = []
        self.assertEqual(parts.test_failure_reason(
            names, log, outcome("failed", code=1), None, "/t"),
            "3 of 5 tests did not run (first: Stage1/Conf.Nth/avl); exit "
            "status 1")

    def test_compile_flags_come_from_the_compile_commands(self):
        with tempfile.TemporaryDirectory() as build:
            with open(os.path.join(build, "compile_commands.json"), "w") as f:
                json.dump([{"file": "/t/common/src/x.cc", "command": "c++ -O3"},
                           {"file": "/t/stage1_bst/src/a.cc",
                            "command": "/usr/bin/c++ -DKVLAB_SANITIZER=\"\" "
                            "-I/t/x -O2 -DNDEBUG -std=c++20 -Wall -fPIC -o "
                            "a.o -c /t/stage1_bst/src/a.cc"}], f)
            self.assertEqual(parts.compile_flags(build, "stage1_bst"),
                             "-O2 -DNDEBUG -std=c++20")
            self.assertEqual(parts.compile_flags(build, "stage2_btree"), "")


def sample_grade(name="alice", score_parts=((10, 10), (45, 60)), tps=2e6,
                 correct=True):
    part_list = [report.Part("build", "build", *score_parts[0], True, 1.0),
                 report.Part("test_groups", "test groups", *score_parts[1],
                             False, 0.75, "6 of 8 groups pass", [
                                 report.Detail("group", "empty", True,
                                               "3/3 tests", 7.5, 7.5),
                                 report.Detail("group", "delete", False,
                                               "0/1 tests: X failed", 0.0,
                                               7.5, "Unlink (docs/a.md#3)")])]
    return report.Grade(
        submission=name, sha256="ab" * 32, stage="stage1", store="avl",
        kit_commit="c0ffee", date="2026-01-02T03:04:05Z",
        machine={"cpu": "cpu", "cores": 2, "memory_bytes": 2 << 30,
                 "kernel": "Linux 6"},
        builds={"release": "g++ 12; -O2 -DNDEBUG"},
        options={"n": 1000, "threads": 2, "seconds": 1.0, "seed": 42},
        limits={}, parts=part_list,
        workload={"correct": correct, "failure": "",
                  "metrics": {"tps": tps, "bytes_per_key": 200.5,
                              "load_seconds": 0.5}},
        notes=["graded in 3 s"])


class ReportTest(unittest.TestCase):
    def test_the_block_has_a_fixed_order_between_the_markers(self):
        block = report.format_block(sample_grade()).splitlines()
        self.assertEqual(block[0], "<<< BEGIN GRADE")
        self.assertEqual(block[-1], ">>> END GRADE")
        self.assertEqual([line.split(":", 1)[0] for line in block[1:-1]], [
            "submission", "sha256", "stage", "store", "kit", "machine",
            "build", "date", "workload", "part", "part", "group", "group",
            "score"])
        self.assertIn("part: test_groups | 45/60 | FAIL | 6 of 8 groups pass",
                      block)
        self.assertIn("group: delete | FAIL | 0/7.5 | 0/1 tests: X failed",
                      block)
        self.assertEqual(block[-2], "score: 55/70")

    def test_the_table_and_the_json(self):
        grade = sample_grade()
        table = report.format_table(grade)
        self.assertIn("0/1 tests: X failed -> next: Unlink (docs/a.md#3)",
                      table)
        self.assertRegex(table, r"total\s+55/70\s+78.6%")
        data = json.loads(json.dumps(report.to_json(grade)))
        self.assertEqual(data["format"], report.FORMAT)
        self.assertEqual((data["score"], data["max_score"]), (55, 70))
        self.assertEqual(data["parts"][1]["details"][1]["next_step"],
                         "Unlink (docs/a.md#3)")

    def test_the_table_leaves_out_clean_reruns(self):
        grade = sample_grade()
        grade.parts.append(report.Part(
            "asan_clean", "ASan+UBSan", 0, 20, False, 0.0, "b: leak", [
                report.Detail("sanitizer", "a", True, "clean"),
                report.Detail("sanitizer", "b", False, "LeakSanitizer: x")]))
        table = report.format_table(grade)
        self.assertNotIn("clean", table)
        self.assertIn("LeakSanitizer: x", table)
        block = report.format_block(grade)
        self.assertIn("sanitizer: a | PASS | clean", block)

    def test_numbers(self):
        self.assertEqual(report.points(10.0), "10")
        self.assertEqual(report.points(60 / 9), "6.7")
        self.assertEqual(report.number(2630560.4), "2,630,560")
        self.assertEqual(report.number(200.499), "200.5")
        self.assertEqual(report.number(None), "n/a")


class LeaderboardTest(unittest.TestCase):
    def test_ranks_and_draws_every_grade(self):
        with tempfile.TemporaryDirectory() as grades:
            for grade in (sample_grade("bob", tps=1e6),
                          sample_grade("alice", tps=3e6),
                          sample_grade("carol|x", ((0, 10), (0, 60)),
                                       correct=False)):
                report.write_json(grade, os.path.join(
                    grades, grade.submission.replace("|", "") + ".json"))
            with open(os.path.join(grades, "other.json"), "w") as f:
                f.write('{"store": "avl"}')
            entries, notes = leaderboard.load_grades(grades)
            self.assertEqual(notes, ["other.json: not a submission grade, "
                                     "left out"])
            stages = leaderboard.ranked(entries)
            self.assertEqual([e.name for e in stages["stage1"]],
                             ["alice", "bob", "carol|x"])
            md = leaderboard.markdown(stages, notes, "today")
            self.assertIn("## stage1 (store avl, n=1,000)", md)
            self.assertIn("| 1 | alice | 55/70 | 1/2 | - | - | 3,000,000 | "
                          "200.5 | 0.5 | abababababab |", md)
            self.assertIn("| 3 | carol\\|x | 0/70 |", md)
            page = leaderboard.html_page(stages, notes, "today")
            self.assertNotIn("<script", page)
            self.assertNotIn("http://", page.replace(
                'xmlns="http://www.w3.org/2000/svg"', ""))
            self.assertIn("Not plotted (workload not correct): carol|x.", page)
            svg = page[page.index("<svg"):page.index("</svg>") + 6]
            root = ElementTree.fromstring(svg)
            circles = root.findall(".//{http://www.w3.org/2000/svg}circle")
            self.assertEqual(len(circles), 2)
            # More throughput is higher on the page.
            ys = {c.find("{http://www.w3.org/2000/svg}title").text.split(":")[0]:
                  float(c.get("cy")) for c in circles}
            self.assertLess(ys["alice"], ys["bob"])

    def test_ticks_cover_the_range_with_round_steps(self):
        self.assertEqual(leaderboard._ticks(0, 2.6e6),
                         [0, 1000000, 2000000, 3000000])
        self.assertEqual(leaderboard._ticks(190, 211),
                         [190, 195, 200, 205, 210, 215])
        self.assertEqual(leaderboard._short(2.5e6), "2.5M")


class OptionsTest(unittest.TestCase):
    def test_the_test_scale_is_a_fraction_and_full_by_default(self):
        base = ["--submission", KIT, "--stage", "stage1"]
        self.assertEqual(grade_submission.parse_args(base).test_scale, 1.0)
        self.assertEqual(grade_submission.parse_args(
            base + ["--test-scale", "0.25"]).test_scale, 0.25)
        for bad in ("0", "1.5", "-1"):
            with self.assertRaises(SystemExit), \
                    contextlib.redirect_stderr(io.StringIO()):
                grade_submission.parse_args(base + ["--test-scale", bad])

    def test_a_scaled_grade_says_so_and_passes_the_scale_on(self):
        args = grade_submission.parse_args(
            ["--submission", KIT, "--stage", "stage1", "--test-scale",
             "0.25"])
        grader = grade_submission.Grader(args)
        self.assertEqual(grader.env["KVLAB_TEST_SCALE"], "0.25")
        self.assertTrue(any("0.25 of their sizes" in n
                            for n in grader.notes))
        args.test_scale = 1.0
        self.assertNotIn("KVLAB_TEST_SCALE",
                         grade_submission.Grader(args).env)


class FixtureExpectationsTest(unittest.TestCase):
    """The fixture test's check fails a grade that is not the expected
    one."""

    def grade_json(self, lost_groups=(), score=210):
        details = [{"name": g, "passed": g not in lost_groups, "text": "t"}
                   for g in ("bst-delete", "conformance-avl")]
        return {"parts": [
            {"metric": "test_groups", "points": 60 - 7.5 * len(lost_groups),
             "max_points": 60, "reason": f"{2 - len(lost_groups)} of 8 "
             "groups pass", "details": details},
            {"metric": "workload", "points": 100, "max_points": 100,
             "reason": "", "details": []}],
            "score": score, "max_score": 210, "sha256": "a" * 64,
            "kit_commit": "c"}

    EXPECTED = {"max_score": 210, "variants": {
        "reference": {"score": 210, "parts": {}, "failing_groups": {}},
        "empty_key_crash": {
            "score": 195.8, "failing_groups": {"conformance-avl": "crashed"},
            "parts": {"test_groups": "7 of 8", "private_tests": ""}}}}

    def test_reference_must_be_full_marks(self):
        stdout = "<<< BEGIN GRADE\nscore: 210/210\n>>> END GRADE\n"
        self.assertEqual(grade_fixtures_test.check(
            self.EXPECTED, "reference", self.grade_json(), stdout), [])
        problems = grade_fixtures_test.check(
            self.EXPECTED, "reference", self.grade_json(["bst-delete"], 202.5),
            stdout)
        self.assertIn("parts losing points: ['test_groups'], expected []",
                      problems)
        self.assertIn("score 202.5, expected 210", problems)

    def test_score_up_to_accepts_a_partial_band_and_nothing_outside(self):
        expected = {"max_score": 210, "variants": {"slow": {
            "score": 185, "score_up_to": 195, "failing_groups": {},
            "parts": {"workload": ""}}}}
        for score, ok in ((185, True), (190.4, True), (195, True),
                          (184.9, False), (195.1, False)):
            grade = self.grade_json(score=score)
            grade["parts"][1]["points"] = 100 - (210 - score)
            stdout = (f"<<< BEGIN GRADE\nscore: {score:g}/210\n"
                      ">>> END GRADE\n")
            problems = grade_fixtures_test.check(expected, "slow", grade,
                                                 stdout)
            self.assertEqual(problems == [], ok, (score, problems))
            if not ok:
                self.assertIn(f"score {score}, expected 185 to 195",
                              problems)

    def test_a_broken_variant_must_lose_exactly_its_parts(self):
        problems = grade_fixtures_test.check(
            self.EXPECTED, "empty_key_crash", self.grade_json(), "")
        self.assertIn("parts losing points: [], expected ['private_tests', "
                      "'test_groups']", problems)
        self.assertIn("failing groups: [], expected ['conformance-avl']",
                      problems)

    def test_a_broken_copy_is_undone_to_the_saved_state(self):
        """The saved tree and builds come back byte for byte with their
        timestamps (Ninja compares them), and what a broken copy added
        goes."""
        with tempfile.TemporaryDirectory() as work:
            def write(rel, text):
                os.makedirs(os.path.dirname(os.path.join(work, rel)),
                            exist_ok=True)
                with open(os.path.join(work, rel), "w") as f:
                    f.write(text)
            write("tree/stage1_bst/src/a.cc", "reference")
            write("release/a.o", "object")
            os.utime(os.path.join(work, "tree/stage1_bst/src/a.cc"),
                     ns=(1_000_000_123, 1_000_000_123))
            grade_fixtures_test.save_state(work)
            write("tree/stage1_bst/src/a.cc", "patched")
            write("tree/stage1_bst/src/b.cc", "added")
            os.remove(os.path.join(work, "release/a.o"))
            write("asan/c.o", "built for the patch")
            grade_fixtures_test.restore_state(work)
            source = os.path.join(work, "tree/stage1_bst/src/a.cc")
            with open(source) as f:
                self.assertEqual(f.read(), "reference")
            self.assertEqual(os.stat(source).st_mtime_ns, 1_000_000_123)
            self.assertTrue(os.path.isfile(os.path.join(work, "release/a.o")))
            self.assertFalse(os.path.exists(
                os.path.join(work, "tree/stage1_bst/src/b.cc")))
            self.assertFalse(os.path.exists(os.path.join(work, "asan")))

    @unittest.skipUnless(os.path.isdir(grade_fixtures_test.FIXTURES),
                         "a course handout has no fixtures")
    def test_a_stage_alone_is_its_reference_then_every_broken_copy(self):
        order = grade_fixtures_test.expand(["stage2", "stage1/reference"])
        self.assertEqual(order[0], ("stage2", "reference"))
        self.assertEqual(order[-1], ("stage1", "reference"))
        self.assertEqual(
            {v for s, v in order[1:-1]},
            set(self.stage_variants("stage2")) - {"reference"})

    def stage_variants(self, stage):
        return grade_fixtures_test.load_expected(stage)["variants"]

    @unittest.skipUnless(os.path.isdir(grade_fixtures_test.FIXTURES),
                         "a course handout has no fixtures")
    def test_every_patch_has_an_expected_grade(self):
        for stage in grade_fixtures_test.fixture_names():
            expected = grade_fixtures_test.load_expected(stage)
            patches = {f[:-len(".patch")] for f in os.listdir(os.path.join(
                grade_fixtures_test.FIXTURES, stage)) if f.endswith(".patch")}
            used = {want.get("patch", name)
                    for name, want in expected["variants"].items()}
            self.assertEqual(used, patches | {"reference"}, stage)
            self.assertGreaterEqual(len(patches), 3, stage)
            for name, want in expected["variants"].items():
                self.assertLessEqual(want["score"], expected["max_score"])
                self.assertEqual(want["score"] == expected["max_score"],
                                 name == "reference", f"{stage}/{name}")

    @unittest.skipUnless(os.path.isdir(grade_fixtures_test.FIXTURES),
                         "a course handout has no fixtures")
    def test_a_variants_own_rubric_keeps_the_parts_and_points(self):
        """A variant graded with its own rubric (the hostile copies') is
        judged on the same parts for the same points as its stage's
        reference: only how the workload is measured may differ."""
        def points(stage, variant):
            path = grade_fixtures_test.rubric_for(
                stage, variant, grade_fixtures_test.load_expected(stage)) \
                or os.path.join(KIT, "benchmarks", "rubric.txt")
            rules = rubric.for_submission(rubric.rules_for(
                rubric.read_rubric(path), stage))
            by_metric = {}
            for r in rules:
                by_metric[r.metric] = by_metric.get(r.metric, 0) + r.points
            return by_metric, any(r.relative for r in rules)

        own = 0
        for stage in grade_fixtures_test.fixture_names():
            for variant, want in grade_fixtures_test.load_expected(
                    stage)["variants"].items():
                if "rubric" not in want:
                    continue
                own += 1
                mine, relative = points(stage, variant)
                self.assertEqual(mine, points(stage, "reference")[0],
                                 f"{stage}/{variant}")
                self.assertFalse(relative, f"{stage}/{variant}: its "
                                 "workload should run once, without rounds")
        self.assertGreater(own, 0)


if __name__ == "__main__":
    unittest.main()
