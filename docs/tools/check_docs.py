#!/usr/bin/env python3
"""Checks that kvlab's documentation points only at things that exist.

Usage: check_docs.py [REPO_ROOT] [--kvbench PATH]
       (REPO_ROOT: default, the checkout holding this file)

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

4. Names in the prose of README.md and docs/*.md (not docs/experiments/,
   whose entries record what was true when they ran) exist:
   - a store spec in inline code (`name:option=value`), in a --store= list
     or in MakeStore("..."): the store and each option are in the store
     list `kvbench --list` prints (--kvbench PATH; without it, this check
     is skipped, with a note). Wrappers that are not stores (durable) are
     skipped;
   - a source file in inline code (`src/node.h`, `handout.py`): a tracked
     file has that path, or ends with "/" and that path;
   - a function, class or test name in inline code (`Foo::Bar`, `Bar()`,
     `CamelCaseName`, `Suite.TestName`): each of its identifiers is a word
     of some tracked source file (C++, Python, CMake, shell), or is one
     with a k in front (an enum constant), so a name the code dropped or
     never had fails.
5. docs/teaching.md's counts match the handout tool: in its table of
   functions to write, each stage's "(N)" is the number of stubs
   `benchmarks/tools/handout.py --list` gives that stage, leaving out those
   that answer exercises; in its table of test groups, each row lists the
   groups of that stage's tests/groups.txt, in order.
6. Figures do not go stale silently. docs/results.md states the commit it
   measured on a line "Commit: SHA". Every stage folder (stage*_*/) and
   benchmarks/peers/ that existed at that commit and has changed since it
   is stale (a change only to files under tests/ or tools/ folders is not:
   tests and measuring tools do not change what kvbench measures), and results.md must list exactly
   those on its line "Stale for:
   a, b" ("Stale for: none" after a fresh record run). A chapter
   (docs/stageN_*.md) that links results.md while its stage is stale must
   also link results.md#which-figures-are-stale, so the reader is told.
   Outside a git checkout, or when the commit is not in its history, this
   check is skipped with a note.

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


# Inline code spans of prose, with their line numbers.
INLINE = re.compile(r"(`+)(.+?)\1")
# A store spec: name, then :option=value pairs.
SPEC = re.compile(r"^([a-z][a-z0-9_]*)((?::[a-z_][a-z0-9_.]*=[^:\s`]*)+)$")
STORE_LIST = re.compile(r"--store=([^\s\"'`]+)")
MAKE_STORE = re.compile(r"MakeStore\(\"([^\"]+)\"\)")
# Specs that wrap a store rather than name one (not in kvbench --list).
WRAPPERS = {"durable"}
# Words a --store= list takes that are not stores: kvbench's "all", and the
# one-letter placeholders of the docs' syntax lines.
NOT_STORES = {"all", "a", "b", "x", "y"}
SOURCE_FILE = re.compile(r"^[\w./-]+\.(?:cc|h|py|sh|cmake)$")
QUALIFIED = re.compile(r"^(?:[A-Za-z_]\w*::)+~?[A-Za-z_]\w*(?:\(\))?$")
CALL = re.compile(r"^[A-Za-z_]\w*\(\)$")
CAMEL = re.compile(r"^[A-Z][a-z0-9]+[A-Z]\w*$")
TEST_NAME = re.compile(r"^([A-Z]\w*)\.([A-Z]\w*)(\*?)$")
CODE_SUFFIXES = (".cc", ".h", ".cpp", ".py", ".sh", ".cmake", ".txt",
                 "Makefile")
# Identifiers from outside the repository's sources that chapters name.
FOREIGN_NAMES = set()


def inline_spans(text):
    """Yields (line number, span text) for the inline code of prose (not
    fenced or indented blocks)."""
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
        indented = line.startswith("    ") or line.startswith("\t")
        if indented and (previous_blank or in_indented):
            in_indented = True
        elif not blank:
            in_indented = False
        previous_blank = blank
        if in_indented:
            continue
        for m in INLINE.finditer(line):
            yield number, m.group(2).strip()


def parse_store_list(text):
    """{store: set of option names} from the output of kvbench --list."""
    stores, current = {}, None
    for line in text.split("\n"):
        m = re.match(r"^  ([a-z][a-z0-9_]*) \(", line)
        if m:
            current = stores.setdefault(m.group(1), set())
            continue
        m = re.match(r"^      ([a-z_][a-z0-9_]*)=\.\.\.", line)
        if m and current is not None:
            current.add(m.group(1))
    return stores


def load_store_list(kvbench):
    """The store list of the kvbench at `kvbench`, or None."""
    if not kvbench:
        return None
    try:
        out = subprocess.run([kvbench, "--list"], check=True,
                             capture_output=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    stores = parse_store_list(out.decode("utf-8", errors="replace"))
    return stores or None


def check_spec(spec, stores):
    """A problem with store spec `spec`, or None."""
    parts = spec.split(":")
    name = parts[0]
    if name in WRAPPERS or name in NOT_STORES:
        return None
    if name not in stores:
        return "no store %s in kvbench --list" % name
    for part in parts[1:]:
        option = part.split("=", 1)[0]
        if option not in stores[name]:
            return "store %s has no option %s in kvbench --list" % (
                name, option)
    return None


def source_words(root, files):
    """Every identifier of the tracked sources, and whether any C++ source
    carries a handout marker (the reference tree does, a handout not)."""
    words = set()
    marked = False
    for name in files:
        if not name.endswith(CODE_SUFFIXES) or name.startswith("docs/"):
            continue
        path = os.path.join(root, name)
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError:
            continue
        words.update(re.findall(r"[A-Za-z_]\w*", text))
        marked = marked or (name.endswith((".cc", ".h")) and bool(
            re.search(r"^\s*// handout: ", text, re.M)))
    return words, marked


def code_names(span):
    """The identifiers a code-name span names, or [] if it is not one."""
    if QUALIFIED.match(span) or CALL.match(span):
        return [w for w in re.findall(r"[A-Za-z_]\w*", span)]
    if CAMEL.match(span):
        return [span]
    m = TEST_NAME.match(span)
    if m:
        return [m.group(1)] + ([] if m.group(3) else [m.group(2)])
    return []


def check_names(root, doc, files, words, stores, problems):
    """Store specs, source files and code names of `doc`; `words` None
    skips files and code names."""
    with open(os.path.join(root, doc), encoding="utf-8") as f:
        text = f.read()
    tracked = set(files)
    suffixes = set()
    for name in files:
        parts = name.split("/")
        for i in range(len(parts)):
            suffixes.add("/".join(parts[i:]))
    for number, span in inline_spans(text):
        where = "%s:%d" % (doc, number)
        if stores is not None:
            specs = [span] if SPEC.match(span) else []
            specs += [s for m in STORE_LIST.finditer(span)
                      for s in m.group(1).split(",")]
            specs += MAKE_STORE.findall(span)
            for spec in specs:
                if not re.match(r"^[a-z][a-z0-9_]*(:|$)", spec) or \
                        "=" in spec.split(":")[0]:
                    continue
                problem = check_spec(spec, stores)
                if problem:
                    problems.append("%s: %s (in `%s`)" % (where, problem,
                                                          span))
        pair = re.match(r"^([\w./-]+)\.h/\.cc$", span)
        if pair:
            span = pair.group(1) + ".h"  # "x.h/.cc": the header stands for both
        if words is None:
            pass
        elif SOURCE_FILE.match(span) and not span.startswith(("/", "results/",
                                                             "build/")):
            path = os.path.normpath(span)
            if path not in tracked and path not in suffixes:
                problems.append("%s: no tracked file is %s" % (where, span))
            continue
        for word in code_names(span) if words is not None else []:
            # An enum constant is kName in the code (Google style).
            if word not in words and "k" + word not in words and \
                    word not in FOREIGN_NAMES:
                problems.append("%s: the code has no %s (in `%s`)" %
                                (where, word, span))
    # Store specs in command blocks.
    if stores is not None:
        for number, command in command_blocks(text):
            for m in STORE_LIST.finditer(command):
                for spec in m.group(1).split(","):
                    problem = check_spec(spec, stores)
                    if problem:
                        problems.append("%s:%d: %s" % (doc, number, problem))


def handout_counts(root):
    """{unit: (stubs not answering exercises, [all stubs])} from
    handout.py --list, or None if the tool is missing or fails."""
    tool = os.path.join(root, "benchmarks", "tools", "handout.py")
    if not os.path.exists(tool):
        return None
    try:
        out = subprocess.run([sys.executable, tool, "--list", "--source",
                              root], check=True, capture_output=True,
                             timeout=120).stdout.decode()
    except (OSError, subprocess.SubprocessError):
        return None
    counts, unit = {}, None
    for line in out.split("\n"):
        m = re.match(r"^(stage\d+\w*) \(", line)
        if m:
            unit = m.group(1)
            counts[unit] = 0
        elif not line.startswith("  "):
            unit = None  # e.g. "with every stage (...)": not a stage's
        elif unit and \
                not re.search(r"#\d*-?exercises\s*$", line):
            counts[unit] += 1
    return counts


def teaching_unit(label):
    """"stage1" for "1", "stage5_memory" for "5 memory"."""
    m = re.match(r"^(\d+)(?:\s+(\w+))?$", label.strip())
    if not m:
        return None
    return "stage%s%s" % (m.group(1), "_" + m.group(2) if m.group(2) else "")


def check_teaching(root, files, problems):
    doc = "docs/teaching.md"
    path = os.path.join(root, doc)
    if not os.path.exists(path):
        return
    counts = handout_counts(root)
    groups = {}
    rooms = {}
    for name in files:
        parts = name.split("/")
        m = re.match(r"^(stage\d+)_\w+$", parts[0])
        if m and parts[-2:] == ["tests", "groups.txt"]:
            unit = m.group(1) if len(parts) == 3 else "%s_%s" % (
                m.group(1), parts[1])
            rooms[unit] = name
    for unit, name in rooms.items():
        with open(os.path.join(root, name), encoding="utf-8") as f:
            groups[unit] = [l.split("|")[0].strip() for l in f
                            if "|" in l and not l.startswith("#")]
    table = None
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for number, line in enumerate(lines, 1):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.strip().startswith("| stage |"):
            table = cells[1] if len(cells) > 1 else None
            continue
        if not line.strip().startswith("|"):
            table = None
            continue
        unit = teaching_unit(cells[0]) if cells else None
        if not unit or len(cells) < 2:
            continue
        where = "%s:%d" % (doc, number)
        if table == "functions to write" and counts is not None:
            m = re.search(r"\((\d+)\)", cells[1])  # the first: functions
            if m and unit in counts and int(m.group(1)) != counts[unit]:
                problems.append("%s: says %s functions for %s; handout.py "
                                "--list gives %d" % (where, m.group(1), unit,
                                                     counts[unit]))
        if table == "groups, in order" and unit in groups:
            listed = [g.strip() for g in cells[1].split(",")]
            if listed != groups[unit]:
                problems.append("%s: lists the groups of %s as %s; %s has "
                                "%s" % (where, unit, ", ".join(listed),
                                        rooms[unit], ", ".join(groups[unit])))


def git(root, *args):
    """git's output, or None."""
    try:
        return subprocess.run(["git", "-C", root] + list(args), check=True,
                              capture_output=True).stdout.decode().strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def check_staleness(root, files, problems, notes):
    doc = "docs/results.md"
    path = os.path.join(root, doc)
    if not os.path.exists(path):
        return
    with open(path, encoding="utf-8") as f:
        text = f.read()
    commit = re.search(r"^Commit: `?([0-9a-f]{7,40})`?", text, re.M)
    stated = re.search(r"^Stale for: (.*)$", text, re.M)
    if not commit:
        problems.append("%s: states no commit (a line 'Commit: SHA')" % doc)
        return
    if not stated:
        problems.append("%s: has no line 'Stale for: ...' (or 'Stale for: "
                        "none')" % doc)
        return
    sha = commit.group(1)
    if git(root, "rev-parse", "--is-inside-work-tree") != "true" or \
            git(root, "cat-file", "-e", sha + "^{commit}") is None:
        notes.append("check_docs: results.md's commit %s is not in this "
                     "checkout's history: staleness not checked" % sha)
        return
    then = git(root, "ls-tree", "--name-only", sha) or ""
    peers = git(root, "ls-tree", "--name-only", sha, "benchmarks/") or ""
    folders = [f for f in then.split("\n") if re.match(r"^stage\d+_\w+$", f)]
    if "benchmarks/peers" in peers.split("\n"):
        folders.append("benchmarks/peers")
    def measured(f):
        """The pathspec of what kvbench measures in folder f: all but its
        tests and tools."""
        return [f, ":(exclude,glob)%s/**/tests/**" % f,
                ":(exclude,glob)%s/**/tools/**" % f]
    stale = [f for f in folders
             if git(root, "rev-list", "-1", sha + "..HEAD", "--", *measured(f))]
    # Uncommitted changes count too: the check runs before a commit.
    dirty = git(root, "status", "--porcelain", "--", *folders) or ""
    for line in dirty.split("\n"):
        name = line[3:].strip()
        if "/tests/" in "/" + name or "/tools/" in "/" + name:
            continue
        for f in folders:
            if name.startswith(f + "/") and f not in stale:
                stale.append(f)
    listed = [w.strip() for w in stated.group(1).split(",") if w.strip()]
    if listed == ["none"]:
        listed = []
    for f in sorted(set(stale) - set(listed)):
        problems.append("%s: %s changed after the record run's commit %s: "
                        "run `make bench FULL=1 DOCS=1` again, or add it to "
                        "'Stale for:'" % (doc, f, sha))
    for f in sorted(set(listed) - set(stale)):
        problems.append("%s: lists %s as stale, but it has not changed since "
                        "%s" % (doc, f, sha))
    for name in files:
        m = re.match(r"^docs/(stage\d+)_[\w]+\.md$", name)
        if not m:
            continue
        folder = next((f for f in stale if f.startswith(m.group(1) + "_")),
                      None)
        if not folder:
            continue
        with open(os.path.join(root, name), encoding="utf-8") as f:
            chapter = f.read()
        if re.search(r"\]\(results\.md(?:#[^)]*)?\)", chapter) and \
                "results.md#which-figures-are-stale" not in chapter:
            problems.append("%s: quotes results.md, which predates changes "
                            "to %s: link results.md#which-figures-are-stale "
                            "beside the figures" % (name, folder))


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    args = list(argv[1:])
    kvbench = None
    if "--kvbench" in args:
        i = args.index("--kvbench")
        kvbench = args[i + 1] if i + 1 < len(args) else None
        del args[i:i + 2]
    root = os.path.abspath(args[0] if args else
                           os.path.join(here, "..", ".."))
    files = tracked_files(root)
    this_file = os.path.relpath(os.path.abspath(__file__), root)
    docs = [f for f in files if f == "README.md" or
            (f.startswith("docs/") and f.endswith(".md"))]
    problems, notes = [], []
    cache = {}
    targets = make_targets(root)
    programs = cmake_programs(root, files)
    file_set = set(os.path.normpath(f) for f in files)
    stores = load_store_list(kvbench)
    if stores is None:
        notes.append("check_docs: no kvbench --list (--kvbench PATH): store "
                     "names not checked")
    words, marked = source_words(root, files)
    if not marked:
        # A handout: its chapters name the helpers the student writes.
        notes.append("check_docs: no handout markers in the sources (a "
                     "handout?): file and code names not checked")
        words = None
    for doc in sorted(docs):
        check_links(root, doc, problems, cache)
        check_commands(root, doc, file_set, targets, programs, problems)
        if doc == "README.md" or (doc.count("/") == 1 and
                                  doc != "docs/results.md"):
            check_names(root, doc, files, words, stores, problems)
    check_teaching(root, files, problems)
    check_staleness(root, files, problems, notes)
    # This script spells out the patterns it looks for.
    check_outside_paths(root, [f for f in files if f != this_file], problems)
    for n in notes:
        print(n)
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
