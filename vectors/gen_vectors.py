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

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also when tests load it by path
import kat_files  # noqa: E402  (needs the path set above)
from blake2_tree import BLAKE2B  # noqa: E402

FILES = kat_files.SingleNode(BLAKE2B, __file__, __doc__)
# What tests/check_vectors.py reads.
official_kat_txt, official_kat_entries = FILES.official_kat_txt, FILES.official_kat_entries

if __name__ == "__main__":
    sys.exit(FILES.main())
