#!/usr/bin/env bash
# Runs valgrind memcheck over the test binaries listed in the given files
# (build/<type>/tests-<label>.txt), with test sizes scaled down. Fails on any
# memory error or definite leak.
set -euo pipefail
scale=${KVLAB_TEST_SCALE:-0.02}
status=0
for list in "$@"; do
  while IFS= read -r binary; do
    [ -n "$binary" ] || continue
    echo "memcheck: $(basename "$binary") (KVLAB_TEST_SCALE=$scale)"
    if ! KVLAB_TEST_SCALE=$scale valgrind --quiet --error-exitcode=99 \
        --leak-check=full --errors-for-leak-kinds=definite \
        --show-leak-kinds=definite --track-origins=yes \
        "$binary" --gtest_brief=1; then
      echo "memcheck: FAILED: $binary" >&2
      status=1
    fi
  done < "$list"
done
[ $status -eq 0 ] && echo "memcheck: no errors, no definite leaks"
exit $status
