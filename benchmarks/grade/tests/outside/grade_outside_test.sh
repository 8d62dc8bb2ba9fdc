#!/usr/bin/env bash
# Installs a build tree into a scratch prefix, builds the outside student
# store (this folder) against it with pkg-config alone, and grades it at a
# tiny size. Passes when the grade block is complete and the store was
# correct (a tiny run need not meet the rubric's speed thresholds).
# Usage: grade_outside_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build_dir=$1 source_dir=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build_dir" --prefix "$prefix" >/dev/null
test -f "$prefix/lib/libkvgrade.a"
test -f "$prefix/include/kvlab/grade.h"
test -f "$prefix/share/kvlab/rubric.txt"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
g++ -std=c++20 -O1 -o "$prefix/grade_student" "$source_dir/main.cc" \
  "$source_dir/student_store.cc" \
  $(pkg-config --cflags --libs --static kvgrade)
set +e
"$prefix/grade_student" --n=5000 --threads=2 --seconds=0.5 \
  --rubric="$(pkg-config --variable=rubric kvgrade)" --stage=stage1 \
  --allow_debug --json="$prefix/grade.json" >"$prefix/out.txt"
status=$?
set -e
cat "$prefix/out.txt"
# 0 (pass) or 1 (fail by the rubric) are both a completed grade.
[ "$status" -le 1 ] || { echo "grader exited $status"; exit 1; }
block=$(sed -n '/^<<< BEGIN kvgrade$/,/^>>> END$/p' "$prefix/out.txt")
grep -qx 'store: student' <<<"$block"
grep -qx 'correct: 1' <<<"$block"
grep -qx 'checked: 10000' <<<"$block"
grep -q '^result: \(PASS\|FAIL\)$' <<<"$block"
grep -q '"correct":true' "$prefix/grade.json"
echo "outside grade: OK"
