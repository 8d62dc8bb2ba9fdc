#!/usr/bin/env python3
"""Checks that kvlab's documentation points only at things that exist.

Usage: check_docs.py [REPO_ROOT]    (default: the checkout holding this file)

1. Every relative Markdown link and image in README.md and docs/**.md names a
   file or folder of the repository, and a #fragment names a heading (by
   GitHub's heading ids) or an <a id=...> of the Markdown file it points to.
2. No tracked text file (docs, code and its comments, scripts) names a place
   outside the repository: a path through ../shared, or an absolute path
   under a home or work directory of the machine it was written on.

Links inside code blocks and inline code are not links and are skipped.
Prints one line per problem, file:line first, and exits 1 if there is any.
Standard library only.
"""

import os
import re
import subprocess
import sys

# [text](target) and ![alt](target); the target ends at whitespace or ")".
LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]"
                  r"\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
# Paths that lead out of the repository, wherever they appear.
OUTSIDE = re.compile(r"\.\./shared\b|(?<![\w.])/(?:work|home|Users|root)/")
FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
HTML_ANCHOR = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"")


def tracked_files(root):
    """The files git tracks; outside a git checkout, every file but build
    output and kvbench's results/."""
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"],
                             check=True, capture_output=True).stdout
        return [f for f in out.decode().split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for top, dirs, names in os.walk(root):
            rel = os.path.relpath(top, root)
            dirs[:] = [d for d in dirs if d != ".git" and not (
                rel == "." and (d.startswith("build") or d == "results"))]
            files += [os.path.normpath(os.path.join(rel, n)) for n in names]
        return files


def prose_lines(text):
    """Yields (line number, line) outside fenced and indented code blocks,
    with inline code spans blanked out."""
    fenced = False
    previous_blank = True
    in_indented = False
    for number, line in enumerate(text.split("\n"), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        blank = not line.strip()
        if fenced:
            continue
        # An indented block starts after a blank line and runs until a line
        # that is neither blank nor indented.
        indented = line.startswith("    ") or line.startswith("\t")
        if indented and (previous_blank or in_indented):
            in_indented = True
        elif not blank:
            in_indented = False
        previous_blank = blank
        if in_indented:
            continue
        yield number, re.sub(r"`+[^`]*`+", "``", line)


def slug(heading):
    """GitHub's id for a heading: lower case, inline markup and punctuation
    dropped, spaces turned into hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links: text
    text = text.lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path, cache):
    if path not in cache:
        ids = set()
        seen = {}
        fenced = False
        with open(path, encoding="utf-8") as f:
            for line in f:
                if FENCE.match(line):
                    fenced = not fenced
                    continue
                if fenced:
                    continue
                ids.update(HTML_ANCHOR.findall(line))
                m = HEADING.match(line.rstrip("\n"))
                if not m:
                    continue
                base = slug(m.group(2))
                n = seen.get(base, 0)
                seen[base] = n + 1
                ids.add(base if n == 0 else "%s-%d" % (base, n))
        cache[path] = ids
    return cache[path]


def check_links(root, doc, problems, cache):
    doc_dir = os.path.dirname(os.path.join(root, doc))
    with open(os.path.join(root, doc), encoding="utf-8") as f:
        text = f.read()
    for number, line in prose_lines(text):
        for m in LINK.finditer(line):
            target = m.group(1)
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
                continue  # http:, https:, mailto: ...
            path, _, fragment = target.partition("#")
            where = "%s:%d" % (doc, number)
            resolved = os.path.normpath(os.path.join(doc_dir, path)) if path \
                else os.path.join(root, doc)
            if os.path.relpath(resolved, root).startswith(".."):
                problems.append("%s: link leaves the repository: %s" %
                                (where, target))
                continue
            if not os.path.exists(resolved):
                problems.append("%s: link to a missing file: %s" %
                                (where, target))
                continue
            if fragment and resolved.endswith(".md") and \
                    fragment not in anchors(resolved, cache):
                problems.append("%s: no heading #%s in %s" %
                                (where, fragment,
                                 os.path.relpath(resolved, root)))


def check_outside_paths(root, files, problems):
    for name in files:
        path = os.path.join(root, name)
        if not os.path.isfile(path):
            continue
        with open(path, "rb") as f:
            data = f.read()
        if b"\0" in data:
            continue  # binary: images
        text = data.decode("utf-8", errors="replace")
        for number, line in enumerate(text.split("\n"), 1):
            m = OUTSIDE.search(line)
            if m:
                problems.append("%s:%d: names a path outside the repository: "
                                "%s" % (name, number, m.group(0)))


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.abspath(argv[1] if len(argv) > 1 else
                           os.path.join(here, "..", ".."))
    files = tracked_files(root)
    this_file = os.path.relpath(os.path.abspath(__file__), root)
    docs = [f for f in files if f == "README.md" or
            (f.startswith("docs/") and f.endswith(".md"))]
    problems = []
    cache = {}
    for doc in sorted(docs):
        check_links(root, doc, problems, cache)
    # This script spells out the patterns it looks for.
    check_outside_paths(root, [f for f in files if f != this_file], problems)
    for p in problems:
        print(p)
    if problems:
        print("check_docs: %d problem(s)" % len(problems))
        return 1
    print("check_docs: %d Markdown files, %d tracked files: ok" %
          (len(docs), len(files)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
