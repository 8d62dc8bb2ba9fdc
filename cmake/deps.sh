#!/usr/bin/env bash
# Installs the Debian packages kvlab needs, and only those that are missing.
#
# Usage: cmake/deps.sh [build|words|memcheck|bench|profile|fuzz|format|cross|
#                       draw|browser|all]
#   build     compiler-side libraries (Abseil, GoogleTest, pkg-config, CMake,
#             Ninja), the peers' libraries (Judy, HAT-trie), ISA-L (the CRC-32C
#             of the durable store's log), and python3, patch and bubblewrap
#             (its sandbox) for the submission grader and its tests
#   words     Debian word lists for the `words` data set
#   memcheck  valgrind and python3 (make memcheck, make massif)
#   bench     the data sets built from Debian packages (English, French, German,
#             Italian, Spanish and Swedish word lists; the GCIDE dictionary),
#             matplotlib for the charts, tcmalloc for ALLOCATOR=tcmalloc
#   profile   gperftools (CPU and heap profiler, tcmalloc, pprof), Graphviz
#   fuzz      clang and libFuzzer with its sanitizer runtimes (make fuzz,
#             make fuzz-check)
#   format    clang-format and git (make format, make format-check)
#   cross     the arm64 cross compiler and C library headers (the portable
#             test: the library's sources compiled for aarch64)
#   draw      Graphviz, which kvlab-draw runs to lay out its drawings (make
#             draw, make docs-images, the tests labelled draw)
#   browser   Chromium, headless, in which the draw test steps through the
#             page kvlab-draw writes
#   all       everything above (the default)
#
# Exits non-zero with a clear message when a package is missing and cannot be
# installed (not root, no apt-get, or apt-get failed).
set -euo pipefail

group=${1:-all}
build_pkgs=(g++ cmake ninja-build pkg-config libabsl-dev libgtest-dev libgmock-dev
            libjudy-dev libhat-trie-dev libisal-dev zlib1g-dev python3 patch
            bubblewrap)
words_pkgs=(wamerican wbritish)
memcheck_pkgs=(valgrind python3)  # python3: massif_summary.sh reads ms_print
bench_pkgs=(wamerican wbritish wamerican-insane wbritish-insane wcanadian-insane
            wfrench wngerman witalian wspanish wswedish dict-gcide
            python3-matplotlib libtcmalloc-minimal4)
profile_pkgs=(google-perftools libgoogle-perftools-dev graphviz)
fuzz_pkgs=(clang libclang-rt-14-dev)
format_pkgs=(clang-format git)
cross_pkgs=(g++-aarch64-linux-gnu libc6-dev-arm64-cross)
draw_pkgs=(graphviz)
browser_pkgs=(chromium)

case "$group" in
  build) wanted=("${build_pkgs[@]}") ;;
  words) wanted=("${words_pkgs[@]}") ;;
  memcheck) wanted=("${memcheck_pkgs[@]}") ;;
  bench) wanted=("${bench_pkgs[@]}") ;;
  profile) wanted=("${profile_pkgs[@]}") ;;
  fuzz) wanted=("${fuzz_pkgs[@]}") ;;
  format) wanted=("${format_pkgs[@]}") ;;
  cross) wanted=("${cross_pkgs[@]}") ;;
  draw) wanted=("${draw_pkgs[@]}") ;;
  browser) wanted=("${browser_pkgs[@]}") ;;
  all) wanted=("${build_pkgs[@]}" "${words_pkgs[@]}" "${memcheck_pkgs[@]}"
               "${bench_pkgs[@]}" "${profile_pkgs[@]}" "${fuzz_pkgs[@]}" "${format_pkgs[@]}"
               "${cross_pkgs[@]}" "${draw_pkgs[@]}" "${browser_pkgs[@]}") ;;
  *) echo "deps: unknown group '$group' (build, words, memcheck, bench, profile, fuzz, format, cross, draw, browser, all)" >&2; exit 2 ;;
esac

missing=()
mapfile -t wanted < <(printf '%s\n' "${wanted[@]}" | awk '!seen[$0]++')
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
