#!/usr/bin/env python3
"""Prints the shape of stage 5's code: the methods each class declares and
the longest functions, so that a class of one idea and short functions can
be checked rather than remembered (docs/stage5_hyperion.md, "The code to
read").

Usage: code_shape.py [--top N] [--limit LINES] [ROOT]

ROOT is the repository (default: the one holding this script). Reads the
headers and sources under stage5_hyperion/{memory,trie,arenas}/ (include/
and src/: the algorithm, with its debug and check code; not the tests or
the tools). A method is a member function declared in a class or struct
body (constructors and inline ones included, overloads counted apart); a
function's length runs from the first line of its signature to its closing
brace. Exits 1 if a function is longer than --limit lines (default 80).

A reader of C++ for this code base's style, not a parser: comments,
strings and preprocessor lines are blanked first, then braces are matched.

Standard library only.
"""

import argparse
import os
import re
import sys

ROOMS = ("memory", "trie", "arenas")
KEYWORDS = {"if", "for", "while", "switch", "catch", "return", "sizeof",
            "alignof", "decltype", "static_assert", "noexcept", "requires"}


def blank(text):
    """`text` with comments, string and char literals and preprocessor
    lines replaced by spaces (newlines kept, so line numbers hold)."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == "#":
            j = text.find("\n", i)
            while j != -1 and text[j - 1] == "\\":
                j = text.find("\n", j + 1)
            j = n if j == -1 else j
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
            continue
        if c in " \t":
            out.append(c)
            i += 1
            continue
        line_start = c == "\n"
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j == -1 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j == -1 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum():
                out.append(" ")  # a digit separator: 1'000
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(" " * (j + 1 - i))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def head_of(code, brace):
    """The text before the brace at `brace`, back to the previous ; { or }
    (the declaration the brace opens), and its start offset."""
    j = brace - 1
    depth = 0
    while j >= 0:
        c = code[j]
        if c == ")":
            depth += 1
        elif c == "(":
            depth -= 1
            if depth < 0:
                return None, brace  # a brace inside parentheses
        elif depth == 0 and c in ";{}":
            break
        j -= 1
    start = j + 1
    while start < brace and code[start].isspace():
        start += 1
    return code[start:brace], start


CLASS_RE = re.compile(r"\b(class|struct|union)\s+(?:\w+\s+)*?(\w+(?:::\w+)*)\s*"
                      r"(?:final\s*)?(?::[^{;]*)?$", re.S)


def function_name(head):
    """The function a declaration or definition head names, or None."""
    head = re.sub(r"\s+", " ", head).strip()
    if not head or head.startswith(("namespace", "enum", "using", "typedef",
                                    "template <", "friend", "extern")):
        if head.startswith("template <"):
            head = re.sub(r"^template <[^>]*(<[^>]*>[^>]*)*> ", "", head)
        else:
            return None
    if "[" in head.split("(")[0] or "=" in head.split("(")[0]:
        return None  # a lambda or an initialiser
    paren = head.find("(")
    if paren < 0:
        return None
    m = re.search(r"(~?[A-Za-z_]\w*(?:::~?[A-Za-z_]\w*)*|operator\S*)\s*$",
                  head[:paren])
    if not m:
        return None
    name = m.group(1)
    if name.split("::")[-1] in KEYWORDS:
        return None
    return name


def scan_file(path, rel):
    """(classes, functions): {class: [method names]} and a list of
    (lines, name, file:line)."""
    with open(path, encoding="utf-8") as f:
        code = blank(f.read())
    line_of = lambda pos: code.count("\n", 0, pos) + 1
    classes = {}
    functions = []
    # Each open brace: ("class", name) | ("function", name, start) | ("other",)
    stack = []
    for i, c in enumerate(code):
        if c == "{":
            head, start = head_of(code, i)
            if head is None:
                stack.append(("other",))
                continue
            head = re.sub(r"\balignas\s*\(\s*\w+\s*\)", "", head)
            inside_function = any(s[0] == "function" for s in stack)
            m = CLASS_RE.search(re.sub(r"\s+", " ", head).strip())
            if not inside_function and m and "(" not in head:
                stack.append(("class", m.group(2)))
                classes.setdefault(m.group(2), [])
                continue
            name = None if inside_function else function_name(head)
            if name:
                stack.append(("function", name, start))
                cls = [s for s in stack[:-1] if s[0] == "class"]
                if cls and stack[-2][0] == "class":
                    classes[cls[-1][1]].append(name)
            else:
                stack.append(("other",))
        elif c == "}":
            if not stack:
                continue
            top = stack.pop()
            if top[0] == "function":
                first, last = line_of(top[2]), line_of(i)
                cls = [s[1] for s in stack if s[0] == "class"]
                name = top[1]
                if cls and "::" not in name:
                    name = "%s::%s" % (cls[-1], name)
                functions.append((last - first + 1, name,
                                  "%s:%d" % (rel, first)))
        elif c == ";" and stack and stack[-1][0] == "class":
            # A declaration in a class body: a method if it names one.
            head, _ = head_of(code, i)
            name = function_name(head) if head is not None else None
            if name and not re.search(r"=\s*delete\s*$", head):
                classes[stack[-1][1]].append(name)
    return classes, functions


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", nargs="?", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--limit", type=int, default=80)
    args = parser.parse_args()
    stage = os.path.join(args.root, "stage5_hyperion")
    classes, functions = {}, []
    for room in ROOMS:
        for sub in ("include", "src"):
            top = os.path.join(stage, room, sub)
            for dirpath, _, files in sorted(os.walk(top)):
                for name in sorted(files):
                    if not name.endswith((".h", ".cc")):
                        continue
                    path = os.path.join(dirpath, name)
                    rel = os.path.relpath(path, stage)
                    c, f = scan_file(path, rel)
                    for k, v in c.items():
                        classes.setdefault(k, []).extend(v)
                    functions.extend(f)
    print("methods per class (stage5_hyperion/{%s}, include/ and src/)"
          % ",".join(ROOMS))
    for name, methods in sorted(classes.items(),
                                key=lambda kv: (-len(kv[1]), kv[0])):
        if methods:
            print("  %4d  %s" % (len(methods), name))
    print("\nlongest functions (lines, signature to closing brace)")
    functions.sort(key=lambda f: (-f[0], f[1]))
    for lines, name, where in functions[:args.top]:
        print("  %4d  %-45s %s" % (lines, name, where))
    over = [f for f in functions if f[0] > args.limit]
    print("\n%d functions, %d over %d lines" % (len(functions), len(over),
                                                args.limit))
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
