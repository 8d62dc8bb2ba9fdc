"""A stage's test groups: stageN_*/tests/groups.txt.

One group a line, in the order a student builds the stage:

    group-name | gtest filter | next function(s) to write | docs section

Blank lines and lines starting with # are comments. The filter is a
GoogleTest --gtest_filter ("A.*:B.C-A.D"). A stage without the file is
graded as one group per test binary, each running all of its tests.
"""

import dataclasses
import os


class GroupsError(Exception):
    """A groups file that cannot be read; the message names the line."""


@dataclasses.dataclass(frozen=True)
class Group:
    name: str
    gtest_filter: str
    next_step: str = ""
    docs: str = ""
    # Only this test binary (a file name); None: every binary of the stage.
    binary: str | None = None


def parse_groups(text, source="groups.txt"):
    """The groups of a groups file's text, in file order."""
    groups = []
    names = set()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        fields = [field.strip() for field in line.split("|")]
        where = f"{source}:{number}"
        if len(fields) != 4:
            raise GroupsError(
                f"{where}: expected 4 fields separated by '|' (name | gtest "
                f"filter | next function(s) | docs section), found {len(fields)}")
        name, gtest_filter, next_step, docs = fields
        if not name or any(c.isspace() for c in name):
            raise GroupsError(f"{where}: the group name '{name}' is empty or "
                              "has spaces")
        if not gtest_filter or any(c.isspace() for c in gtest_filter):
            raise GroupsError(f"{where}: group '{name}' has an empty gtest "
                              "filter or one with spaces")
        if name in names:
            raise GroupsError(f"{where}: group '{name}' appears twice")
        names.add(name)
        groups.append(Group(name, gtest_filter, next_step, docs))
    if not groups:
        raise GroupsError(f"{source}: no groups")
    return groups


def read_groups(path):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise GroupsError(f"cannot read {path}: {e.strerror}") from e
    return parse_groups(text, path)


def groups_per_binary(binaries):
    """The fallback: one group per test binary (paths), named after it."""
    return [Group(os.path.basename(b), "*", binary=os.path.basename(b))
            for b in binaries]
