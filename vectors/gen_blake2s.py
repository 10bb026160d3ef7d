#!/usr/bin/env python3
# Regenerates the BLAKE2s known-answer vectors from Python's hashlib (an implementation not ours).
# SPDX-License-Identifier: Apache-2.0
"""Writes, from hashlib.blake2s alone (never from our own code):

  blake2s-kat.txt       the official reference file testvectors/blake2s-kat.txt, byte for byte
                        (256 keyed records, key 00..1f, 32-byte outputs)
  blake2s-kat.json      the 512 "blake2s" entries of the official blake2-kat.json, same format/order
  blake2s-extended.json our own vectors, layout of blake2b-extended.json: digest sizes 1..32, keys
                        1..32 bytes, salt and personalization 0..8 bytes, message lengths 0..1 MiB
                        around 64-byte block boundaries

--check regenerates everything in memory and compares with the files on disk.
--random N --seed S --output FILE writes N random parameterised cases in the extended format.
"""

import hashlib
import sys
from pathlib import Path

VECTORS_DIR = Path(__file__).resolve().parent
# Tests load this file by path (importlib), which does not put its directory on sys.path.
if str(VECTORS_DIR) not in sys.path:
    sys.path.insert(0, str(VECTORS_DIR))

import kat_files  # noqa: E402  (needs the path set above)
from kat_files import OFFICIAL_KEY_BLAKE2S, format_json_array  # noqa: E402

KAT_TXT = "blake2s-kat.txt"
KAT_JSON = "blake2s-kat.json"
EXTENDED_JSON = "blake2s-extended.json"

BLOCK = 64
OUT = 32
SALT = 8


def blake2s(message: bytes, key: bytes = b"", salt: bytes = b"", custom: bytes = b"",
            size: int = OUT) -> bytes:
    return hashlib.blake2s(message, key=key, salt=salt, person=custom, digest_size=size).digest()


def official_kat_txt() -> bytes:
    return kat_files.official_kat_txt(blake2s, OFFICIAL_KEY_BLAKE2S)


def official_kat_entries() -> list:
    return kat_files.official_kat_entries("blake2s", blake2s, OFFICIAL_KEY_BLAKE2S)


def extended_entries() -> list:
    return kat_files.single_extended_entries(blake2s, OUT, SALT, BLOCK)


def random_entries(count: int, seed: int, max_length: int) -> list:
    return kat_files.random_entries(blake2s, OUT, SALT, count, seed, max_length)


def generated_files() -> dict:
    return {
        KAT_TXT: official_kat_txt(),
        KAT_JSON: format_json_array(official_kat_entries()),
        EXTENDED_JSON: format_json_array(extended_entries()),
    }


def main() -> int:
    return kat_files.single_main(__doc__.splitlines()[0], generated_files, random_entries,
                                 "gen_blake2s.py")


if __name__ == "__main__":
    sys.exit(main())
