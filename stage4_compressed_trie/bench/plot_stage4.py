#!/usr/bin/env python3
"""Draws the stage-4 charts from kvbench JSON lines (--json=FILE output).

  plot_stage4.py --compare=RUN.jsonl --scaling=SCALING.jsonl --out=DIR

--compare: one run over several stores on the course data set; draws
  DIR/stage4_load_memory.png (load Mops/s and RssAnon bytes per key).
--scaling: runs of the locking variants at several --threads values; draws
  DIR/stage4_scaling.png (course ops/s against threads, one line per spec).
Only records with status "ok" are used; the figures are kvbench's medians.
"""

import argparse
import collections
import json
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_records(path):
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line:
                record = json.loads(line)
                if record.get("status") == "ok":
                    yield record


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
    series = collections.defaultdict(dict)
    for r in read_records(path):
        if r["dataset"] != "course" or "course_ops_per_s" not in r["metrics"]:
            continue
        series[r["store"]][r["threads"]] = r["metrics"]["course_ops_per_s"]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for store, points in sorted(series.items()):
        threads = sorted(points)
        ax.plot(threads, [points[t] / 1e6 for t in threads], marker="o",
                label=store)
    ax.set_xlabel("threads (the machine has 2 cores)")
    ax.set_ylabel("course mix, million ops/s")
    ax.set_xticks(sorted({t for p in series.values() for t in p}))
    ax.set_ylim(bottom=0)
    ax.legend()
    ax.set_title("ctrie locking designs on the course mix")
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
