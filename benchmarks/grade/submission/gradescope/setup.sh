#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image
# (the package unpacked in /autograder/source): it installs the packages
# the grader builds with, then grades the kit's own reference so that the
# image keeps the kit's builds and a submission recompiles only its files.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
"$here/kit/cmake/deps.sh" build
python3 "$here/kit/benchmarks/grade/submission/gradescope/run.py" --warm --source "$here"
