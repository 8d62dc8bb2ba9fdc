"""Unit tests of handout.py, progress.py and group_audit.py (ctest
handout_tools_unit):
python3 -m unittest handout_test, from benchmarks/tools/."""

import contextlib
import io
import os
import re
import tempfile
import textwrap
import unittest

import group_audit
import handout
import handout_readme
import progress


class Tree:
    """A throwaway reference tree with one chapter, docs/stage9_demo.md."""

    def __init__(self):
        self.dir = tempfile.TemporaryDirectory()
        self.root = self.dir.name
        os.makedirs(os.path.join(self.root, "docs"))
        with open(os.path.join(self.root, "docs", "stage9_demo.md"), "w") as f:
            f.write("# Demo\n\n## 2. Search and insert\n\ntext\n")

    def cpp(self, text, cut=True):
        stubs = []
        out = handout.process_cpp(textwrap.dedent(text), "stage9_demo/a.cc",
                                  cut, self.root, "stage9_demo", {}, stubs)
        return out, stubs


class ParameterNamesTest(unittest.TestCase):
    def names(self, signature, function="F"):
        lines = signature.split("\n") + ["  // handout: F -> #x"]
        return handout.parameter_names(lines, len(lines) - 1, function, "t")

    def test_named_unnamed_and_defaults(self):
        self.assertEqual(self.names(
            "bool F(std::string_view key, const Node*, int n = 3) {"),
            ["key", "n"])

    def test_across_lines_with_templates_and_arrays(self):
        self.assertEqual(self.names(
            "template <class L>\n"
            "bool Store<L>::F(const std::map<int, int>& m,\n"
            "                 char buf[16], absl::FunctionRef<void(int)> f)"
            " const {", "Store::F"),
            ["m", "buf", "f"])

    def test_no_parameters(self):
        self.assertEqual(self.names("void F() {"), [])
        self.assertEqual(self.names("void F(void) {"), [])

    def test_commented_out_name_is_unnamed(self):
        self.assertEqual(self.names("void F(int /*unused*/, int b) {"), ["b"])

    def test_missing_signature(self):
        with self.assertRaises(handout.MarkerError):
            self.names("void G(int a) {")


class StubTest(unittest.TestCase):
    def setUp(self):
        self.tree = Tree()

    def tearDown(self):
        self.tree.dir.cleanup()

    def test_body_becomes_one_call(self):
        out, stubs = self.tree.cpp("""\
            bool Put(Tree* tree, std::string_view key) {
              // handout: Put -> #2-search-and-insert
              return tree->Insert(key);
              // handout: end
            }
            """)
        self.assertEqual(out, textwrap.dedent("""\
            bool Put(Tree* tree, std::string_view key) {
              kvlab::NotImplemented("Put", "docs/stage9_demo.md#2-search-and-insert", tree,
                                    key);
            }
            """))
        self.assertEqual([(s.function, s.docs) for s in stubs],
                         [("Put", "docs/stage9_demo.md#2-search-and-insert")])

    def test_every_stub_line_fits_80_columns(self):
        for params in ([], ["a"], ["layout", "parent", "index", "bytes"]):
            for line in handout.stub_lines(
                    "    ", "VeryLongClassName::VeryLongFunctionName",
                    "docs/stage4_compressed_trie.md#pitfalls-and-more", params):
                self.assertLessEqual(len(line), 80, line)

    def test_cut_region_goes_without_doubling_blank_lines(self):
        out, _ = self.tree.cpp("""\
            namespace {

            // handout: cut
            int Helper() { return 1; }
            // handout: end

            }  // namespace
            """)
        self.assertEqual(out, "namespace {\n\n}  // namespace\n")

    def test_markers_only_go_when_not_cut(self):
        out, stubs = self.tree.cpp("""\
            int F(int a) {
              // handout: F -> #2-search-and-insert
              return a;
              // handout: end
            }
            """, cut=False)
        self.assertEqual(out, "int F(int a) {\n  return a;\n}\n")
        self.assertEqual(stubs, [])

    def test_bad_markers_are_refused(self):
        for text in (
                "int F(int a) {\n  // handout: F -> #no-such-heading\n"
                "  // handout: end\n}\n",
                "int F(int a) {\n  // handout: F -> #2-search-and-insert\n}\n",
                "// handout: end\n",
                "// handout: cut\n// handout: cut\n// handout: end\n",
                "// handout: F(a) -> #2-search-and-insert\n",
                "int F() {\n  // handout: F -> other.md#x\n"
                "  // handout: end\n}\n"):
            with self.assertRaises(handout.MarkerError, msg=text):
                self.tree.cpp(text)

    def test_include_goes_after_the_last_include(self):
        self.assertEqual(
            handout.add_include('#include "a.h"\n\n#include <map>\n\nint x;'),
            '#include "a.h"\n\n#include <map>\n\n'
            '#include "kvlab/not_implemented.h"\n\nint x;')
        self.assertEqual(
            handout.add_include('#include <map>\n\n#include "b.h"\nint x;'),
            '#include <map>\n\n#include "b.h"\n'
            '#include "kvlab/not_implemented.h"\nint x;')


class RegionsTest(unittest.TestCase):
    def test_markdown_cut(self):
        text = "a\n\n<!-- handout:cut -->\n```\ncode\n```\n" \
               "<!-- handout:end -->\n\nb\n"
        self.assertEqual(handout.process_regions(
            text, "x.md", True, handout.MD_CUT, handout.MD_END,
            handout.MD_ANY), "a\n\nb\n")
        self.assertEqual(handout.process_regions(
            text, "x.md", False, handout.MD_CUT, handout.MD_END,
            handout.MD_ANY), "a\n\n```\ncode\n```\n\nb\n")

    def test_stage_of(self):
        self.assertEqual(handout.stage_of("stage2_btree/src/tree.cc"),
                         "stage2")
        self.assertEqual(handout.stage_of("docs/stage5_hyperion_memory.md"),
                         "stage5")
        self.assertIsNone(handout.stage_of("docs/teaching.md"))
        self.assertIsNone(handout.stage_of("benchmarks/front/src/course.cc"))


class RoomsTest(unittest.TestCase):
    FILES = ["stage2_btree/src/tree.cc", "stage2_btree/tests/groups.txt",
             "stage5_hyperion/CMakeLists.txt",
             "stage5_hyperion/tools/dump.cc",
             "stage5_hyperion/memory/src/mm.cc",
             "stage5_hyperion/memory/tests/groups.txt",
             "stage5_hyperion/trie/src/node.cc",
             "stage5_hyperion/trie/tests/groups.txt",
             "stage5_hyperion/arenas/src/arena_store.cc",
             "stage5_hyperion/arenas/tests/arena_test.cc",
             "docs/stage5_hyperion.md", "docs/stage5_hyperion_memory.md"]

    def test_rooms_and_their_chapters(self):
        rooms = handout.rooms_of(self.FILES)
        self.assertEqual(sorted(rooms), ["stage5_memory", "stage5_trie"])
        self.assertEqual(rooms["stage5_memory"].chapter,
                         "docs/stage5_hyperion_memory.md")
        self.assertEqual(rooms["stage5_trie"].chapter,
                         "docs/stage5_hyperion.md")
        unit = lambda f: handout.unit_of(f, rooms)  # noqa: E731
        self.assertEqual(unit("stage5_hyperion/trie/src/node.cc"),
                         "stage5_trie")
        self.assertEqual(unit("docs/stage5_hyperion_memory.md"),
                         "stage5_memory")
        self.assertEqual(unit("stage5_hyperion/tools/dump.cc"), "stage5")
        # A folder without groups.txt of its own (the arena layer, given with
        # the trie) is no assignment: handed out as it is.
        self.assertEqual(unit("stage5_hyperion/arenas/src/arena_store.cc"),
                         "stage5")
        self.assertEqual(unit("stage2_btree/src/tree.cc"), "stage2")

    def test_a_stage_names_all_its_assignments(self):
        available = ["stage2", "stage5_memory", "stage5_trie"]
        self.assertEqual(handout.parse_stages("stage5", available),
                         ["stage5_memory", "stage5_trie"])
        self.assertEqual(handout.parse_stages("stage5_trie stage2_btree",
                                              available),
                         ["stage2", "stage5_trie"])
        with self.assertRaises(handout.MarkerError):
            handout.parse_stages("stage5_arena", available)
        with self.assertRaises(handout.MarkerError):
            handout.parse_stages("stage3", available)


class WholeHandoutTest(unittest.TestCase):
    """handout.main on a small tree outside git (every file counts as
    tracked): what it leaves out and what it always cuts."""

    def write(self, name, text):
        path = os.path.join(self.root, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(textwrap.dedent(text))

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.root = os.path.join(self.dir.name, "ref")
        self.out = os.path.join(self.dir.name, "out")
        self.write("docs/stage9_demo.md", "# Demo\n\n## Exercises\n")
        self.write("docs/durability.md", "# Durability\n\n## Exercises\n")
        self.write("docs/instructor/answers.md", "# Model answers\n")
        self.write("stage9_demo/src/a.cc", """\
            #include <cstdint>
            int Answer(int x) {
              // handout: Answer -> #exercises
              return x + 1;
              // handout: end
            }
            """)
        self.write("common/src/durable/exercises.cc", """\
            #include <cstdint>
            uint64_t PhysicalRecordsFor(uint64_t offset) {
              // handout: PhysicalRecordsFor -> durability.md#exercises
              return offset + 1;
              // handout: end
            }
            """)

    def tearDown(self):
        self.dir.cleanup()

    def run_handout(self, *args):
        with contextlib.redirect_stdout(io.StringIO()):
            return handout.main(["handout.py", self.out, "--source",
                                 self.root] + list(args))

    def read(self, name):
        with open(os.path.join(self.out, name)) as f:
            return f.read()

    def test_instructor_answers_are_left_out(self):
        self.assertEqual(self.run_handout(), 0)
        self.assertFalse(os.path.exists(os.path.join(self.out, "docs",
                                                     "instructor")))
        self.assertTrue(os.path.exists(os.path.join(self.out, "docs",
                                                    "durability.md")))
        self.assertNotIn("x + 1", self.read("stage9_demo/src/a.cc"))

    def test_durability_exercises_are_cut_with_every_stage(self):
        self.assertEqual(self.run_handout("--stages", "stage9"), 0)
        text = self.read("common/src/durable/exercises.cc")
        self.assertNotIn("offset + 1", text)
        self.assertIn('NotImplemented("PhysicalRecordsFor", '
                      '"docs/durability.md#exercises"', text)
        self.assertIn('#include "kvlab/not_implemented.h"', text)


ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


class CountsTest(unittest.TestCase):
    """docs/teaching.md's table of the functions each stage leaves agrees
    with what the generator cuts from this tree."""

    def test_teaching_table_counts_what_the_generator_cuts(self):
        files = handout.tracked_files(ROOT)
        dirs = handout.stage_dirs(files)
        rooms = handout.rooms_of(files)
        units = handout.marked_stages(ROOT, files, dirs)
        stubs = []
        for f in files:
            if handout.unit_of(f, rooms) in units and \
                    f.endswith(handout.CPP_SUFFIXES):
                with open(os.path.join(ROOT, f), encoding="utf-8") as fh:
                    handout.transform(ROOT, f, fh.read(), units, dirs, {},
                                      stubs, rooms)
        counts = handout.count_stubs(stubs, units, dirs, rooms)
        with open(os.path.join(ROOT, "docs", "teaching.md"),
                  encoding="utf-8") as fh:
            text = fh.read()
        table = {}
        for m in re.finditer(r"^\s*\| (\d)( memory| trie| wormhole| ect)? \| (.*) \| \[",
                             text, re.M):
            unit = "stage" + m.group(1) + (
                "_" + m.group(2).strip() if m.group(2) else "")
            numbers = [int(n) for n in re.findall(r"\((\d+)\)",
                                                  m.group(3))]
            table[unit] = (numbers[0], sum(numbers[1:]))
        self.assertEqual(table, counts)


class MutationsMatchTheCodeTest(unittest.TestCase):
    """Every break of every tests/mutations.txt still quotes its file: a
    text the code no longer holds would stop group_audit.py at that break."""

    def test_every_break_text_occurs_once_in_its_file(self):
        import glob
        files = glob.glob(os.path.join(ROOT, "stage*", "**", "tests",
                                       "mutations.txt"), recursive=True)
        self.assertTrue(files)
        for path in files:
            folder = os.path.dirname(os.path.dirname(path))
            for b in group_audit.load_breaks(path):
                with open(os.path.join(folder, b.path), encoding="utf-8") as f:
                    count = f.read().count(b.text)
                self.assertEqual(count, 1, "%s, break %d (%s): its text occurs "
                                 "%d times in %s" % (os.path.relpath(path, ROOT),
                                                     b.number, b.function, count,
                                                     b.path))


class InstructorOnlyTest(unittest.TestCase):
    def test_breaks_and_fixtures_stay_out_of_a_handout(self):
        self.assertTrue(handout.instructor_only(
            "stage1_bst/tests/mutations.txt"))
        self.assertTrue(handout.instructor_only(
            "benchmarks/grade/submission/tests/fixtures/stage1/a.patch"))
        self.assertFalse(handout.instructor_only(
            "stage1_bst/tests/groups.txt"))


class ReadmeTest(unittest.TestCase):
    def test_the_handout_readme_starts_the_student_at_the_first_stage(self):
        rooms = {"stage5_trie": handout.Room(
            "stage5_trie", "stage5_hyperion/trie/",
            "docs/stage5_hyperion.md")}
        text = handout_readme.readme_text(
            ["stage2", "stage5_trie"],
            {"stage2": "stage2_btree", "stage5": "stage5_hyperion"}, rooms,
            {"stage2": (11, 0), "stage5_trie": (15, 2)})
        self.assertIn("make stage2 test\n", text)
        self.assertIn("| `stage2` | `stage2_btree/` | 11 | "
                      "[stage2_btree.md](docs/stage2_btree.md#your-task) |",
                      text)
        self.assertIn("| `stage5_trie` | `stage5_hyperion/trie/` | 15, and 2 "
                      "exercise answers |", text)
        self.assertIn("docs/getting-started.md", text)
        self.assertIn("make draw", text)
        self.assertIn("Handing in", text)


class ProgressTest(unittest.TestCase):
    def test_gtest_filter_semantics(self):
        m = progress.matches
        self.assertTrue(m("A.*", "A.x"))
        self.assertFalse(m("A.*", "AB.x"))
        self.assertTrue(m("A.*:B.y", "B.y"))
        self.assertFalse(m("A.*-A.x", "A.x"))
        self.assertTrue(m("-A.x", "C.z"))
        self.assertTrue(m("S/T.*/bst", "S/T.Empty/bst"))
        self.assertFalse(m("S/T.*/bst", "S/T.Empty/avl"))
        self.assertTrue(m("A.?", "A.b"))
        self.assertFalse(m("A.[b]", "A.b"))  # brackets are literal
        self.assertTrue(m("A.[b]", "A.[b]"))

    def test_test_names_lose_ctest_parameter_comments(self):
        self.assertEqual(progress.test_name("S/T.E/bst  # GetParam() = bst"),
                         "S/T.E/bst")

    def test_lint_finds_orphans_and_overlaps(self):
        groups = [progress.Group(1, "a", "A.*", "f", "d"),
                  progress.Group(2, "b", "A.x:B.*", "g", "d"),
                  progress.Group(3, "c", "Z.*", "h", "d")]
        problems = progress.lint(groups, ["A.x", "A.y", "B.z", "C.w"])
        self.assertIn("group c selects no test", problems)
        self.assertIn("test A.x is in groups a, b", problems)
        self.assertIn("test C.w is in no group", problems)
        self.assertEqual(len(problems), 3)

    def test_outcomes_name_the_stubs_hit(self):
        groups = [progress.Group(1, "one", "A.*", "F", "d"),
                  progress.Group(2, "two", "B.*", "G", "d")]
        stub = ('C++ exception with description "Ns::F is not written yet: '
                'read docs/x.md#y" thrown in the test body.')
        results = {"A.x": progress.Result(progress.PASSED),
                   "B.x": progress.Result(progress.FAILED, stub),
                   "B.y": progress.Result(progress.SKIPPED),
                   "B.DISABLED_z": progress.Result(progress.FAILED)}
        one, two = progress.summarize(groups, results)
        self.assertTrue(one.ok)
        self.assertFalse(two.ok)
        self.assertEqual((two.passed, two.failed, two.skipped), (0, 1, 1))
        self.assertEqual(two.stubs, ["Ns::F"])

    def test_a_crashed_test_marks_its_group_and_quotes_its_first_line(self):
        junit = textwrap.dedent("""\
            <testsuite>
            <testcase name="A.ok" status="run"><system-out>[ RUN      ] A.ok
            [       OK ] A.ok (0 ms)</system-out></testcase>
            <testcase name="B.dies" status="fail"><failure message=""/>
            <system-out>[ RUN      ] B.dies
            bst_store.cc:52: Put: Assertion `node' failed.
            read docs/x.md#y</system-out></testcase>
            <testcase name="B.stub" status="fail"><failure message=""/>
            <system-out>[ RUN      ] B.stub
            Ns::G is not written yet: read docs/x.md#y
            [  FAILED  ] B.stub (0 ms)</system-out></testcase>
            </testsuite>
            """)
        console = ("1/3 Test #2: B.dies ........Subprocess aborted***"
                   "Exception:   0.01 sec\n"
                   "2/3 Test #1: A.ok ..........   Passed    0.01 sec\n")
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "j.xml"), "w") as f:
                f.write(junit)
            with open(os.path.join(tmp, "ctest.log"), "w") as f:
                f.write(console)
            signals = progress.crash_signals(os.path.join(tmp, "ctest.log"))
            results = progress.results_from_junit(os.path.join(tmp, "j.xml"),
                                                  signals)
        self.assertEqual(signals, {"B.dies": "SIGABRT"})
        self.assertIsNone(results["A.ok"].crash)
        self.assertIsNone(results["B.stub"].crash)
        self.assertEqual(results["B.dies"].crash,
                         ("SIGABRT", "bst_store.cc:52: Put: Assertion `node' "
                          "failed."))
        groups = [progress.Group(1, "one", "A.*", "F", "d"),
                  progress.Group(2, "two", "B.*", "G", "d")]
        outcomes = progress.summarize(groups, results)
        self.assertEqual(outcomes[1].stubs, ["Ns::G"])
        table = io.StringIO()
        progress.print_table("T", outcomes, out=table)
        self.assertIn("FAILED (crashed: SIGABRT)", table.getvalue())
        self.assertIn("B.dies crashed (SIGABRT): bst_store.cc:52: Put: "
                      "Assertion `node' failed.", table.getvalue())

    def test_a_silent_crash_without_the_console_still_shows(self):
        result = progress.crash_of("B.x", "[ RUN      ] B.x\n")
        self.assertEqual(result, "")
        self.assertIsNone(progress.crash_of("B.x", "[ RUN      ] B.x\n"
                                            "[  FAILED  ] B.x (1 ms)\n"))
        self.assertIsNone(progress.crash_of(
            "S/B.x/bst", "[ RUN      ] S/B.x/bst\n[  FAILED  ] S/B.x/bst, "
            "where GetParam() = bst (0 ms)\n"))

    def test_groups_file_format(self):
        with tempfile.NamedTemporaryFile("w", suffix=".txt",
                                         delete=False) as f:
            f.write("# comment\n\na | A.* | F | docs/x.md#y\nb | B.* | G\n")
        try:
            with self.assertRaises(progress.GroupsError):
                progress.load_groups(f.name)
        finally:
            os.unlink(f.name)


class GroupAuditTest(unittest.TestCase):
    def test_binary_of_a_stage_and_of_its_rooms(self):
        with tempfile.TemporaryDirectory() as build:
            with open(os.path.join(build, "tests-stage4.txt"), "w") as f:
                for path in ["stage4_c/stage4_test",
                             "stage4_c/stage4_out_of_memory_test",
                             "stage4_c/wormhole/stage4_wormhole_test",
                             "stage4_c/wormhole/stage4_wormhole_oom_test"]:
                    f.write(os.path.join(build, path) + "\n")
            self.assertEqual(
                group_audit.test_binary(build, "stage4", "stage4_c"),
                os.path.join(build, "stage4_c/stage4_test"))
            self.assertEqual(
                group_audit.test_binary(build, "stage4_wormhole",
                                        "stage4_c/wormhole"),
                os.path.join(build, "stage4_c/wormhole/stage4_wormhole_test"))
            self.assertIsNone(
                group_audit.test_binary(build, "stage4_x", "stage4_c/x"))
            self.assertIsNone(
                group_audit.test_binary(build, "stage5", "stage5_h"))

    def test_breaks_and_the_groups_that_name_their_function(self):
        with tempfile.NamedTemporaryFile("w", suffix=".txt",
                                         delete=False) as f:
            f.write("# comment\n\nA::F | off by one | src/a.cc | "
                    "x < n\\n  y | x <= n\\n  y\n")
        try:
            (b,) = group_audit.load_breaks(f.name)
        finally:
            os.unlink(f.name)
        self.assertEqual((b.function, b.path), ("A::F", "src/a.cc"))
        self.assertEqual((b.text, b.replacement), ("x < n\n  y",
                                                   "x <= n\n  y"))
        group = progress.Group(1, "g", "T.*", "A::F, G (helpers)", "d")
        self.assertTrue(group_audit.names_function(group, "A::F"))
        self.assertTrue(group_audit.names_function(group, "G"))
        self.assertFalse(group_audit.names_function(group, "B::F"))
        self.assertFalse(group_audit.names_function(group, "H"))

    def test_catchers_name_the_first_failing_tests_of_a_group(self):
        groups = [progress.Group(1, "a", "A.*", "F", "d"),
                  progress.Group(2, "b", "B.*", "G", "d")]
        failed, passed = progress.Result(progress.FAILED), \
            progress.Result(progress.PASSED)
        results = {"A.y": failed, "A.x": failed, "A.z": passed,
                   "B.x": passed}
        self.assertEqual(group_audit.catchers(groups, "a", results, {}),
                         "A.x, A.y")
        more = dict(results, **{"A.a": failed, "A.b": failed})
        self.assertEqual(group_audit.catchers(groups, "a", more, {}),
                         "A.a, A.b, A.x +1")
        self.assertEqual(group_audit.catchers(groups, "b", results, {}),
                         "no test failed")
        self.assertEqual(group_audit.catchers(groups, "b", results,
                                              {"b": "timed out"}),
                         "timed out")


if __name__ == "__main__":
    unittest.main()
