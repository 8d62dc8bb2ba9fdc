#!/usr/bin/env python3
"""Writes a Gradescope autograder package for one stage (make gradescope).

    make gradescope STAGE=stage1 OUT=stage1-autograder.zip [PRIVATE_TESTS=dir]
    package.py --stage stage1 --out FILE.zip [--private-tests DIR] [...]

The zip holds, at its root, what Gradescope's autograder specification asks
for: setup.sh (run once, as root, when the image is built: installs the
build's packages and grades the kit's reference so the builds are kept) and
run_autograder (run per submission: writes results/results.json), with

  kit/               the kit's files (what git tracks; no build output and
                     not the grader's broken fixtures), and kit/.kvlab-kit
                     naming the commit they came from
  autograder.json    the stage, the grader's flags, the files below
  private/           PRIVATE_TESTS' .cc files: the private tests, shown to
                     students once the instructor publishes the grades
  config/            a rubric or groups file given with --rubric/--groups

The grade is grade_submission.py's, part for part (docs/grading.md).
"""

import argparse
import json
import os
import shlex
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from grading import source_tree  # noqa: E402

KIT = os.path.normpath(os.path.join(HERE, "..", "..", "..", ".."))
# Instructor material a package leaves out (as the handout does).
LEFT_OUT = ("benchmarks/grade/submission/tests/fixtures/",)


def add_file(archive, path, name, executable=False):
    info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
    mode = 0o755 if executable or os.stat(path).st_mode & 0o111 else 0o644
    info.external_attr = (0o100000 | mode) << 16  # a regular file, its mode
    info.compress_type = zipfile.ZIP_DEFLATED
    with open(path, "rb") as f:
        archive.writestr(info, f.read())


def add_text(archive, text, name):
    info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
    info.external_attr = (0o100644) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(info, text)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stage", required=True,
                        help="stage1 ... stage5, or an assignment in a "
                        "room: stage4_wormhole, stage5_memory, stage5_trie")
    parser.add_argument("--out", required=True, help="the zip to write")
    parser.add_argument("--kit", default=KIT)
    parser.add_argument("--private-tests",
                        help="a folder of GoogleTest .cc files")
    parser.add_argument("--rubric", help="a rubric other than the kit's")
    parser.add_argument("--groups", help="a groups file other than the "
                        "kit's")
    parser.add_argument("--grader-flags", default="",
                        help="more grade_submission.py flags, e.g. "
                        "'--n 2000000 --seconds 10'")
    args = parser.parse_args(argv)
    kit = os.path.abspath(args.kit)
    try:
        source_tree.resolve_stage(kit, args.stage)
    except source_tree.TreeError as e:
        print(f"gradescope: {e}", file=sys.stderr)
        return 2
    private = []
    if args.private_tests:
        private = sorted(f for f in os.listdir(args.private_tests)
                         if f.endswith(".cc")) if os.path.isdir(
                             args.private_tests) else []
        if not private:
            print(f"gradescope: {args.private_tests} is not a folder of .cc "
                  "files", file=sys.stderr)
            return 2
    commit = source_tree.kit_commit(kit)
    config = {"stage": args.stage, "kit_commit": commit,
              "flags": shlex.split(args.grader_flags), "files": {}}
    out = os.path.abspath(args.out)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    files = [f for f in source_tree.kit_files(kit)
             if not f.startswith(LEFT_OUT) and f != source_tree.KIT_STAMP]
    with zipfile.ZipFile(out + ".tmp", "w") as archive:
        add_file(archive, os.path.join(HERE, "setup.sh"), "setup.sh", True)
        add_file(archive, os.path.join(HERE, "run_autograder"),
                 "run_autograder", True)
        for rel in files:
            add_file(archive, os.path.join(kit, rel), f"kit/{rel}")
        add_text(archive, f"commit: {commit}\nmade-for: gradescope "
                 f"{args.stage}\n", f"kit/{source_tree.KIT_STAMP}")
        for name in private:
            add_file(archive, os.path.join(args.private_tests, name),
                     f"private/{name}")
        if private:
            config["files"]["private-tests"] = "private"
        for option, path in (("rubric", args.rubric),
                             ("groups", args.groups)):
            if path:
                add_file(archive, path, f"config/{option}.txt")
                config["files"][option] = f"config/{option}.txt"
        add_text(archive, json.dumps(config, indent=1) + "\n",
                 "autograder.json")
    os.replace(out + ".tmp", out)
    print(f"gradescope: wrote {args.out} ({args.stage}, kit {commit[:12]}, "
          f"{len(files)} kit files"
          f"{f', {len(private)} private test files' if private else ''})")
    print("next: upload it as the assignment's autograder (Configure "
          "Autograder, Zip file upload)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
