"""Many submission grades ranked: a Markdown table and a self-contained
HTML page (tables and an inline SVG chart of throughput against bytes per
key; no scripts, no network).
"""

import html
import json
import math
import os

from .report import FORMAT, number, points


class Entry:
    """One grade, as the leaderboard shows it."""

    def __init__(self, grade, path):
        self.path = path
        self.name = str(grade.get("submission", "?"))
        self.stage = str(grade.get("stage", "?"))
        self.store = str(grade.get("store", "?"))
        self.score = float(grade.get("score", 0))
        self.max_score = float(grade.get("max_score", 0))
        self.sha256 = str(grade.get("sha256", ""))
        self.date = str(grade.get("date", ""))
        self.kit = str(grade.get("kit_commit", ""))
        workload = grade.get("workload") or {}
        metrics = workload.get("metrics") or {}
        self.correct = bool(workload.get("correct"))
        self.tps = _number(metrics.get("tps"))
        self.bytes_per_key = _number(metrics.get("bytes_per_key"))
        self.load_seconds = _number(metrics.get("load_seconds"))
        self.n = (grade.get("options") or {}).get("n")
        self.parts = {p.get("metric"): p for p in grade.get("parts", [])}

    def part_text(self, metric):
        part = self.parts.get(metric)
        if part is None:
            return "-"
        return f"{points(part['points'])}/{points(part['max_points'])}"

    def groups_text(self):
        part = self.parts.get("test_groups")
        if part is None or not part.get("details"):
            return "-"
        details = part["details"]
        return f"{sum(1 for d in details if d.get('passed'))}/{len(details)}"

    def sanitizers_text(self):
        found = [(m, p) for m, p in self.parts.items() if m.endswith("_clean")]
        if not found:
            return "-"
        return ", ".join(f"{p.get('title', m)} "
                         f"{'clean' if p.get('passed') else 'FAIL'}"
                         for m, p in found)

    def plotted(self):
        return self.correct and self.tps is not None and \
            self.bytes_per_key is not None


def _number(value):
    return float(value) if isinstance(value, (int, float)) and \
        math.isfinite(value) else None


def load_grades(directory):
    """(entries, notes): every submission grade JSON in `directory`; the
    latest grade of a submission and stage when there are several."""
    entries, notes = {}, []
    for name in sorted(os.listdir(directory)):
        path = os.path.join(directory, name)
        if not name.endswith(".json") or not os.path.isfile(path):
            continue
        try:
            with open(path, encoding="utf-8") as f:
                grade = json.load(f)
        except (OSError, ValueError) as e:
            notes.append(f"{name}: not read ({e})")
            continue
        if not isinstance(grade, dict) or grade.get("format") != FORMAT:
            notes.append(f"{name}: not a submission grade, left out")
            continue
        entry = Entry(grade, path)
        key = (entry.name, entry.stage)
        if key in entries:
            older, newer = sorted([entries[key], entry], key=lambda e: e.date)
            notes.append(f"{name}: {entry.name} ({entry.stage}) graded more "
                         f"than once; the grade of {newer.date} is shown")
            entry = newer
        entries[key] = entry
    return list(entries.values()), notes


def ranked(entries):
    """{stage: entries best first}: by score, then throughput, then fewer
    bytes per key, then name."""
    stages = {}
    for e in entries:
        stages.setdefault(e.stage, []).append(e)
    for stage in stages:
        stages[stage].sort(key=lambda e: (
            -e.score, -(e.tps or 0),
            e.bytes_per_key if e.bytes_per_key is not None else math.inf,
            e.name))
    return dict(sorted(stages.items()))


COLUMNS = ("rank", "submission", "score", "test groups", "sanitizers",
           "workload", "throughput (ops/s)", "bytes/key", "load (s)",
           "sha256")


def _row(rank, e):
    return (str(rank), e.name, f"{points(e.score)}/{points(e.max_score)}",
            e.groups_text(), e.sanitizers_text(), e.part_text("workload"),
            number(e.tps) if e.correct else "-",
            number(e.bytes_per_key) if e.correct else "-",
            number(e.load_seconds) if e.correct else "-", e.sha256[:12])


def _heading(stage, entries):
    """'stage1 (store avl, n=1,000,000)'; the grades' sizes if they differ,
    since throughput and bytes per key depend on them."""
    stores = sorted({e.store for e in entries})
    sizes = sorted({e.n for e in entries if isinstance(e.n, int)})
    size = ("n=" + "/".join(f"{n:,}" for n in sizes) +
            (" (graded at different sizes)" if len(sizes) > 1 else ""))
    return f"{stage} (store {', '.join(stores)}, {size})"


def _md(text):
    return str(text).replace("|", "\\|")


def markdown(stages, notes, date):
    total = sum(len(v) for v in stages.values())
    out = ["# Leaderboard", "",
           f"{total} submission grade(s), ranked by score, then throughput; "
           f"made {date} by `make leaderboard`.", ""]
    for stage, entries in stages.items():
        out += [f"## {_heading(stage, entries)}", "",
                "| " + " | ".join(COLUMNS) + " |",
                "|" + "|".join("---:" if c in ("rank", "score", "workload")
                               or "(" in c or "/" in c else "---"
                               for c in COLUMNS) + "|"]
        for rank, e in enumerate(entries, start=1):
            out.append("| " + " | ".join(_md(c) for c in _row(rank, e)) +
                       " |")
        out.append("")
    if notes:
        out += ["## Notes", ""] + [f"- {_md(n)}" for n in notes] + [""]
    return "\n".join(out)


def _ticks(low, high, count=5):
    """About `count` round values covering [low, high]."""
    if high <= low:
        high = low + 1
    raw = (high - low) / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = min((m * magnitude for m in (1, 2, 2.5, 5, 10)
                if m * magnitude >= raw), default=10 * magnitude)
    start = math.floor(low / step) * step
    ticks = []
    value = start
    while value <= high + step * 1e-9:
        ticks.append(value)
        value += step
    if ticks[-1] < high:
        ticks.append(ticks[-1] + step)
    return ticks


def _short(value):
    """A tick label: 2.5M, 400k, 210."""
    for scale, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= scale:
            return f"{value / scale:.3g}{suffix}"
    return f"{value:.3g}"


def svg_chart(entries, width=640, height=400):
    """Throughput (y) against bytes per key (x), one labelled point per
    correct submission."""
    shown = [e for e in entries if e.plotted()]
    if not shown:
        return "<p>No submission has a correct workload to plot.</p>"
    left, right, top, bottom = 70, 30, 20, 50
    xs = _ticks(min(e.bytes_per_key for e in shown) * 0.95,
                max(e.bytes_per_key for e in shown) * 1.05)
    ys = _ticks(0, max(e.tps for e in shown) * 1.05)

    def x(v):
        return left + (v - xs[0]) / (xs[-1] - xs[0]) * (width - left - right)

    def y(v):
        return height - bottom - (v - ys[0]) / (ys[-1] - ys[0]) * (
            height - top - bottom)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" '
             f'height="{height}" viewBox="0 0 {width} {height}" role="img" '
             'aria-label="throughput against bytes per key">',
             f'<rect x="{left}" y="{top}" width="{width - left - right}" '
             f'height="{height - top - bottom}" class="plot"/>']
    for t in xs:
        parts.append(f'<line x1="{x(t):.1f}" y1="{top}" x2="{x(t):.1f}" '
                     f'y2="{height - bottom}" class="grid"/>')
        parts.append(f'<text x="{x(t):.1f}" y="{height - bottom + 18}" '
                     f'text-anchor="middle">{_short(t)}</text>')
    for t in ys:
        parts.append(f'<line x1="{left}" y1="{y(t):.1f}" '
                     f'x2="{width - right}" y2="{y(t):.1f}" class="grid"/>')
        parts.append(f'<text x="{left - 6}" y="{y(t) + 4:.1f}" '
                     f'text-anchor="end">{_short(t)}</text>')
    parts.append(f'<text x="{(left + width - right) / 2:.0f}" '
                 f'y="{height - 10}" text-anchor="middle">bytes per key '
                 '(fewer is better)</text>')
    parts.append(f'<text transform="translate(16 {(top + height - bottom) / 2:.0f}) '
                 'rotate(-90)" text-anchor="middle">throughput, ops/s '
                 '(more is better)</text>')
    for e in shown:
        name = html.escape(e.name)
        parts.append(
            f'<g class="point"><circle cx="{x(e.bytes_per_key):.1f}" '
            f'cy="{y(e.tps):.1f}" r="5"><title>{name}: {number(e.tps)} ops/s, '
            f'{number(e.bytes_per_key)} bytes/key, score '
            f'{points(e.score)}/{points(e.max_score)}</title></circle>'
            f'<text x="{x(e.bytes_per_key) + 8:.1f}" '
            f'y="{y(e.tps) - 6:.1f}">{name}</text></g>')
    parts.append("</svg>")
    return "\n".join(parts)


STYLE = """
body { font-family: sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #ccc; padding: 0.3em 0.6em; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
svg text { font-size: 12px; fill: #333; }
svg .plot { fill: #fafafa; stroke: #999; }
svg .grid { stroke: #e4e4e4; }
svg .point circle { fill: #1f77b4; }
"""


def html_page(stages, notes, date):
    total = sum(len(v) for v in stages.values())
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>",
           '<meta charset="utf-8">', "<title>kvlab leaderboard</title>",
           f"<style>{STYLE}</style>", "</head>", "<body>",
           "<h1>Leaderboard</h1>",
           f"<p>{total} submission grade(s), ranked by score, then "
           f"throughput; made {html.escape(date)} by <code>make "
           "leaderboard</code>.</p>"]
    numeric = {"rank", "score", "test groups", "workload",
               "throughput (ops/s)", "bytes/key", "load (s)"}
    for stage, entries in stages.items():
        out.append(f"<h2>{html.escape(_heading(stage, entries))}</h2>")
        out.append("<table><thead><tr>" + "".join(
            f"<th>{html.escape(c)}</th>" for c in COLUMNS) +
            "</tr></thead><tbody>")
        for rank, e in enumerate(entries, start=1):
            cells = zip(COLUMNS, _row(rank, e))
            out.append("<tr>" + "".join(
                f'<td class="num">{html.escape(v)}</td>' if c in numeric
                else f"<td>{html.escape(v)}</td>" for c, v in cells) +
                "</tr>")
        out.append("</tbody></table>")
        out.append(svg_chart(entries))
        left_out = [e.name for e in entries if not e.plotted()]
        if left_out:
            out.append("<p>Not plotted (workload not correct): " +
                       html.escape(", ".join(left_out)) + ".</p>")
    if notes:
        out.append("<h2>Notes</h2><ul>" + "".join(
            f"<li>{html.escape(n)}</li>" for n in notes) + "</ul>")
    out += ["</body>", "</html>", ""]
    return "\n".join(out)
