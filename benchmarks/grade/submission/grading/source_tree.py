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

import dataclasses
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


@dataclasses.dataclass(frozen=True)
class Assignment:
    """What one grade takes from a submission (resolve_stage).

    name: "stage4", "stage4_wormhole" or "stage5"; stage: "stage4";
    stage_dir: the stage's folder ("stage4_compressed_trie"); folders: the
    student folders, relative to the kit, whose src/ and include/ are the
    submission's; groups: the kit's groups files of those folders (absolute;
    a stage without one has none on disk); others: the folders inside
    `folders` that are assignments of their own (stage 4's wormhole/ when
    grading "stage4"), whose files and test binaries this one leaves out;
    siblings: the student folders of the stage's other assignments, which
    this grade takes from the kit whatever the submission holds there."""
    name: str
    stage: str
    stage_dir: str
    folders: tuple
    groups: tuple
    others: tuple = ()
    siblings: tuple = ()

    def owns(self, rel):
        """Whether `rel` (a path relative to the kit, or to a build
        directory of it) lies in this assignment's folders."""
        rel = rel.replace(os.sep, "/")
        inside = lambda folder: rel.startswith(folder + "/")  # noqa: E731
        return (any(inside(f) for f in self.folders) and
                not any(inside(f) for f in self.others))


def rooms_of(root, stage_dir):
    """The subfolders of a stage's folder that are assignments of their
    own: those with a tests/groups.txt, sorted."""
    top = os.path.join(root, stage_dir)
    return sorted(d for d in os.listdir(top)
                  if os.path.isfile(os.path.join(top, d, "tests",
                                                 "groups.txt")))


def has_own_groups(root, stage_dir):
    """Whether the stage's folder has a tests/groups.txt at its top: its
    own src/ and include/ are then an assignment beside its rooms."""
    return os.path.isfile(os.path.join(root, stage_dir, "tests",
                                       "groups.txt"))


def assignments_of(root, stage):
    """The names a stage is graded under, each a whole grade: the stage
    itself, then each room as stageN_<room> ("stage4", "stage4_wormhole";
    stage 5, rooms only: "stage5" grades them all together, then
    "stage5_memory", ...)."""
    stage_dir = stage_dir_name(root, stage)
    return [stage] + [f"{stage}_{r}" for r in rooms_of(root, stage_dir)]


def resolve_stage(root, name):
    """The Assignment `name` names in the kit at `root`.

    A stage folder may hold rooms, subfolders with a tests/groups.txt of
    their own (stage5_hyperion/memory): "stageN_<room>" is one room, its
    src/, include/ and groups. "stageN" is the stage folder's own code when
    that folder has a tests/groups.txt at its top (stage 4: the compressed
    trie in stage4_compressed_trie/src; its rooms are graded apart, never
    with it); otherwise every room together (stage 5), or the whole folder
    for a stage without rooms (stage 1)."""
    match = re.fullmatch(r"(stage\d+)(?:_(\w+))?", name)
    if not match:
        raise TreeError(f"'{name}' is not a stage name (stage1, stage2, ..., "
                        "or an assignment such as stage5_memory)")
    stage, room = match.groups()
    stage_dir = stage_dir_name(root, stage)
    rooms = rooms_of(root, stage_dir)
    own = has_own_groups(root, stage_dir)
    if room:
        if room not in rooms:
            names = [stage] * own + [f"{stage}_{r}" for r in rooms]
            raise TreeError(f"{stage} has no assignment {name}" +
                            (f" (it has {', '.join(names)})" if rooms
                             else " (it is graded whole)"))
        folders, others = [f"{stage_dir}/{room}"], []
    elif own or not rooms:
        folders, others = [stage_dir], [f"{stage_dir}/{r}" for r in rooms]
    else:
        folders, others = [f"{stage_dir}/{r}" for r in rooms], []
    groups = [os.path.join(root, f, "tests", "groups.txt") for f in folders]
    every = [stage_dir] * own + [f"{stage_dir}/{r}" for r in rooms]
    siblings = [f for f in every if f not in folders] if own or room else []
    return Assignment(name, stage, stage_dir, tuple(folders), tuple(groups),
                      tuple(others), tuple(siblings))


def sibling_changes(kit, submission, assignment):
    """Notes on the stage's other assignments whose sources (src/ and
    include/) the submission changed: this grade builds the kit's there, so
    a student who also worked on them learns that it counted nowhere here.
    [] when the submission matches the kit or lacks those folders."""
    notes = []
    names = None
    for folder in assignment.siblings:
        if not os.path.isdir(os.path.join(submission, folder)):
            continue
        if names is None:
            names = kit_files(kit)
        theirs = set()
        for sub in STUDENT_DIRS:
            top = os.path.join(submission, folder, sub)
            for dirpath, _, filenames in os.walk(top):
                for name in filenames:
                    path = os.path.join(dirpath, name)
                    if os.path.isfile(path) and not os.path.islink(path):
                        theirs.add(os.path.relpath(path, submission).replace(
                            os.sep, "/"))
        ours = {rel for rel in names if is_student_path(rel, folder)}
        differ = sorted(theirs ^ ours)
        for rel in sorted(theirs & ours):
            with open(os.path.join(submission, rel), "rb") as a, \
                    open(os.path.join(kit, rel), "rb") as b:
                if a.read() != b.read():
                    differ.append(rel)
        if differ:
            whose = (assignment.stage if folder == assignment.stage_dir else
                     f"{assignment.stage}_{folder.rsplit('/', 1)[1]}")
            shown = ", ".join(sorted(differ)[:5]) + (
                f" and {len(differ) - 5} more" if len(differ) > 5 else "")
            notes.append(f"not graded here: the submission changes "
                         f"{len(differ)} file{'s' * (len(differ) > 1)} of "
                         f"{folder}/src and include ({shown}), which belong "
                         f"to {whose}; this grade built the kit's "
                         f"(grade them as {whose})")
    return notes


def _folders(stage_dirs):
    return [stage_dirs] if isinstance(stage_dirs, str) else list(stage_dirs)


def _git(root, *args):
    return subprocess.run(["git", "-C", root, *args], check=True,
                          capture_output=True).stdout


def _is_checkout(root):
    """Whether root is a git checkout's top (a worktree's .git is a file)."""
    return os.path.exists(os.path.join(root, ".git"))


def kit_files(root):
    """The kit's files, relative: those git tracks or would track; outside
    a git checkout (a folder with no .git of its own, even inside another
    checkout) every file but build output and results."""
    try:
        if not _is_checkout(root):
            raise OSError("not a git checkout")
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


# A copy of the kit outside git (a handout, a Gradescope package) names
# the commit it was made from in this file: "commit: <sha>" lines.
KIT_STAMP = ".kvlab-kit"


def read_stamp(root):
    """{field: value} of root's KIT_STAMP; {} if it has none."""
    try:
        with open(os.path.join(root, KIT_STAMP), encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError:
        return {}
    fields = (line.partition(":") for line in lines if ":" in line)
    return {k.strip(): v.strip() for k, _, v in fields}


def write_stamp(root, commit, **fields):
    with open(os.path.join(root, KIT_STAMP), "w", encoding="utf-8") as f:
        f.write(f"commit: {commit}\n")
        for key, value in fields.items():
            f.write(f"{key}: {value}\n")


def kit_commit(root):
    """The kit's commit, with '-dirty' if tracked files differ from it;
    outside a git checkout the commit its KIT_STAMP names, else
    'unknown'."""
    if not _is_checkout(root):
        return read_stamp(root).get("commit", "unknown")
    try:
        commit = _git(root, "rev-parse", "HEAD").decode().strip()
        dirty = _git(root, "status", "--porcelain", "--untracked-files=no")
        return commit + ("-dirty" if dirty.strip() else "")
    except (OSError, subprocess.CalledProcessError):
        return read_stamp(root).get("commit", "unknown")


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


def is_student_path(rel, stage_dirs):
    """Whether `rel` lies in the src/ or include/ of one of `stage_dirs`
    (a folder, or a list of them): a file the submission gives."""
    return any(rel.startswith(f"{folder}/{sub}/")
               for folder in _folders(stage_dirs) for sub in STUDENT_DIRS)


def plan_tree(kit, submission, stage_dir):
    """{relative path: source file} for the tree, and notes on files the
    submission adds to or lacks from the kit's stage sources. `stage_dir`
    is the stage's folder or a list of student folders (resolve_stage)."""
    kit_names = kit_files(kit)
    student, links = submission_files(submission, stage_dir)
    plan = {rel: os.path.join(kit, rel) for rel in kit_names
            if not is_student_path(rel, stage_dir)}
    plan.update({rel: os.path.join(submission, rel) for rel in student})
    kit_student = {rel for rel in kit_names if is_student_path(rel, stage_dir)}
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
