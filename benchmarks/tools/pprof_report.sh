#!/usr/bin/env bash
# Reports a gperftools profile of kvbench with google-pprof: the top
# functions by their own and cumulative cost as text, and the call graph as
# a Graphviz .dot file (and .svg when Graphviz's dot is installed).
# Usage: pprof_report.sh cpu KVBENCH PROFILE
#        pprof_report.sh heap KVBENCH PREFIX   (the dump with the most bytes
#        in use among PREFIX.*.heap: the store loaded, before teardown)
set -euo pipefail
kind=$1 binary=$2 profile=$3
if [ "$kind" = heap ]; then
  # Each dump's first line: "heap profile: <objects>: <bytes in use> [...".
  profile=$(for f in "$profile".*.heap; do
              echo "$(head -n 1 "$f" | awk '{ print $4 }') $f"
            done | sort -n | tail -n 1 | cut -d' ' -f2)
  echo "heap dumps: $(ls "$3".*.heap | wc -l); the largest in use: $profile"
fi
[ -s "$profile" ] || { echo "pprof_report: no profile at $profile" >&2; exit 1; }
extra=()
[ "$kind" = heap ] && extra=(--inuse_space)
echo "== $kind profile $profile: top 25 by own cost =="
google-pprof --text "${extra[@]}" "$binary" "$profile" 2>/dev/null | head -n 31
echo
echo "== top 15 by cumulative cost (callers included) =="
google-pprof --text --cum "${extra[@]}" "$binary" "$profile" 2>/dev/null | head -n 21
echo
echo "== the stores alone (--focus=kvlab::, data set generation left out), top 15 =="
google-pprof --text --focus='kvlab::' "${extra[@]}" "$binary" "$profile" \
  2>/dev/null | head -n 21
google-pprof --dot "${extra[@]}" --nodecount=40 "$binary" "$profile" \
  >"$profile.dot" 2>/dev/null
echo
echo "call graph: $profile.dot"
if command -v dot >/dev/null 2>&1; then
  dot -Tsvg "$profile.dot" -o "$profile.svg" && echo "call graph: $profile.svg"
fi
