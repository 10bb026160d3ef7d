# Official KAT file layouts and the write/--check driver shared by the two vector generators.
# SPDX-License-Identifier: Apache-2.0
"""Layouts of the official BLAKE2 reference files (testvectors/<hash>-kat.txt and the entries of
blake2-kat.json), filled from whatever hash function a generator passes in, so gen_vectors.py
(BLAKE2b) and gen_blake2bp.py (BLAKE2bp) write byte-identical formats by construction.
Standard library only; nothing here computes a hash.
"""

import json
from pathlib import Path

# The official files use this key for every keyed entry: bytes 0x00..0x3f.
OFFICIAL_KEY = bytes(range(64))
OFFICIAL_INPUT_COUNT = 256

# Messages longer than this are described by pattern and length instead of being stored.
MAX_STORED_INPUT = 257


def pattern_bytes(length: int) -> bytes:
    """Byte i is i % 251: a prime period, so block boundaries never line up with the pattern."""
    period = bytes(range(251))
    whole, rest = divmod(length, len(period))
    return period * whole + period[:rest]


def official_kat_txt(keyed_hash) -> bytes:
    """testvectors/<hash>-kat.txt; keyed_hash(message, key) -> digest bytes."""
    records = []
    for length in range(OFFICIAL_INPUT_COUNT):
        message = bytes(range(length))
        records.append(f"in:\t{message.hex()}\nkey:\t{OFFICIAL_KEY.hex()}\n"
                       f"hash:\t{keyed_hash(message, OFFICIAL_KEY).hex()}\n")
    # Byte-exact layout of the reference file: it opens with two newline bytes, and one blank
    # line separates records; the last record ends with a single newline.
    return ("\n\n" + "\n".join(records)).encode("ascii")


def official_kat_entries(hash_name: str, keyed_hash) -> list:
    """The `hash_name` entries of blake2-kat.json, in its order: all unkeyed, then all keyed."""
    entries = []
    for key in (b"", OFFICIAL_KEY):
        for length in range(OFFICIAL_INPUT_COUNT):
            message = bytes(range(length))
            entries.append({"hash": hash_name, "in": message.hex(), "key": key.hex(),
                            "out": keyed_hash(message, key).hex()})
    return entries


def format_json_array(entries: list) -> bytes:
    """The layout of the official blake2-kat.json: one object per block, keys indented by 4."""
    if not entries:
        return b"[\n]\n"
    objects = ",\n".join(json.dumps(entry, indent=4) for entry in entries)
    return f"[\n{objects}\n]\n".encode("ascii")


def check_files(files: dict, directory: Path, generator: str) -> int:
    """Compares freshly generated {name: bytes} with the files in `directory`; 1 on difference."""
    differences = 0
    for name, expected in files.items():
        path = directory / name
        if not path.is_file():
            print(f"MISSING {path}")
            differences += 1
        elif path.read_bytes() != expected:
            print(f"DIFFERS {path}: regenerate with vectors/{generator}")
            differences += 1
        else:
            print(f"ok      {path} ({len(expected)} bytes)")
    return 1 if differences else 0


def write_files(files: dict, directory: Path) -> int:
    for name, content in files.items():
        (directory / name).write_bytes(content)
        print(f"wrote {directory / name} ({len(content)} bytes)")
    return 0
