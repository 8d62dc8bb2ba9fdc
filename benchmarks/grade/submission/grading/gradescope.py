"""A grade (report.to_json's form) as Gradescope's results.json.

Gradescope's autograder specification (gradescope-autograders.readthedocs.io,
"Autograder Specifications"): run_autograder writes
/autograder/results/results.json, an object with an optional total "score",
"execution_time", "output", "stdout_visibility" and a list of "tests", each
with "name", "score", "max_score", "output" and "visibility" (visible,
hidden, after_due_date or after_published).

One test entry per test group, one per workload rule, and one per other
rubric part (build, each sanitizer, private tests). The private tests are
"after_published": a student sees them once the instructor publishes the
grades. The entries' scores add up to the grade's score, which is also
given as the total.
"""

import json

from .report import points

VISIBILITIES = ("visible", "hidden", "after_due_date", "after_published")
# Parts a student sees only once the grades are published.
PRIVATE_METRICS = ("private_tests",)
# Gradescope shows a test's output as text; a long one is cut here.
MAX_OUTPUT = 4000


def _cut(text):
    text = str(text)
    return text if len(text) <= MAX_OUTPUT else text[:MAX_OUTPUT] + " [...]"


def _test(name, score, max_score, output, visibility="visible", number=None):
    entry = {"name": name, "score": round(float(score), 4),
             "max_score": round(float(max_score), 4),
             "status": "passed" if score >= max_score - 1e-9 else "failed",
             "output": _cut(output), "visibility": visibility}
    if number is not None:
        entry["number"] = number
    return entry


def _group_tests(part, start):
    """One entry per test group; the part's points shared out in the
    proportion of each group's own (they are equal unless the rubric's
    share needs fewer than all groups)."""
    details = part.get("details") or []
    if not details:
        return [_test(part["title"], part["points"], part["max_points"],
                      part.get("reason", ""), number=f"{start}.1")]
    earned = sum(d.get("points") or 0.0 for d in details)
    factor = part["points"] / earned if earned > 0 else 0.0
    tests = []
    for i, d in enumerate(details, start=1):
        output = d.get("text", "")
        if not d.get("passed") and d.get("next_step"):
            output += f"\nNext: {d['next_step']}"
        tests.append(_test(f"test group: {d['name']}",
                           (d.get("points") or 0.0) * factor,
                           d.get("max_points") or 0.0, output,
                           number=f"{start}.{i}"))
    return tests


def _workload_tests(part, start):
    details = part.get("details") or []
    if not details:
        return [_test("workload", part["points"], part["max_points"],
                      part.get("reason", ""), number=f"{start}.1")]
    tests = []
    for i, d in enumerate(details, start=1):
        output = f"measured: {d.get('text', '')}"
        if part.get("reason"):
            output += f"\n{part['reason']}"
        tests.append(_test(f"workload: {d['name']}", d.get("points") or 0.0,
                           d.get("max_points") or 0.0, output,
                           number=f"{start}.{i}"))
    return tests


def _part_test(part, start):
    lines = [part.get("reason", "")]
    for d in part.get("details") or []:
        if not d.get("passed"):
            lines.append(f"{d['name']}: {d.get('text', '')}")
    visibility = ("after_published" if part["metric"] in PRIVATE_METRICS
                  else "visible")
    return [_test(part["title"], part["points"], part["max_points"],
                  "\n".join(l for l in lines if l), visibility,
                  number=f"{start}.1")]


def results(grade, seconds=None):
    """Gradescope's results.json object for a grade JSON object."""
    tests = []
    for index, part in enumerate(grade.get("parts", []), start=1):
        if part["metric"] == "test_groups":
            tests += _group_tests(part, index)
        elif part["metric"] == "workload":
            tests += _workload_tests(part, index)
        else:
            tests += _part_test(part, index)
    # The summary every student sees names no private test.
    shown = [p for p in grade.get("parts", [])
             if p["metric"] not in PRIVATE_METRICS]
    summary = [f"kvlab {grade.get('stage', '?')}: "
               f"{points(sum(p['points'] for p in shown))}/"
               f"{points(sum(p['max_points'] for p in shown))} on the visible "
               "parts" + (" (the private tests show once the grades are "
                          "published)" if len(shown) < len(
                              grade.get("parts", [])) else ""),
               f"kit commit {grade.get('kit_commit', '?')}, submission "
               f"sha256 {grade.get('sha256', '?')}"]
    summary += [f"note: {n}" for n in grade.get("notes", [])]
    out = {"score": round(float(grade.get("score", 0.0)), 4),
           "output": _cut("\n".join(summary)),
           "stdout_visibility": "hidden", "tests": tests}
    if seconds is not None:
        out["execution_time"] = int(round(seconds))
    return out


def failure(message, seconds=None):
    """results.json for a submission that could not be graded at all."""
    entry = dict(_test("submission", 0.0, 0.0, message), status="failed")
    out = {"score": 0.0, "output": _cut(message),
           "stdout_visibility": "hidden", "tests": [entry]}
    if seconds is not None:
        out["execution_time"] = int(round(seconds))
    return out


def schema_problems(data):
    """What in a results.json object breaks the specification ([] if
    nothing): the fields named above, their types and visibility values."""
    problems = []
    known = {"score", "execution_time", "output", "output_format",
             "visibility", "stdout_visibility", "extra_data", "tests",
             "leaderboard", "test_output_format", "test_name_format"}
    if not isinstance(data, dict):
        return ["results.json is not a JSON object"]
    problems += [f"unknown top-level field '{k}'" for k in data
                 if k not in known]
    if "score" not in data and not all(
            "score" in t for t in data.get("tests", [])):
        problems.append("no total score and a test without a score")
    for key in ("score",):
        if key in data and not isinstance(data[key], (int, float)):
            problems.append(f"'{key}' is not a number")
    if "execution_time" in data and not isinstance(data["execution_time"],
                                                   int):
        problems.append("'execution_time' is not a whole number of seconds")
    for key in ("visibility", "stdout_visibility"):
        if key in data and data[key] not in VISIBILITIES:
            problems.append(f"'{key}' is '{data[key]}'")
    tests = data.get("tests", [])
    if not isinstance(tests, list):
        return problems + ["'tests' is not a list"]
    test_known = {"score", "max_score", "status", "name", "name_format",
                  "number", "output", "output_format", "tags", "visibility",
                  "extra_data"}
    for i, t in enumerate(tests):
        where = f"tests[{i}]"
        if not isinstance(t, dict):
            problems.append(f"{where} is not an object")
            continue
        problems += [f"{where}: unknown field '{k}'" for k in t
                     if k not in test_known]
        for key in ("score", "max_score"):
            if key in t and not isinstance(t[key], (int, float)):
                problems.append(f"{where}: '{key}' is not a number")
        if not isinstance(t.get("name", ""), str) or not t.get("name"):
            problems.append(f"{where}: no name")
        if "output" in t and not isinstance(t["output"], str):
            problems.append(f"{where}: 'output' is not text")
        if t.get("visibility", "visible") not in VISIBILITIES:
            problems.append(f"{where}: visibility '{t['visibility']}'")
        if t.get("status", "passed") not in ("passed", "failed"):
            problems.append(f"{where}: status '{t['status']}'")
    return problems


def write(data, path):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
