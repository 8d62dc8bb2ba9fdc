"""The sandbox every process a submission controls runs in.

A submission's code runs when its tests, its sanitizer reruns, the private
tests and the workload run, and its sources are read when it is built (a
source can #include any file the compiler can open and print it in an
error). Each of those processes starts through a Sandbox, which confines it
with bubblewrap (bwrap):

  - its own user namespace (an unprivileged uid, no capabilities, no
    further user namespaces), network namespace (no network, not even the
    host's loopback), PID, IPC, UTS and cgroup namespaces;
  - a file system of its own: the system's programs and libraries
    read-only (/usr and a few files of /etc), a fresh /dev and /proc, the
    assembled tree read-only, the one build directory the step needs (a
    build writes it; a run only reads it), a size-limited tmpfs at /tmp for
    scratch (the "disk" limit), and nothing else: no other submission, no
    grades, no logs, no private test sources (mounted only while CMake
    configures and the private tests compile), no private test binary except
    in its own run;
  - a pids cgroup (pids.max) around the whole process tree where the
    machine lets the grader make one (cgroup v2 with the pids controller, or
    cgroup v1's pids hierarchy), else RLIMIT_NPROC, which root ignores.

A Sandbox with `enabled` False runs commands as they are (the grader's
--unsandboxed): the same limits on time, memory, output and CPU, none of the
isolation. Thread-compatible: a grade uses its Sandbox from one thread.
"""

import dataclasses
import json
import os
import shutil
import signal
import subprocess
import time

MIB = 1024 * 1024
# The uid and gid a sandboxed process has inside its user namespace; outside
# it is the grader's own.
SANDBOX_UID = 1000
# The read-only system: /usr, and these files of /etc (the dynamic linker's
# cache, the alternatives that name the compilers, users and groups). The
# rest of /etc (keys, passwords, the host's configuration) stays out.
ETC_FILES = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "alternatives",
             "passwd", "group", "nsswitch.conf", "localtime")
# The variables a sandboxed process inherits; the grader's other variables
# (tokens, paths to elsewhere) stay out.
ENV_KEPT = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TERM", "CC", "CXX",
            "CFLAGS", "CXXFLAGS", "LDFLAGS", "CMAKE_C_COMPILER_LAUNCHER",
            "CMAKE_CXX_COMPILER_LAUNCHER", "ASAN_OPTIONS", "UBSAN_OPTIONS",
            "TSAN_OPTIONS", "LSAN_OPTIONS", "KVLAB_TEST_SCALE")
ENV_PREFIXES = ("CCACHE_",)

# Run inside the sandbox as the command's parent: waits for it, then writes
# how it ended and how full /tmp is to a descriptor the command cannot see
# (bwrap itself reports a death by signal as an exit status).
_MONITOR = r"""
import json, os, sys
fd, scratch, cwd, command = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
pid = os.fork()
if pid == 0:
    os.close(fd)
    try:
        os.chdir(cwd)
        os.execvp(command[0], command)
    except OSError as e:
        sys.stderr.write("cannot run %s: %s\n" % (command[0], e.strerror))
    os._exit(127)
_, status = os.waitpid(pid, 0)
report = ({"signal": os.WTERMSIG(status)} if os.WIFSIGNALED(status)
          else {"code": os.WEXITSTATUS(status)})
disk = os.statvfs(scratch)
report["disk_free"] = disk.f_bavail * disk.f_frsize
os.write(fd, json.dumps(report).encode())
os._exit(0)
"""


class SandboxError(Exception):
    """The sandbox cannot start on this machine; the message says why."""


def folders_above_mounts(view, scratch):
    """The folders just below `scratch` that hold a path of `view` without
    being one: /tmp/kit for a view of /tmp/kit/tree and /tmp/kit/build."""
    mounted = [os.path.normpath(p) for p in
               (*view.readable, *view.writable, *view.hidden)]
    tops = set()
    for path in mounted:
        rel = os.path.relpath(path, scratch)
        if rel == "." or rel.startswith(".."):
            continue
        top = os.path.join(scratch, rel.split(os.sep)[0])
        if top != path:
            tops.add(top)
    return sorted(t for t in tops if t not in mounted)


def bwrap_version(bwrap="bwrap"):
    try:
        out = subprocess.run([bwrap, "--version"], capture_output=True,
                             text=True, timeout=30).stdout.strip()
        return out or "bubblewrap"
    except (OSError, subprocess.SubprocessError):
        return ""


class ProcessCounter:
    """Where a sandbox's processes are counted: a pids cgroup made for each
    run (`kind` "cgroup v2" or "cgroup v1"), or RLIMIT_NPROC ("rlimit")."""

    def __init__(self, root=None, kind="rlimit"):
        self.root = root
        self.kind = kind

    @staticmethod
    def detect(base="/sys/fs/cgroup"):
        """The first that works: cgroup v2 with the pids controller (at
        `base` or base/unified), cgroup v1's pids hierarchy, RLIMIT_NPROC."""
        for v2 in (base, os.path.join(base, "unified")):
            try:
                with open(os.path.join(v2, "cgroup.controllers")) as f:
                    if "pids" not in f.read().split():
                        continue
            except OSError:
                continue
            counter = ProcessCounter(v2, "cgroup v2")
            if counter._works():
                return counter
        v1 = os.path.join(base, "pids")
        if os.path.isfile(os.path.join(v1, "cgroup.procs")):
            counter = ProcessCounter(v1, "cgroup v1")
            if counter._works():
                return counter
        return ProcessCounter()

    def _works(self):
        try:
            group = self.make(1)
            group.remove()
            return True
        except OSError:
            return False

    def make(self, max_processes):
        """A new cgroup allowing `max_processes` tasks (threads count)."""
        path = os.path.join(self.root, f"kvlab-grade-{os.getpid()}-"
                            f"{time.monotonic_ns()}")
        os.mkdir(path)
        try:
            with open(os.path.join(path, "pids.max"), "w") as f:
                f.write(str(max_processes))
        except OSError:
            os.rmdir(path)
            raise
        return PidsCgroup(path)

    def describe(self, max_processes):
        if self.kind == "rlimit":
            return (f"RLIMIT_NPROC {max_processes} (no pids cgroup; root "
                    "ignores it, the PID namespace still ends every process "
                    "with the run)")
        return f"{self.kind} pids.max {max_processes}"


class PidsCgroup:
    """One run's pids cgroup: join it, list, count and kill its members."""

    def __init__(self, path):
        self.path = path

    def join(self):
        """Moves the calling process in (from the child, before exec)."""
        with open(os.path.join(self.path, "cgroup.procs"), "w") as f:
            f.write(str(os.getpid()))

    def members(self):
        try:
            with open(os.path.join(self.path, "cgroup.procs")) as f:
                return [int(p) for p in f.read().split()]
        except (OSError, ValueError):
            return []

    def refused(self):
        """How many forks pids.max refused."""
        try:
            with open(os.path.join(self.path, "pids.events")) as f:
                for line in f:
                    key, _, value = line.partition(" ")
                    if key == "max":
                        return int(value)
        except (OSError, ValueError):
            pass
        return 0

    def kill(self):
        """SIGKILLs every member until none is left (a fork racing the kill
        is caught by the next round)."""
        for _ in range(100):
            members = self.members()
            if not members:
                return
            for pid in members:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            time.sleep(0.01)

    def remove(self):
        self.kill()
        for _ in range(100):
            try:
                os.rmdir(self.path)
                return
            except FileNotFoundError:
                return
            except OSError:
                time.sleep(0.02)


@dataclasses.dataclass
class View:
    """What one process sees besides the system and /tmp: host paths,
    mounted at the same paths inside."""
    readable: tuple = ()
    writable: tuple = ()
    hidden: tuple = ()  # paths under a mounted one, masked (files or dirs)


@dataclasses.dataclass
class Sandbox:
    """The confinement of a grade's processes. `enabled` False: none."""
    enabled: bool = True
    disk_mib: int = 1024  # the tmpfs at /tmp
    max_processes: int = 512  # tasks: threads count
    bwrap: str = "bwrap"
    counter: ProcessCounter = dataclasses.field(
        default_factory=ProcessCounter)

    @staticmethod
    def create(enabled=True, **kwargs):
        """A Sandbox with the machine's process counter; raises
        SandboxError if `enabled` and bwrap cannot confine a process."""
        sandbox = Sandbox(enabled=enabled, **kwargs)
        if enabled:
            problem = sandbox.probe()
            if problem:
                raise SandboxError(problem)
            sandbox.counter = ProcessCounter.detect()
        return sandbox

    def probe(self):
        """'' if bwrap runs a command in every namespace the sandbox uses,
        else why not."""
        if not shutil.which(self.bwrap):
            return (f"{self.bwrap} is not installed (Debian: apt-get install "
                    "bubblewrap, or cmake/deps.sh build)")
        try:
            result = subprocess.run(
                self.command(["true"], View(), "/"), capture_output=True,
                text=True, timeout=60, env=self.environment(os.environ))
        except (OSError, subprocess.SubprocessError) as e:
            return f"{self.bwrap} did not run: {e}"
        if result.returncode != 0:
            why = " ".join(result.stderr.split()) or \
                f"exit status {result.returncode}"
            return (f"{self.bwrap} cannot make its namespaces here ({why}); "
                    "user namespaces may be disabled "
                    "(kernel.unprivileged_userns_clone, "
                    "user.max_user_namespaces)")
        return ""

    def describe(self):
        """One line for the report: what confined the grade."""
        if not self.enabled:
            return ("NONE (--unsandboxed): the submission's code ran with the "
                    "grader's rights, its network and its files")
        return (f"{bwrap_version(self.bwrap)}: no network; own user, PID, "
                "IPC and mount namespaces; the tree and build read-only, a "
                f"{self.disk_mib} MiB /tmp; processes: "
                f"{self.counter.describe(self.max_processes)}")

    @staticmethod
    def environment(env):
        """The part of `env` a sandboxed process gets, with HOME and TMPDIR
        in its scratch."""
        kept = {k: v for k, v in env.items()
                if k in ENV_KEPT or k.startswith(ENV_PREFIXES)}
        kept.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
        kept["HOME"] = kept["TMPDIR"] = "/tmp"
        return kept

    def command(self, command, view, cwd, status_fd=None):
        """The bwrap command line running `command` in `view` from `cwd`;
        with `status_fd`, under the monitor that reports to it."""
        args = [self.bwrap, "--unshare-all", "--unshare-user",
                "--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_UID),
                "--disable-userns", "--die-with-parent", "--new-session",
                "--cap-drop", "ALL", "--hostname", "sandbox",
                "--ro-bind", "/usr", "/usr"]
        for name in ("bin", "lib", "lib32", "lib64", "libx32", "sbin"):
            path = "/" + name
            if os.path.islink(path):
                args += ["--symlink", os.readlink(path), path]
            elif os.path.isdir(path):
                args += ["--ro-bind", path, path]
        for name in ETC_FILES:
            args += ["--ro-bind-try", "/etc/" + name, "/etc/" + name]
        args += ["--dev", "/dev", "--proc", "/proc",
                 "--size", str(self.disk_mib * MIB), "--tmpfs", "/tmp"]
        # bwrap makes the folders above a mounted path in the tmpfs at
        # /tmp, writable; under a tmpfs of their own, read-only once the
        # mounts are made, they refuse writes as the host's folders would
        # (a kit under /tmp: its grades folder).
        above = folders_above_mounts(view, "/tmp")
        for top in above:
            args += ["--tmpfs", top]
        for path in view.readable:
            args += ["--ro-bind", path, path]
        for path in view.writable:
            args += ["--bind", path, path]
        for path in view.hidden:
            if os.path.isdir(path):
                args += ["--tmpfs", path, "--remount-ro", path]
            elif os.path.exists(path):
                args += ["--ro-bind", "/dev/null", path]
        for top in above:
            args += ["--remount-ro", top]
        # The root bwrap builds is a tmpfs with no size limit: read-only.
        args += ["--remount-ro", "/", "--chdir", cwd]
        if status_fd is None:
            return args + ["--", *command]
        return args + ["--", "/usr/bin/python3", "-I", "-S", "-c", _MONITOR,
                       str(status_fd), "/tmp", cwd, *command]

    def start(self, command, view, env):
        """A Run of `command` (not started): its argv, env and cgroup."""
        return Run(self, command, view, env)


class Run:
    """One sandboxed process from start to end: what to exec, how to join
    its cgroup, its members (for the memory watch and the kill), and how it
    ended (read from the monitor)."""

    def __init__(self, sandbox, command, view, env):
        self.sandbox = sandbox
        self.cgroup = None
        self.read_fd = self.write_fd = None
        self.env = env
        self.argv = command
        if not sandbox.enabled:
            return
        if sandbox.counter.kind != "rlimit":
            self.cgroup = sandbox.counter.make(sandbox.max_processes)
        self.read_fd, self.write_fd = os.pipe()
        os.set_inheritable(self.write_fd, True)
        self.argv = sandbox.command(command, view, "/tmp", self.write_fd)
        self.env = Sandbox.environment(env)

    @property
    def pass_fds(self):
        return (self.write_fd,) if self.write_fd is not None else ()

    def preexec(self):
        """In the child, before exec: join the cgroup, or limit processes
        with RLIMIT_NPROC where there is none."""
        if not self.sandbox.enabled:
            return
        if self.cgroup:
            self.cgroup.join()
        else:
            import resource
            n = self.sandbox.max_processes
            resource.setrlimit(resource.RLIMIT_NPROC, (n, n))

    def started(self):
        """In the parent, once the child runs: close our copy of the
        monitor's end of the pipe."""
        if self.write_fd is not None:
            os.close(self.write_fd)
            self.write_fd = None

    def members(self):
        """The pids of the run's processes, or None: use the session."""
        return self.cgroup.members() if self.cgroup else None

    def kill(self):
        if self.cgroup:
            self.cgroup.kill()

    def finish(self):
        """How the command ended, from the monitor: a dict with "code" or
        "signal", "disk_free" and "processes_refused"; None unsandboxed or
        when the monitor did not report (it was killed)."""
        if not self.sandbox.enabled:
            return None
        self.started()
        data = b""
        while True:
            chunk = os.read(self.read_fd, 4096)
            if not chunk:
                break
            data += chunk
        os.close(self.read_fd)
        refused = self.cgroup.refused() if self.cgroup else 0
        if self.cgroup:
            self.cgroup.remove()
        try:
            status = json.loads(data.decode())
        except ValueError:
            status = {}
        status["processes_refused"] = refused
        return status
