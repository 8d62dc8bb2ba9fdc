#!/usr/bin/env bash
# Summarises a valgrind massif output: the peak heap and the allocation
# sites that held most of it at the peak (the first levels of ms_print's
# tree for the largest detailed snapshot). The full ms_print report goes
# beside the output as <file>.txt. Usage: massif_summary.sh MASSIF_OUT
set -euo pipefail
out=$1
ms_print "$out" >"$out.txt"
echo "massif: full report in $out.txt"
python3 - "$out.txt" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
# Snapshot table rows: n, time(i), total(B), useful-heap(B), extra-heap(B), stacks(B).
rows = re.findall(r"^ +(\d+) +([\d,]+) +([\d,]+) +([\d,]+) +([\d,]+) +([\d,]+)$", text, re.M)
num = lambda s: int(s.replace(",", ""))
peak = max(rows, key=lambda r: num(r[2]))
print("peak heap: %.1f MiB total (%.1f MiB useful, %.1f MiB allocator overhead), snapshot %s"
      % (num(peak[2]) / 2**20, num(peak[3]) / 2**20, num(peak[4]) / 2**20, peak[0]))
best = None
for m in re.finditer(r"^\d+(?:\.\d+)?% \(([\d,]+)B\) \(heap allocation functions\).*?(?=^-{20,}|\Z)",
                     text, re.M | re.S):
    if best is None or num(m.group(1)) > best[0]:
        best = (num(m.group(1)), m.group(0))
print("top allocation sites of the largest detailed snapshot:")
if best:
    for line in best[1].splitlines():
        # The top two levels of the tree: each site and its caller.
        if re.match(r"^(->|\| ->)", line):
            print("  " + line[:150])
PY
