#!/usr/bin/env python3
"""Turns kvbench JSON lines into the results folder of `make bench`.

Usage: bench_report.py RESULTS_DIR JSONL... [--docs DOCS_DIR] [--command CMD]

Reads every record of the JSONL files (the last record wins for a repeated
(store, data set, n)), and writes into RESULTS_DIR:
  results.csv           one row per (store, data set, n), every metric
  results.md            a Markdown table per data set, headed by the machine,
                        build, command and data set statistics
  results_throughput.png  load and get Mops/s per store, one panel per data set
  results_bytes_per_key.png  RssAnon bytes per key per store
  results_pm.png        P/M (MOPS per GiB) per store
  results_course_tps.png  course-workload operations per second (log scale)
With --docs, the charts are also copied to DOCS_DIR/img/ and results.md to
DOCS_DIR/results.md. Charts use matplotlib (Debian python3-matplotlib,
installed by `make deps`). Nothing here computes a number kvbench did not
measure: it only selects, formats and draws them.
"""

import argparse
import csv
import json
import os
import shutil
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")  # no display on the course machine
import matplotlib.pyplot as plt  # noqa: E402

METRICS = [
    ("load_mops", "load Mops/s", "%.3f"),
    ("get_mops", "get Mops/s", "%.3f"),
    ("scan_mkeys", "scan Mkeys/s", "%.2f"),
    ("rss_bytes_per_key", "B/key", "%.1f"),
    ("peak_bytes_per_key", "peak B/key", "%.1f"),
    ("own_bytes_per_key", "own B/key", "%.1f"),
    ("pm_mops_per_gib", "P/M MOPS/GiB", "%.1f"),
    ("course_ops_per_s", "course ops/s", "%.0f"),
    ("course_checked", "checked", "%.0f"),
]


def read_records(paths):
    records = {}
    order = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if not line:
                    continue
                r = json.loads(line)
                key = (r["store"], r["dataset"], r["n"])
                if key not in records:
                    order.append(key)
                records[key] = r
    return [records[k] for k in order]


def datasets_in_order(records):
    seen = []
    for r in records:
        if (r["dataset"], r["n"]) not in seen:
            seen.append((r["dataset"], r["n"]))
    return seen


def course_length(record):
    """How long each course thread ran: a fixed count of operations, or a time."""
    ops = record.get("course_ops", 0)
    return "%s ops" % format(ops, ",") if ops else "%g s" % record["seconds"]


def header_lines(records):
    first = records[0]
    m, b = first["machine"], first["build"]
    cores = m["cores"]
    gib = m["memory_bytes"] / 2**30
    lines = [
        "machine: %s, %d cores, %.1f GiB, %s" % (m["cpu"], cores, gib, m["kernel"]),
        "build: %s, sanitizer %s, %s, flags '%s', %s"
        % (b["type"], b["sanitizer"] or "none", b["compiler"], b["flags"],
           b.get("allocator") or "glibc malloc"),
        "run: course threads %d x %s, repeat %d, verify %s, %s to %s"
        % (first["threads"], course_length(first), first["repeat"],
           "on" if first["verify"] else "off",
           min(r["date"] for r in records), max(r["date"] for r in records)),
    ]
    if any(r.get("unreliable") for r in records):
        lines.append("WARNING: debug/sanitized build, numbers UNRELIABLE")
    return lines


def dataset_line(r):
    d = r["dataset_info"]
    text = "%s: n=%s, avg key %.1f B, avg value %.1f B, %s load order, seed %d" % (
        d["name"], format(d["n"], ","), d["avg_key_bytes"], d["avg_value_bytes"],
        d["load_order"], d["seed"])
    if d.get("note"):
        text += " (%s)" % d["note"]
    return text


def fmt(metrics, name, pattern):
    v = metrics.get(name)
    if v is None:
        return "n/a"
    if name == "course_checked":
        planned = metrics.get("course_planned")
        if planned and v < planned:  # capped: an O(n) GetNth ran out of time
            return "%d/%d" % (v, planned)
    if name == "pm_mops_per_gib" and 0 < v < 1:
        return "%.3f" % v
    return pattern % v


def write_csv(records, path):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["store", "dataset", "n", "status"] + [m for m, _, _ in METRICS]
                   + ["detail", "date", "build_type", "cpu"])
        for r in records:
            w.writerow([r["store"], r["dataset"], r["n"], r["status"]]
                       + [r["metrics"].get(m, "") for m, _, _ in METRICS]
                       + [r["detail"], r["date"], r["build"]["type"],
                          r["machine"]["cpu"]])


STALE_SECTION = [
    "## Which figures are stale", "",
    "A figure here is stale once its store's sources change: "
    "`docs/tools/check_docs.py` fails until every stage folder (and "
    "`benchmarks/peers/`) changed since the commit above is listed on the "
    "next line, and a chapter quoting this page for a stale stage must "
    "link this section. A new record run (`make bench FULL=1 DOCS=1`) "
    "clears the list.", ""]


def source_commit():
    """The commit of the checkout this script lies in, or "unknown"."""
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        return subprocess.run(["git", "-C", here, "rev-parse", "--short=12",
                               "HEAD"], check=True, capture_output=True,
                              text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def write_markdown(records, path, command, charts):
    out = ["# kvbench results", "",
           "Commit: %s (the sources measured)" % source_commit(), ""]
    out += STALE_SECTION + ["Stale for: none", ""]
    if command:
        full = "FULL=1" in command
        out += ["Command (%s):" % ("the record run, FULL=1" if full else
                                   "the default sizes, not FULL=1"),
                "", "```sh", command, "```", ""]
    out += ["Data sets: " + ", ".join(
        "%s n=%s" % (name, format(n, ",")) for name, n in datasets_in_order(records)),
        ""]
    out += ["    " + l for l in header_lines(records)] + [""]
    for name, n in datasets_in_order(records):
        rows = [r for r in records if r["dataset"] == name and r["n"] == n]
        out += ["## %s" % name, "", dataset_line(rows[0]), ""]
        out.append("| store | " + " | ".join(h for _, h, _ in METRICS) + " | status |")
        out.append("|---|" + "---:|" * len(METRICS) + "---|")
        for r in rows:
            cells = [fmt(r["metrics"], m, p) for m, _, p in METRICS]
            status = r["status"]
            if status != "ok":
                # The detail often starts with the status word already.
                detail = r["detail"]
                status = detail if detail.startswith(status) else "%s: %s" % (
                    status, detail)
            out.append("| %s | %s | %s |" % (r["store"], " | ".join(cells),
                                            status.replace("|", "/")))
        out.append("")
    if charts:
        out += ["## Charts", ""]
        for c in charts:
            out += ["![%s](%s)" % (c, c), ""]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out))


def bar_panels(records, metrics, title, ylabel, path, log=False, only=None):
    """One panel per data set, one bar group per store."""
    sets = [s for s in datasets_in_order(records)
            if any(r["metrics"].get(metrics[0][0]) is not None
                   for r in records if (r["dataset"], r["n"]) == s)]
    if only:
        sets = [s for s in sets if s[0] in only]
    if not sets:
        return None
    header = [title] + header_lines(records)
    header_in = 0.17 * len(header) + 0.3
    panel_in = 3.4
    height = header_in + panel_in * len(sets)
    fig, axes = plt.subplots(len(sets), 1, figsize=(11, height), squeeze=False)
    fig.subplots_adjust(left=0.08, right=0.98, top=1 - header_in / height,
                        bottom=1.0 / height, hspace=1.3 * 3.4 / panel_in * 0.45)
    for ax, (name, n) in zip(axes[:, 0], sets):
        rows = [r for r in records if r["dataset"] == name and r["n"] == n]
        stores = [r["store"] for r in rows]
        width = 0.8 / len(metrics)
        for k, (metric, label) in enumerate(metrics):
            values = [r["metrics"].get(metric, 0) or 0 for r in rows]
            xs = [i + (k - (len(metrics) - 1) / 2) * width for i in range(len(rows))]
            bars = ax.bar(xs, values, width, label=label)
            for x, v, r in zip(xs, values, rows):
                note = r["status"]
                if r["status"] == "ok" and r["metrics"].get(metric) is None:
                    note = "n/a"  # e.g. an unordered store has no course phase
                if note != "ok":
                    # Axis-relative height, so it shows on log scales too.
                    ax.text(x, 0.03, note, rotation=90, fontsize=7,
                            ha="center", va="bottom",
                            transform=ax.get_xaxis_transform())
            if len(metrics) == 1:
                ax.bar_label(bars, labels=[
                    "" if v == 0 else ("%.0f" % v if v >= 100 else "%.3g" % v)
                    for v in values], fontsize=6, padding=2)
        ax.set_xticks(range(len(rows)))
        ax.set_xticklabels(stores, rotation=30, ha="right", fontsize=8)
        ax.set_ylabel(ylabel)
        ax.set_title(dataset_line(rows[0]), fontsize=8)
        if log:
            ax.set_yscale("log")
            low, high = ax.get_ylim()
            ax.set_ylim(low, high * 3)  # room for the value labels
        else:
            ax.margins(y=0.12)
        if len(metrics) > 1:
            ax.legend(fontsize=8)
        ax.grid(axis="y", alpha=0.3)
    fig.suptitle("\n".join(header), fontsize=8, y=1 - 0.1 / height)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return os.path.basename(path)


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("results_dir")
    p.add_argument("jsonl", nargs="+")
    p.add_argument("--docs", help="also write DOCS/results.md and DOCS/img/")
    p.add_argument("--command", default="", help="the command that ran")
    args = p.parse_args(argv)
    records = read_records(args.jsonl)
    if not records:
        print("bench_report: no records in %s" % args.jsonl, file=sys.stderr)
        return 1
    os.makedirs(args.results_dir, exist_ok=True)
    d = args.results_dir
    write_csv(records, os.path.join(d, "results.csv"))
    charts = [c for c in [
        bar_panels(records, [("load_mops", "load"), ("get_mops", "get")],
                   "Throughput per store: million operations per second "
                   "(higher is better, log scale)",
                   "Mops/s", os.path.join(d, "results_throughput.png"), log=True),
        bar_panels(records, [("rss_bytes_per_key", "B/key")],
                   "Memory per key: RssAnon growth / n (lower is better, log scale)",
                   "bytes per key", os.path.join(d, "results_bytes_per_key.png"),
                   log=True),
        bar_panels(records, [("pm_mops_per_gib", "P/M")],
                   "P/M: (puts/s + gets/s) / memory, MOPS per GiB "
                   "(higher is better, log scale)",
                   "MOPS/GiB", os.path.join(d, "results_pm.png"), log=True),
        bar_panels(records, [("course_ops_per_s", "course ops/s")],
                   "Course workload, timed phase: operations per second (log scale)",
                   "ops/s", os.path.join(d, "results_course_tps.png"), log=True),
    ] if c]
    write_markdown(records, os.path.join(d, "results.md"), args.command, charts)
    print("bench_report: wrote %s/results.{csv,md} and %d charts"
          % (d, len(charts)))
    if args.docs:
        img = os.path.join(args.docs, "img")
        os.makedirs(img, exist_ok=True)
        for c in charts:
            shutil.copy(os.path.join(d, c), os.path.join(img, c))
        with open(os.path.join(d, "results.md"), encoding="utf-8") as f:
            text = f.read().replace("](results_", "](img/results_")
        with open(os.path.join(args.docs, "results.md"), "w", encoding="utf-8") as f:
            f.write(text)
        print("bench_report: wrote %s/results.md and %s/results_*.png" % (args.docs, img))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
