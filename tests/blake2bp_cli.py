#!/usr/bin/env python3
# CLI test: `openssl dgst -BLAKE2BP-512` and `openssl mac BLAKE2BPMAC` with our provider.
# SPDX-License-Identifier: Apache-2.0
"""Usage: blake2bp_cli.py MODULE_DIR VECTORS_DIR

Expected answers come from vectors/gen_blake2bp.py (hashlib leaves, pure-Python root), never
from our provider. Only blake2simd is loaded for the digest (OpenSSL 3.0 has no BLAKE2bp, so
an answer can only be ours). Exit 0 pass, 1 fail.
"""
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

from b2check import Tally, digest_hex, load_generator

TALLY = Tally("blake2bp_cli")
check = TALLY.check


def openssl(module_dir: str, command: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["openssl", command, "-provider-path", module_dir, "-provider",
                           "blake2simd", *args], capture_output=True, text=True)


def main() -> int:
    module_dir, vectors_dir = sys.argv[1], Path(sys.argv[2])
    generator = load_generator(vectors_dir, "gen_blake2bp")
    generator.check_pure_against_hashlib()
    rng = random.Random(0xB2B2)
    key = bytes(range(0x20, 0x20 + 37))
    with tempfile.TemporaryDirectory() as scratch:
        for length in (0, 1, 128, 511, 512, 896, 897, 4097, 100_000, 1_048_579):
            path = Path(scratch) / f"message-{length}.bin"
            message = rng.randbytes(length)
            path.write_bytes(message)
            expected = generator.blake2bp(message).hex()
            result = openssl(module_dir, "dgst", "-BLAKE2BP-512", str(path))
            check(result.returncode == 0 and digest_hex(result.stdout) == expected,
                  f"openssl dgst -BLAKE2BP-512 on {length} bytes",
                  f"expected {expected}\nstdout {result.stdout}\nstderr {result.stderr}")
            expected_mac = generator.blake2bp(message, key).hex()
            result = openssl(module_dir, "mac", "-macopt", f"hexkey:{key.hex()}", "-in", str(path),
                             "BLAKE2BPMAC")
            check(result.returncode == 0 and digest_hex(result.stdout) == expected_mac,
                  f"openssl mac BLAKE2BPMAC on {length} bytes",
                  f"expected {expected_mac}\nstdout {result.stdout}\nstderr {result.stderr}")

        path = Path(scratch) / "message-3.bin"
        path.write_bytes(b"abc")
        for option, reason in (("size:32", "BLAKE2bp is 64 bytes only"),
                               ("hexsalt:00", "salt is not supported by BLAKE2bp"),
                               ("hexcustom:00", "custom (personalization) is not supported")):
            result = openssl(module_dir, "mac", "-macopt", f"hexkey:{key.hex()}", "-macopt", option,
                             "-in", str(path), "BLAKE2BPMAC")
            check(result.returncode != 0 and reason in result.stderr,
                  f"openssl mac BLAKE2BPMAC -macopt {option} is refused with '{reason}'",
                  f"rc {result.returncode}\nstdout {result.stdout}\nstderr {result.stderr}")
    return TALLY.finish()


if __name__ == "__main__":
    sys.exit(main())
