#!/usr/bin/env python3
"""Gathers a class's submissions into the layout the grader reads.

    make collect REPOS=list.txt OUT=submissions [BEFORE="2026-12-01 23:59"]
    make collect ARCHIVES=dir OUT=submissions
    collect.py --out DIR (--repos FILE | --archives DIR) [--before DATE]
               [--kit-commit SHA]

OUT/<name>/ is each student's kvlab tree; OUT/collect.json says where each
came from and what was wrong (grading/collect.py has the details). Every
tree must name, in its .kvlab-kit, the kit commit of the handout; the one
given with --kit-commit, or else the one most of the class names.

Exit status: 0 when every submission was collected and names that kit
commit; 1 when some were not (the others are collected all the same); 2
when the list or folder cannot be read.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from grading import collect  # noqa: E402


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True,
                        help="the folder to collect into")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--repos", help="a file: one 'name url' (or 'url') "
                        "a line; urls git can clone (paths, file://, https)")
    source.add_argument("--archives", help="a folder of .zip/.tar/.tar.gz/"
                        ".tgz files, one per student, named after them")
    parser.add_argument("--before", help="collect each repository's last "
                        "commit before this date (git's --before)")
    parser.add_argument("--kit-commit", help="the kit commit every tree "
                        "must name (default: the one most of them name)")
    args = parser.parse_args(argv)
    try:
        repos = collect.read_repo_list(args.repos) if args.repos else None
        if args.archives and not os.path.isdir(args.archives):
            raise collect.CollectError(f"{args.archives} is not a folder")
        students, kit = collect.collect(
            os.path.abspath(args.out), repos=repos, archives=args.archives,
            before=args.before, kit_commit=args.kit_commit,
            say=lambda text: print(f"collect: {text}", file=sys.stderr))
    except (collect.CollectError, OSError) as e:
        print(f"collect: {e}", file=sys.stderr)
        return 2
    bad = [s for s in students if s.problems]
    print(f"collect: {len(students) - len(bad)} of {len(students)} "
          f"submissions collected into {args.out}, all from kit "
          f"{kit[:12] or '(none named)'}")
    for s in bad:
        print(f"collect: {s.name}: {'; '.join(s.problems)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
