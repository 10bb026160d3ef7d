#!/usr/bin/env python3
# CLI test: `openssl dgst -BLAKE2BP-512` / `openssl mac BLAKE2BPMAC` (or, with --family blake2sp,
# BLAKE2SP-256 / BLAKE2SPMAC) with our provider.
# SPDX-License-Identifier: Apache-2.0
"""Usage: blake2bp_cli.py MODULE_DIR VECTORS_DIR [--family blake2bp|blake2sp]

Expected answers come from vectors/gen_blake2bp.py or gen_blake2sp.py (hashlib leaves,
pure-Python root), never from our provider. Only blake2simd is loaded for the digest (OpenSSL
3.0 has neither tree mode, so an answer can only be ours). Exit 0 pass, 1 fail.
"""
import random
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from b2check import Tally, digest_hex, load_generator, module_dir_under_test


@dataclass(frozen=True)
class Family:
    """One tree mode: its EVP names, generator module and function, key limit, lengths tried."""
    digest: str
    mac: str
    generator: str
    function: str
    max_key: int
    lengths: tuple  # empty, a byte, around a leaf block and a block for every leaf, large
    wrong_size: int  # one byte more than the tree's digest, refused


FAMILIES = {
    "blake2bp": Family("BLAKE2BP-512", "BLAKE2BPMAC", "gen_blake2bp", "blake2bp", 64,
                       (0, 1, 128, 511, 512, 896, 897, 4097, 100_000, 1_048_579), 65),
    "blake2sp": Family("BLAKE2SP-256", "BLAKE2SPMAC", "gen_blake2sp", "blake2sp", 32,
                       (0, 1, 63, 64, 65, 511, 512, 513, 640, 641, 4097, 100_000, 1_048_579), 33),
}

TALLY = Tally("blake2bp_cli")
check = TALLY.check


def openssl(module_dir: str, command: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["openssl", command, "-provider-path", module_dir, "-provider",
                           "blake2simd", *args], capture_output=True, text=True)


def main() -> int:
    module_dir, vectors_dir = module_dir_under_test(sys.argv[1]), Path(sys.argv[2])
    family_name = sys.argv[4] if len(sys.argv) == 5 and sys.argv[3] == "--family" else "blake2bp"
    family = FAMILIES[family_name]
    TALLY.program = f"blake2bp_cli ({family_name})"
    generator = load_generator(vectors_dir, family.generator)
    generator.check_pure_against_hashlib()
    tree_hash = getattr(generator, family.function)
    rng = random.Random(0xB2B2)
    key = bytes(range(0x20, 0x20 + min(37, family.max_key - 1)))
    with tempfile.TemporaryDirectory() as scratch:
        for length in family.lengths:
            path = Path(scratch) / f"message-{length}.bin"
            message = rng.randbytes(length)
            path.write_bytes(message)
            expected = tree_hash(message).hex()
            result = openssl(module_dir, "dgst", f"-{family.digest}", str(path))
            check(result.returncode == 0 and digest_hex(result.stdout) == expected,
                  f"openssl dgst -{family.digest} on {length} bytes",
                  f"expected {expected}\nstdout {result.stdout}\nstderr {result.stderr}")
            for mac_key in (key, bytes(range(1, family.max_key + 1))):
                expected_mac = tree_hash(message, mac_key).hex()
                result = openssl(module_dir, "mac", "-macopt", f"hexkey:{mac_key.hex()}", "-in",
                                 str(path), family.mac)
                check(result.returncode == 0 and digest_hex(result.stdout) == expected_mac,
                      f"openssl mac {family.mac} on {length} bytes, key {len(mac_key)}",
                      f"expected {expected_mac}\nstdout {result.stdout}\nstderr {result.stderr}")

        path = Path(scratch) / "message-3.bin"
        path.write_bytes(b"abc")
        # The reasons' leading words (the tree mode's name follows them). A key given twice
        # reaches the provider as one param array, where the first key wins: so the too long
        # key is given alone.
        good_key = f"hexkey:{key.hex()}"
        for options, reason in (((good_key, f"size:{family.wrong_size}"), "invalid output size"),
                                ((good_key, "hexsalt:00"), "salt is not supported"),
                                ((good_key, "fanout:2"), "parameter fixed by the algorithm"),
                                ((good_key, "hexcustom:00"),
                                 "custom (personalization) is not supported"),
                                ((f"hexkey:{bytes(family.max_key + 1).hex()}",),
                                 "invalid key length")):
            macopts = [arg for option in options for arg in ("-macopt", option)]
            result = openssl(module_dir, "mac", *macopts, "-in", str(path), family.mac)
            check(result.returncode != 0 and reason in result.stderr,
                  f"openssl mac {family.mac} -macopt {options[-1][:20]} is refused with '{reason}'",
                  f"rc {result.returncode}\nstdout {result.stdout}\nstderr {result.stderr}")
    return TALLY.finish()


if __name__ == "__main__":
    sys.exit(main())
