#!/usr/bin/env bash
# Installs the Debian packages kvlab needs, and only those that are missing.
#
# Usage: cmake/deps.sh [build|words|memcheck|bench|all]
#   build     compiler-side libraries (Abseil, GoogleTest, pkg-config, CMake, Ninja)
#   words     Debian word lists for the `words` data set
#   memcheck  valgrind
#   bench     tcmalloc, for mmbench's comparison run
#   all       everything above (the default)
#
# Exits non-zero with a clear message when a package is missing and cannot be
# installed (not root, no apt-get, or apt-get failed).
set -euo pipefail

group=${1:-all}
build_pkgs=(g++ cmake ninja-build pkg-config libabsl-dev libgtest-dev libgmock-dev)
words_pkgs=(wamerican wbritish)
memcheck_pkgs=(valgrind)
bench_pkgs=(libtcmalloc-minimal4)

case "$group" in
  build) wanted=("${build_pkgs[@]}") ;;
  words) wanted=("${words_pkgs[@]}") ;;
  memcheck) wanted=("${memcheck_pkgs[@]}") ;;
  bench) wanted=("${bench_pkgs[@]}") ;;
  all) wanted=("${build_pkgs[@]}" "${words_pkgs[@]}" "${memcheck_pkgs[@]}" "${bench_pkgs[@]}") ;;
  *) echo "deps: unknown group '$group' (build, words, memcheck, bench, all)" >&2; exit 2 ;;
esac

missing=()
for pkg in "${wanted[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$pkg")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: installing missing Debian packages: ${missing[*]}" >&2
if ! command -v apt-get >/dev/null 2>&1; then
  echo "deps: apt-get not found; install these packages by hand: ${missing[*]}" >&2
  exit 1
fi
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
  else
    echo "deps: not root and no sudo; install these packages by hand: ${missing[*]}" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
if ! "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}" >/tmp/kvlab-deps.log 2>&1; then
  # The package lists may be stale or absent on a fresh machine: refresh once and retry.
  "${sudo[@]}" apt-get update >>/tmp/kvlab-deps.log 2>&1 || true
  if ! "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}" >>/tmp/kvlab-deps.log 2>&1; then
    echo "deps: apt-get could not install: ${missing[*]} (log: /tmp/kvlab-deps.log)" >&2
    tail -n 20 /tmp/kvlab-deps.log >&2
    exit 1
  fi
fi
echo "deps: installed ${missing[*]}" >&2
