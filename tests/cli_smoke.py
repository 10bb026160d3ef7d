#!/usr/bin/env python3
"""CLI tests: `openssl list/dgst/mac` with our provider, expected answers from hashlib.

usage: cli_smoke.py MODULE_DIR [--family blake2b|blake2s]   (default blake2b)

Every command that computes carries `-propquery provider=blake2simd`; a control shows the
propquery is enforced (SHA-256 under it fails), so a BLAKE2 answer under it is ours.
SPDX-License-Identifier: Apache-2.0
"""
import hashlib
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass

from b2check import Tally, digest_hex, module_dir_under_test

# BLAKE2X's expected answers come from vectors/blake2x.py (hashlib plus a pure-Python BLAKE2).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "vectors"))
import blake2x  # noqa: E402  (vectors/ is not a package)


@dataclass(frozen=True)
class Family:
    """One BLAKE2 member: its CLI digest option, EVP names, hashlib oracle and field limits."""
    digest_option: str
    digest: str
    mac: str
    oracle: object
    max_key: int
    max_salt: int
    named_sizes: tuple  # (bits of the name, e.g. 256 for BLAKE2B-256), RFC 7693 section 4
    xof: str  # its BLAKE2X: the digest's name (the MAC's is this + "MAC"), blake2x.py's member


FAMILIES = {
    "blake2b": Family("-blake2b512", "BLAKE2B-512", "BLAKE2BMAC", hashlib.blake2b, 64, 16,
                      (160, 256, 384), "BLAKE2XB"),
    "blake2s": Family("-blake2s256", "BLAKE2S-256", "BLAKE2SMAC", hashlib.blake2s, 32, 8,
                      (128, 160, 224), "BLAKE2XS"),
}

TALLY = Tally("cli_smoke")
check = TALLY.check


def openssl(module_dir, *args, propquery=True):
    cmd = ["openssl", args[0], "-provider-path", module_dir, "-provider", "blake2simd",
           "-provider", "default"]
    if propquery:
        cmd += ["-propquery", "provider=blake2simd"]
    cmd += list(args[1:])
    return subprocess.run(cmd, capture_output=True, text=True)


def openssl_version():
    """(major, minor) of the openssl CLI (its libcrypto decides the EVP behaviour)."""
    words = subprocess.run(["openssl", "version"], capture_output=True, text=True).stdout.split()
    parts = words[1].split(".") if len(words) > 1 else []
    return tuple(int(part) for part in parts[:2]) if len(parts) >= 2 else (0, 0)


def check_blake2x(module_dir, family, path, message):
    """BLAKE2X from the CLI against vectors/blake2x.py: `dgst -xoflen` inits without a length,
    so it gets the unknown-length output; `mac -macopt size:` fixes the length in H0."""
    xof = blake2x.BLAKE2XB if family.xof == "BLAKE2XB" else blake2x.BLAKE2XS
    for length in (1, 100, 1000):
        result = openssl(module_dir, "dgst", "-" + family.xof, "-xoflen", str(length), path)
        check(result.returncode == 0
              and digest_hex(result.stdout) == xof.digest(message, length, unknown=True).hex(),
              f"dgst -{family.xof} -xoflen {length} (the unknown-length output)",
              result.stdout + result.stderr)
    # Before 3.4, dgst finishes an XOF without -xoflen with EVP_DigestFinal_ex and a buffer
    # size of EVP_MD_get_size, 0; later versions choose a length of their own.
    if openssl_version() < (3, 4):
        result = openssl(module_dir, "dgst", "-" + family.xof, path)
        check(result.returncode != 0 and "no XOF output length" in result.stderr
              and "-xoflen" in result.stderr,
              f"dgst -{family.xof} without -xoflen refused by us, naming -xoflen", result.stderr)
    key = bytes(range(7, 7 + family.max_key))
    result = openssl(module_dir, "mac", "-macopt", "hexkey:" + key.hex(), "-macopt", "size:100",
                     "-in", path, family.xof + "MAC")
    check(result.returncode == 0
          and digest_hex(result.stdout) == xof.digest(message, 100, key).hex(),
          f"mac {family.xof}MAC size:100", result.stdout + result.stderr)


def check_listings(module_dir, family):
    """`openssl list`: the provider active with its buildinfo (the forced kernel shown), and the
    family's digest and MAC served by it."""
    env_kernel = os.environ.get("BLAKE2SIMD_KERNEL")
    listing = subprocess.run(["openssl", "list", "-providers", "-verbose", "-provider-path",
                              module_dir, "-provider", "blake2simd"], capture_output=True, text=True)
    check("blake2simd" in listing.stdout and "status: active" in listing.stdout,
          "list -providers shows blake2simd active", listing.stdout + listing.stderr)
    check("build info: blake2simd" in listing.stdout and "kernel " in listing.stdout,
          "buildinfo names the kernel", listing.stdout)
    if env_kernel:
        check(f"kernel {env_kernel}" in listing.stdout, "forced kernel shown", listing.stdout)

    for kind, name in (("-digest-algorithms", family.digest), ("-mac-algorithms", family.mac)):
        out = subprocess.run(["openssl", "list", kind, "-provider-path", module_dir, "-provider",
                              "blake2simd"], capture_output=True, text=True).stdout
        lines = [line for line in out.splitlines() if "@ blake2simd" in line]
        check(any(name in line for line in lines), f"list {kind} shows {name} @ blake2simd", out)


def check_digests(module_dir, family, path, message):
    """dgst under the propquery, by every name the family's digest and its sizes have."""
    control = openssl(module_dir, "dgst", "-sha256", path)
    check(control.returncode != 0, "propquery is enforced: SHA-256 is not ours", control.stdout)

    result = openssl(module_dir, "dgst", family.digest_option, path)
    check(result.returncode == 0 and digest_hex(result.stdout) == family.oracle(message).hexdigest(),
          f"dgst {family.digest_option}", result.stdout + result.stderr)
    # The CLI's own name for it: the answer is the digest's, from us.
    result = openssl(module_dir, "dgst", "-" + family.digest, path)
    check(result.returncode == 0 and digest_hex(result.stdout) == family.oracle(message).hexdigest(),
          f"dgst -{family.digest}", result.stdout + result.stderr)

    # The sizes by name, as a program that takes only a digest name reaches them: BLAKE2
    # with that digest length (hashlib's digest_size), under both spellings.
    for bits in family.named_sizes:
        expected = family.oracle(message, digest_size=bits // 8).hexdigest()
        prefix = family.digest.split("-")[0]  # BLAKE2B: BLAKE2B-256, blake2b256
        for option in (f"{prefix}-{bits}", f"{prefix.lower()}{bits}"):
            result = openssl(module_dir, "dgst", "-" + option, path)
            check(result.returncode == 0 and digest_hex(result.stdout) == expected,
                  f"dgst -{option}", result.stdout + result.stderr)


def check_macs(module_dir, family, path, message):
    """mac with a key, with salt, custom and size, and our refusals reaching the CLI."""
    key = bytes(range(family.max_key))
    result = openssl(module_dir, "mac", "-macopt", "hexkey:" + key.hex(), "-in", path, family.mac)
    expected = family.oracle(message, key=key).hexdigest()
    check(result.returncode == 0 and digest_hex(result.stdout) == expected, f"mac {family.mac}",
          result.stdout + result.stderr)

    salt, custom = b"0123456789abcdef"[:family.max_salt], b"blake2simd-cli"[:family.max_salt]
    result = openssl(module_dir, "mac", "-macopt", "hexkey:" + key[:20].hex(), "-macopt",
                     "hexsalt:" + salt.hex(), "-macopt", "hexcustom:" + custom.hex(),
                     "-macopt", "size:20", "-in", path, family.mac)
    expected = family.oracle(message, key=key[:20], salt=salt, person=custom,
                             digest_size=20).hexdigest()
    check(result.returncode == 0 and digest_hex(result.stdout) == expected,
          "mac with salt, custom and size", result.stdout + result.stderr)

    # Our reason strings reach the CLI, attributed to our provider.
    result = openssl(module_dir, "mac", "-macopt", "hexkey:" + key.hex() + "00", "-in", path,
                     family.mac)
    check(result.returncode != 0 and "blake2simd" in result.stderr
          and "invalid key length" in result.stderr,
          f"{family.max_key + 1}-byte key rejected by us", result.stderr)
    result = openssl(module_dir, "mac", "-macopt", "hexkey:" + key.hex(), "-macopt",
                     "hexsalt:" + (salt + b"!").hex(), "-in", path, family.mac)
    check(result.returncode != 0 and "blake2simd" in result.stderr
          and "invalid salt length" in result.stderr,
          f"{family.max_salt + 1}-byte salt rejected by us", result.stderr)


def main():
    module_dir = module_dir_under_test(sys.argv[1])
    family_name = sys.argv[3] if len(sys.argv) == 4 and sys.argv[2] == "--family" else "blake2b"
    family = FAMILIES[family_name]
    TALLY.program = f"cli_smoke ({family_name})"
    check_listings(module_dir, family)
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "message.bin")
        message = bytes(i % 251 for i in range(100_000))
        with open(path, "wb") as f:
            f.write(message)
        check_digests(module_dir, family, path, message)
        check_blake2x(module_dir, family, path, message)
        check_macs(module_dir, family, path, message)
    return TALLY.finish()


if __name__ == "__main__":
    sys.exit(main())
