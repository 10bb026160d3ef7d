#!/usr/bin/env python3
"""blake2simd-sum against coreutils' b2sum and `openssl dgst -blake2b512` on real files.

usage: sum_bench.py --sum PATH [--dir DIR] [--repetitions N] [--big-mib 512] [--small 10000]

Two workloads, both page-cached (each file is read once before timing): one file of --big-mib
MiB of random bytes, and --small files of 0 to 4 KiB. The commands are run in turn, repetition
after repetition (interleaved, so a change in the machine's load spreads over all of them), and
each row is the median wall time of its repetitions, with the ratio to coreutils' b2sum. Every
command's output is checked against the others' before timing (the same hex per algorithm), so
a row that hashes nothing or the wrong thing cannot look fast. `cat > /dev/null` shows what
reading alone costs, and the "no read-ahead" rows what reading on a thread of its own while
hashing brings (BLAKE2SIMD_SUM_READ_AHEAD=0 turns it off). Times depend on the machine's load: on a shared machine, say so with the
figures.
SPDX-License-Identifier: Apache-2.0
"""
import argparse
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def commands(ours: str):
    openssl = shutil.which("openssl")
    rows = [("coreutils b2sum", ["b2sum"], "blake2b"),
            ("openssl dgst -blake2b512", [openssl, "dgst", "-blake2b512"] if openssl else None,
             "blake2b"),
            ("blake2simd-sum (blake2b)", [ours], "blake2b"),
            ("blake2simd-sum -a blake2bp", [ours, "-a", "blake2bp"], "blake2bp"),
            ("blake2simd-sum -a blake2sp", [ours, "-a", "blake2sp"], "blake2sp"),
            ("blake2simd-sum -j2 (blake2b)", [ours, "-j2"], "blake2b"),
            ("blake2simd-sum, no read-ahead", ["env", "BLAKE2SIMD_SUM_READ_AHEAD=0", ours],
             "blake2b"),
            ("blake2simd-sum -a blake2bp, no read-ahead",
             ["env", "BLAKE2SIMD_SUM_READ_AHEAD=0", ours, "-a", "blake2bp"], "blake2bp"),
            ("cat > /dev/null (reading only)", ["cat"], None)]
    return [r for r in rows if r[1] is not None]


def digests(output: bytes):
    """The hex of every line, whichever of the three output formats."""
    out = []
    for line in output.decode().splitlines():
        out.append(line.split("= ")[-1] if "= " in line else line.split(" ")[0])
    return out


def verify(rows, files):
    reference = {}
    for name, command, algorithm in rows:
        if algorithm is None:
            continue
        p = subprocess.run(command + files, capture_output=True, check=True)
        got = digests(p.stdout)
        want = reference.setdefault(algorithm, got)
        if got != want or len(got) != len(files):
            sys.exit(f"sum_bench: {name} disagrees with the first {algorithm} row")


def child_cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_rows(rows, files, repetitions):
    """Median wall time and median CPU time (user + system, all threads) of each row. On a
    loaded machine the CPU time says more: the wall time then mostly measures waiting."""
    wall = {name: [] for name, _, _ in rows}
    cpu = {name: [] for name, _, _ in rows}
    for _ in range(repetitions):
        for name, command, _ in rows:
            start, cpu_start = time.perf_counter(), child_cpu_seconds()
            subprocess.run(command + files, stdout=subprocess.DEVNULL, check=True)
            wall[name].append(time.perf_counter() - start)
            cpu[name].append(child_cpu_seconds() - cpu_start)
    return {name: (statistics.median(wall[name]), statistics.median(cpu[name])) for name in wall}


def report(title, medians, total_bytes):
    base_wall, base_cpu = medians["coreutils b2sum"]
    print(f"\n{title}\n")
    print("| command | wall s | MB/s | vs b2sum | CPU s | vs b2sum (CPU) |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, (wall, cpu) in medians.items():
        print(f"| {name} | {wall:.3f} | {total_bytes / wall / 1e6:.0f} | {base_wall / wall:.2f}x | "
              f"{cpu:.3f} | {base_cpu / max(cpu, 1e-6):.2f}x |")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sum", required=True)
    parser.add_argument("--dir", default=None, help="scratch directory (default: a temporary one)")
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument("--big-mib", type=int, default=512)
    parser.add_argument("--small", type=int, default=10000)
    args = parser.parse_args()
    if not shutil.which("b2sum"):
        sys.exit("sum_bench: coreutils' b2sum is needed (Debian package coreutils)")
    rows = commands(str(Path(args.sum).resolve()))
    with tempfile.TemporaryDirectory(prefix="sum_bench.", dir=args.dir) as scratch:
        root = Path(scratch)
        big = root / "big.bin"
        with open(big, "wb") as out:
            for _ in range(args.big_mib):
                out.write(os.urandom(1 << 20))
        small_dir = root / "small"
        small_dir.mkdir()
        rng = random.Random(1)
        small = []
        for i in range(args.small):
            path = small_dir / f"f{i:05d}"
            path.write_bytes(rng.randbytes(rng.randrange(0, 4097)))
            small.append(str(path))
        subprocess.run(["cat", str(big), *small], stdout=subprocess.DEVNULL, check=True)
        verify(rows, [str(big)])
        verify(rows, small[:200])
        print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at start; "
              f"{args.repetitions} interleaved repetitions, medians")
        report(f"One page-cached file of {args.big_mib} MiB",
               time_rows(rows, [str(big)], args.repetitions), args.big_mib << 20)
        small_bytes = sum(os.path.getsize(p) for p in small)
        report(f"{args.small} page-cached files of 0 to 4 KiB ({small_bytes >> 20} MiB)",
               time_rows(rows, small, args.repetitions), small_bytes)
        print(f"\nload average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
