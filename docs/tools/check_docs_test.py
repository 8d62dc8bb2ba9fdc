#!/usr/bin/env python3
"""Tests of check_docs.py: each check passes on a small repository that is
right and fails on one thing made wrong. Standard library only.

Usage: check_docs_test.py    (unittest's flags work too)
"""

import contextlib
import io
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_docs  # noqa: E402

MAKEFILE = """\
.PHONY: help build test bench stage1
help:
\t@echo help
build: $(BUILD_DIR)/build.ninja
\tcmake --build build/debug
stage1 stage2:
\t@true
test bench: build
\t@true
$(BUILD_DIR)/build.ninja $(RELEASE_DIR)/build.ninja:
\tcmake -S . -B $(@D)
"""

BENCH_CMAKE = """\
add_executable(kvbench kvbench/main.cc)  # the driver
foreach(tool seeds replay)
  add_executable(${tool} tools/${tool}.cc)
endforeach()
kvlab_add_test(kvbench_test SOURCES kvbench_test.cc)
"""


class CheckDocsTest(unittest.TestCase):

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.root = self.dir.name
        self.write("Makefile", MAKEFILE)
        self.write("benchmarks/CMakeLists.txt", BENCH_CMAKE)
        self.write("tools/run.sh", "#!/bin/sh\n")
        self.write("docs/other.md", "# Other\n\n## A heading\n")

    def tearDown(self):
        self.dir.cleanup()

    def write(self, name, text):
        path = os.path.join(self.root, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)

    def check(self, doc):
        """Runs the checker over a repository whose docs/page.md is `doc`;
        returns (exit status, printed lines). Outside git, every file
        counts as tracked."""
        self.write("docs/page.md", textwrap.dedent(doc))
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = check_docs.main(["check_docs.py", self.root])
        return status, out.getvalue().splitlines()

    def assertPasses(self, doc):
        status, lines = self.check(doc)
        self.assertEqual(status, 0, "\n".join(lines))

    def assertFails(self, doc, message):
        status, lines = self.check(doc)
        self.assertEqual(status, 1, "\n".join(lines))
        self.assertTrue(any(message in line for line in lines),
                        "no line says %r:\n%s" % (message, "\n".join(lines)))

    # Links.

    def test_links_to_files_and_headings_pass(self):
        self.assertPasses("[o](other.md#a-heading) [t](../tools/run.sh)\n")

    def test_link_to_a_missing_file_fails(self):
        self.assertFails("[x](missing.md)\n", "link to a missing file")

    def test_link_to_a_missing_heading_fails(self):
        self.assertFails("[o](other.md#no-such)\n", "no heading #no-such")

    def test_link_out_of_the_repository_fails(self):
        self.assertFails("[x](../../elsewhere.md)\n", "leaves the repository")

    def test_path_outside_the_repository_fails(self):
        # Spelled in two pieces, so that this file does not trip the check.
        self.assertFails("See /" + "home/someone/notes.\n",
                         "outside the repository")

    # Commands.

    def test_good_commands_pass(self):
        self.assertPasses("""\
            ```sh
            make bench BENCH_FLAGS="--store=avl --n=10"   # a comment
            make stage1 test
            cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release
            cmake --build build/release --target kvbench
            build/release/benchmarks/kvbench --store=avl \\
              --n=1000
            for n in 1 2; do build/debug/benchmarks/seeds $n; done
            cd build/debug && ctest -L stage1
            KVLAB_STORE=bst build/release/benchmarks/kvbench_test
            tools/run.sh && python3 docs/page.md
            ```
            """)

    def test_console_block_checks_only_prompted_lines(self):
        self.assertPasses("""\
            ```console
            $ make test
            make: output that is not a command
            kvbench: output too
            ```
            """)
        self.assertFails("""\
            ```console
            $ make tset
            ```
            """, "make has no target tset")

    def test_unmarked_blocks_are_not_commands(self):
        self.assertPasses("""\
            ```
            make no_such_target
            ```
                kvbench --list
            """)

    def test_unknown_make_target_fails(self):
        self.assertFails("""\
            ```sh
            make bench
            make stage1 tests
            ```
            """, "make has no target tests")

    def test_build_directory_make_does_not_create_fails(self):
        self.assertFails("""\
            ```sh
            build/s4-release/benchmarks/kvbench --store=avl
            ```
            """, "build directory make does not create")

    def test_cmake_on_a_private_build_directory_fails(self):
        self.assertFails("""\
            ```bash
            cmake -S . -B build/mine -G Ninja
            ```
            """, "cmake on a build directory make does not create")

    def test_program_no_cmakelists_builds_fails(self):
        self.assertFails("""\
            ```sh
            build/release/benchmarks/kvbnech --list
            ```
            """, "no CMakeLists.txt builds the program")

    def test_program_in_the_wrong_folder_fails(self):
        self.assertFails("""\
            ```sh
            build/release/stage4_compressed_trie/kvbench --list
            ```
            """, "no CMakeLists.txt builds the program")

    def test_bare_program_name_fails(self):
        self.assertFails("""\
            ```sh
            kvbench --store=avl
            ```
            """, "kvbench is not on the PATH")

    def test_missing_script_fails(self):
        self.assertFails("""\
            ```sh
            tools/gone.sh
            ```
            """, "runs a file the repository does not have")
        self.assertFails("""\
            ```sh
            python3 tools/plot.py --out docs/img
            ```
            """, "runs a script the repository does not have")


    # Names: stores, files and code the docs name.

    def write_kvbench(self):
        """A stand-in for kvbench that prints a store list."""
        path = os.path.join(self.root, "fake_kvbench")
        with open(path, "w", encoding="utf-8") as f:
            f.write("#!/bin/sh\ncat <<'EOF'\n"
                    "Stores (spec: name or name:option=value):\n"
                    "  avl (stage1): AVL tree [ordered]\n"
                    "      options: none\n"
                    "  ctrie (stage4): compressed trie [ordered]\n"
                    "      lock=...  rcu (default), global, node\n"
                    "EOF\n")
        os.chmod(path, 0o755)
        return path

    def check_with_kvbench(self, doc):
        self.write("docs/page.md", textwrap.dedent(doc))
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = check_docs.main(["check_docs.py", self.root,
                                      "--kvbench", self.write_kvbench()])
        return status, out.getvalue().splitlines()

    def test_known_stores_and_options_pass(self):
        status, lines = self.check_with_kvbench(
            "Run `ctrie:lock=node` or `--store=avl,ctrie` or "
            "`durable:dir=d:store=avl`.\n")
        self.assertEqual(status, 0, "\n".join(lines))

    def test_a_stale_store_name_fails(self):
        status, lines = self.check_with_kvbench("Try `--store=avl,splay`.\n")
        self.assertEqual(status, 1, "\n".join(lines))
        self.assertTrue(any("no store splay" in l for l in lines), lines)

    def test_a_stale_option_fails(self):
        status, lines = self.check_with_kvbench(
            "```sh\nbuild/release/benchmarks/kvbench "
            "--store=ctrie:lock=node:pool=slab\n```\n")
        self.assertEqual(status, 1, "\n".join(lines))
        self.assertTrue(any("ctrie has no option pool" in l for l in lines),
                        lines)

    def test_without_kvbench_store_names_are_not_checked(self):
        status, lines = self.check("Try `--store=splay`.\n")
        self.assertEqual(status, 0, "\n".join(lines))
        self.assertTrue(any("store names not checked" in l for l in lines))

    def write_source(self):
        self.write("stage1_x/src/tree.cc",
                   "// handout: Tree::Find -> #find\n"
                   "int Tree::Find(int key) { return SizeFor(key); }\n"
                   "enum Kind { kNextFile };\n"
                   "TEST(TreeTest, FindsKeys) {}\n")

    def test_names_the_code_has_pass(self):
        self.write_source()
        self.assertPasses("`Tree::Find`, `SizeFor()`, `NextFile`, "
                          "`TreeTest.FindsKeys`, `TreeTest.*`, `src/tree.cc`, "
                          "`tree.cc`, `tree.h/.cc` is not checked as a pair"
                          " of names.\n".replace("`tree.h/.cc`", "tree.h"))

    def test_a_stale_function_name_fails(self):
        self.write_source()
        self.assertFails("`SizeForKey` picks the size.\n",
                         "the code has no SizeForKey")
        self.assertFails("`Tree::Lookup` finds it.\n",
                         "the code has no Lookup")
        self.assertFails("`TreeTest.FindsNothing`\n",
                         "the code has no FindsNothing")

    def test_a_stale_file_name_fails(self):
        self.write_source()
        self.assertFails("Read `src/forest.cc`.\n",
                         "no tracked file is src/forest.cc")

    def test_a_handout_does_not_check_code_names(self):
        self.write("stage1_x/src/tree.cc", "int Find();\n")  # no markers
        self.assertPasses("`CutHelper` is yours to write.\n")

    # teaching.md's counts.

    def write_handout_tool(self, stubs):
        lines = "\\n".join("  F%d  stage1_x/src/a.cc:1  docs/a.md#x" % i
                           for i in range(stubs))
        self.write("benchmarks/tools/handout.py",
                   "import sys\nprint('stage1 (stage1_x):')\n"
                   "print('%s')\nprint('  Ex  stage1_x/src/a.cc:9  "
                   "docs/a.md#10-exercises')\n" % lines)
        self.write("stage1_x/tests/groups.txt",
                   "# name | filter | next | docs\n"
                   "empty | A.* | F0 | x\none | B.* | F1 | x\n")

    def test_teaching_counts_that_match_pass(self):
        self.write_handout_tool(3)
        self.write("docs/teaching.md",
                   "| stage | functions to write | chapter |\n|---|---|---|\n"
                   "| 1 | `F0`, `F1`, `F2` (3) | a |\n\n"
                   "| stage | groups, in order |\n| --- | --- |\n"
                   "| 1 | empty, one |\n")
        self.assertPasses("text\n")

    def test_a_stale_teaching_count_fails(self):
        self.write_handout_tool(4)
        self.write("docs/teaching.md",
                   "| stage | functions to write | chapter |\n|---|---|---|\n"
                   "| 1 | `F0`, `F1`, `F2` (3) | a |\n")
        self.assertFails("text\n", "says 3 functions for stage1; handout.py "
                         "--list gives 4")

    def test_a_stale_group_list_fails(self):
        self.write_handout_tool(3)
        self.write("docs/teaching.md",
                   "| stage | groups, in order |\n| --- | --- |\n"
                   "| 1 | empty |\n")
        self.assertFails("text\n", "lists the groups of stage1 as empty")

    # Stale figures.

    def git(self, *args):
        subprocess.run(["git", "-C", self.root, "-c", "user.name=t", "-c",
                        "user.email=t@t", "-c", "commit.gpgsign=false"] +
                       list(args), check=True, capture_output=True)

    def record_run(self, stale):
        """A git repository whose results.md measured its first commit,
        then a change to stage1_x/; results.md lists `stale`."""
        self.write("stage1_x/src/a.cc", "int A();\n")
        self.write("stage2_y/src/b.cc", "int B();\n")
        self.write("docs/results.md", "# r\n")
        self.git("init", "-q")
        self.git("add", "-A")
        self.git("commit", "-q", "-m", "one")
        sha = subprocess.run(["git", "-C", self.root, "rev-parse", "HEAD"],
                             capture_output=True, text=True).stdout.strip()
        self.write("stage1_x/src/a.cc", "int A(int);\n")
        self.write("docs/results.md",
                   "# r\n\nCommit: %s\n\n## Which figures are stale\n\n"
                   "Stale for: %s\n" % (sha, stale))
        self.git("add", "-A")
        self.git("commit", "-q", "-m", "two")

    def test_stale_figures_listed_pass(self):
        self.record_run("stage1_x")
        self.write("docs/stage1_x.md", "[r](results.md) "
                   "[stale](results.md#which-figures-are-stale)\n")
        self.write("docs/stage2_y.md", "[r](results.md)\n")
        self.git("add", "-A")
        self.assertPasses("text\n")

    def test_a_stage_changed_after_the_record_run_fails(self):
        self.record_run("none")
        self.assertFails("text\n", "stage1_x changed after the record run")

    def test_a_stage_listed_stale_without_a_change_fails(self):
        self.record_run("stage1_x, stage2_y")
        self.assertFails("text\n", "lists stage2_y as stale")

    def test_a_chapter_quoting_stale_figures_silently_fails(self):
        self.record_run("stage1_x")
        self.write("docs/stage1_x.md", "[r](results.md)\n")
        self.git("add", "-A")
        self.assertFails("text\n", "docs/stage1_x.md: quotes results.md")

    def test_a_change_to_tests_and_tools_only_is_not_stale(self):
        self.record_run("stage1_x")
        self.write("stage2_y/tests/b_test.cc", "int T();\n")
        self.write("stage2_y/room/tests/groups.txt", "g: B\n")
        self.write("stage2_y/room/tools/measure.cc", "int M();\n")
        self.git("add", "-A")
        self.git("commit", "-q", "-m", "three")
        self.write("docs/stage1_x.md", "[r](results.md) "
                   "[stale](results.md#which-figures-are-stale)\n")
        self.assertPasses("text\n")
        self.write("stage2_y/room/src/b.cc", "int B(int);\n")
        self.assertFails("text\n", "stage2_y changed after the record run")

    def test_results_without_a_commit_fails(self):
        self.write("docs/results.md", "# r\n")
        self.assertFails("text\n", "states no commit")


if __name__ == "__main__":
    unittest.main()
