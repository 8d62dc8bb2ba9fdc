"""One process under a wall-clock limit and a memory limit.

Every part of a grade runs this way, so that a submission that hangs, eats
the machine's memory or floods the disk ends its part with a reason instead
of ending the grader. The process gets its own session, so that the whole
session is killed at the limit, and RLIMIT_FSIZE on the files it writes,
its output included. Memory is limited one of two ways:
  - address space (RLIMIT_AS): exact, and an allocation past it fails
    where it is made; for plain programs;
  - resident memory of the whole session (of the run's pids cgroup when
    sandboxed: no process can leave it), polled four times a second: for
    sanitized programs (ASan and TSan reserve terabytes of address space)
    and for builds.
Each process also gets RLIMIT_CPU at its time limit. With a Sandbox
(sandbox.py) the command runs inside it, which adds two limits: processes
(pids.max) and disk (the sandbox's /tmp).
"""

import dataclasses
import os
import resource
import signal
import subprocess
import time

from .sandbox import View

MIB = 1024 * 1024
_PAGE = os.sysconf("SC_PAGE_SIZE")
_POLL_SECONDS = 0.25

# What a program prints when it dies because an allocation failed under
# the limit: an uncaught std::bad_alloc, or a sanitizer's own limit.
_OUT_OF_MEMORY = ("terminate called after throwing an instance of "
                  "'std::bad_alloc'", "hard rss limit exhausted",
                  "out of memory: allocator is trying to allocate")


@dataclasses.dataclass
class Outcome:
    # ok: exit status 0; failed: another exit status; crashed: a signal;
    # timeout: killed at the time limit; memory: out of memory under the
    # limit; output: killed for writing too much; cpu: its CPU time ran out;
    # processes: it reached the process limit; disk: it filled its disk;
    # error: could not start.
    status: str
    exit_code: int | None
    signal_name: str | None
    seconds: float
    output: str
    timeout: float
    memory_mib: int | None
    limit: str = ""  # the process or disk limit it reached

    def describe(self):
        """Why the process did not end well, in a few words ('' if ok)."""
        if self.status == "ok":
            return ""
        if self.status == "failed":
            return f"exit status {self.exit_code}"
        if self.status == "crashed":
            return f"crashed ({self.signal_name})"
        if self.status == "timeout":
            return f"timed out after {self.timeout:g} s"
        if self.status == "memory":
            return f"ran out of memory (limit {self.memory_mib} MiB)"
        if self.status == "output":
            return "killed for writing too much output"
        if self.status == "cpu":
            return f"used up its CPU time ({self.timeout:g} s)"
        if self.status == "processes":
            return f"reached the process limit ({self.limit})"
        if self.status == "disk":
            return f"filled its disk ({self.limit})"
        return self.output.strip().splitlines()[-1] if self.output else "error"


def _limits(memory_mib, max_output_mib, cpu_seconds, run):
    def apply():
        if run is not None:
            run.preexec()
        cpu = int(cpu_seconds) + 1
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
        if memory_mib is not None:
            resource.setrlimit(resource.RLIMIT_AS,
                               (memory_mib * MIB, memory_mib * MIB))
        if max_output_mib is not None:
            limit = max_output_mib * MIB
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    return apply


def session_rss_bytes(session, pids=None):
    """The resident memory of every process in `session`, or of `pids`."""
    total = 0
    for name in os.listdir("/proc") if pids is None else map(str, pids):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
            # After "pid (comm) ": state ppid pgrp session ... rss (24th).
            fields = stat[stat.rindex(b")") + 2:].split()
            if pids is not None or int(fields[3]) == session:
                total += int(fields[21]) * _PAGE
        except (OSError, ValueError, IndexError):
            continue
    return total


def run_limited(command, *, timeout, memory_mib=None, resident=False,
                max_output_mib=256, cwd=None, env=None, log_path,
                sandbox=None, view=None):
    """Runs `command` (a list), its stdout and stderr into `log_path`, and
    returns the Outcome. `memory_mib` limits the address space, or with
    `resident` the session's resident memory; None: no limit.
    `max_output_mib` limits each file it writes; None: no limit. With
    `sandbox` (sandbox.Sandbox) the command runs inside it, seeing `view`
    (a sandbox.View) and starting in its /tmp (`cwd` is for unsandboxed
    runs)."""
    start = time.monotonic()
    run = sandbox.start(command, view or View(), env) if sandbox else None
    argv, env = (run.argv, run.env) if run else (command, env)
    with open(log_path, "wb") as log:
        try:
            process = subprocess.Popen(
                argv, stdin=subprocess.DEVNULL, stdout=log,
                stderr=subprocess.STDOUT, cwd=cwd, env=env,
                start_new_session=True,
                pass_fds=run.pass_fds if run else (),
                preexec_fn=_limits(None if resident else memory_mib,
                                   max_output_mib, timeout, run))
        except (OSError, subprocess.SubprocessError) as e:
            if run:
                run.finish()
            why = e.strerror if isinstance(e, OSError) else str(e)
            return Outcome("error", None, None, 0.0,
                           f"cannot run {argv[0]}: {why}", timeout,
                           memory_mib)
        if run:
            run.started()
        timed_out = over_memory = False
        watch = resident and memory_mib is not None
        deadline = start + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                process.wait(timeout=min(_POLL_SECONDS, max(left, 0.01))
                             if watch else max(left, 0.01))
                break
            except subprocess.TimeoutExpired:
                pass
            if time.monotonic() >= deadline:
                timed_out = True
                break
            if watch and session_rss_bytes(
                    process.pid, run.members() if run else None) > \
                    memory_mib * MIB:
                over_memory = True
                break
        # The whole session goes, whatever the leader did: a test binary's
        # forked children and a build's compilers too; sandboxed, every
        # process of the cgroup, even one that left the session.
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        if run:
            run.kill()
        process.wait()
    seconds = time.monotonic() - start
    with open(log_path, "rb") as log:
        output = log.read().decode("utf-8", errors="replace")
    code = process.returncode
    ended = run.finish() if run else None
    if ended is not None:
        # bwrap reports the command's death by a signal as an exit status;
        # its monitor says which it was.
        code = -ended["signal"] if "signal" in ended else ended.get("code",
                                                                    code)
    full = max_output_mib is not None and \
        os.path.getsize(log_path) >= max_output_mib * MIB

    def outcome(status, exit_code=None, signal_name=None, limit=""):
        return Outcome(status, exit_code, signal_name, seconds, output,
                       timeout, memory_mib, limit)

    if over_memory:
        return outcome("memory")
    if timed_out:
        return outcome("timeout")
    if ended is not None and ended["processes_refused"]:
        return outcome("processes", limit=f"{sandbox.max_processes} "
                       "processes and threads")
    if ended is not None and "disk_free" in ended and \
            ended["disk_free"] < MIB:
        return outcome("disk", limit=f"{sandbox.disk_mib} MiB in /tmp")
    if code == 0:
        return outcome("ok", 0)
    oom = memory_mib is not None and any(s in output for s in _OUT_OF_MEMORY)
    if code < 0:
        name = signal.Signals(-code).name
        if -code == signal.SIGXFSZ or full:
            return outcome("output", signal_name=name)
        if -code == signal.SIGXCPU:
            return outcome("cpu", signal_name=name)
        return outcome("memory" if oom else "crashed", signal_name=name)
    return outcome("memory" if oom else "output" if full else "failed", code)
