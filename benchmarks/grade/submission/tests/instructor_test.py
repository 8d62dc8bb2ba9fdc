#!/usr/bin/env python3
"""The instructor's tools, in seconds (make test, label grade): the
Gradescope package's layout and its results.json, make collect from git
repositories (local paths and file:// urls, no network) and from archives,
grading a class (with a stand-in grader: the real one is grade-check's),
and the gradebook's CSV.
"""

import csv
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import unittest
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
SUBMISSION_DIR = os.path.dirname(HERE)
KIT = os.path.normpath(os.path.join(SUBMISSION_DIR, "..", "..", ".."))
sys.path.insert(0, SUBMISSION_DIR)

from grading import collect, gradebook, gradescope, leaderboard  # noqa: E402
from grading import source_tree  # noqa: E402


def part(metric, title, pts, max_pts, reason="", details=()):
    return {"metric": metric, "title": title, "points": pts,
            "max_points": max_pts, "passed": pts >= max_pts, "value": None,
            "reason": reason, "details": list(details)}


def detail(kind, name, passed, text, pts=None, max_pts=None, next_step=""):
    return {"kind": kind, "name": name, "passed": passed, "text": text,
            "points": pts, "max_points": max_pts, "next_step": next_step}


def grade_json(name="alice", stage="stage1", groups_passing=2):
    groups = [detail("group", f"g{i}", i < groups_passing,
                     "1/1 tests" if i < groups_passing else
                     "0/1 tests: X.Y failed", 20.0 if i < groups_passing
                     else 0.0, 20.0, "" if i < groups_passing else
                     "BstStore::Unlink (docs/stage1_bst.md#3-delete)")
              for i in range(3)]
    parts = [
        part("build", "build", 10.0, 10.0),
        part("test_groups", "test groups", 20.0 * groups_passing, 60.0,
             f"{groups_passing} of 3 groups pass", groups),
        part("asan_clean", "ASan+UBSan", 20.0, 20.0, "clean"),
        part("private_tests", "private tests", 0.0, 20.0,
             "0 of 2 pass: SecretTest.HiddenName failed"),
        part("workload", "workload", 40.0, 100.0, "", [
            detail("workload", "tps >= 40000", True, "50,000", 40.0, 40.0),
            detail("workload", "bytes_per_key <= 220", False, "300", 0.0,
                   60.0)]),
    ]
    score = sum(p["points"] for p in parts)
    return {"format": "kvlab-submission-grade/1", "submission": name,
            "sha256": "ab" * 32, "stage": stage, "store": "avl",
            "kit_commit": "c0ffee", "date": "2026-11-29T00:00:00Z",
            "parts": parts, "workload": {"correct": True, "metrics": {}},
            "notes": ["graded in 1 s"], "score": score,
            "max_score": sum(p["max_points"] for p in parts)}


class GradescopeResultsTest(unittest.TestCase):
    def test_one_entry_per_group_and_part_adding_up(self):
        grade = grade_json()
        data = gradescope.results(grade, seconds=12.4)
        self.assertEqual(gradescope.schema_problems(data), [])
        names = [t["name"] for t in data["tests"]]
        self.assertEqual(names, [
            "build", "test group: g0", "test group: g1", "test group: g2",
            "ASan+UBSan", "private tests", "workload: tps >= 40000",
            "workload: bytes_per_key <= 220"])
        self.assertAlmostEqual(sum(t["score"] for t in data["tests"]),
                               grade["score"])
        self.assertAlmostEqual(sum(t["max_score"] for t in data["tests"]),
                               grade["max_score"])
        self.assertEqual(data["score"], grade["score"])
        self.assertEqual(data["execution_time"], 12)
        failed = [t for t in data["tests"] if t["status"] == "failed"]
        self.assertEqual([t["name"] for t in failed],
                         ["test group: g2", "private tests",
                          "workload: bytes_per_key <= 220"])
        self.assertIn("Next: BstStore::Unlink", failed[0]["output"])

    def test_private_tests_hidden_until_published(self):
        data = gradescope.results(grade_json())
        for t in data["tests"]:
            want = ("after_published" if t["name"] == "private tests"
                    else "visible")
            self.assertEqual(t["visibility"], want, t["name"])
            if t["name"] != "private tests":
                self.assertNotIn("HiddenName", t["output"])
        self.assertNotIn("HiddenName", data["output"])
        self.assertIn("published", data["output"])

    def test_group_points_follow_a_share_rubric(self):
        grade = grade_json(groups_passing=1)
        grade["parts"][1]["points"] = 30.0  # a share needing half the groups
        grade["score"] = sum(p["points"] for p in grade["parts"])
        data = gradescope.results(grade)
        groups = [t for t in data["tests"] if t["name"].startswith("test")]
        self.assertAlmostEqual(sum(t["score"] for t in groups), 30.0)
        self.assertAlmostEqual(sum(t["score"] for t in data["tests"]),
                               data["score"])

    def test_schema_problems_are_found(self):
        failure = gradescope.failure("no stage1_bst/ folder")
        self.assertEqual(gradescope.schema_problems(failure), [])
        self.assertEqual(failure["tests"][0]["status"], "failed")
        bad = {"score": "10", "tests": [
            {"name": "", "score": 1, "max_score": 1, "visibility": "soon",
             "colour": "red"}], "stdout_visibility": "always"}
        problems = gradescope.schema_problems(bad)
        for piece in ("'score' is not a number", "no name",
                      "visibility 'soon'", "unknown field 'colour'",
                      "'stdout_visibility' is 'always'"):
            self.assertTrue(any(piece in p for p in problems),
                            f"{piece}: {problems}")


class GradescopePackageTest(unittest.TestCase):
    def test_layout(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "ag.zip")
            private = os.path.join(tmp, "private")
            os.makedirs(private)
            with open(os.path.join(private, "x_test.cc"), "w") as f:
                f.write("// a private test\n")
            subprocess.run(
                [sys.executable, os.path.join(SUBMISSION_DIR, "gradescope",
                                              "package.py"),
                 "--stage", "stage1", "--out", out, "--private-tests",
                 private, "--grader-flags", "--n 1000"],
                check=True, capture_output=True)
            with zipfile.ZipFile(out) as z:
                infos = {i.filename: i for i in z.infolist()}
                config = json.loads(z.read("autograder.json"))
                stamp = z.read("kit/.kvlab-kit").decode()
            for name in ("setup.sh", "run_autograder"):
                self.assertEqual((infos[name].external_attr >> 16) & 0o111,
                                 0o111, name)
            for name in ("kit/Makefile", "kit/benchmarks/rubric.txt",
                         "kit/stage1_bst/CMakeLists.txt",
                         "kit/benchmarks/grade/submission/gradescope/run.py",
                         "private/x_test.cc"):
                self.assertIn(name, infos)
            self.assertFalse(any("tests/fixtures/" in n for n in infos))
            self.assertFalse(any(n.startswith(("kit/build/", "kit/.git/"))
                                 for n in infos))
            self.assertEqual(config["stage"], "stage1")
            self.assertEqual(config["flags"], ["--n", "1000"])
            self.assertEqual(config["files"], {"private-tests": "private"})
            self.assertIn(f"commit: {source_tree.kit_commit(KIT)}", stamp)

    def test_unknown_stage_is_refused(self):
        result = subprocess.run(
            [sys.executable, os.path.join(SUBMISSION_DIR, "gradescope",
                                          "package.py"),
             "--stage", "stage9", "--out", "/nonexistent/x.zip"],
            capture_output=True, text=True)
        self.assertEqual(result.returncode, 2)
        self.assertIn("stage9", result.stderr)

    def test_find_tree_looks_below_a_top_folder(self):
        sys.path.insert(0, os.path.join(SUBMISSION_DIR, "gradescope"))
        import run  # noqa: E402
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "kvlab-main", "stage1_bst", "src"))
            self.assertEqual(run.find_tree(tmp, ["stage1_bst"]),
                             os.path.join(tmp, "kvlab-main"))
            self.assertIsNone(run.find_tree(tmp, ["stage2_btree"]))


def git(*args, cwd):
    subprocess.run(["git", "-c", "user.name=s", "-c", "user.email=s@x",
                    *args], cwd=cwd, check=True, capture_output=True)


def student_tree(path, kit_commit, code="int f() { return 1; }\n"):
    os.makedirs(os.path.join(path, "stage1_bst", "src"))
    with open(os.path.join(path, "stage1_bst", "src", "bst.cc"), "w") as f:
        f.write(code)
    if kit_commit:
        source_tree.write_stamp(path, kit_commit, assignments="stage1")


class CollectTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        subprocess.run(["rm", "-rf", self.tmp])

    def repo(self, name, kit_commit, commits=1):
        path = os.path.join(self.tmp, "remote", name)
        student_tree(path, kit_commit)
        git("init", "-q", "-b", "main", cwd=path)
        for i in range(commits):
            with open(os.path.join(path, "stage1_bst", "src", "bst.cc"),
                      "a") as f:
                f.write(f"// change {i}\n")
            git("add", "-A", cwd=path)
            date = f"2026-11-{10 + i:02d}T12:00:00"
            subprocess.run(
                ["git", "-c", "user.name=s", "-c", "user.email=s@x",
                 "commit", "-q", "-m", f"c{i}", "--date", date],
                cwd=path, check=True, capture_output=True,
                env=dict(os.environ, GIT_COMMITTER_DATE=date))
        return path

    def test_repos_by_path_and_file_url(self):
        a = self.repo("alice", "k1")
        b = self.repo("bob", "k1", commits=3)
        c = self.repo("carol", "k2")
        listing = os.path.join(self.tmp, "repos.txt")
        with open(listing, "w") as f:
            f.write(f"# the class\n{a}\nbob file://{b}\n{c}.git\n"
                    f"dave file://{self.tmp}/remote/nobody\n")
        os.rename(c, c + ".git")
        out = os.path.join(self.tmp, "out")
        students, kit = collect.collect(
            out, repos=collect.read_repo_list(listing),
            before="2026-11-11T23:00:00")
        self.assertEqual(kit, "k1")
        by = {s.name: s for s in students}
        self.assertEqual(sorted(by), ["alice", "bob", "carol", "dave"])
        self.assertEqual(by["alice"].problems, [])
        self.assertEqual(by["bob"].problems, [])
        self.assertTrue(os.path.isfile(os.path.join(
            out, "bob", "stage1_bst", "src", "bst.cc")))
        with open(os.path.join(out, "bob", "stage1_bst", "src",
                               "bst.cc")) as f:
            code = f.read()
        self.assertIn("change 1", code)
        self.assertNotIn("change 2", code)  # made after the date given
        self.assertEqual(by["carol"].problems, ["made from kit k2, not k1"])
        self.assertTrue(by["dave"].problems[0].startswith("not collected"))
        self.assertFalse(os.path.exists(os.path.join(out, "dave")))
        with open(os.path.join(out, collect.MANIFEST)) as f:
            manifest = json.load(f)
        self.assertEqual(manifest["kit_commit"], "k1")
        self.assertEqual(len(manifest["students"][1]["commit"]), 40)

    def test_given_kit_commit_wins(self):
        a = self.repo("alice", "k1")
        _, kit = collect.collect(os.path.join(self.tmp, "out"),
                                 repos=[("alice", a)], kit_commit="k9")
        self.assertEqual(kit, "k9")

    def test_repo_list_errors(self):
        listing = os.path.join(self.tmp, "repos.txt")
        for text, piece in (("a x\na y\n", "appears twice"),
                            ("a b c\n", "3 fields"), ("# none\n",
                                                      "no repositories"),
                            ("../up x\n", "cannot name a folder")):
            with open(listing, "w") as f:
                f.write(text)
            with self.assertRaises(collect.CollectError) as e:
                collect.read_repo_list(listing)
            self.assertIn(piece, str(e.exception))

    def test_archives(self):
        archives = os.path.join(self.tmp, "archives")
        os.makedirs(archives)
        trees = os.path.join(self.tmp, "trees")
        student_tree(os.path.join(trees, "erin", "kvlab"), "k1")
        student_tree(os.path.join(trees, "fay"), "k1")
        student_tree(os.path.join(trees, "gus"), "")
        with zipfile.ZipFile(os.path.join(archives, "erin.zip"), "w") as z:
            for d, _, files in os.walk(os.path.join(trees, "erin")):
                for name in files:
                    path = os.path.join(d, name)
                    z.write(path, os.path.relpath(path, os.path.join(
                        trees, "erin")))
        for name in ("fay", "gus"):
            with tarfile.open(os.path.join(archives, f"{name}.tar.gz"),
                              "w:gz") as t:
                for entry in os.listdir(os.path.join(trees, name)):
                    t.add(os.path.join(trees, name, entry), entry)
        with zipfile.ZipFile(os.path.join(archives, "hal.zip"), "w") as z:
            z.writestr("../escape.txt", "x")
        with open(os.path.join(archives, "notes.txt"), "w") as f:
            f.write("not an archive\n")
        out = os.path.join(self.tmp, "out")
        students, kit = collect.collect(out, archives=archives)
        by = {s.name: s for s in students}
        self.assertEqual(sorted(by), ["erin", "fay", "gus", "hal"])
        self.assertEqual(kit, "k1")
        self.assertEqual(by["erin"].problems, [])
        self.assertTrue(os.path.isfile(os.path.join(
            out, "erin", "stage1_bst", "src", "bst.cc")))  # top folder lifted
        self.assertEqual(by["fay"].problems, [])
        self.assertIn("no .kvlab-kit", by["gus"].problems[0])
        self.assertIn("outside", by["hal"].problems[0])
        self.assertFalse(os.path.exists(os.path.join(self.tmp,
                                                     "escape.txt")))

    def test_command_exit_status(self):
        a = self.repo("alice", "k1")
        listing = os.path.join(self.tmp, "repos.txt")
        with open(listing, "w") as f:
            f.write(f"{a}\n")
        command = [sys.executable, os.path.join(SUBMISSION_DIR, "collect.py"),
                   "--out", os.path.join(self.tmp, "out"), "--repos",
                   listing]
        self.assertEqual(subprocess.run(command, capture_output=True)
                         .returncode, 0)
        result = subprocess.run(command + ["--kit-commit", "k2"],
                                capture_output=True, text=True)
        self.assertEqual(result.returncode, 1)
        self.assertIn("alice: made from kit k1, not k2", result.stdout)


# A stand-in for grade_submission.py: full marks for "good", 100 for
# others, and "could not grade" for "broken", as the real one exits.
FAKE_GRADER = r'''
import json, os, sys
args = dict(zip(sys.argv[1::2], sys.argv[2::2]))
name = args["--name"]
if name == "broken":
    print("grade_submission: the submission has no stage1_bst/ folder",
          file=sys.stderr)
    sys.exit(2)
grade = %s
grade["submission"] = name
grade["score"] = 210.0 if name == "good" else 100.0
grade["parts"][0]["points"] = 10.0 if name == "good" else 0.0
json.dump(grade, open(args["--json"], "w"))
'''


class GradeClassTest(unittest.TestCase):
    def test_progress_summary_and_csv(self):
        with tempfile.TemporaryDirectory() as tmp:
            subs = os.path.join(tmp, "subs")
            for name in ("good", "broken", "meh"):
                os.makedirs(os.path.join(subs, name))
            with open(os.path.join(subs, collect.MANIFEST), "w") as f:
                json.dump({"students": [{"name": "meh", "problems": [
                    "made from kit k2, not k1"]}]}, f)
            grader = os.path.join(tmp, "fake.py")
            with open(grader, "w") as f:
                f.write(FAKE_GRADER % repr(grade_json()))
            grades = os.path.join(tmp, "grades")
            result = subprocess.run(
                [sys.executable, os.path.join(SUBMISSION_DIR,
                                              "grade_class.py"),
                 "--submissions", subs, "--stage", "stage1", "--grades",
                 grades, "--grader", grader], capture_output=True, text=True)
            self.assertEqual(result.returncode, 1, result.stderr)
            bars = [l for l in result.stderr.splitlines()
                    if l.startswith("grade-class [")]
            self.assertEqual(len(bars), 4)
            self.assertIn("] 3/3 meh: 100/210", bars[-1])
            self.assertIn("[" + "#" * 8 + "." * 16 + "] 1/3 broken: "
                          "not graded", bars[1])
            out = result.stdout
            self.assertIn("2 of 3 submissions graded", out)
            self.assertIn("median 155", out)
            self.assertIn("full marks: 1", out)
            self.assertRegex(out, r"broken +- +the submission has no "
                             r"stage1_bst/ folder")
            self.assertRegex(out, r"meh +100/210 .*made from kit k2")
            with open(os.path.join(grades, "summary-stage1.txt")) as f:
                self.assertEqual(f.read(), out)

            entries, _ = leaderboard.load_grades(grades)
            rows = list(csv.reader(io.StringIO(gradebook.to_csv(entries))))
            self.assertEqual(rows[0][:5], ["student", "stage1 score",
                                           "stage1 max", "stage1 build",
                                           "stage1 test_groups"])
            self.assertEqual([r[0] for r in rows[1:]], ["good", "meh"])
            self.assertEqual(rows[1][1:3], ["210", "210"])
            self.assertEqual(rows[2][1], "100")
            self.assertEqual(rows[2][3], "0")  # the stand-in's build part
            self.assertEqual(rows[2][-3:], ["ab" * 32, "c0ffee",
                                            "2026-11-29T00:00:00Z"])


class GradeClassStageTest(unittest.TestCase):
    def test_an_assignment_the_kit_lacks_is_refused_before_any_grade(self):
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "subs", "ann"))
            result = subprocess.run(
                [sys.executable, os.path.join(SUBMISSION_DIR,
                                              "grade_class.py"),
                 "--submissions", os.path.join(tmp, "subs"), "--stage",
                 "stage4_wormhol", "--grades", os.path.join(tmp, "grades"),
                 "--grader", os.path.join(tmp, "no-grader.py")],
                capture_output=True, text=True)
            self.assertEqual(result.returncode, 2, result.stderr)
            self.assertIn("stage4 has no assignment stage4_wormhol (it has "
                          "stage4, stage4_wormhole)", result.stderr)
            self.assertFalse(os.path.exists(os.path.join(tmp, "grades")))


class GradebookTest(unittest.TestCase):
    def test_stages_side_by_side(self):
        with tempfile.TemporaryDirectory() as tmp:
            for name, stage, groups in (("ann", "stage1", 3),
                                        ("ann", "stage2", 1),
                                        ("ben", "stage2", 2)):
                with open(os.path.join(tmp, f"{name}-{stage}.json"),
                          "w") as f:
                    json.dump(grade_json(name, stage, groups), f)
            out = os.path.join(tmp, "g.csv")
            subprocess.run([sys.executable, os.path.join(
                SUBMISSION_DIR, "gradebook.py"), tmp, "--out", out],
                check=True, capture_output=True)
            with open(out, newline="") as f:
                rows = list(csv.DictReader(f))
            self.assertEqual([r["student"] for r in rows], ["ann", "ben"])
            self.assertEqual(rows[0]["stage1 score"], "130")
            self.assertEqual(rows[0]["stage1 test_groups"], "60")
            self.assertEqual(rows[0]["stage2 test_groups"], "20")
            self.assertEqual(rows[1]["stage1 score"], "")
            self.assertEqual(rows[1]["stage2 score"], "110")
            empty = os.path.join(tmp, "empty")
            os.makedirs(empty)
            self.assertEqual(subprocess.run(
                [sys.executable, os.path.join(SUBMISSION_DIR,
                                              "gradebook.py"), empty],
                capture_output=True).returncode, 2)


if __name__ == "__main__":
    unittest.main()
