"""One process under a wall-clock limit and a memory limit.

Every part of a grade runs this way, so that a submission that hangs, eats
the machine's memory or floods the disk ends its part with a reason instead
of ending the grader. The process gets its own session, so that the whole
session is killed at the limit, and RLIMIT_FSIZE on the files it writes,
its output included. Memory is limited one of two ways:
  - address space (RLIMIT_AS): exact, and an allocation past it fails
    where it is made; for plain programs;
  - resident memory of the whole session, polled four times a second: for
    sanitized programs (ASan and TSan reserve terabytes of address space)
    and for builds (which run them to list their tests).
"""

import dataclasses
import os
import resource
import signal
import subprocess
import time

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
    # limit; output: killed for writing too much; error: could not start.
    status: str
    exit_code: int | None
    signal_name: str | None
    seconds: float
    output: str
    timeout: float
    memory_mib: int | None

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
        return self.output.strip().splitlines()[-1] if self.output else "error"


def _limits(memory_mib, max_output_mib):
    def apply():
        if memory_mib is not None:
            resource.setrlimit(resource.RLIMIT_AS,
                               (memory_mib * MIB, memory_mib * MIB))
        if max_output_mib is not None:
            limit = max_output_mib * MIB
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    return apply


def session_rss_bytes(session):
    """The resident memory of every process in `session`."""
    total = 0
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
            # After "pid (comm) ": state ppid pgrp session ... rss (24th).
            fields = stat[stat.rindex(b")") + 2:].split()
            if int(fields[3]) == session:
                total += int(fields[21]) * _PAGE
        except (OSError, ValueError, IndexError):
            continue
    return total


def run_limited(command, *, timeout, memory_mib=None, resident=False,
                max_output_mib=256, cwd=None, env=None, log_path):
    """Runs `command` (a list), its stdout and stderr into `log_path`, and
    returns the Outcome. `memory_mib` limits the address space, or with
    `resident` the session's resident memory; None: no limit.
    `max_output_mib` limits each file it writes; None: no limit."""
    start = time.monotonic()
    with open(log_path, "wb") as log:
        try:
            process = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=log,
                stderr=subprocess.STDOUT, cwd=cwd, env=env,
                start_new_session=True,
                preexec_fn=_limits(None if resident else memory_mib,
                                   max_output_mib))
        except OSError as e:
            return Outcome("error", None, None, 0.0,
                           f"cannot run {command[0]}: {e.strerror}", timeout,
                           memory_mib)
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
            if watch and session_rss_bytes(process.pid) > memory_mib * MIB:
                over_memory = True
                break
        # The whole session goes, whatever the leader did: a test binary's
        # forked children and a build's compilers too.
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()
    seconds = time.monotonic() - start
    with open(log_path, "rb") as log:
        output = log.read().decode("utf-8", errors="replace")
    code = process.returncode
    full = max_output_mib is not None and \
        os.path.getsize(log_path) >= max_output_mib * MIB
    if over_memory:
        return Outcome("memory", None, None, seconds, output, timeout,
                       memory_mib)
    if timed_out:
        return Outcome("timeout", None, None, seconds, output, timeout,
                       memory_mib)
    if code == 0:
        return Outcome("ok", 0, None, seconds, output, timeout, memory_mib)
    oom = memory_mib is not None and any(s in output for s in _OUT_OF_MEMORY)
    if code < 0:
        name = signal.Signals(-code).name
        if -code == signal.SIGXFSZ or full:
            return Outcome("output", None, name, seconds, output, timeout,
                           memory_mib)
        return Outcome("memory" if oom else "crashed", None, name, seconds,
                       output, timeout, memory_mib)
    status = "memory" if oom else "output" if full else "failed"
    return Outcome(status, code, None, seconds, output, timeout, memory_mib)
