#!/usr/bin/env bash
# Installs a build tree into a scratch prefix, builds the outside course
# harness against it with pkg-config alone, and runs the checked phase for
# each store named. Usage: install_test.sh BUILD_DIR HARNESS_SOURCE STORE...
set -euo pipefail
build_dir=$1 source=$2
shift 2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build_dir" --prefix "$prefix" >/dev/null
test -f "$prefix/lib/libkvlab.a"
test -f "$prefix/include/kvlab/course.h"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
g++ -std=c++20 -o "$prefix/course_harness" "$source" \
  $(pkg-config --cflags --libs --static kvlab)
for store in "$@"; do
  "$prefix/course_harness" "$store" 5000 5000
done
