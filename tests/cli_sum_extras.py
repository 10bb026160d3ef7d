#!/usr/bin/env python3
"""What blake2simd-sum adds to b2sum, against independent answers: -a blake2s/blake2bp/blake2sp
(hashlib; vectors/blake2_tree.py for the tree modes) and blake2xb/blake2xs (vectors/blake2x.py,
known-length mode, keyed too), -l with each, --tag names and -c reading
them back without -a, -k (keyed, against hashlib's key= and the tree generator; refused key
files), --kernel with every kernel the build has (kernels/CMakeLists.txt's list, passed in) and
-v naming the one that served, -j (same output as one job), the provider failing to load, and
(with --free-scan, tests/support/free_scan.c) that no block freed after -k holds the key.

usage: cli_sum_extras.py --sum PATH --vectors DIR --module-dir DIR [--kernels a,b,...]
                         [--emulator QEMU]
SPDX-License-Identifier: Apache-2.0
"""
import argparse
import hashlib
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from b2check import Tally, load_generator, module_dir_under_test, sum_under_test

TALLY = Tally("cli_sum_extras")
check = TALLY.check
# The last two cross a 1 MiB read; the last is long enough to be read ahead on a thread.
LENGTHS = (0, 1, 63, 64, 65, 127, 128, 129, 511, 512, 513, 4097, 100_000, (1 << 20) + 3,
           (5 << 20) + 7)
# A sized BLAKE2bp/sp oracle is pure Python (hashlib cannot output a leaf's full inner length
# under a shorter digest length): 100 KB spans every leaf many times over; the 1 and 5 MiB reads
# are the same code with the full-length tree, which hashlib computes.
SIZED_TREE_MAX_LENGTH = 100_000


EMULATOR = []  # qemu-user for a cross build's program


def run(program, *args, stdin=b""):
    p = subprocess.run([*EMULATOR, program, *map(str, args)], input=stdin, capture_output=True,
                       env={**os.environ, "LC_ALL": "C"})
    return p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace"), p.returncode


class Oracles:
    def __init__(self, vectors: Path):
        tree = load_generator(vectors, "blake2_tree")
        self.tree = {"blake2bp": tree.BLAKE2BP, "blake2sp": tree.BLAKE2SP}
        sys.path.insert(0, str(vectors))  # blake2x.py imports blake2_tree
        blake2x = load_generator(vectors, "blake2x")
        self.xof = {"blake2xb": blake2x.BLAKE2XB, "blake2xs": blake2x.BLAKE2XS}

    def hexdigest(self, algorithm, message, bits=None, key=b""):
        if algorithm in self.tree:
            return self.tree[algorithm].digest(message, key, (bits or 0) // 8).hex()
        new = hashlib.blake2b if algorithm == "blake2b" else hashlib.blake2s
        size = (bits or new.MAX_DIGEST_SIZE * 8) // 8
        return new(message, digest_size=size, key=key).hexdigest()


FULL_BITS = {"blake2b": 512, "blake2s": 256, "blake2bp": 512, "blake2sp": 256}
TAGS = {"blake2b": "BLAKE2b", "blake2s": "BLAKE2s", "blake2bp": "BLAKE2bp", "blake2sp": "BLAKE2sp"}
MAX_KEY = {"blake2b": 64, "blake2s": 32, "blake2bp": 64, "blake2sp": 32}


def check_untagged_sums(ours, algorithm, bits, files, hexdigest):
    """`-a ALGORITHM [-l BITS] FILES...` prints one untagged line a file: hexdigest(its bytes)."""
    out, err, rc = run(ours, "-a", algorithm, *(["-l", bits] if bits else []), *files)
    expected = "".join(f"{hexdigest(f.read_bytes())}  {f}\n" for f in files)
    check(rc == 0 and out == expected and err == "", f"-a {algorithm} -l {bits}",
          f"rc {rc}\n{out[:300]}\n{err}")


def algorithm_cases(ours, oracles, root: Path):
    rng = random.Random(0xB2)
    files = []
    for length in LENGTHS:
        path = root / f"m{length}"
        path.write_bytes(rng.randbytes(length))
        files.append(path)
    for algorithm, full in FULL_BITS.items():
        lengths = [None, 8, 128, full - 8]
        for bits in lengths:
            extra = ["-l", bits] if bits else []
            sized_tree = algorithm in oracles.tree and bits and bits != full
            check_untagged_sums(ours, algorithm, bits,
                                [f for f in files if not sized_tree or
                                 f.stat().st_size <= SIZED_TREE_MAX_LENGTH],
                                lambda data: oracles.hexdigest(algorithm, data, bits))
            out, err, rc = run(ours, "-a", algorithm, "--tag", *extra, files[3])
            tag = TAGS[algorithm] + (f"-{bits}" if bits and bits < full else "")
            want = f"{tag} ({files[3]}) = {oracles.hexdigest(algorithm, files[3].read_bytes(), bits)}\n"
            check(out == want and rc == 0, f"--tag -a {algorithm} -l {bits}", f"{out!r} {want!r}")
            sums = root / f"sums-{algorithm}-{bits}"
            sums.write_text(out)
            out, err, rc = run(ours, "-c", sums)
            check(rc == 0 and out == f"{files[3]}: OK\n", f"-c without -a reads {tag} lines",
                  f"rc {rc} {out!r} {err!r}")
            sums.write_text(re.sub(r"= (.)", lambda m: "= " + "0f"[m.group(1) == "0"], want))
            out, err, rc = run(ours, "-c", sums)
            check(rc == 1 and out == f"{files[3]}: FAILED\n", f"-c finds a wrong {tag} line",
                  f"rc {rc} {out!r} {err!r}")
        # b2sum's two messages (LC_ALL=C: ASCII quotes).
        for bits, reason in ((full + 8, f"maximum digest length for '{TAGS[algorithm]}' is "
                                        f"{full} bits"),
                             (full - 4, "length is not a multiple of 8")):
            out, err, rc = run(ours, "-a", algorithm, "-l", bits, files[0])
            check(rc == 1 and out == "" and f"invalid length: '{bits}'" in err and reason in err,
                  f"-a {algorithm} -l {bits} is refused as b2sum refuses it", err)
    # Untagged lines of another algorithm need -a (their width alone says BLAKE2b).
    out, _, _ = run(ours, "-a", "blake2sp", files[2])
    (root / "sp-untagged").write_text(out)
    check(run(ours, "-c", "-a", "blake2sp", root / "sp-untagged")[2] == 0,
          "-c -a blake2sp reads untagged BLAKE2sp lines")
    check(run(ours, "-c", root / "sp-untagged")[2] == 1,
          "untagged BLAKE2sp lines without -a are checked as BLAKE2b (and fail)")
    out, err, rc = run(ours, "-a", "md5", files[0])
    check(rc == 1 and "invalid algorithm" in err, "-a md5 is refused", err)
    return files


# -a blake2xb/blake2xs: -l is the output length in bits, fixed in H0 (the known-length mode of
# the official vectors); the default is 512/256 bits; --tag always names the length.
XOF = {"blake2xb": ("BLAKE2Xb", 512, 65536 * 8, 64), "blake2xs": ("BLAKE2Xs", 256, 65534 * 8, 32)}


def xof_cases(ours, oracles, root: Path, files):
    for algorithm, (tag, default, longest, max_key) in XOF.items():
        xof = oracles.xof[algorithm]
        for bits in (None, 8, default - 8, default + 8, 8 * 1000 + 8, longest):
            chosen = files[:4] if bits is None or bits < 10_000 else files[3:4]
            extra = ["-l", bits] if bits else []
            length = (bits or default) // 8
            check_untagged_sums(ours, algorithm, bits, chosen,
                                lambda data: xof.digest(data, length).hex())
            out, err, rc = run(ours, "-a", algorithm, "--tag", *extra, files[3])
            check(out.startswith(f"{tag}-{length * 8} ({files[3]}) = ") and rc == 0,
                  f"--tag -a {algorithm} -l {bits} names the length", out[:80])
            sums = root / f"sums-{algorithm}-{bits}"
            sums.write_text(out)
            check(run(ours, "-c", sums)[:3:2] == (f"{files[3]}: OK\n", 0),
                  f"-c without -a reads {tag}-{length * 8} lines")
        message = files[3].read_bytes()
        unknown_prefix = xof.digest(message, 32, unknown=True).hex()
        known = run(ours, "-a", algorithm, "-l", 256, files[3])[0].split()[0]
        check(known == xof.digest(message, 32).hex() and known != unknown_prefix,
              f"-a {algorithm} -l 256 is the known-length output, not an unknown-length prefix")
        untagged = root / f"untagged-{algorithm}"
        untagged.write_text(run(ours, "-a", algorithm, "-l", 776, files[2])[0])
        check(run(ours, "-c", "-a", algorithm, untagged)[2] == 0,
              f"-c -a {algorithm} takes the length of an untagged line from its width")
        bare = root / f"bare-tag-{algorithm}"
        bare.write_text(f"{tag} ({files[2]}) = {xof.digest(files[2].read_bytes(), default // 8).hex()}\n")
        check(run(ours, "-c", bare)[2] == 0, f"-c: a {tag} tag without a length is {default} bits")
        for bad, why in ((longest + 8, "maximum digest length"), (12, "multiple of 8")):
            out, err, rc = run(ours, "-a", algorithm, "-l", bad, files[0])
            check(rc == 1 and out == "" and why in err, f"-a {algorithm} -l {bad} is refused", err)
        for key_length in (1, max_key):
            key = bytes(range(0x20, 0x20 + key_length))
            key_file = root / f"key-{algorithm}-{key_length}"
            key_file.write_bytes(key)
            key_file.chmod(0o600)
            out, err, rc = run(ours, "-a", algorithm, "-l", 1608, "-k", key_file, files[4])
            want = f"{xof.digest(files[4].read_bytes(), 201, key=key).hex()}  {files[4]}\n"
            check(rc == 0 and out == want, f"-k -a {algorithm} -l 1608, key {key_length}",
                  f"{out!r} {want!r} {err}")
            sums = root / f"keyed-{algorithm}-{key_length}"
            sums.write_text(run(ours, "-a", algorithm, "--tag", "-k", key_file, files[4])[0])
            check(run(ours, "-c", "-k", key_file, sums)[:3:2] == (f"{files[4]}: OK\n", 0),
                  f"-c -k checks {tag} keyed lines")


def key_cases(ours, oracles, root: Path, files):
    message = files[5]
    for algorithm, max_key in MAX_KEY.items():
        for length in (1, 17, max_key):
            key = bytes(range(0x40, 0x40 + length))
            key_file = root / f"key-{algorithm}-{length}"
            key_file.write_bytes(key)
            key_file.chmod(0o600)
            out, err, rc = run(ours, "-a", algorithm, "-k", key_file, message)
            want = f"{oracles.hexdigest(algorithm, message.read_bytes(), key=key)}  {message}\n"
            check(rc == 0 and out == want, f"-k with -a {algorithm}, key {length}",
                  f"{out!r} {want!r} {err}")
            sums = root / f"keyed-{algorithm}-{length}"
            sums.write_text(run(ours, "-a", algorithm, "--tag", "-k", key_file, message)[0])
            check(run(ours, "-c", "-k", key_file, sums)[:3:2] == (f"{message}: OK\n", 0),
                  f"-c -k checks {algorithm} keyed lines")
            check(run(ours, "-c", sums)[2] == 1, f"-c without the key fails {algorithm}")
        too_long = root / f"key-too-long-{algorithm}"
        too_long.write_bytes(bytes(max_key + 1))
        too_long.chmod(0o600)
        out, err, rc = run(ours, "-a", algorithm, "-k", too_long, message)
        check(rc == 1 and out == "" and "longer than" in err, f"{algorithm}: too long a key",
              err)
    # -c with a 64-byte key and a BLAKE2s line: that key does not fit BLAKE2s, and says so.
    long_key = root / "key-blake2s-64"
    long_key.write_bytes(bytes(range(64)))
    long_key.chmod(0o600)
    blake2s_line = root / "blake2s-line"
    blake2s_line.write_text(run(ours, "-a", "blake2s", "--tag", message)[0])
    out, err, rc = run(ours, "-c", "-k", long_key, blake2s_line)
    check(rc == 1 and out == f"{message}: FAILED open or read\n" and "longer than the 32" in err,
          "-c -k: a key too long for a BLAKE2s line is reported", f"{out!r} {err!r}")
    empty = root / "key-empty"
    empty.write_bytes(b"")
    empty.chmod(0o600)
    out, err, rc = run(ours, "-k", empty, message)
    check(rc == 1 and out == "" and "empty" in err, "an empty key file is refused", err)
    for mode in (0o640, 0o604, 0o620, 0o602):
        loose = root / f"key-mode-{mode:o}"
        loose.write_bytes(b"k" * 16)
        loose.chmod(mode)
        out, err, rc = run(ours, "-k", loose, message)
        check(rc == 1 and out == "" and "group or others" in err,
              f"a key file of mode {mode:o} is refused", err)
    out, err, rc = run(ours, "-k", root, message)
    check(rc == 1 and out == "", "a directory as key file is refused", err)
    out, err, rc = run(ours, "-k", root / "no-such-key", message)
    check(rc == 1 and out == "" and "No such file" in err, "a missing key file is refused", err)


FREE_SCAN = re.compile(r"free_scan: (\d+) blocks freed, (\d+) held the key")


def scanned_run(shim, key_file, command):
    """`command` under the free() scanner: (its status, blocks freed, of them holding the key)."""
    env = {**os.environ, "LD_PRELOAD": shim, "B2_FREE_SCAN_KEY": str(key_file), "LC_ALL": "C"}
    p = subprocess.run(list(map(str, command)), capture_output=True, env=env, text=True)
    counts = FREE_SCAN.findall(p.stderr)  # one line per process (a launcher may exec others)
    if not counts:
        return p.returncode, 0, -1
    return (p.returncode, sum(int(freed) for freed, _ in counts),
            sum(int(held) for _, held in counts))


def key_scrub_cases(ours, shim, root: Path, files):
    """No block blake2simd-sum (or OpenSSL, or the provider) frees holds the key after -k."""
    key_file = root / "key-scan"
    key_file.write_bytes(os.urandom(32))  # a key every algorithm takes
    key_file.chmod(0o600)
    sums = root / "keyed-sums"
    sums.write_text(run(ours, "-k", key_file, *files)[0])
    for what, args in (("-k", ["-k", key_file, *files]),
                       ("-k -a blake2bp", ["-a", "blake2bp", "-k", key_file, *files[:4]]),
                       ("-k -a blake2s", ["-a", "blake2s", "-k", key_file, files[3]]),
                       ("-c -k", ["-c", "-k", key_file, sums])):
        status, freed, with_key = scanned_run(shim, key_file, [ours, *args])
        check(status == 0 and freed > 0 and with_key == 0,
              f"{what}: none of the {freed} blocks freed holds the key",
              f"status {status}, {with_key} blocks with the key")
    # The control: a block that does hold the key is seen.
    control = ("import sys; b = bytearray(open(sys.argv[1], 'rb').read() + bytes(1 << 17)); "
               "del b")
    status, freed, with_key = scanned_run(shim, key_file,
                                          [sys.executable, "-c", control, key_file])
    check(status == 0 and with_key >= 1, "the scanner finds a freed block holding the key",
          f"status {status}, {with_key} of {freed}")


def kernel_cases(ours, oracles, kernels, files):
    message = files[-1]
    served = set()
    for kernel in kernels:
        for algorithm in FULL_BITS:
            out, err, rc = run(ours, "--kernel", kernel, "-v", "-a", algorithm, message)
            if rc == 2 and "was requested but" in err:
                # Not runnable here, or without a form for this algorithm: refused, never
                # replaced in silence.
                check(out == "", f"--kernel {kernel} -a {algorithm}: refused, no output")
                continue
            want = f"{oracles.hexdigest(algorithm, message.read_bytes())}  {message}\n"
            check(rc == 0 and out == want, f"--kernel {kernel} -a {algorithm}", f"{out} {err}")
            check(re.search(rf": kernel {re.escape(kernel)}\b", err) is not None,
                  f"-v names kernel {kernel} for {algorithm}", err)
            served.add(kernel)
    check(len(served) >= 1, "at least one kernel of the build serves", str(kernels))
    out, err, rc = run(ours, "--kernel", "no-such-kernel", files[0])
    check(rc == 2 and out == "", "--kernel with an unknown name fails with status 2", err)


def jobs_cases(ours, files, root: Path):
    names = [*files, root / "missing", root, *files[:3], "-"]
    single = run(ours, *names, stdin=b"stdin")
    for jobs in (2, 3, 16):
        check(run(ours, "-j", jobs, *names, stdin=b"stdin") == single,
              f"-j {jobs} prints what one job prints, in order")
    check(run(ours, "-j", 0, files[0])[2] == 1, "-j 0 is refused")


def provider_cases(ours, module_dir, files, root: Path):
    out, err, rc = run(ours, "--provider-path", root / "nowhere", files[0])
    check(rc == 2 and out == "" and "cannot load the blake2simd provider" in err,
          "a provider that cannot load: status 2, no output", err)
    out, err, rc = run(ours, "--provider-path", module_dir, files[0])
    check(rc == 0 and out.startswith(hashlib.blake2b(b"").hexdigest()),
          "--provider-path with the build's module", err)


def config_cases(ours, files, root: Path):
    """openssl.cnf does not reach the program's library context: a configuration asking for
    FIPS implementations only (which blake2simd is not) changes nothing."""
    cnf = root / "fips-only.cnf"
    cnf.write_text("openssl_conf = openssl_init\n[openssl_init]\nalg_section = evp\n"
                   "[evp]\ndefault_properties = fips=yes\n")
    want = run(ours, files[4])
    p = subprocess.run([*EMULATOR, ours, str(files[4])], capture_output=True, text=True,
                       env={**os.environ, "OPENSSL_CONF": str(cnf), "LC_ALL": "C"})
    check((p.stdout, p.stderr, p.returncode) == want and want[2] == 0,
          "a FIPS-only openssl.cnf (OPENSSL_CONF) changes nothing", p.stderr)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sum", required=True)
    parser.add_argument("--vectors", required=True, type=Path)
    parser.add_argument("--module-dir", required=True)
    parser.add_argument("--kernels", default="", help="the build's kernels, comma-separated")
    parser.add_argument("--emulator", default="", help="qemu-user to run --sum under")
    parser.add_argument("--free-scan", default="",
                        help="tests/support/free_scan.c built (not in sanitizer builds)")
    args = parser.parse_args()
    args.sum, args.module_dir = sum_under_test(args.sum), module_dir_under_test(args.module_dir)
    if args.emulator:
        EMULATOR.append(args.emulator)
    oracles = Oracles(args.vectors)
    with tempfile.TemporaryDirectory(prefix="cli_sum_extras.") as scratch:
        root = Path(scratch)
        files = algorithm_cases(args.sum, oracles, root)
        key_cases(args.sum, oracles, root, files)
        xof_cases(args.sum, oracles, root, files)
        if args.free_scan and not args.emulator:
            key_scrub_cases(args.sum, args.free_scan, root, files)
        else:
            print("cli_sum_extras: key scrub cases not run: no free() scanner in this build "
                  "(sanitizer or cross build)")
        kernel_cases(args.sum, oracles, [k for k in args.kernels.split(",") if k], files)
        jobs_cases(args.sum, files, root)
        provider_cases(args.sum, args.module_dir, files, root)
        config_cases(args.sum, files, root)
    TALLY.exit()


if __name__ == "__main__":
    main()
