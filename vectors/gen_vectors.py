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

import hashlib
import sys
from pathlib import Path

VECTORS_DIR = Path(__file__).resolve().parent
# Tests load this file by path (importlib), which does not put its directory on sys.path.
if str(VECTORS_DIR) not in sys.path:
    sys.path.insert(0, str(VECTORS_DIR))

import kat_files  # noqa: E402  (needs the path set above)
from kat_files import format_json_array  # noqa: E402

KAT_TXT = "blake2b-kat.txt"
KAT_JSON = "blake2b-kat.json"
EXTENDED_JSON = "blake2b-extended.json"

BLOCK = 128
OUT = 64
SALT = 16


def blake2b(message: bytes, key: bytes = b"", salt: bytes = b"", custom: bytes = b"",
            size: int = OUT) -> bytes:
    return hashlib.blake2b(message, key=key, salt=salt, person=custom, digest_size=size).digest()


# ---------------------------------------------------------------- official formats


def official_kat_txt() -> bytes:
    return kat_files.official_kat_txt(blake2b)


def official_kat_entries() -> list:
    return kat_files.official_kat_entries("blake2b", blake2b)


# ---------------------------------------------------------------- extended vectors


def extended_entries() -> list:
    return kat_files.single_extended_entries(blake2b, OUT, SALT, BLOCK)


def random_entries(count: int, seed: int, max_length: int) -> list:
    return kat_files.random_entries(blake2b, OUT, SALT, count, seed, max_length)


# ---------------------------------------------------------------- driver


def generated_files() -> dict:
    return {
        KAT_TXT: official_kat_txt(),
        KAT_JSON: format_json_array(official_kat_entries()),
        EXTENDED_JSON: format_json_array(extended_entries()),
    }


def main() -> int:
    return kat_files.single_main(__doc__.splitlines()[0], generated_files, random_entries,
                                 "gen_vectors.py")


if __name__ == "__main__":
    sys.exit(main())
