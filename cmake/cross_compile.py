#!/usr/bin/env python3
"""Compiles kvlab's library sources with a cross compiler (the portable test).

Each source listed in SOURCES is compiled to an object file exactly as the
host build compiles it (its command in compile_commands.json, warnings as
errors included), with the compiler swapped for the cross compiler; every
object must then be an ELF file for the target machine. The host's Abseil,
Judy, HAT-trie and ISA-L headers are architecture-independent, so they are
offered to the cross compiler from the host's include directory; its own C
and C++ headers come first. Nothing is linked: the target's libraries are not
installed.

Usage: cross_compile.py COMPILER COMPILE_COMMANDS SOURCES OUT_DIR [--jobs N]
"""

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

# The host headers the library includes beyond the C and C++ libraries.
HOST_HEADERS = ("absl", "Judy.h", "hat-trie", "isa-l")
# ELF e_machine of the targets this check knows (Linux's elf-em.h).
ELF_MACHINES = {"aarch64": 183, "x86_64": 62}


def target_machine(compiler):
    triple = subprocess.run([compiler, "-dumpmachine"], check=True,
                            capture_output=True, text=True).stdout.strip()
    return triple, ELF_MACHINES.get(triple.split("-")[0])


def elf_machine(path):
    with open(path, "rb") as f:
        header = f.read(20)
    if header[:4] != b"\x7fELF":
        return None
    return int.from_bytes(header[18:20], "little")


def host_header_dir(out_dir, host_include):
    """A directory holding only the host headers the library needs."""
    shim = os.path.join(out_dir, "host-include")
    shutil.rmtree(shim, ignore_errors=True)
    os.makedirs(shim)
    for name in HOST_HEADERS:
        source = os.path.join(host_include, name)
        if not os.path.exists(source):
            sys.exit(f"cross_compile: {source} missing (cmake/deps.sh build)")
        os.symlink(source, os.path.join(shim, name))
    return shim


def cross_command(entry, compiler, launcher, shim, obj):
    args = shlex.split(entry["command"])
    out = []
    skip = False
    for arg in args[1:]:
        if skip:
            skip = False
            continue
        if arg == "-o":
            skip = True
            continue
        out.append(arg)
    return launcher + [compiler] + out + ["-isystem", shim, "-o", obj]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("compiler")
    parser.add_argument("compile_commands")
    parser.add_argument("sources")
    parser.add_argument("out_dir")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--host-include", default="/usr/include")
    args = parser.parse_args()

    if shutil.which(args.compiler) is None:
        sys.exit(f"cross_compile: {args.compiler} not found: run "
                 "`cmake/deps.sh cross` (make test does)")
    triple, machine = target_machine(args.compiler)
    if machine is None:
        sys.exit(f"cross_compile: unknown target {triple}")

    with open(args.compile_commands) as f:
        commands = {os.path.realpath(e["file"]): e for e in json.load(f)}
    with open(args.sources) as f:
        sources = sorted({os.path.realpath(line.strip())
                          for line in f if line.strip()})
    missing = [s for s in sources if s not in commands]
    if not sources or missing:
        sys.exit("cross_compile: no compile command for: "
                 + (", ".join(missing) or "(no sources listed)"))

    os.makedirs(args.out_dir, exist_ok=True)
    shim = host_header_dir(args.out_dir, args.host_include)
    launcher = ["ccache"] if shutil.which("ccache") else []

    def compile_one(index_source):
        index, source = index_source
        obj = os.path.join(args.out_dir, f"{index:03d}_"
                           + os.path.basename(source) + ".o")
        entry = commands[source]
        run = subprocess.run(
            cross_command(entry, args.compiler, launcher, shim, obj),
            cwd=entry["directory"], capture_output=True, text=True)
        if run.returncode != 0:
            return source, run.stderr.strip() or "failed"
        found = elf_machine(obj)
        if found != machine:
            return source, f"object is ELF machine {found}, not {machine}"
        return source, None

    start = time.monotonic()
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(compile_one, enumerate(sources)))
    failures = [(s, error) for s, error in results if error]
    for source, error in failures:
        print(f"--- {source}\n{error}\n")
    print(f"cross_compile: {len(sources) - len(failures)} of {len(sources)} "
          f"sources compiled for {triple} in "
          f"{time.monotonic() - start:.0f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
