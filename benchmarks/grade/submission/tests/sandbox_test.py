#!/usr/bin/env python3
"""Unit tests of the grader's sandbox (grading/sandbox.py) through
run_limited, as every part of a grade uses it: what a sandboxed process
sees, that it has no network, its process and disk limits, how it ended,
and the grader's refusal where no sandbox starts. Each act is also run
unsandboxed where that is safe, to show the test would see it succeed.
Standard library only; seconds. Skipped where bwrap cannot run (the
grader's own refusal is tested everywhere)."""

import contextlib
import io
import os
import signal
import socket
import sys
import tempfile
import textwrap
import threading
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from grading import limits, sandbox  # noqa: E402
import grade_submission  # noqa: E402


def _sandbox_problem():
    try:
        sandbox.Sandbox.create()
        return ""
    except sandbox.SandboxError as e:
        return str(e)


PROBLEM = _sandbox_problem()


def python(code):
    return ["/usr/bin/python3", "-c", textwrap.dedent(code)]


@unittest.skipIf(PROBLEM, f"no sandbox here: {PROBLEM}")
class SandboxTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.root = self.dir.name
        self.log = os.path.join(self.root, "log")
        self.box = sandbox.Sandbox.create(disk_mib=4, max_processes=24)

    def tearDown(self):
        self.dir.cleanup()

    def folder(self, name, text="contents"):
        path = os.path.join(self.root, name)
        os.makedirs(path)
        with open(os.path.join(path, "file"), "w") as f:
            f.write(text)
        return path

    def run_in(self, command, view=None, box=None, **kwargs):
        kwargs.setdefault("timeout", 30)
        return limits.run_limited(command, log_path=self.log,
                                  sandbox=box or self.box,
                                  view=view or sandbox.View(),
                                  env=dict(os.environ), **kwargs)

    def test_it_sees_its_view_and_nothing_else(self):
        tree, build = self.folder("tree"), self.folder("build")
        secret = self.folder("other-submission", "a secret")
        masked = os.path.join(build, "file")
        shell = (f"cat {tree}/file; echo; cat {secret}/file; "
                 f"touch {tree}/new; touch {build}/out; cat {masked}; "
                 "touch /new; cat /etc/shadow; echo done")
        outcome = self.run_in(["sh", "-c", shell], sandbox.View(
            readable=(tree,), writable=(build,), hidden=(masked,)))
        self.assertEqual(outcome.status, "ok", outcome.output)
        self.assertIn("contents", outcome.output)
        self.assertNotIn("a secret", outcome.output)
        self.assertIn(f"{secret}/file: No such file", outcome.output)
        self.assertIn("Read-only file system", outcome.output)
        self.assertFalse(os.path.exists(os.path.join(tree, "new")))
        self.assertTrue(os.path.exists(os.path.join(build, "out")))
        self.assertIn("/etc/shadow: No such file", outcome.output)
        # Unsandboxed, the same command reads the secret.
        plain = limits.run_limited(["sh", "-c", shell], timeout=30,
                                   log_path=self.log)
        self.assertIn("a secret", plain.output)

    def test_the_folders_above_its_view_are_read_only_under_tmp_too(self):
        """A kit under /tmp: the folder holding the tree and the build (the
        grades folder) refuses a write as it does elsewhere, while the
        build and the scratch /tmp stay writable."""
        under_tmp = tempfile.TemporaryDirectory(dir="/tmp")
        self.addCleanup(under_tmp.cleanup)
        self.root = under_tmp.name  # wherever TMPDIR points
        tree, build = self.folder("tree"), self.folder("build")
        self.assertTrue(self.root.startswith("/tmp/"), self.root)
        shell = (f"touch {self.root}/planted; touch {build}/out; "
                 "touch /tmp/scratch && echo scratch-ok")
        outcome = self.run_in(["sh", "-c", shell], sandbox.View(
            readable=(tree,), writable=(build,)))
        self.assertEqual(outcome.status, "ok", outcome.output)
        self.assertIn(f"{self.root}/planted", outcome.output)
        self.assertIn("Read-only file system", outcome.output)
        self.assertIn("scratch-ok", outcome.output)
        self.assertTrue(os.path.exists(os.path.join(build, "out")))
        self.assertFalse(os.path.exists(os.path.join(self.root, "planted")))

    def test_folders_above_mounts_are_the_ones_below_scratch(self):
        view = sandbox.View(readable=("/tmp/kit/tree", "/tmp/own"),
                            writable=("/tmp/kit/build", "/srv/build"),
                            hidden=("/tmp/kit/build/private",))
        self.assertEqual(sandbox.folders_above_mounts(view, "/tmp"),
                         ["/tmp/kit"])

    def test_it_has_no_network(self):
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(4)
        port = listener.getsockname()[1]
        accepted = []

        def accept():
            with contextlib.suppress(OSError):
                accepted.append(listener.accept())
        thread = threading.Thread(target=accept, daemon=True)
        thread.start()
        connect = python(f"""
            import socket
            try:
                socket.create_connection(("127.0.0.1", {port}), timeout=5)
                print("connected")
            except OSError as e:
                print("refused:", e)
            """)
        outcome = self.run_in(connect)
        self.assertIn("refused:", outcome.output)
        self.assertEqual(accepted, [])
        plain = limits.run_limited(connect, timeout=30, log_path=self.log)
        self.assertIn("connected", plain.output)
        thread.join(5)
        self.assertEqual(len(accepted), 1)
        accepted[0][0].close()
        listener.close()

    def test_the_process_limit(self):
        outcome = self.run_in(["sh", "-c", "for i in $(seq 100); do "
                               "sleep 30 & done; wait"], timeout=20)
        self.assertEqual(outcome.status, "processes", outcome.output)
        self.assertEqual(outcome.describe(), "reached the process limit (24 "
                         "processes and threads)")
        self.assertLess(outcome.seconds, 15)

    def test_the_disk_limit(self):
        outcome = self.run_in(["sh", "-c", "dd if=/dev/zero of=fill bs=1M "
                               "count=16; exit 0"])
        self.assertEqual(outcome.status, "disk", outcome.output)
        self.assertEqual(outcome.describe(), "filled its disk (4 MiB in /tmp)")
        self.assertIn("No space left", outcome.output)
        self.assertEqual(self.run_in(["sh", "-c", "dd if=/dev/zero of=fill "
                                      "bs=1M count=2"]).status, "ok")

    def test_how_it_ended_passes_through(self):
        self.assertEqual(self.run_in(["true"]).status, "ok")
        failed = self.run_in(["sh", "-c", "exit 3"])
        self.assertEqual((failed.status, failed.exit_code), ("failed", 3))
        crashed = self.run_in(["sh", "-c", "kill -SEGV $$"])
        self.assertEqual(crashed.describe(), "crashed (SIGSEGV)")
        # A signal number as an exit status is not a signal.
        self.assertEqual(self.run_in(["sh", "-c", "exit 139"]).exit_code, 139)
        cpu = self.run_in(python("while True: pass"), timeout=1.5)
        self.assertIn(cpu.status, ("cpu", "timeout"))
        hang = self.run_in(["sleep", "60"], timeout=1)
        self.assertEqual(hang.describe(), "timed out after 1 s")
        missing = self.run_in(["/nonexistent/binary"])
        self.assertEqual(missing.status, "failed")
        self.assertIn("cannot run /nonexistent/binary", missing.output)

    def test_a_process_that_leaves_the_session_is_killed_too(self):
        outcome = self.run_in(python("""
            import os, subprocess, time
            subprocess.Popen(["setsid", "sleep", "120"])
            time.sleep(0.5)
            x = bytearray(300 << 20)
            time.sleep(30)
            """), memory_mib=200, resident=True, timeout=20)
        self.assertEqual(outcome.status, "memory")
        if self.box.counter.root:  # the run's cgroup is empty and gone
            mine = f"kvlab-grade-{os.getpid()}-"
            self.assertEqual([d for d in os.listdir(self.box.counter.root)
                              if d.startswith(mine)], [])

    def test_the_environment_is_the_sandbox_s(self):
        with mock.patch.dict(os.environ, {"KVLAB_TEST_TOKEN": "secret"}):
            outcome = self.run_in(["sh", "-c", "env"])
        self.assertNotIn("KVLAB_TEST_TOKEN", outcome.output)
        self.assertIn("HOME=/tmp", outcome.output)

    def test_the_report_says_what_confined_it(self):
        line = self.box.describe()
        self.assertIn("no network", line)
        self.assertIn("pids.max 24" if self.box.counter.kind != "rlimit"
                      else "RLIMIT_NPROC 24", line)
        self.assertIn("NONE", sandbox.Sandbox(enabled=False).describe())


class RefusalTest(unittest.TestCase):
    def test_a_missing_bwrap_is_a_sandbox_error(self):
        with self.assertRaises(sandbox.SandboxError) as caught:
            sandbox.Sandbox.create(bwrap="/nonexistent/bwrap")
        self.assertIn("bubblewrap", str(caught.exception))

    def test_the_grader_refuses_without_a_sandbox(self):
        error = sandbox.SandboxError("no user namespaces")
        with tempfile.TemporaryDirectory() as submission, \
                mock.patch.object(sandbox.Sandbox, "create",
                                  side_effect=error), \
                contextlib.redirect_stderr(io.StringIO()) as stderr:
            status = grade_submission.main(["--submission", submission,
                                            "--stage", "stage1"])
        self.assertEqual(status, 2)
        self.assertIn("refusing to grade: no sandbox can start here: no user "
                      "namespaces", stderr.getvalue())
        self.assertIn("--unsandboxed", stderr.getvalue())

    def test_unsandboxed_says_so_loudly(self):
        args = grade_submission.parse_args(["--submission", "x", "--stage",
                                            "stage1", "--unsandboxed"])
        with contextlib.redirect_stderr(io.StringIO()) as stderr:
            self.assertIsNone(grade_submission.make_sandbox(args))
        self.assertIn("NO SANDBOX", stderr.getvalue())

    def test_without_a_pids_cgroup_it_falls_back_to_rlimit(self):
        with tempfile.TemporaryDirectory() as empty:
            counter = sandbox.ProcessCounter.detect(empty)
        self.assertEqual(counter.kind, "rlimit")
        self.assertIn("root ignores it", counter.describe(10))


if __name__ == "__main__":
    unittest.main()
