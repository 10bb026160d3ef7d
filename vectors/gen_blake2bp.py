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

BLAKE2bp (BLAKE2 paper, section 2.10; reference blake2bp.c): the message is cut into 128-byte
blocks dealt round-robin to 4 leaves (block j to leaf j % 4). Every node is BLAKE2b with fanout 4,
depth 2, leaf_length 0, inner_length 64, digest_length 64 and the key length. Leaf i has
node_offset i and node_depth 0, and absorbs the key block (when keyed) then its blocks; leaf 3 is
the last node. The root has node_offset 0, node_depth 1, is the last node, and absorbs the four
64-byte leaf digests but never a key block, although its parameter block carries the key length.

hashlib.blake2b computes every leaf (its tree parameters and key= match exactly). It cannot
compute a keyed root (key_length without a key block), so roots come from blake2b_pure(), an
RFC 7693 BLAKE2b written here from the RFC and checked against hashlib, plain and keyed, before
any vector is produced. Unkeyed roots are computed both ways and must agree.

--check                  regenerates in memory and compares with the committed files (exit 1 on difference)
--verify-official DIR    sha256 of the regenerated txt against the official value, and (when DIR
                         exists) entry-by-entry equality with DIR/blake2-kat.json and byte equality
                         with DIR/blake2bp-kat.txt; exit 77 when DIR is absent after the sha256 check
--hash FILE...           prints "<hex>  <file>" (BLAKE2bp-512, unkeyed) for each file
"""

import argparse
import hashlib
import json
import sys
from pathlib import Path

VECTORS_DIR = Path(__file__).resolve().parent
# Tests load this file by path (importlib), which does not put its directory on sys.path.
if str(VECTORS_DIR) not in sys.path:
    sys.path.insert(0, str(VECTORS_DIR))

import kat_files  # noqa: E402  (needs the path set above)
from kat_files import (  # noqa: E402
    MAX_STORED_INPUT, OFFICIAL_KEY, format_json_array, pattern_bytes)

KAT_TXT = "blake2bp-kat.txt"
KAT_JSON = "blake2bp-kat.json"
EXTENDED_JSON = "blake2bp-extended.json"

# sha256 of testvectors/blake2bp-kat.txt at BLAKE2/BLAKE2 commit ed1974ea83433eba7b2d95c5dcd9ac33cb847913
# (also recorded in ../shared/vectors/official/SOURCE.md).
OFFICIAL_TXT_SHA256 = "12ef93cfb8d9f75f5bb62d19e7c9d1c28aa515feb26eb1d1d6027eebcbaf0367"

BLOCK = 128
LEAVES = 4
OUT = 64
SKIP = 77

# ---------------------------------------------------------------- pure-Python BLAKE2b (RFC 7693)

MASK = (1 << 64) - 1
IV = (0x6A09E667F3BCC908, 0xBB67AE8584CAA73B, 0x3C6EF372FE94F82B, 0xA54FF53A5F1D36F1,
      0x510E527FADE682D1, 0x9B05688C2B3E6C1F, 0x1F83D9ABFB41BD6B, 0x5BE0CD19137E2179)
SIGMA = ((0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
         (14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3),
         (11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4),
         (7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8),
         (9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13),
         (2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9),
         (12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11),
         (13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10),
         (6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5),
         (10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0))


def _rotr(x: int, n: int) -> int:
    return ((x >> n) | (x << (64 - n))) & MASK


def _compress(h: list, block: bytes, counter: int, last_block: bool, last_node: bool) -> None:
    m = [int.from_bytes(block[8 * i:8 * i + 8], "little") for i in range(16)]
    v = h[:] + list(IV)
    v[12] ^= counter & MASK
    v[13] ^= counter >> 64
    if last_block:
        v[14] ^= MASK
    if last_node:
        v[15] ^= MASK

    def g(a, b, c, d, x, y):
        v[a] = (v[a] + v[b] + x) & MASK
        v[d] = _rotr(v[d] ^ v[a], 32)
        v[c] = (v[c] + v[d]) & MASK
        v[b] = _rotr(v[b] ^ v[c], 24)
        v[a] = (v[a] + v[b] + y) & MASK
        v[d] = _rotr(v[d] ^ v[a], 16)
        v[c] = (v[c] + v[d]) & MASK
        v[b] = _rotr(v[b] ^ v[c], 63)

    for r in range(12):
        s = SIGMA[r % 10]
        g(0, 4, 8, 12, m[s[0]], m[s[1]])
        g(1, 5, 9, 13, m[s[2]], m[s[3]])
        g(2, 6, 10, 14, m[s[4]], m[s[5]])
        g(3, 7, 11, 15, m[s[6]], m[s[7]])
        g(0, 5, 10, 15, m[s[8]], m[s[9]])
        g(1, 6, 11, 12, m[s[10]], m[s[11]])
        g(2, 7, 8, 13, m[s[12]], m[s[13]])
        g(3, 4, 9, 14, m[s[14]], m[s[15]])
    for i in range(8):
        h[i] ^= v[i] ^ v[i + 8]


def parameter_block(digest_size: int, key_length: int, fanout: int = 1, depth: int = 1,
                    leaf_length: int = 0, node_offset: int = 0, node_depth: int = 0,
                    inner_length: int = 0) -> bytes:
    return (bytes((digest_size, key_length, fanout, depth)) + leaf_length.to_bytes(4, "little")
            + node_offset.to_bytes(8, "little") + bytes((node_depth, inner_length))
            + bytes(14) + bytes(32))  # reserved, salt, personalization


def blake2b_pure(message: bytes, params: bytes, key: bytes = b"", last_node: bool = False,
                 absorb_key: bool = True) -> bytes:
    """BLAKE2b over `message` from the 64-byte parameter block `params`. With absorb_key the
    zero-padded key is the first block (ordinary keyed BLAKE2b); without it the parameter block
    alone carries the key length, as for the BLAKE2bp root."""
    h = [IV[i] ^ int.from_bytes(params[8 * i:8 * i + 8], "little") for i in range(8)]
    data = (key.ljust(BLOCK, b"\0") if key and absorb_key else b"") + message
    full_blocks = max(0, (len(data) - 1) // BLOCK)
    for j in range(full_blocks):
        _compress(h, data[BLOCK * j:BLOCK * (j + 1)], BLOCK * (j + 1), False, False)
    tail = data[BLOCK * full_blocks:]
    _compress(h, tail.ljust(BLOCK, b"\0"), len(data), True, last_node)
    return b"".join(word.to_bytes(8, "little") for word in h)[:params[0]]


def check_pure_against_hashlib() -> None:
    """blake2b_pure must agree with hashlib before it may produce any vector."""
    for length in (0, 1, 127, 128, 129, 255, 256, 257, 300):
        message = bytes((7 * i + 3) & 0xFF for i in range(length))
        for key in (b"", b"\x01", bytes(range(17)), OFFICIAL_KEY):
            for size in (64, 32, 1):
                theirs = hashlib.blake2b(message, key=key, digest_size=size).digest()
                ours = blake2b_pure(message, parameter_block(size, len(key)), key)
                if theirs != ours:
                    raise SystemExit(f"pure-Python BLAKE2b disagrees with hashlib: length {length}, "
                                     f"key {len(key)}, size {size}")
    # The tree fields and the last-node flag, on the same leaf hashlib can compute.
    message = bytes(range(200))
    for offset, last in ((0, False), (3, True)):
        theirs = hashlib.blake2b(message, key=b"k" * 9, fanout=LEAVES, depth=2, leaf_size=0,
                                 node_offset=offset, node_depth=0, inner_size=OUT,
                                 last_node=last).digest()
        ours = blake2b_pure(message, tree_params(9, offset, 0), b"k" * 9, last_node=last)
        if theirs != ours:
            raise SystemExit(f"pure-Python BLAKE2b tree node disagrees with hashlib (offset {offset})")


# ---------------------------------------------------------------- BLAKE2bp


def tree_params(key_length: int, node_offset: int, node_depth: int) -> bytes:
    return parameter_block(OUT, key_length, LEAVES, 2, 0, node_offset, node_depth, OUT)


def leaf_messages(message: bytes) -> list:
    blocks = [message[i:i + BLOCK] for i in range(0, len(message), BLOCK)]
    return [b"".join(blocks[leaf::LEAVES]) for leaf in range(LEAVES)]


def leaf_digest(leaf_message: bytes, key: bytes, leaf: int) -> bytes:
    return hashlib.blake2b(leaf_message, key=key, digest_size=OUT, fanout=LEAVES, depth=2,
                           leaf_size=0, node_offset=leaf, node_depth=0, inner_size=OUT,
                           last_node=leaf == LEAVES - 1).digest()


def blake2bp(message: bytes, key: bytes = b"") -> bytes:
    digests = b"".join(leaf_digest(part, key, leaf)
                       for leaf, part in enumerate(leaf_messages(message)))
    root = blake2b_pure(digests, tree_params(len(key), 0, 1), key, last_node=True,
                        absorb_key=False)
    if not key:
        # Two independent computations of the same unkeyed root must agree.
        via_hashlib = hashlib.blake2b(digests, digest_size=OUT, fanout=LEAVES, depth=2,
                                      leaf_size=0, node_offset=0, node_depth=1, inner_size=OUT,
                                      last_node=True).digest()
        if via_hashlib != root:
            raise SystemExit("pure-Python root disagrees with hashlib's")
    return root


# ---------------------------------------------------------------- files


def official_kat_txt() -> bytes:
    return kat_files.official_kat_txt(blake2bp)


def official_kat_entries() -> list:
    return kat_files.official_kat_entries("blake2bp", blake2bp)


def key_bytes(length: int, seed: int) -> bytes:
    return bytes((0x5A ^ (seed * 31 + 11 * i)) & 0xFF for i in range(length))


def extended_entry(name: str, length: int, key: bytes = b"") -> dict:
    message = pattern_bytes(length)
    stored = length <= MAX_STORED_INPUT
    return {"name": name, "in_pattern": "hex" if stored else "mod251", "in_len": length,
            "in": message.hex() if stored else "", "key": key.hex(), "salt": "", "custom": "",
            "size": OUT, "out": blake2bp(message, key).hex()}


def extended_lengths() -> list:
    # Every leaf empty/partial/full, the 896-byte "all four leaves know their last block" edge,
    # whole groups of 512 bytes and long messages.
    lengths = set(range(0, 4 * BLOCK * 2 + 2, 64))
    for edge in (BLOCK, 2 * BLOCK, 3 * BLOCK, 4 * BLOCK, 7 * BLOCK, 8 * BLOCK, 9 * BLOCK,
                 11 * BLOCK, 12 * BLOCK, 2048, 4096, 8192, 65536, 65536 + 7 * BLOCK, 1048576):
        lengths.update((edge - 1, edge, edge + 1))
    return sorted(lengths)


def extended_entries() -> list:
    entries = []
    key64 = key_bytes(64, 1)
    for length in extended_lengths():
        entries.append(extended_entry(f"len{length}-plain", length))
        entries.append(extended_entry(f"len{length}-key64", length, key64))
    for key_length in range(1, 65):
        length = (key_length * 97) % 1100
        entries.append(extended_entry(f"key{key_length}-len{length}", length,
                                      key_bytes(key_length, key_length)))
    entries.append(extended_entry("key1-empty", 0, b"\x00"))
    return entries


def generated_files() -> dict:
    check_pure_against_hashlib()
    return {KAT_TXT: official_kat_txt(), KAT_JSON: format_json_array(official_kat_entries()),
            EXTENDED_JSON: format_json_array(extended_entries())}


def verify_official(official_dir: Path) -> int:
    check_pure_against_hashlib()
    txt = official_kat_txt()
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
    ours = json.loads(format_json_array(official_kat_entries()))
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--dir", type=Path, default=VECTORS_DIR)
    parser.add_argument("--verify-official", type=Path, metavar="DIR")
    parser.add_argument("--hash", type=Path, nargs="+", metavar="FILE")
    args = parser.parse_args()
    if args.hash:
        check_pure_against_hashlib()
        for path in args.hash:
            print(f"{blake2bp(path.read_bytes()).hex()}  {path}")
        return 0
    if args.verify_official is not None:
        return verify_official(args.verify_official)
    if args.check:
        return kat_files.check_files(generated_files(), args.dir, "gen_blake2bp.py")
    return kat_files.write_files(generated_files(), args.dir)


if __name__ == "__main__":
    sys.exit(main())
