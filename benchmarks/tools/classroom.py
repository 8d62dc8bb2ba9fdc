"""The GitHub Actions workflow a handout carries (.github/workflows/kvlab.yml):
on every push to a student's repository (a GitHub Classroom assignment made
from the handout, or any copy of it on GitHub), one job per assignment
handed out installs the build's packages, runs the stage's tests with their
progress table, and grades the tree as the course's grader would, with the
tests the handout carries (the course's own grade also runs the
instructor's private tests, from the instructor's kit).

Standard library only: the workflow is written as text, in a fixed shape
that the handout's test reads back with a YAML parser.
"""

import os
import re

WORKFLOW = ".github/workflows/kvlab.yml"
# Ubuntu 24.04 has the Abseil and GoogleTest releases of Debian 12, which
# the kit is built and tested on.
RUNNER = "ubuntu-24.04"

HEADER = """\
# kvlab: on every push, each assignment's tests with their progress table,
# then the grade the course's grader gives this tree with the tests it
# carries (the course's own grade adds the instructor's private tests).
# The same commands run on your machine: see the README.
name: kvlab
on:
  push:
  workflow_dispatch:
jobs:
  grade:
    name: ${{{{ matrix.assignment }}}}
    runs-on: {runner}
    timeout-minutes: 120
    strategy:
      fail-fast: false
      matrix:
        include:
{matrix}
    steps:
      - uses: actions/checkout@v4
      - name: Install the packages the build needs
        run: cmake/deps.sh build
      # The stage's tests; the progress table of the assignment's groups
      # (stage4_wormhole: the room's alone).
      - name: Tests and progress table
        run: make test STAGE=${{{{ matrix.assignment }}}}
      # The runner is the student's own and runs only their code, so the
      # grader's sandbox guards nothing here (and Ubuntu's AppArmor keeps
      # bubblewrap from making its namespaces): grade without it.
      - name: Grade
        if: ${{{{ !cancelled() }}}}
        run: make grade SUBMISSION=. STAGE=${{{{ matrix.assignment }}}} UNSANDBOXED=1
"""


def stage_word(assignment):
    """'stage5' for 'stage5_memory': the Makefile's stage word (the job's
    matrix names it beside the assignment)."""
    return re.match(r"stage\d+", assignment).group(0)


def workflow_text(assignments):
    """The workflow for a handout of `assignments` (stage1, stage5_memory,
    ...), one matrix entry each, in order."""
    matrix = "\n".join(
        f"          - assignment: {a}\n            stage: {stage_word(a)}"
        for a in assignments)
    return HEADER.format(runner=RUNNER, matrix=matrix)


def write_workflow(out, assignments):
    path = os.path.join(out, WORKFLOW)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(workflow_text(assignments))
    return path
