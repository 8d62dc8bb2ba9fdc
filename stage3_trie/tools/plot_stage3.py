#!/usr/bin/python3
"""Draws the stage-3 charts of docs/stage3_trie.md and
docs/experiments/stage3_trie.md from measured data.

  plot_stage3.py --bench RESULTS.jsonl [...] --shape SHAPE.json [...] \
      --out docs/img

--bench takes kvbench --json files (one JSON object per line, one line per
store, data set and n); --shape takes trie_shape outputs. Writes
stage3_speed_memory.png (load/get throughput and bytes per key, one panel
per data set and n) and stage3_depth.png (average children per node and
nodes per depth). Needs matplotlib (apt-get install python3-matplotlib).
"""

import argparse
import json
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_bench(paths):
    """{(dataset, n): {store: metrics}} from kvbench JSON lines (ok rows)."""
    runs = {}
    for path in paths:
        with open(path) as f:
            for line in f:
                record = json.loads(line)
                if record["status"] != "ok":
                    continue
                key = (record["dataset"], record["dataset_info"]["n"])
                runs.setdefault(key, {})[record["store"]] = record["metrics"]
    return runs


def short(store):
    return store.replace("trie_array:alphabet=letters", "trie_array\n(letters)")


def plot_speed_memory(runs, out):
    keys = sorted(runs, key=lambda k: (k[0] != "course", k[1]))
    fig, axes = plt.subplots(2, len(keys), figsize=(4.2 * len(keys), 7.5),
                             squeeze=False)
    for col, key in enumerate(keys):
        stores = list(runs[key])
        x = range(len(stores))
        load = [runs[key][s].get("load_mops", 0) for s in stores]
        get = [runs[key][s].get("get_mops", 0) for s in stores]
        top = axes[0][col]
        top.bar([i - 0.2 for i in x], load, width=0.4, label="load")
        top.bar([i + 0.2 for i in x], get, width=0.4, label="get")
        top.set_title(f"{key[0]}, n={key[1]:,}")
        top.set_ylabel("Mops/s (median)")
        top.set_xticks(list(x))
        top.set_xticklabels([short(s) for s in stores], rotation=60,
                            fontsize=7)
        top.legend(fontsize=7)
        bottom = axes[1][col]
        rss = [runs[key][s].get("rss_bytes_per_key", 0) for s in stores]
        bottom.bar(list(x), rss, color="tab:gray")
        bottom.set_yscale("log")
        bottom.set_ylim(bottom=10)
        bottom.set_ylabel("RssAnon bytes per key (log)")
        bottom.set_xticks(list(x))
        bottom.set_xticklabels([short(s) for s in stores], rotation=60,
                               fontsize=7)
        for i, value in enumerate(rss):
            bottom.text(i, value, f"{value:,.0f}", ha="center",
                        va="bottom", fontsize=6)
    fig.suptitle("Pointer tries beside avl, btree and std_map (kvbench, Release, "
                 "median of 3; a loaded 2-core machine: compare within a panel)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "stage3_speed_memory.png"), dpi=110)


def plot_depth(shape_paths, out):
    shapes = []
    for path in shape_paths:
        with open(path) as f:
            shapes.append(json.loads(f.readline()))
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for shape in shapes:
        nodes = shape["nodes_at_depth"]
        children = shape["children_at_depth"]
        depth = [d for d in range(len(nodes)) if nodes[d] > 0]
        left.plot(depth, [children[d] / nodes[d] for d in depth],
                  marker=".", label=shape["keys"])
        right.plot(depth, [nodes[d] for d in depth], marker=".",
                   label=shape["keys"])
    left.set_yscale("log")
    left.axhline(1.0, color="gray", linewidth=0.7)
    left.set_xlabel("depth (key bytes consumed)")
    left.set_ylabel("average children per node (log)")
    left.set_title("Nodes get sparse with depth")
    left.legend(fontsize=7)
    right.set_yscale("log")
    right.set_xlabel("depth")
    right.set_ylabel("nodes at this depth (log)")
    right.set_title("Nodes per depth")
    right.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "stage3_depth.png"), dpi=110)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bench", nargs="+", required=True)
    parser.add_argument("--shape", nargs="+", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    plot_speed_memory(read_bench(args.bench), args.out)
    plot_depth(args.shape, args.out)


if __name__ == "__main__":
    main()
