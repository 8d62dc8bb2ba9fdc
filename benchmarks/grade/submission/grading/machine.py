"""What a grade ran on and with, described the way kvgrade describes it."""

import datetime
import os
import subprocess


def _cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown cpu"


def _memory_bytes():
    try:
        with open("/proc/meminfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def machine_info():
    uname = os.uname()
    return {"cpu": _cpu_model(), "cores": os.cpu_count() or 0,
            "memory_bytes": _memory_bytes(),
            "kernel": f"{uname.sysname} {uname.release}"}


def describe_machine(machine):
    return (f"{machine['cpu']}, {machine['cores']} cores, "
            f"{machine['memory_bytes'] / 2**30:.1f} GiB, {machine['kernel']}")


def compiler_version(build_dir):
    """The first line of --version of the C++ compiler CMake chose for
    `build_dir` (its CMakeCache.txt)."""
    compiler = None
    try:
        with open(os.path.join(build_dir, "CMakeCache.txt"),
                  encoding="utf-8") as f:
            for line in f:
                if line.startswith("CMAKE_CXX_COMPILER:"):
                    compiler = line.split("=", 1)[1].strip()
                    break
    except OSError:
        return "unknown compiler"
    if not compiler:
        return "unknown compiler"
    try:
        out = subprocess.run([compiler, "--version"], capture_output=True,
                             text=True, timeout=30).stdout
        return out.splitlines()[0].strip() if out else compiler
    except (OSError, subprocess.SubprocessError):
        return compiler


def utc_now():
    return datetime.datetime.now(datetime.timezone.utc).strftime(
        "%Y-%m-%dT%H:%M:%SZ")
