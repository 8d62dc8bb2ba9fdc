#!/usr/bin/env python3
"""Draws the stage-4 charts from kvbench and ctrie_scaling JSON lines.

  plot_stage4.py --compare=RUN.jsonl --scaling=SCALING.jsonl --out=DIR

--compare: one kvbench run (--json=FILE) over several stores on the course
  data set; draws DIR/stage4_load_memory.png (load Mops/s and RssAnon bytes
  per key). Only records with status "ok" are used; the figures are
  kvbench's medians.
--scaling: the JSON lines of bench/ctrie_scaling --mode=mix; draws
  DIR/stage4_scaling.png: reads/s (Get + GetNth) against threads, one panel
  per mix, one line per spec, each point the median over the repeats.
"""

import argparse
import collections
import json
import os
import statistics

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_lines(path):
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line:
                yield json.loads(line)


def read_records(path):
    return (r for r in read_lines(path) if r.get("status") == "ok")


def plot_compare(path, out):
    records = [r for r in read_records(path) if r["dataset"] == "course"]
    stores = [r["store"] for r in records]
    load = [r["metrics"]["load_mops"] for r in records]
    bpk = [r["metrics"]["rss_bytes_per_key"] for r in records]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.5))
    ax1.barh(stores, load, color="tab:blue")
    ax1.set_xlabel("load, million puts/s (higher is better)")
    ax1.invert_yaxis()
    ax2.barh(stores, bpk, color="tab:orange")
    raw = records[0]["dataset_info"]
    raw_bytes = raw["avg_key_bytes"] + raw["avg_value_bytes"]
    ax2.axvline(raw_bytes, color="black", linestyle=":", label="raw key+value")
    ax2.axvline(raw_bytes + 24, color="red", linestyle="--",
                label="raw + 24 B (target)")
    ax2.set_xlabel("RssAnon bytes per key (lower is better)")
    ax2.invert_yaxis()
    ax2.legend(loc="upper right")
    n = records[0]["n"]
    fig.suptitle(f"course data set, n={n:,}: {records[0]['machine']['cpu']}")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "stage4_load_memory.png"), dpi=100)


def plot_scaling(path, out):
    # runs[mix][store][threads] = reads/s of every repeat
    runs = collections.defaultdict(
        lambda: collections.defaultdict(lambda: collections.defaultdict(list)))
    for r in read_lines(path):
        if r.get("tool") == "ctrie_scaling" and r.get("mode") == "mix":
            runs[r["mix"]][r["store"]][r["threads"]].append(r["reads_per_s"])
    mixes = [m for m in ("course", "read90", "read") if m in runs]
    fig, axes = plt.subplots(1, len(mixes), figsize=(5 * len(mixes), 4.5),
                             squeeze=False)
    for ax, mix in zip(axes[0], mixes):
        for store, points in sorted(runs[mix].items()):
            threads = sorted(points)
            ax.plot(threads,
                    [statistics.median(points[t]) / 1e6 for t in threads],
                    marker="o", label=store)
        ax.set_xlabel("threads (the machine has 2 cores)")
        ax.set_ylabel("reads (Get + GetNth), million/s")
        ax.set_xticks(sorted({t for p in runs[mix].values() for t in p}))
        ax.set_ylim(bottom=0)
        ax.set_title(f"mix {mix}")
        ax.legend()
    fig.suptitle("ctrie locking designs: read throughput (medians)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "stage4_scaling.png"), dpi=100)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compare")
    parser.add_argument("--scaling")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    if args.compare:
        plot_compare(args.compare, args.out)
    if args.scaling:
        plot_scaling(args.scaling, args.out)


if __name__ == "__main__":
    main()
