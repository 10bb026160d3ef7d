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

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also when tests load it by path
import kat_files  # noqa: E402  (needs the path set above)
from blake2_tree import BLAKE2S  # noqa: E402

FILES = kat_files.SingleNode(BLAKE2S, __file__, __doc__)
# What tests/check_vectors.py reads.
official_kat_txt, official_kat_entries = FILES.official_kat_txt, FILES.official_kat_entries

if __name__ == "__main__":
    sys.exit(FILES.main())
