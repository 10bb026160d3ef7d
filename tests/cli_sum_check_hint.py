#!/usr/bin/env python3
"""`-c` with the wrong algorithm says what is likely wrong. An untagged line does not name its
algorithm and `-c` takes BLAKE2b unless -a says otherwise, so the README's old example
(`-a blake2bp FILE > FILE.b2 && -c FILE.b2`) failed with a bare FAILED. The check still fails as
b2sum's would (FAILED, status 1), and a line on stderr names the algorithm that reproduces the
listed checksum; a plainly corrupt line gets no such line. The expected checksums come from
hashlib and the tree generator (vectors/blake2_tree.py), not from the program.

usage: cli_sum_check_hint.py --sum PATH --vectors DIR [--emulator QEMU]
SPDX-License-Identifier: Apache-2.0
"""
import argparse
import hashlib
import os
import subprocess
import tempfile
from pathlib import Path

from b2check import Tally, load_generator, sum_under_test

TALLY = Tally("cli_sum_check_hint", verbose=True)
check = TALLY.check
EMULATOR = []


def run(program, *args, cwd):
    p = subprocess.run([*EMULATOR, program, *map(str, args)], capture_output=True, text=True,
                       cwd=cwd, env={**os.environ, "LC_ALL": "C"})
    return p.stdout, p.stderr, p.returncode


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sum", required=True)
    parser.add_argument("--vectors", required=True, type=Path)
    parser.add_argument("--emulator", default="")
    args = parser.parse_args()
    args.sum = sum_under_test(args.sum)
    if args.emulator:
        EMULATOR.append(args.emulator)
    tree = load_generator(args.vectors, "blake2_tree")
    message = bytes(range(256)) * 40 + b"tail"
    answers = {"blake2b": hashlib.blake2b(message).hexdigest(),
               "blake2bp": tree.BLAKE2BP.digest(message, b"").hex(),
               "blake2s": hashlib.blake2s(message).hexdigest(),
               "blake2sp": tree.BLAKE2SP.digest(message, b"").hex()}
    with tempfile.TemporaryDirectory(prefix="b2sum-hint-") as tmp:
        work = Path(tmp)
        (work / "big.iso").write_bytes(message)
        out, err, rc = run(args.sum, "-a", "blake2bp", "big.iso", cwd=work)
        check(rc == 0 and out == f"{answers['blake2bp']}  big.iso\n", "-a blake2bp writes the "
              "untagged BLAKE2bp line", out + err)
        (work / "big.iso.b2").write_text(out)
        out, err, rc = run(args.sum, "-c", "big.iso.b2", cwd=work)
        check(rc == 1 and out == "big.iso: FAILED\n" and "WARNING: 1 computed checksum did NOT "
              "match" in err, "-c without -a still fails as b2sum does", out + err)
        check("BLAKE2bp, not BLAKE2b" in err and "-a blake2bp" in err,
              "-c without -a names BLAKE2bp and -a blake2bp", err)
        out, err, rc = run(args.sum, "-c", "-a", "blake2bp", "big.iso.b2", cwd=work)
        check(rc == 0 and out == "big.iso: OK\n" and err == "", "-c -a blake2bp: OK", out + err)
        out, err, rc = run(args.sum, "--tag", "-a", "blake2bp", "big.iso", cwd=work)
        (work / "tagged.b2").write_text(out)
        out, err, rc = run(args.sum, "-c", "tagged.b2", cwd=work)
        check(rc == 0 and out == "big.iso: OK\n", "--tag lines check without -a", out + err)

        (work / "s.b2").write_text(f"{answers['blake2sp']}  big.iso\n")
        out, err, rc = run(args.sum, "-c", "-a", "blake2s", "s.b2", cwd=work)
        check(rc == 1 and "BLAKE2sp, not BLAKE2s" in err and "-a blake2sp" in err,
              "a BLAKE2sp line checked with -a blake2s names -a blake2sp", out + err)
        (work / "b.b2").write_text(f"{answers['blake2b']}  big.iso\n")
        out, err, rc = run(args.sum, "-c", "-a", "blake2bp", "b.b2", cwd=work)
        check(rc == 1 and "BLAKE2b, not BLAKE2bp" in err and "-a blake2b " in err,
              "a BLAKE2b line checked with -a blake2bp names -a blake2b", out + err)
        corrupt = answers["blake2b"][:-1] + ("0" if answers["blake2b"][-1] != "0" else "1")
        (work / "bad.b2").write_text(f"{corrupt}  big.iso\n")
        out, err, rc = run(args.sum, "-c", "bad.b2", cwd=work)
        check(rc == 1 and out == "big.iso: FAILED\n" and "not BLAKE2" not in err,
              "a corrupt line: FAILED and no algorithm named", out + err)
        out, err, rc = run(args.sum, "-c", "--status", "big.iso.b2", cwd=work)
        check(rc == 1 and out == "" and err == "", "--status: silent, status 1", out + err)
    TALLY.exit()


if __name__ == "__main__":
    main()
