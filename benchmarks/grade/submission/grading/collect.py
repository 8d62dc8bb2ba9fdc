"""A class's submissions gathered into the layout the grader reads: one
folder per student under OUT, each a kvlab tree (make collect).

From a list of repositories, one a line ("name url", or a bare url whose
last path component, less ".git", is the name; # starts a comment): each is
cloned with git, at its newest commit or at the last one before a deadline.
From a folder of archives (.zip, .tar, .tar.gz, .tgz; the name is the file's
less its suffix): each is unpacked, and a single top folder inside it is
taken as the tree. Nothing runs from a submission here, and an archive
member that would land outside its folder (an absolute path, "..", a link)
stops that archive.

Each tree must name the kit commit its handout was made from (.kvlab-kit,
written by make handout); every one must name the same commit, the one
given or else the one most of the class names. OUT/collect.json lists each
student: where it came from, its commit, its kit commit and its problems.
"""

import collections
import dataclasses
import json
import os
import re
import shutil
import subprocess
import tarfile
import zipfile

from . import source_tree

MANIFEST = "collect.json"
ARCHIVE_SUFFIXES = (".tar.gz", ".tgz", ".tar", ".zip")
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


class CollectError(Exception):
    """A list or folder collect cannot read; the message says where."""


@dataclasses.dataclass
class Student:
    name: str
    source: str
    commit: str = ""  # the repository's commit collected ("" for archives)
    kit_commit: str = ""
    problems: list = dataclasses.field(default_factory=list)


def read_repo_list(path):
    """[(name, url)] from a list file, in its order; names must be unique
    and usable as folder names."""
    entries, seen = [], set()
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for number, raw in enumerate(lines, start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        fields = line.split()
        if len(fields) > 2:
            raise CollectError(f"{path}:{number}: expected 'name url' or "
                               f"'url', found {len(fields)} fields")
        url = fields[-1]
        name = fields[0] if len(fields) == 2 else os.path.basename(
            url.rstrip("/")).removesuffix(".git")
        if not NAME.match(name):
            raise CollectError(f"{path}:{number}: '{name}' cannot name a "
                               "folder (letters, digits, '.', '_', '-')")
        if name in seen:
            raise CollectError(f"{path}:{number}: '{name}' appears twice")
        seen.add(name)
        entries.append((name, url))
    if not entries:
        raise CollectError(f"{path}: no repositories")
    return entries


def _git(*args, cwd=None):
    result = subprocess.run(["git", *args], cwd=cwd, capture_output=True,
                            text=True, env=dict(os.environ,
                                                GIT_TERMINAL_PROMPT="0"))
    if result.returncode != 0:
        raise CollectError(result.stderr.strip().splitlines()[-1]
                           if result.stderr.strip() else
                           f"git {args[0]} failed")
    return result.stdout.strip()


def clone(url, target, before=None):
    """Clones url into target; checks out the last commit before `before`
    (a date git understands) if given. Returns the commit."""
    _git("clone", "--quiet", url, target)
    if before:
        commit = _git("rev-list", "-1", f"--before={before}", "HEAD",
                      cwd=target)
        if not commit:
            raise CollectError(f"no commit before {before}")
        _git("checkout", "--quiet", "--detach", commit, cwd=target)
    return _git("rev-parse", "HEAD", cwd=target)


def archive_name(filename):
    for suffix in ARCHIVE_SUFFIXES:
        if filename.endswith(suffix):
            return filename[:-len(suffix)]
    return None


def _inside(root, member):
    path = os.path.normpath(os.path.join(root, member))
    return not os.path.isabs(member) and (
        path == root or path.startswith(root + os.sep))


def unpack(archive, target):
    """Unpacks a zip or tar into target: regular files and folders only,
    none outside target."""
    os.makedirs(target)
    root = os.path.abspath(target)
    if archive.endswith(".zip"):
        with zipfile.ZipFile(archive) as z:
            for info in z.infolist():
                kind = (info.external_attr >> 16) & 0o170000
                if not _inside(root, info.filename) or kind == 0o120000:
                    raise CollectError(f"{os.path.basename(archive)}: member "
                                       f"'{info.filename}' is a link or lies "
                                       "outside the archive's folder")
            for info in z.infolist():
                path = z.extract(info, root)
                mode = (info.external_attr >> 16) & 0o777
                if mode and not info.is_dir():
                    os.chmod(path, mode & 0o755)
        return
    with tarfile.open(archive) as t:
        members = t.getmembers()
        for m in members:
            if not (m.isfile() or m.isdir()) or not _inside(root, m.name):
                raise CollectError(f"{os.path.basename(archive)}: member "
                                   f"'{m.name}' is not a plain file or "
                                   "folder inside the archive's folder")
        for m in members:
            path = os.path.join(root, m.name)
            if m.isdir():
                os.makedirs(path, exist_ok=True)
                continue
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with t.extractfile(m) as src, open(path, "wb") as dst:
                shutil.copyfileobj(src, dst)
            os.chmod(path, m.mode & 0o755)


def lift_single_folder(target):
    """An archive of a folder: make the folder's content the tree."""
    entries = [e for e in os.listdir(target) if not e.startswith("__MACOSX")]
    if len(entries) != 1 or not os.path.isdir(os.path.join(target,
                                                           entries[0])):
        return
    inner = os.path.join(target, entries[0])
    temporary = target + ".lift"
    os.rename(inner, temporary)
    shutil.rmtree(target)
    os.rename(temporary, target)


def collect(out, repos=None, archives=None, before=None, kit_commit=None,
            say=lambda text: None):
    """Gathers every submission into out/<name>; returns the students, the
    kit commit they were checked against, and writes out/collect.json."""
    os.makedirs(out, exist_ok=True)
    students = []
    if repos:
        sources = [(name, url, "repo") for name, url in repos]
    else:
        files = sorted(f for f in os.listdir(archives)
                       if archive_name(f) is not None)
        if not files:
            raise CollectError(f"{archives} holds no .zip, .tar, .tar.gz or "
                               ".tgz archive")
        sources = [(archive_name(f), os.path.join(archives, f), "archive")
                   for f in files]
        names = [s[0] for s in sources]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise CollectError(f"{archives}: several archives for "
                               f"{', '.join(twice)}")
    for index, (name, source, kind) in enumerate(sources, start=1):
        student = Student(name, source)
        students.append(student)
        target = os.path.join(out, name)
        shutil.rmtree(target, ignore_errors=True)
        try:
            if kind == "repo":
                student.commit = clone(source, target, before)
            else:
                unpack(source, target)
                lift_single_folder(target)
        except (CollectError, OSError, tarfile.TarError,
                zipfile.BadZipFile) as e:
            student.problems.append(f"not collected: {e}")
            shutil.rmtree(target, ignore_errors=True)
        if not student.problems:
            student.kit_commit = source_tree.read_stamp(target).get(
                "commit", "")
            if not student.kit_commit:
                student.problems.append(
                    f"no {source_tree.KIT_STAMP}: not a tree made by make "
                    "handout")
        say(f"[{index}/{len(sources)}] {name}: " +
            ("; ".join(student.problems) or
             f"ok (kit {student.kit_commit[:12]})"))
    named = [s.kit_commit for s in students if s.kit_commit]
    expected = kit_commit or (collections.Counter(named).most_common(1)[0][0]
                              if named else "")
    for s in students:
        if s.kit_commit and s.kit_commit != expected:
            s.problems.append(f"made from kit {s.kit_commit[:12]}, not "
                              f"{expected[:12]}")
    with open(os.path.join(out, MANIFEST), "w", encoding="utf-8") as f:
        json.dump({"kit_commit": expected, "before": before,
                   "students": [dataclasses.asdict(s) for s in students]},
                  f, indent=1)
        f.write("\n")
    return students, expected
