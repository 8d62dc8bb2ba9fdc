#!/usr/bin/python3
"""Charts and tables of a kvbench B-tree order sweep.

Reads the JSON lines kvbench wrote (--json=FILE) for btree:order=N specs and
any other stores measured in the same run, and writes:

  - a PNG per data set: throughput (load, get, scan, course) and bytes per
    key against the order, with the other stores as horizontal lines;
  - a Markdown table per data set on stdout, for
    docs/experiments/stage2_btree.md.

Usage (Debian's python3, which has matplotlib; see
docs/experiments/stage2_btree.md):
  /usr/bin/python3 stage2_btree/tools/plot_order_sweep.py results.jsonl \
      docs/img/stage2_order_sweep
which writes docs/img/stage2_order_sweep_<dataset>.png.
"""

import json
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

def load(path):
    """{dataset: {store spec: metrics}}, the last record of each winning."""
    runs = {}
    with open(path) as f:
        for line in f:
            record = json.loads(line)
            if record.get("status") != "ok":
                continue
            metrics = dict(record["metrics"], n=record["n"])
            runs.setdefault(record["dataset"], {})[record["store"]] = metrics
    return runs


def order_of(spec):
    match = re.fullmatch(r"btree:order=(\d+)", spec)
    return int(match.group(1)) if match else None


def table(dataset, stores):
    header = ("| store | load Mops/s | get Mops/s | scan Mkeys/s "
              "| course ops/s | B/key | own B/key |")
    rows = [header, "|" + "---|" * 7]

    def fmt(v, digits):
        return "n/a" if v is None else f"{v:.{digits}f}"

    for spec, m in stores:
        course = m.get("course_ops_per_s")
        rows.append("| {} | {} | {} | {} | {} | {} | {} |".format(
            spec, fmt(m.get("load_mops"), 3), fmt(m.get("get_mops"), 3),
            fmt(m.get("scan_mkeys"), 2),
            "n/a" if course is None else f"{course:,.0f}",
            fmt(m.get("rss_bytes_per_key"), 1),
            fmt(m.get("own_bytes_per_key"), 1)))
    return f"**{dataset}**\n\n" + "\n".join(rows) + "\n"


PANELS = [("load_mops", "load, Mops/s"), ("get_mops", "get, Mops/s"),
          ("scan_mkeys", "scan, Mkeys/s"),
          ("course_ops_per_s", "course workload, ops/s"),
          ("rss_bytes_per_key", "memory, bytes per key (RSS)")]
STYLES = ["--", ":", "-.", (0, (5, 1, 1, 1))]


def plot(dataset, sweep, others, out_path):
    """One panel per metric: btree against its order, peers as lines."""
    panels = [(k, t) for k, t in PANELS
              if any(m.get(k) is not None for _, m in sweep)]
    columns = 3
    rows = (len(panels) + columns - 1) // columns
    fig, grid = plt.subplots(rows, columns, figsize=(13, 3.8 * rows),
                             squeeze=False)
    axes = [ax for row in grid for ax in row]
    for ax in axes[len(panels):]:
        ax.axis("off")
    orders = [o for o, _ in sweep]
    for ax, (key, title) in zip(axes, panels):
        ax.plot(orders, [m.get(key) for _, m in sweep], marker="o",
                color="C0", label="btree")
        for j, (spec, m) in enumerate(others):
            if m.get(key) is not None:
                ax.axhline(m[key], color=f"C{j + 1}",
                           linestyle=STYLES[j % len(STYLES)], label=spec)
        ax.set_xscale("log", base=2)
        ax.set_xticks(orders, [str(o) for o in orders])
        ax.set_xlabel("order")
        ax.set_title(title, fontsize=10)
        ax.set_ylim(bottom=0)
        if key == "course_ops_per_s":
            ax.set_yscale("symlog", linthresh=10)
        ax.grid(True, alpha=0.3)
    axes[0].legend(fontsize=8)
    fig.suptitle(f"btree order sweep, data set {dataset}, "
                 f"n = {sweep[0][1]['n']:,}")
    fig.tight_layout()
    fig.savefig(out_path, dpi=90)
    plt.close(fig)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    runs = load(sys.argv[1])
    for dataset, by_store in runs.items():
        sweep = sorted((order_of(s), m) for s, m in by_store.items()
                       if order_of(s) is not None)
        others = [(s, m) for s, m in by_store.items() if order_of(s) is None]
        if not sweep:
            continue
        plot(dataset, sweep, others, f"{sys.argv[2]}_{dataset}.png")
        print(table(dataset, [(f"btree:order={o}", m) for o, m in sweep] +
                    others))


if __name__ == "__main__":
    main()
