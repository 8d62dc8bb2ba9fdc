"""What a GoogleTest binary printed: which tests passed, failed or never
finished, and what a sanitizer reported.

Reads the console output (not --gtest_output), because a test that crashes
or hangs leaves no JSON behind, and the console says which test it was.
"""

import dataclasses
import fnmatch
import re

# "[  FAILED  ] Suite.Test, where GetParam() = x (3 ms)": the name ends
# at a space or a comma.
_STATUS = re.compile(r"\[ +(RUN|OK|FAILED|SKIPPED) +\] ([^\s,]+)")
_SANITIZER_SUMMARY = re.compile(r"SUMMARY: (\w*Sanitizer): (.*)")
_SANITIZER_ERROR = re.compile(
    r"(?:ERROR|WARNING): (\w*Sanitizer): ([^\n]*?)(?: on address| \(pid|\n|$)")
_UBSAN = re.compile(r"([^\s:]+:\d+:\d+): runtime error: ([^\n]*)")
_FAILURE_LINE = re.compile(r"^(.+?(?::\d+)?): Failure$")


@dataclasses.dataclass
class TestLog:
    passed: list = dataclasses.field(default_factory=list)
    failed: list = dataclasses.field(default_factory=list)
    skipped: list = dataclasses.field(default_factory=list)
    # The test that started and never ended: it crashed or hung.
    unfinished: str | None = None
    # The first lines each failed test printed, by test name.
    messages: dict = dataclasses.field(default_factory=dict)


def parse_test_output(text):
    """The tests one run reported, in order."""
    log = TestLog()
    current = None
    lines = []
    for line in text.splitlines():
        match = _STATUS.search(line)
        if match is None:
            if current is not None and len(lines) < 40:
                lines.append(line)
            continue
        status, name = match.groups()
        if status == "RUN":
            current, lines = name, []
        elif name == current:
            {"OK": log.passed, "FAILED": log.failed,
             "SKIPPED": log.skipped}[status].append(name)
            if status == "FAILED":
                log.messages[name] = failure_message(lines)
            current = None
    log.unfinished = current
    if current is not None:
        log.messages[current] = failure_message(lines)
    return log


# A failure's message fits this many characters: each of its lines is cut in
# its middle to its share, so both sides of a long comparison still show.
MESSAGE_LIMIT = 240
# The lines of one assertion's message kept (gtest's EXPECT_EQ prints 5).
_MESSAGE_LINES = 8


def cut_middle(text, limit):
    """`text`, or its start and end around "..." in `limit` characters."""
    if len(text) <= limit:
        return text
    head = (limit - 3 + 1) // 2
    return text[:head] + "..." + text[len(text) - (limit - 3 - head):]


def failure_message(lines):
    """One line out of what a failed test printed: the first assertion's
    place and its message (both sides of a comparison), or the first
    non-empty line."""
    for i, line in enumerate(lines):
        match = _FAILURE_LINE.match(line.strip())
        if match:
            body = []
            for later in lines[i + 1:]:
                if not later.strip() or _FAILURE_LINE.match(later.strip()):
                    break
                body.append(later.strip())
                if len(body) == _MESSAGE_LINES:
                    break
            where = match.group(1) + ":"
            share = max(24, (MESSAGE_LIMIT - len(where)) // max(1, len(body))
                        - 1)
            return " ".join([where] + [cut_middle(b, share)
                                       for b in body]).strip()
    for line in lines:
        if line.strip():
            return cut_middle(line.strip(), MESSAGE_LIMIT)
    return ""


def is_assertion(message):
    """Whether a failure message quotes an assertion (a place and what it
    compared), not only an exception or a line the test printed."""
    return bool(re.match(r"^\S+:\d+: \S", message)) and \
        "C++ exception" not in message


def parse_test_list(text):
    """Test names from --gtest_list_tests."""
    names = []
    suite = None
    for line in text.splitlines():
        if not line.strip() or line.startswith("Running main()"):
            continue
        if not line.startswith(" "):
            suite = line.split("#", 1)[0].strip()
        elif suite is not None:
            names.append(suite + line.split("#", 1)[0].strip())
    return names


def is_disabled(name):
    """Whether GoogleTest skips the test `name` ("Suite.Test") unless asked
    to run disabled tests: its suite or test name starts with DISABLED_,
    after any "Prefix/" of a parameterized test."""
    suite, _, test = name.partition(".")
    return any(fnmatch.fnmatchcase(part, pattern) for part in (suite, test)
               for pattern in ("DISABLED_*", "*/DISABLED_*"))


def sanitizer_report(text):
    """A one-line description of the first sanitizer report in `text`, or
    None: "LeakSanitizer: 480 byte(s) leaked in 20 allocation(s).",
    "AddressSanitizer: heap-use-after-free ...", "ThreadSanitizer: data
    race ...", "UndefinedBehaviorSanitizer: runtime error: ... at f.cc:3:4"."""
    leak = "ERROR: LeakSanitizer" in text
    summary = _SANITIZER_SUMMARY.search(text)
    if summary:
        tool, what = summary.groups()
        if leak and tool == "AddressSanitizer":
            tool = "LeakSanitizer"
        if tool == "UndefinedBehaviorSanitizer":
            ub = _UBSAN.search(text)
            if ub:
                return f"{tool}: runtime error: {ub.group(2)} at {ub.group(1)}"
        return f"{tool}: {what.strip()}"
    error = _SANITIZER_ERROR.search(text)
    if error:
        return f"{error.group(1)}: {error.group(2).strip()}"
    ub = _UBSAN.search(text)
    if ub:
        return (f"UndefinedBehaviorSanitizer: runtime error: {ub.group(2)} at "
                f"{ub.group(1)}")
    return None
