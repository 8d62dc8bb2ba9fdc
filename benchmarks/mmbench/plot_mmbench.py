#!/usr/bin/python3
"""Charts of an mmbench JSON file (mmbench --json=FILE).

  plot_mmbench.py results/mmbench.jsonl docs/img/stage5_

writes PREFIXmm_superbins.png, the Hyperion manager's chunks per superbin
after the final phase in the manner of the Hyperion paper's Figure 14 (in
use upwards, free downwards, memory per superbin as dots), the same for the
compacted manager as PREFIXmm_superbins_compact.png if the file has a
hyperion_compact run, and
PREFIXmm_held_per_live.png, bytes of RSS per live byte after each phase for
every allocator (medians over the runs in the file).
"""
import json
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def plot_superbins(record, out, title):
    bins = record["result"]["manager"]["superbins"]
    ids = [b["id"] for b in bins]
    used = [b["chunks_in_use"] for b in bins]
    free = [-b["chunks_free"] for b in bins]
    mapped_mib = [b["mapped_bytes"] / 2**20 for b in bins]
    fig, ax = plt.subplots(figsize=(10, 4.5))
    ax.bar(ids, used, color="tab:green", label="chunks in use")
    ax.bar(ids, free, color="tab:red", label="free chunks (external fragmentation)")
    ax.axhline(0, color="black", linewidth=0.5)
    ax.set_xlabel("superbin (chunk size 32*i bytes; 0 = extended records)")
    ax.set_ylabel("chunks")
    ax2 = ax.twinx()
    ax2.plot(ids, mapped_mib, "k.", label="mapped MiB")
    ax2.set_ylabel("mapped MiB per superbin")
    lines = ax.get_legend_handles_labels()
    lines2 = ax2.get_legend_handles_labels()
    ax.legend(lines[0] + lines2[0], lines[1] + lines2[1], loc="center right")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def plot_held(records, out):
    per = {}
    for r in records:
        res = r["result"]
        base = res["baseline_rss_bytes"]
        for p in res["phases"]:
            if p["name"] == "free" and p["live_bytes"] == 0:
                continue
            per.setdefault(res["allocator"], {}).setdefault(p["name"], []).append(
                (p["rss_bytes"] - base) / p["live_bytes"])
    phases = ["grow", "free", "regrow"]
    fig, ax = plt.subplots(figsize=(7, 4))
    width = 0.8 / max(1, len(per))
    for k, (alloc, by_phase) in enumerate(per.items()):
        xs = [i + k * width for i in range(len(phases))]
        ys = [statistics.median(by_phase.get(p, [0])) for p in phases]
        ax.bar(xs, ys, width, label=alloc)
    ax.set_xticks([i + width * (len(per) - 1) / 2 for i in range(len(phases))])
    ax.set_xticklabels(["after grow", "after freeing half", "after regrow"])
    ax.set_ylabel("RSS growth per live byte")
    ax.axhline(1, color="black", linewidth=0.5)
    ax.legend()
    ax.set_title("mmbench: bytes held per live byte (lower is better)")
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    records = [r for r in load(sys.argv[1]) if r.get("tool") == "mmbench"]
    hyperion = [r for r in records if r["result"]["allocator"] == "hyperion"]
    if not hyperion:
        sys.exit("no hyperion run in " + sys.argv[1])
    plot_superbins(hyperion[-1], sys.argv[2] + "mm_superbins.png",
                   "Hyperion memory manager after mmbench's final phase")
    compact = [r for r in records
               if r["result"]["allocator"] == "hyperion_compact"]
    if compact:
        plot_superbins(compact[-1], sys.argv[2] + "mm_superbins_compact.png",
                       "Hyperion memory manager compacted after the free and "
                       "regrow phases, after the final phase")
    plot_held(records, sys.argv[2] + "mm_held_per_live.png")


if __name__ == "__main__":
    main()
