#!/usr/bin/env python3
"""CLI tests: `openssl list/dgst/mac` with our provider, expected answers from hashlib.

Every command that computes carries `-propquery provider=blake2simd`; a control shows the
propquery is enforced (SHA-256 under it fails), so a BLAKE2b answer under it is ours.
SPDX-License-Identifier: Apache-2.0
"""
import hashlib
import os
import subprocess
import sys
import tempfile

from b2check import Tally, digest_hex

TALLY = Tally("cli_smoke")
check = TALLY.check


def openssl(module_dir, *args, propquery=True):
    cmd = ["openssl", args[0], "-provider-path", module_dir, "-provider", "blake2simd",
           "-provider", "default"]
    if propquery:
        cmd += ["-propquery", "provider=blake2simd"]
    cmd += list(args[1:])
    return subprocess.run(cmd, capture_output=True, text=True)


def main():
    module_dir = sys.argv[1]
    env_kernel = os.environ.get("BLAKE2SIMD_KERNEL")

    listing = subprocess.run(["openssl", "list", "-providers", "-verbose", "-provider-path",
                              module_dir, "-provider", "blake2simd"], capture_output=True, text=True)
    check("blake2simd" in listing.stdout and "status: active" in listing.stdout,
          "list -providers shows blake2simd active", listing.stdout + listing.stderr)
    check("build info: blake2simd" in listing.stdout and "kernel " in listing.stdout,
          "buildinfo names the kernel", listing.stdout)
    if env_kernel:
        check(f"kernel {env_kernel}" in listing.stdout, "forced kernel shown", listing.stdout)

    for kind, name in (("-digest-algorithms", "BLAKE2B-512"), ("-mac-algorithms", "BLAKE2BMAC")):
        out = subprocess.run(["openssl", "list", kind, "-provider-path", module_dir, "-provider",
                              "blake2simd"], capture_output=True, text=True).stdout
        lines = [line for line in out.splitlines() if "@ blake2simd" in line]
        check(any(name in line for line in lines), f"list {kind} shows {name} @ blake2simd", out)

    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "message.bin")
        message = bytes(i % 251 for i in range(100_000))
        with open(path, "wb") as f:
            f.write(message)

        control = openssl(module_dir, "dgst", "-sha256", path)
        check(control.returncode != 0, "propquery is enforced: SHA-256 is not ours", control.stdout)

        result = openssl(module_dir, "dgst", "-blake2b512", path)
        check(result.returncode == 0 and digest_hex(result.stdout) == hashlib.blake2b(message).hexdigest(),
              "dgst -blake2b512", result.stdout + result.stderr)

        key = bytes(range(64))
        result = openssl(module_dir, "mac", "-macopt", "hexkey:" + key.hex(), "-in", path, "BLAKE2BMAC")
        expected = hashlib.blake2b(message, key=key).hexdigest()
        check(result.returncode == 0 and digest_hex(result.stdout) == expected, "mac BLAKE2BMAC",
              result.stdout + result.stderr)

        salt, custom = b"0123456789abcdef", b"blake2simd-cli"
        result = openssl(module_dir, "mac", "-macopt", "hexkey:" + key[:20].hex(), "-macopt",
                         "hexsalt:" + salt.hex(), "-macopt", "hexcustom:" + custom.hex(),
                         "-macopt", "size:20", "-in", path, "BLAKE2BMAC")
        expected = hashlib.blake2b(message, key=key[:20], salt=salt, person=custom,
                                   digest_size=20).hexdigest()
        check(result.returncode == 0 and digest_hex(result.stdout) == expected,
              "mac with salt, custom and size", result.stdout + result.stderr)

        # Our reason strings reach the CLI, attributed to our provider.
        result = openssl(module_dir, "mac", "-macopt", "hexkey:" + key.hex() + "00", "-in", path,
                         "BLAKE2BMAC")
        check(result.returncode != 0 and "blake2simd" in result.stderr
              and "invalid key length" in result.stderr, "65-byte key rejected by us", result.stderr)

    return TALLY.finish()


if __name__ == "__main__":
    sys.exit(main())
