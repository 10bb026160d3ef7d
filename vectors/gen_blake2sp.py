#!/usr/bin/env python3
# Regenerates the BLAKE2sp known-answer vectors from hashlib plus a small pure-Python BLAKE2s.
# SPDX-License-Identifier: Apache-2.0
"""Writes the BLAKE2sp counterparts of gen_blake2bp.py's files, without any of this project's code.

blake2sp-kat.txt (the official testvectors/blake2sp-kat.txt, byte for byte),
blake2sp-kat.json (its 512 entries of blake2-kat.json, keyed ones with key 00..1f) and
blake2sp-extended.json (size always 32; message lengths 0..1 MiB around the 64-byte block and
512-byte group boundaries, unkeyed and with keys of 1..32 bytes).

BLAKE2sp is blake2_tree.BLAKE2SP (8 leaves over 64-byte blocks; the tree layout and how the
vectors avoid our code are described there): hashlib.blake2s leaves with the tree parameters, a
pure-Python BLAKE2s root checked against hashlib before any vector is produced.

--check                  regenerates in memory and compares with the committed files (exit 1 if
                         any differs)
--hash FILE...           prints "<hex>  <file>" (BLAKE2sp-256, unkeyed) for each file
The official checksum and JSON are checked by tests/check_vectors.py --hash blake2sp.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also when tests load it by path
import kat_files  # noqa: E402  (needs the path set above)
from blake2_tree import BLAKE2SP  # noqa: E402

BLOCK = BLAKE2SP.variant.block
LEAVES = BLAKE2SP.leaves
GROUP = LEAVES * BLOCK  # one block for every leaf: 512 bytes


def extended_lengths() -> list:
    # Every leaf empty/partial/full in the first two groups (half-block steps), the edges where
    # one leaf more or less holds the last block, whole groups of 512 bytes and long messages.
    lengths = set(range(0, 2 * GROUP + 2, BLOCK // 2))
    for edge in (BLOCK, 2 * BLOCK, 3 * BLOCK, (LEAVES - 1) * BLOCK, GROUP, (LEAVES + 1) * BLOCK,
                 2 * GROUP - BLOCK, 2 * GROUP, 2 * GROUP + BLOCK, 3 * GROUP - BLOCK, 3 * GROUP,
                 2048, 4096, 8192, 65536, 65536 + (LEAVES - 1) * BLOCK, 1048576):
        lengths.update((edge - 1, edge, edge + 1))
    return sorted(lengths)


FILES = kat_files.TreeMode(BLAKE2SP, extended_lengths(), __file__, __doc__)
# What tests/check_vectors.py and tests/blake2bp_cli.py read.
official_kat_txt, official_kat_entries = FILES.official_kat_txt, FILES.official_kat_entries
blake2sp, check_pure_against_hashlib = FILES.digest, FILES.check_pure_against_hashlib

if __name__ == "__main__":
    sys.exit(FILES.main())
