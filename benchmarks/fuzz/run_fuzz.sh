#!/usr/bin/env bash
# Runs the fuzz target on one store for a while, from the committed corpus.
#
# Usage: benchmarks/fuzz/run_fuzz.sh FUZZER SPEC SECONDS WORK_DIR [FLAGS...]
#   SPEC     a store spec, or "any" for the store each input's first byte picks
#   WORK_DIR new inputs go to WORK_DIR/<spec>/corpus, and an input that fails
#            (a wrong answer or a crash) to WORK_DIR/<spec>/artifacts/
#   FLAGS    more libFuzzer flags, e.g. -jobs=2
# Exits non-zero when the fuzzer found a failing input.
set -euo pipefail

fuzzer=$1 spec=$2 seconds=$3 work=$4
shift 4
seeds=$(cd "$(dirname "$0")" && pwd)/corpus
dir=$work/$(printf '%s' "$spec" | tr ':=/' '_-_')
mkdir -p "$dir/corpus" "$dir/artifacts"
if [ "$spec" != any ]; then export KVLAB_FUZZ_STORE=$spec; fi
echo "run_fuzz: $spec for ${seconds}s; new inputs in $dir/corpus"
# -max_len: inputs of up to 4 KiB (Repeat makes them long programs);
# -timeout: one input running 30 s is a hang.
status=0
"$fuzzer" -max_total_time="$seconds" -max_len=4096 -timeout=30 \
  -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$dir/artifacts/" \
  "$@" "$dir/corpus" "$seeds" || status=$?
if [ "$status" -ne 0 ]; then
  echo "run_fuzz: $spec failed; the failing input is in $dir/artifacts/." >&2
  echo "run_fuzz: replay it with kvlab_fuzz_replay --store=$spec --print FILE" >&2
fi
exit "$status"
