"""The tree a submission grade builds, and the names that identify it.

The grade builds the instructor's kit with the submission's stage sources
put in: every file of the kit, except that the stage's src/ and include/
folders are the submission's, entirely. The tests, the CMake files, common/,
the other stages and the grader all come from the kit, so a submission can
neither weaken a test nor change how it is measured.

The tree is synced in place (a file is written only when its bytes differ),
so a build directory kept beside it recompiles only what changed from the
previous submission: grading a class builds the kit once.
"""

import glob
import hashlib
import os
import re
import subprocess

# The folders of a stage that hold a student's code.
STUDENT_DIRS = ("src", "include")


class TreeError(Exception):
    """A kit or submission the grader cannot use."""


def stage_dir_name(root, stage):
    """'stage1_bst' for stage1: the stage's folder in `root`."""
    if not re.fullmatch(r"stage\d+", stage):
        raise TreeError(f"'{stage}' is not a stage name (stage1, stage2, ...)")
    found = sorted(os.path.basename(p)
                   for p in glob.glob(os.path.join(root, stage + "_*"))
                   if os.path.isfile(os.path.join(p, "CMakeLists.txt")))
    if len(found) != 1:
        raise TreeError(f"{root} has no {stage}_*/ folder with a CMakeLists.txt"
                        if not found else f"{root} has several {stage}_*/ "
                        f"folders: {', '.join(found)}")
    return found[0]


def resolve_stage(root, name):
    """(stage, stage folder, student folders, groups files) for `name`: a
    stage ("stage1": its folder), or an assignment of a stage whose folder
    has rooms, subfolders with a tests/groups.txt of their own
    ("stage5_memory": stage5_hyperion/memory; "stage5": every room, graded
    together). The student's code is each student folder's src/ and
    include/; the groups files are the kit's."""
    match = re.fullmatch(r"(stage\d+)(?:_(\w+))?", name)
    if not match:
        raise TreeError(f"'{name}' is not a stage name (stage1, stage2, ..., "
                        "or an assignment such as stage5_memory)")
    stage, room = match.groups()
    stage_dir = stage_dir_name(root, stage)
    rooms = sorted(d for d in os.listdir(os.path.join(root, stage_dir))
                   if os.path.isfile(os.path.join(root, stage_dir, d, "tests",
                                                  "groups.txt")))
    if room:
        if room not in rooms:
            raise TreeError(f"{stage} has no assignment {name}" +
                            (f" (it has {', '.join(stage + '_' + r for r in rooms)})"
                             if rooms else " (it is graded whole)"))
        rooms = [room]
    folders = [f"{stage_dir}/{r}" for r in rooms] or [stage_dir]
    groups = [os.path.join(root, f, "tests", "groups.txt") for f in folders]
    return stage, stage_dir, folders, groups


def _folders(stage_dirs):
    return [stage_dirs] if isinstance(stage_dirs, str) else list(stage_dirs)


def _git(root, *args):
    return subprocess.run(["git", "-C", root, *args], check=True,
                          capture_output=True).stdout


def kit_files(root):
    """The kit's files, relative: those git tracks or would track; outside
    a git checkout every file but build output and results."""
    try:
        out = _git(root, "ls-files", "-z", "--cached", "--others",
                   "--exclude-standard")
        names = sorted({f for f in out.decode().split("\0") if f})
        return [f for f in names if os.path.isfile(os.path.join(root, f))]
    except (OSError, subprocess.CalledProcessError):
        pass
    names = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        if rel == ".":
            dirnames[:] = [d for d in dirnames
                           if d not in (".git", "build", "results", "install")]
        for name in filenames:
            names.append(os.path.normpath(os.path.join(rel, name)))
    return sorted(names)


def kit_commit(root):
    """The kit's commit, with '-dirty' if tracked files differ from it;
    'unknown' outside a git checkout."""
    try:
        commit = _git(root, "rev-parse", "HEAD").decode().strip()
        dirty = _git(root, "status", "--porcelain", "--untracked-files=no")
        return commit + ("-dirty" if dirty.strip() else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def submission_files(submission, stage_dirs):
    """The submission's stage sources: every regular file under
    <folder>/src and <folder>/include for each of `stage_dirs` (a stage
    folder, or a list of folders: resolve_stage), relative to the
    submission, sorted; and the symbolic links found there (ignored)."""
    folders = _folders(stage_dirs)
    for folder in folders:
        if not os.path.isdir(os.path.join(submission, folder)):
            raise TreeError(f"the submission {submission} has no {folder}/ "
                            "folder")
    files, links = [], []
    for folder, sub in [(f, s) for f in folders for s in STUDENT_DIRS]:
        top = os.path.join(submission, folder, sub)
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames.sort()
            for name in filenames:
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, submission).replace(os.sep, "/")
                if os.path.islink(path):
                    links.append(rel)
                elif os.path.isfile(path):
                    files.append(rel)
    if not files:
        raise TreeError("the submission has no files under " +
                        " or ".join(f"{f}/{s}" for f in folders
                                    for s in STUDENT_DIRS))
    return sorted(files), sorted(links)


def submission_hash(submission, files):
    """sha256 over the files, in sorted order: for each, its relative path,
    a NUL, its size in decimal, a NUL, and its bytes."""
    digest = hashlib.sha256()
    for rel in sorted(files):
        with open(os.path.join(submission, rel), "rb") as f:
            data = f.read()
        digest.update(rel.encode() + b"\0" + str(len(data)).encode() + b"\0")
        digest.update(data)
    return digest.hexdigest()


def _is_student_path(rel, stage_dirs):
    return any(rel.startswith(f"{folder}/{sub}/")
               for folder in _folders(stage_dirs) for sub in STUDENT_DIRS)


def plan_tree(kit, submission, stage_dir):
    """{relative path: source file} for the tree, and notes on files the
    submission adds to or lacks from the kit's stage sources. `stage_dir`
    is the stage's folder or a list of student folders (resolve_stage)."""
    kit_names = kit_files(kit)
    student, links = submission_files(submission, stage_dir)
    plan = {rel: os.path.join(kit, rel) for rel in kit_names
            if not _is_student_path(rel, stage_dir)}
    plan.update({rel: os.path.join(submission, rel) for rel in student})
    kit_student = {rel for rel in kit_names if _is_student_path(rel, stage_dir)}
    notes = []
    missing = sorted(kit_student - set(student))
    added = sorted(set(student) - kit_student)
    if missing:
        notes.append("missing from the submission (the kit has them): " +
                     ", ".join(missing))
    if added:
        notes.append("not in the kit (compiled only if included): " +
                     ", ".join(added))
    if links:
        notes.append("symbolic links ignored: " + ", ".join(links))
    return plan, student, notes


def sync_tree(plan, tree):
    """Makes `tree` hold exactly the planned files, writing only those whose
    bytes or executable bit differ. Returns how many files it wrote or
    removed."""
    changed = 0
    for rel, source in plan.items():
        target = os.path.join(tree, rel)
        with open(source, "rb") as f:
            data = f.read()
        mode = 0o755 if os.stat(source).st_mode & 0o111 else 0o644
        if os.path.isfile(target) and not os.path.islink(target):
            with open(target, "rb") as f:
                same = f.read() == data
            if same and (os.stat(target).st_mode & 0o777) == mode:
                continue
        os.makedirs(os.path.dirname(target), exist_ok=True)
        temporary = target + ".grade-tmp"
        with open(temporary, "wb") as f:
            f.write(data)
        os.chmod(temporary, mode)
        os.replace(temporary, target)
        changed += 1
    wanted = {os.path.normpath(rel) for rel in plan}
    for dirpath, dirnames, filenames in os.walk(tree, topdown=False):
        for name in filenames:
            path = os.path.join(dirpath, name)
            if os.path.normpath(os.path.relpath(path, tree)) not in wanted:
                os.remove(path)
                changed += 1
        if dirpath != tree and not os.listdir(dirpath):
            os.rmdir(dirpath)
    return changed


def without(plan, kit, folder):
    """`plan` less the files under `folder` where it lies inside `kit` (an
    instructor's private tests kept in the kit's checkout)."""
    rel = os.path.relpath(os.path.realpath(folder), os.path.realpath(kit))
    if rel == os.curdir or rel.startswith(os.pardir):
        return plan
    prefix = rel.replace(os.sep, "/") + "/"
    return {k: v for k, v in plan.items() if not k.startswith(prefix)}
