#!/usr/bin/env bash
# The build without root: a copy of the checkout, owned by an unprivileged
# user (nobody), whose cmake/deps.sh puts the build group's libraries in
# the copy's .deps/root (KVLAB_DEPS_LOCAL=1: this machine has them in /usr
# too, so the test forces the folder), then `make stage1` as that user and
# a run of stage 1's tests. It checks that CMake took Abseil, GoogleTest,
# ISA-L and Judy from the folder and not from /usr, and that the tests run.
#
# Usage: cmake/deps_local_test.sh [checkout]   (run as root: it switches to
# nobody with runuser; exits 77, skipped, when not root or when apt-get
# cannot download, e.g. with no network.)
set -euo pipefail

kit=$(cd "${1:-$(dirname "$0")/..}" && pwd)
if [ "$(id -u)" -ne 0 ] || ! command -v runuser >/dev/null; then
  echo "deps_local_test: skipped: needs root and runuser to build as another user"
  exit 77
fi
user=nobody
tmp=$(mktemp -d /tmp/kvlab-noroot-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/kit"
(cd "$kit" && git ls-files -z --cached --others --exclude-standard |
   xargs -0 -I{} sh -c '[ -f "{}" ] && printf "%s\0" "{}"' |
   tar --null -T - -cf -) | tar -xf - -C "$tmp/kit"
chown -R "$user:" "$tmp"
# A clean environment: no compiler cache, no sudo, only the system's PATH.
as_user() {
  (cd "$tmp/kit" && runuser -u "$user" -- env -i HOME="$tmp" PATH=/usr/bin:/bin \
     LANG=C.UTF-8 "$@")
}

echo "== as $(as_user id -un) (uid $(as_user id -u)): cmake/deps.sh build"
if ! as_user env KVLAB_DEPS_LOCAL=1 cmake/deps.sh build; then
  if ! as_user sh -c 'cd /tmp && apt-get download --print-uris zlib1g-dev' >/dev/null 2>&1 ||
     ! timeout 20 as_user sh -c 'cd "$HOME" && apt-get download zlib1g-dev' >/dev/null 2>&1; then
    echo "deps_local_test: skipped: apt-get download does not work here (no network?)"
    exit 77
  fi
  echo "deps_local_test: FAIL: cmake/deps.sh build as $user"
  exit 1
fi
root=$tmp/kit/.deps/root
echo "== unpacked: $(tr '\n' ' ' <"$tmp/kit/.deps/installed.txt")"

echo "== as $user: make stage1"
as_user make --no-print-directory stage1 JOBS=2 >"$tmp/make.log" 2>&1 || {
  tail -n 40 "$tmp/make.log"; echo "deps_local_test: FAIL: make stage1"; exit 1; }
grep -m1 "kvlab: libraries from" "$tmp/make.log"

status=0
cache=$tmp/kit/build/debug/CMakeCache.txt
for entry in absl_DIR GTest_DIR ISAL_LIBRARY ISAL_INCLUDE_DIR; do
  value=$(sed -n "s/^$entry:[A-Z]*=//p" "$cache")
  echo "   $entry = $value"
  case $value in
    "$root"/*) ;;
    *) echo "deps_local_test: FAIL: $entry is not under $root"; status=1 ;;
  esac
done
binary=$tmp/kit/build/debug/stage1_bst/stage1_test
absl=$(as_user ldd "$binary" | grep -m1 'libabsl' || true)
echo "   stage1_test loads ${absl:-no shared Abseil library}"
if [ -n "$absl" ] && [[ $absl != *"$root"/* ]]; then
  echo "deps_local_test: FAIL: stage1_test loads Abseil from outside $root"; status=1
fi
echo "== as $user: stage1_test"
as_user "$binary" --gtest_brief=1 --gtest_filter='AvlStoreTest.*:BstStoreTest.*' | tail -n 3 ||
  { echo "deps_local_test: FAIL: stage1_test"; status=1; }
[ $status -eq 0 ] && echo "deps_local_test: ok: stage 1 built and tested as $user from $root"
exit $status
