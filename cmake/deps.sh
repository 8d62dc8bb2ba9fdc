#!/usr/bin/env bash
# Installs the Debian packages kvlab needs, and only those that are missing.
#
# Usage: cmake/deps.sh [stage|build|words|memcheck|bench|profile|fuzz|format|
#                       cross|draw|browser|all]
#   stage     what a stage's build and tests use (make stageN test): the
#             compiler, CMake, Ninja, pkg-config, Abseil, GoogleTest, and
#             python3 for the progress table
#   build     the whole kit (make test, bench, grade): the above, the peers'
#             libraries (Judy, HAT-trie), ISA-L (the CRC-32C of the durable
#             store's log), zlib (gcide3), and patch, bubblewrap (its sandbox)
#             and python3-yaml (the test that reads a handout's GitHub
#             workflow) for the submission grader and its tests
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
# As root (or with sudo that needs no password) the packages go system-wide
# with apt-get. Otherwise (a university lab machine) the missing ones are
# put in a folder of the checkout, .deps/root (KVLAB_DEPS_DIR=dir/root
# elsewhere), with no root at all: `apt-get download` fetches each package
# and the packages it needs that the machine lacks, and `dpkg -x` unpacks
# them there; the build then finds the libraries there before /usr
# (cmake/local_deps.cmake; the Makefile passes the folder on). Packages
# whose files must sit in /usr to work (word lists, browsers) are still
# listed for an administrator. KVLAB_DEPS_LOCAL=1 puts the build group's
# libraries in the folder even when the machine has them (the no-root
# test, cmake/deps_local_test.sh).
#
# Exits non-zero with a clear message when a package is missing and cannot be
# installed (no apt-get, or apt-get failed).
set -euo pipefail

group=${1:-all}
here=$(cd "$(dirname "$0")/.." && pwd)
local_root=${KVLAB_DEPS_DIR:-$here/.deps/root}
local_list=$local_root/../installed.txt
stage_pkgs=(g++ cmake ninja-build pkg-config libabsl-dev libgtest-dev libgmock-dev
            python3)
build_pkgs=("${stage_pkgs[@]}" libjudy-dev libhat-trie-dev libisal-dev zlib1g-dev
            patch bubblewrap python3-yaml)
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
  stage) wanted=("${stage_pkgs[@]}") ;;
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
  *) echo "deps: unknown group '$group' (stage, build, words, memcheck, bench, profile, fuzz, format, cross, draw, browser, all)" >&2; exit 2 ;;
esac

installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}
in_local() {
  [ -f "$local_list" ] && grep -qx "$1" "$local_list"
}
# A library's package, which works from any folder the build is pointed at.
is_library() {
  [[ $1 == lib*-dev || $1 == zlib1g-dev ]]
}

# install_local PKG...: the packages, and every package they need (not
# recommends) that the machine lacks or that comes from the same Debian
# source (a -dev package's shared library), into $local_root.
install_local() {
  local debs=$local_root/../debs closure=() pkg
  mkdir -p "$local_root" "$debs"
  # "package source" for the packages and everything they depend on.
  local table
  table=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
            --no-breaks --no-replaces --no-enhances "$@" 2>/dev/null | grep '^[a-z0-9]' | sort -u |
          xargs apt-cache show --no-all-versions 2>/dev/null |
          awk '/^Package:/ {p=$2; s=$2} /^Source:/ {s=$2}
               /^$/ {if (p) print p, s; p=""} END {if (p) print p, s}' | sort -u)
  local sources
  sources=$(printf '%s\n' "$@" | while read -r pkg; do awk -v p="$pkg" '$1 == p {print $2}' <<<"$table"; done | sort -u)
  local present
  present=$(dpkg-query -W -f='${Package} ${Status}\n' 2>/dev/null | awk '/install ok installed/ {print $1}')
  while read -r pkg src; do
    if printf '%s\n' "$@" | grep -qx "$pkg" || ! grep -qx "$pkg" <<<"$present" ||
       grep -qx "$src" <<<"$sources"; then
      in_local "$pkg" || closure+=("$pkg")
    fi
  done <<<"$table"
  [ ${#closure[@]} -eq 0 ] && return 0
  echo "deps: no root: downloading ${closure[*]} into $local_root" >&2
  if ! (cd "$debs" && apt-get download "${closure[@]}") >/tmp/kvlab-deps-$(id -u).log 2>&1; then
    echo "deps: apt-get download failed (log: /tmp/kvlab-deps-$(id -u).log)" >&2
    tail -n 20 "/tmp/kvlab-deps-$(id -u).log" >&2
    return 1
  fi
  for pkg in "${closure[@]}"; do
    dpkg -x "$(ls "$debs/${pkg}"_*.deb | head -1)" "$local_root"
    echo "$pkg" >>"$local_list"
  done
  echo "deps: unpacked ${#closure[@]} packages into $local_root; the build finds them there" >&2
}

missing=()
mapfile -t wanted < <(printf '%s\n' "${wanted[@]}" | awk '!seen[$0]++')
for pkg in "${wanted[@]}"; do
  if [ "${KVLAB_DEPS_LOCAL:-}" = 1 ] && is_library "$pkg" && ! in_local "$pkg"; then
    missing+=("$pkg")
  elif ! installed "$pkg" && ! in_local "$pkg"; then
    missing+=("$pkg")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "${KVLAB_DEPS_LOCAL:-}" = 1 ] ||
   { [ "$(id -u)" -ne 0 ] && ! sudo -n true 2>/dev/null; }; then
  libraries=() others=()
  for pkg in "${missing[@]}"; do
    if is_library "$pkg"; then libraries+=("$pkg"); else others+=("$pkg"); fi
  done
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "deps: apt-get not found; install these packages by hand: ${missing[*]} (README.md: other systems)" >&2
    exit 1
  fi
  if [ ${#others[@]} -gt 0 ]; then
    echo "deps: not root: ask an administrator for ${others[*]} (they must be installed system-wide)" >&2
    exit 1
  fi
  [ ${#libraries[@]} -eq 0 ] || install_local "${libraries[@]}"
  exit $?
fi

echo "deps: installing missing Debian packages: ${missing[*]}" >&2
if ! command -v apt-get >/dev/null 2>&1; then
  echo "deps: apt-get not found; install these packages by hand: ${missing[*]}" >&2
  exit 1
fi
sudo=()
[ "$(id -u)" -ne 0 ] && sudo=(sudo)  # without a password: checked above
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
