#!/usr/bin/env python3
"""Checks that kvlab's documentation points only at things that exist.

Usage: check_docs.py [REPO_ROOT]    (default: the checkout holding this file)

1. Every relative Markdown link and image in README.md and docs/**.md names a
   file or folder of the repository, and a #fragment names a heading (by
   GitHub's heading ids) or an <a id=...> of the Markdown file it points to.
2. No tracked text file (docs, code and its comments, scripts) names a place
   outside the repository: a relative path up into a sibling folder of the
   checkout (see OUTSIDE below), or an absolute path
   under a home or work directory of the machine it was written on.
3. Every command in a command block runs from a fresh clone's root. A
   command block is a fenced block tagged sh, bash, shell or console; in a
   console block only the lines that start with "$ " are commands, the rest
   is output. Each command (continuation lines joined, comments dropped,
   split at ;, &&, || and |) is checked by its first word:
   - make: every word that is not VAR=value or an option must be a target
     of the Makefile;
   - a path into build/: the build directory must be one make creates
     (build/debug, build/release, build/asan, build/tsan, build/fuzz) and
     the rest the path of a program some CMakeLists.txt builds there
     (add_executable or kvlab_add_test, in that CMakeLists.txt's folder);
   - any other path: a tracked file (a script of the repository);
   - a bare name of a program CMake builds: refused, since it is not on the
     PATH (write build/release/benchmarks/kvbench, not kvbench);
   - cmake -B DIR, cmake --build DIR, cmake --install DIR and cd DIR into
     build/: DIR must be a build directory make creates.
   Other programs (git, python3, ctest, valgrind ...) are not checked, but a
   script they are given as their first argument must be a tracked file.

Links inside code blocks and inline code are not links and are skipped.
Prints one line per problem, file:line first, and exits 1 if there is any.
Standard library only.
"""

import os
import re
import shlex
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
# The info strings that mark a fenced block as commands.
COMMAND_TAGS = {"sh", "bash", "shell", "console"}
# The build directories the Makefile creates (BUILD_DIR, RELEASE_DIR and
# FUZZ_DIR); a command may run programs only from these.
MAKE_BUILD_DIRS = ("build/debug", "build/release", "build/asan", "build/tsan",
                   "build/fuzz")
# A Makefile rule: target names, a colon that is not part of := or ::=.
MAKE_RULE = re.compile(r"^([A-Za-z0-9_.%/ -]+?)\s*:(?!=)")
# Programs that take a script as their first argument.
SCRIPT_RUNNERS = {"python3", "/usr/bin/python3", "python", "bash", "sh"}
# Shell words that may precede a command on the same line.
SHELL_PREFIXES = {"do", "then", "else", "time", "!", "{", "("}


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


def make_targets(root):
    """The targets the Makefile at root defines (pattern rules and targets
    spelled with variables left out)."""
    targets = set()
    path = os.path.join(root, "Makefile")
    if not os.path.exists(path):
        return targets
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith(("\t", "#", " ")):
                continue
            m = MAKE_RULE.match(line)
            if not m:
                continue
            for name in m.group(1).split():
                if "%" not in name and not name.startswith("."):
                    targets.add(name)
    return targets


def cmake_programs(root, files):
    """{folder of the CMakeLists.txt: set of program names} for every
    add_executable and kvlab_add_test; ${var} of an enclosing
    foreach(var a b ...) stands for each of its items."""
    programs = {}
    for name in files:
        if os.path.basename(name) != "CMakeLists.txt":
            continue
        with open(os.path.join(root, name), encoding="utf-8") as f:
            text = re.sub(r"#[^\n]*", "", f.read())
        folder = os.path.dirname(name)
        loops = {}
        for m in re.finditer(r"foreach\s*\(\s*(\w+)\s+([^)]*)\)", text):
            items = m.group(2).split()
            if items and items[0] not in ("IN", "RANGE"):
                loops[m.group(1)] = items
        for m in re.finditer(r"\b(?:add_executable|kvlab_add_test)\s*\(\s*"
                             r"([\w${}]+)", text):
            word = m.group(1)
            v = re.fullmatch(r"\$\{(\w+)\}", word)
            names = loops.get(v.group(1), []) if v else [word]
            programs.setdefault(folder, set()).update(names)
    return programs


def command_blocks(text):
    """Yields (line number, command) for the commands of every command
    block: continuation lines joined, console output left out."""
    tag = None
    pending, start = "", 0
    for number, line in enumerate(text.split("\n"), 1):
        m = re.match(r"^\s*(```|~~~)\s*([\w+-]*)", line)
        if m:
            tag = None if tag is not None else (m.group(2) or "").lower()
            pending = ""
            continue
        if tag not in COMMAND_TAGS:
            continue
        if not pending:
            if tag == "console":
                if not line.startswith("$ "):
                    continue
                line = line[2:]
            start = number
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        yield start, pending + line
        pending = ""


def simple_commands(command):
    """The words of each simple command of a shell line, split at ;, &&,
    || and |, comments dropped; None if the line does not parse."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|")
    lexer.whitespace_split = True
    lexer.commenters = "#"
    try:
        words = list(lexer)
    except ValueError:
        return None
    commands, current = [], []
    for word in words:
        if word and set(word) <= set(";&|"):
            commands.append(current)
            current = []
        else:
            current.append(word)
    commands.append(current)
    return [c for c in commands if c]


def in_make_build_dir(path):
    path = os.path.normpath(path)
    return any(path == d or path.startswith(d + "/") for d in MAKE_BUILD_DIRS)


def check_program_path(root, word, files, programs):
    """A problem with running `word` as a program, or None."""
    path = os.path.normpath(word)
    if path.startswith("build/") or path == "build":
        if not in_make_build_dir(path):
            return ("runs a program from a build directory make does not "
                    "create: %s (make creates %s)" %
                    (word, ", ".join(MAKE_BUILD_DIRS)))
        parts = path.split("/")[2:]
        folder, name = "/".join(parts[:-1]), parts[-1] if parts else ""
        if name not in programs.get(folder, set()):
            return "no CMakeLists.txt builds the program %s" % word
        return None
    if os.path.isabs(word):
        return None  # a system program: /usr/bin/python3
    if path not in files:
        return "runs a file the repository does not have: %s" % word
    return None


def check_command(root, words, files, targets, programs):
    """The problems of one simple command, as messages."""
    while words and (words[0] in SHELL_PREFIXES or
                     re.match(r"^[A-Za-z_]\w*=", words[0])):
        words = words[1:]  # do, then ..., VAR=value before the program
    if not words:
        return []
    program, args = words[0], words[1:]
    all_programs = set().union(*programs.values()) if programs else set()
    if program == "make":
        skip_next = False
        problems = []
        for arg in args:
            if skip_next:
                skip_next = False
                continue
            if arg in ("-C", "-f", "-j", "-o", "-W"):
                skip_next = True
                continue
            if arg.startswith("-") or "=" in arg:
                continue
            if arg not in targets:
                problems.append("make has no target %s" % arg)
        return problems
    if "/" in program:
        problem = check_program_path(root, program, files, programs)
        return [problem] if problem else []
    if program in all_programs:
        return ["%s is not on the PATH: run it from its build directory "
                "(e.g. build/release/...)" % program]
    if program == "cd" and args and args[0].startswith("build"):
        if not in_make_build_dir(args[0]):
            return ["cd into a build directory make does not create: %s" %
                    args[0]]
    if program == "cmake":
        for option, value in zip(args, args[1:]):
            if option in ("-B", "--build", "--install") and \
                    not in_make_build_dir(value):
                return ["cmake on a build directory make does not create: "
                        "%s" % value]
        for arg in args:
            if arg.startswith("-B") and len(arg) > 2 and \
                    not in_make_build_dir(arg[2:]):
                return ["cmake on a build directory make does not create: "
                        "%s" % arg[2:]]
    if program in SCRIPT_RUNNERS:
        scripts = [a for a in args if not a.startswith("-")]
        if scripts and not os.path.isabs(scripts[0]) and \
                os.path.normpath(scripts[0]) not in files:
            return ["runs a script the repository does not have: %s" %
                    scripts[0]]
    return []


def check_commands(root, doc, files, targets, programs, problems):
    with open(os.path.join(root, doc), encoding="utf-8") as f:
        text = f.read()
    for number, command in command_blocks(text):
        where = "%s:%d" % (doc, number)
        commands = simple_commands(command)
        if commands is None:
            problems.append("%s: command does not parse: %s" %
                            (where, command.strip()))
            continue
        for words in commands:
            for problem in check_command(root, words, files, targets,
                                         programs):
                problems.append("%s: %s" % (where, problem))


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
    targets = make_targets(root)
    programs = cmake_programs(root, files)
    file_set = set(os.path.normpath(f) for f in files)
    for doc in sorted(docs):
        check_links(root, doc, problems, cache)
        check_commands(root, doc, file_set, targets, programs, problems)
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
