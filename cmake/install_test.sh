#!/usr/bin/env bash
# What a new user does after cloning: `make install PREFIX=dir` with a fresh
# Release build directory, then a course harness built against the install
# with pkg-config alone, run on every store the library registers.
# Usage: install_test.sh SOURCE_DIR HARNESS_SOURCE
set -euo pipefail
source_dir=$1 harness=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
prefix=$scratch/prefix
# Under `make test` the outer make's flags and jobserver are in the
# environment; they are not this make's.
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
  make -C "$source_dir" --no-print-directory install \
  PREFIX="$prefix" RELEASE_DIR="$scratch/release"
test -f "$prefix/lib/libkvlab.a"
test -f "$prefix/include/kvlab/course.h"
test -f "$prefix/lib/libkvgrade.a"
test -f "$prefix/include/kvlab/grade.h"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
g++ -std=c++20 -O2 -o "$scratch/course_harness" "$harness" \
  $(pkg-config --cflags --libs --static kvlab)
mapfile -t stores < <("$scratch/course_harness" --list)
[ "${#stores[@]}" -gt 0 ] || { echo "the harness listed no stores"; exit 1; }
for store in "${stores[@]}"; do
  "$scratch/course_harness" "$store" 5000 5000
done
echo "install test: ${#stores[@]} stores passed both phases"
