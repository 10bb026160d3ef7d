#!/usr/bin/env python3
# Regenerates the BLAKE2bp known-answer vectors from hashlib plus a small pure-Python BLAKE2b.
# SPDX-License-Identifier: Apache-2.0
"""Writes, without any of this project's own code:

  blake2bp-kat.txt       the official BLAKE2 reference file testvectors/blake2bp-kat.txt, byte for byte
  blake2bp-kat.json      the 512 "blake2bp" entries of the official blake2-kat.json, same layout and
                         order (256 unkeyed, then 256 keyed with key 00..3f)
  blake2bp-extended.json our own BLAKE2bp vectors (layout of blake2b-extended.json, size always 64):
                         message lengths 0..1 MiB around the 128-byte block and 512-byte group
                         boundaries, unkeyed and with keys of 1..64 bytes

BLAKE2bp is blake2_tree.BLAKE2BP (4 leaves over 128-byte blocks; the tree layout and how the
vectors avoid our code are described there): hashlib leaves, a pure-Python root checked against
hashlib before any vector is produced.

--check                  regenerates in memory and compares with the committed files (exit 1 on difference)
--verify-official DIR    sha256 of the regenerated txt against the official value, and (when DIR
                         exists) entry-by-entry equality with DIR/blake2-kat.json and byte equality
                         with DIR/blake2bp-kat.txt; exit 77 when DIR is absent after the sha256 check
--hash FILE...           prints "<hex>  <file>" (BLAKE2bp-512, unkeyed) for each file
"""

import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also when tests load it by path
import kat_files  # noqa: E402  (needs the path set above)
from blake2_tree import BLAKE2BP  # noqa: E402

KAT_TXT = "blake2bp-kat.txt"
# sha256 of testvectors/blake2bp-kat.txt at BLAKE2/BLAKE2 commit ed1974ea83433eba7b2d95c5dcd9ac33cb847913
# (also recorded in ../shared/vectors/official/SOURCE.md).
OFFICIAL_TXT_SHA256 = "12ef93cfb8d9f75f5bb62d19e7c9d1c28aa515feb26eb1d1d6027eebcbaf0367"
BLOCK = BLAKE2BP.variant.block
SKIP = 77


def extended_lengths() -> list:
    # Every leaf empty/partial/full, the 896-byte "all four leaves know their last block" edge,
    # whole groups of 512 bytes and long messages.
    lengths = set(range(0, 4 * BLOCK * 2 + 2, 64))
    for edge in (BLOCK, 2 * BLOCK, 3 * BLOCK, 4 * BLOCK, 7 * BLOCK, 8 * BLOCK, 9 * BLOCK,
                 11 * BLOCK, 12 * BLOCK, 2048, 4096, 8192, 65536, 65536 + 7 * BLOCK, 1048576):
        lengths.update((edge - 1, edge, edge + 1))
    return sorted(lengths)


FILES = kat_files.TreeMode(BLAKE2BP, extended_lengths(), __file__, __doc__)
# What tests/check_vectors.py and tests/blake2bp_cli.py read.
official_kat_txt, official_kat_entries = FILES.official_kat_txt, FILES.official_kat_entries
blake2bp, check_pure_against_hashlib = FILES.digest, FILES.check_pure_against_hashlib


def verify_official(official_dir: Path) -> int:
    FILES.check_pure_against_hashlib()
    txt = FILES.official_kat_txt()
    actual = hashlib.sha256(txt).hexdigest()
    failures = 0
    print(f"regenerated {KAT_TXT} sha256 {actual} ({len(txt)} bytes)")
    if actual != OFFICIAL_TXT_SHA256:
        print(f"MISMATCH  official sha256 {OFFICIAL_TXT_SHA256}")
        failures += 1
    if not official_dir.is_dir():
        print(f"SKIP: {official_dir} absent; only the recorded sha256 was checked")
        return 1 if failures else SKIP
    source_md = official_dir / "SOURCE.md"
    if OFFICIAL_TXT_SHA256 not in source_md.read_text(encoding="utf-8"):
        print(f"MISMATCH  {source_md} does not record {OFFICIAL_TXT_SHA256}")
        failures += 1
    official_txt = (official_dir / KAT_TXT).read_bytes()
    failures += official_txt != txt
    print(f"{'ok' if official_txt == txt else 'MISMATCH':9} {official_dir / KAT_TXT} byte for byte")
    official = [entry for entry in json.loads((official_dir / "blake2-kat.json").read_text())
                if entry["hash"] == "blake2bp"]
    ours = json.loads(kat_files.format_json_array(FILES.official_kat_entries()))
    if official != ours:
        failures += 1
        print(f"MISMATCH  blake2bp entries of the official blake2-kat.json ({len(official)}) "
              f"vs ours ({len(ours)})")
        for index, (theirs, mine) in enumerate(zip(official, ours)):
            if theirs != mine:
                print(f"  first difference at entry {index}: {theirs} / {mine}")
                break
    else:
        print(f"ok        {len(ours)} blake2bp entries equal the official JSON, in order")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(FILES.main(verify_official))
