"""Unit tests of handout.py and progress.py (ctest handout_tools_unit):
python3 -m unittest handout_test, from benchmarks/tools/."""

import os
import tempfile
import textwrap
import unittest

import handout
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

    def test_groups_file_format(self):
        with tempfile.NamedTemporaryFile("w", suffix=".txt",
                                         delete=False) as f:
            f.write("# comment\n\na | A.* | F | docs/x.md#y\nb | B.* | G\n")
        try:
            with self.assertRaises(progress.GroupsError):
                progress.load_groups(f.name)
        finally:
            os.unlink(f.name)


if __name__ == "__main__":
    unittest.main()
