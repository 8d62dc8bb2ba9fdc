#!/usr/bin/env python3
"""Tests of check_docs.py: each check passes on a small repository that is
right and fails on one thing made wrong. Standard library only.

Usage: check_docs_test.py    (unittest's flags work too)
"""

import contextlib
import io
import os
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


if __name__ == "__main__":
    unittest.main()
