#!/usr/bin/env python3
# Regenerates the BLAKE2b known-answer vectors from Python's hashlib (an independent implementation).
# SPDX-License-Identifier: Apache-2.0
"""Writes, from hashlib.blake2b alone (never from our own code):

  blake2b-kat.txt       the official BLAKE2 reference KAT file, byte for byte
  blake2b-kat.json      the 512 "blake2b" entries of the official blake2-kat.json, same format/order
  blake2b-extended.json our own vectors: digest sizes 1..64, keys 1..64 bytes, salt and personalization
                        0..16 bytes, message lengths 0..1 MiB around block boundaries

Extended-vector objects all carry the same keys, in this order:
  name        what the entry exercises
  in_pattern  "hex": the message is `in`; "mod251": byte i of the message is i % 251 (`in` is "")
  in_len      message length in bytes
  in, key, salt, custom   hex ("" = absent; a non-empty key means BLAKE2BMAC, otherwise the digest)
  size        digest length in bytes (1..64)
  out         expected digest, hex

--check regenerates everything in memory and compares with the files on disk.
--random N --seed S --output FILE writes N random parameterised cases in the extended format
(used at test time, so the corpus differs from run to run while staying reproducible by seed).
"""

import argparse
import hashlib
import os
import random
import sys
from pathlib import Path

VECTORS_DIR = Path(__file__).resolve().parent
# Tests load this file by path (importlib), which does not put its directory on sys.path.
if str(VECTORS_DIR) not in sys.path:
    sys.path.insert(0, str(VECTORS_DIR))

import kat_files  # noqa: E402  (needs the path set above)
from kat_files import MAX_STORED_INPUT, format_json_array, pattern_bytes  # noqa: E402

KAT_TXT = "blake2b-kat.txt"
KAT_JSON = "blake2b-kat.json"
EXTENDED_JSON = "blake2b-extended.json"

BLOCK = 128


def blake2b(message: bytes, key: bytes = b"", salt: bytes = b"", custom: bytes = b"",
            size: int = 64) -> bytes:
    return hashlib.blake2b(message, key=key, salt=salt, person=custom, digest_size=size).digest()


# ---------------------------------------------------------------- official formats


def official_kat_txt() -> bytes:
    return kat_files.official_kat_txt(blake2b)


def official_kat_entries() -> list:
    return kat_files.official_kat_entries("blake2b", blake2b)


# ---------------------------------------------------------------- extended vectors


def key_bytes(length: int, seed: int) -> bytes:
    return bytes((0xA5 ^ (seed * 29 + 7 * i)) & 0xFF for i in range(length))


def extended_entry(name: str, length: int, key: bytes = b"", salt: bytes = b"",
                   custom: bytes = b"", size: int = 64) -> dict:
    message = pattern_bytes(length)
    stored = length <= MAX_STORED_INPUT
    return {
        "name": name,
        "in_pattern": "hex" if stored else "mod251",
        "in_len": length,
        "in": message.hex() if stored else "",
        "key": key.hex(),
        "salt": salt.hex(),
        "custom": custom.hex(),
        "size": size,
        "out": blake2b(message, key, salt, custom, size).hex(),
    }


def boundary_lengths() -> list:
    lengths = {0, 1, 2, 63, 64, 65, 127, 128, 129, 255, 256, 257, 383, 384, 385, 511, 512, 513,
               1023, 1024, 1025, 65536, 1048576}
    for blocks in (3, 8, 17, 64, 1024, 8192):
        lengths.update(BLOCK * blocks + delta for delta in (-1, 0, 1))
    return sorted(n for n in lengths if n <= 1048576)


def extended_entries() -> list:
    entries = []
    salt16 = bytes(range(0x10, 0x20))
    custom16 = b"blake2simd-pers!"
    key64 = key_bytes(64, 1)

    for length in boundary_lengths():
        entries.append(extended_entry(f"len{length}-plain", length))
        entries.append(extended_entry(f"len{length}-key64", length, key=key64))
        entries.append(extended_entry(f"len{length}-key17-salt-custom-size32", length,
                                      key=key_bytes(17, 2), salt=salt16, custom=custom16,
                                      size=32))
        entries.append(extended_entry(f"len{length}-salt-custom-size48", length, salt=salt16,
                                      custom=custom16, size=48))

    for size in range(1, 65):
        # Varying length too, so short digests also meet multi-block messages.
        length = (size * 37) % 300
        entries.append(extended_entry(f"size{size}-plain-len{length}", length, size=size))
        entries.append(extended_entry(f"size{size}-key{size}-len{length}", length,
                                      key=key_bytes(size, size), size=size))

    for key_length in range(1, 65):
        entries.append(extended_entry(f"key{key_length}-len100", 100,
                                      key=key_bytes(key_length, key_length + 100)))
    entries.append(extended_entry("key1-empty", 0, key=b"\x00"))
    entries.append(extended_entry("key64-empty-size1", 0, key=key64, size=1))

    for length in range(0, 17):
        salt = bytes(range(0x80, 0x80 + length))
        custom = bytes(range(0x40, 0x40 + length))
        entries.append(extended_entry(f"salt{length}-len129", 129, salt=salt))
        entries.append(extended_entry(f"custom{length}-len129", 129, custom=custom))
        entries.append(extended_entry(f"salt{length}-key32-len129", 129, key=key_bytes(32, 3),
                                      salt=salt))
        entries.append(extended_entry(f"custom{length}-key32-len129", 129,
                                      key=key_bytes(32, 4), custom=custom))
    # All-zero and all-ones full-width fields: the parameter block must carry them verbatim.
    entries.append(extended_entry("salt16-zero-len3", 3, salt=bytes(16)))
    entries.append(extended_entry("custom16-ff-len3", 3, custom=b"\xff" * 16))
    return entries


def random_entries(count: int, seed: int, max_length: int) -> list:
    rng = random.Random(seed)
    entries = []
    for index in range(count):
        length = rng.randint(0, max_length)
        key = rng.randbytes(rng.randint(1, 64)) if rng.random() < 0.5 else b""
        salt = rng.randbytes(rng.randint(0, 16))
        custom = rng.randbytes(rng.randint(0, 16))
        size = rng.randint(1, 64)
        message = rng.randbytes(length)
        entries.append({
            "name": f"random{index}-seed{seed}",
            "in_pattern": "hex",
            "in_len": length,
            "in": message.hex(),
            "key": key.hex(),
            "salt": salt.hex(),
            "custom": custom.hex(),
            "size": size,
            "out": blake2b(message, key, salt, custom, size).hex(),
        })
    return entries


# ---------------------------------------------------------------- driver


def generated_files() -> dict:
    return {
        KAT_TXT: official_kat_txt(),
        KAT_JSON: format_json_array(official_kat_entries()),
        EXTENDED_JSON: format_json_array(extended_entries()),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="compare the files on disk with a fresh generation; exit 1 on difference")
    parser.add_argument("--dir", type=Path, default=VECTORS_DIR,
                        help="directory holding the generated files (default: next to this script)")
    parser.add_argument("--random", type=int, metavar="N",
                        help="write N random parameterised cases to --output instead")
    parser.add_argument("--seed", type=int,
                        help="seed for --random (default: $B2_SEED, else fresh; always printed)")
    parser.add_argument("--max-length", type=int, default=4096,
                        help="longest random message for --random (default 4096)")
    parser.add_argument("--output", type=Path, help="output file for --random")
    args = parser.parse_args()

    if args.random is not None:
        if args.output is None:
            parser.error("--random needs --output")
        seed = args.seed
        if seed is None and os.environ.get("B2_SEED"):
            seed = int(os.environ["B2_SEED"], 0)
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)
        print(f"random cases: {args.random}, seed {seed} (reproduce with --seed {seed})")
        args.output.write_bytes(format_json_array(random_entries(args.random, seed,
                                                                 args.max_length)))
        return 0
    if args.check:
        return kat_files.check_files(generated_files(), args.dir, "gen_vectors.py")
    return kat_files.write_files(generated_files(), args.dir)


if __name__ == "__main__":
    sys.exit(main())
