#!/usr/bin/env python3
# CTest checks of the vector files: official checksum, and entry-by-entry equality with the official KAT.
# SPDX-License-Identifier: Apache-2.0
"""Subcommands (exit 0 pass, 1 fail, 77 skip), for the function named by --hash (default blake2b;
<hash> below):

  sha256         the regenerated <hash>-kat.txt has the official sha256, read from
                 vectors/README.md and, where it exists, ../shared/vectors/official/SOURCE.md,
                 and so has the committed vectors/<hash>-kat.txt
  official-json  every <hash> entry of the official blake2-kat.json equals, in order, our
                 vectors/<hash>-kat.json and a fresh regeneration; the official
                 <hash>-kat.txt equals our regeneration byte for byte. Skips (77) when the
                 official directory is absent (never passes silently).
"""

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path

import b2check

SKIP = 77
SHA256_RE = re.compile(r"\b[0-9a-f]{64}\b")
# The generator of each function's files (each has official_kat_txt() and official_kat_entries()).
GENERATORS = {"blake2b": "gen_vectors", "blake2s": "gen_blake2s", "blake2bp": "gen_blake2bp",
              "blake2sp": "gen_blake2sp"}


def load_generator(vectors_dir: Path, hash_name: str):
    return b2check.load_generator(vectors_dir, GENERATORS[hash_name])


def sha256_from_line(path: Path, marker: str) -> str:
    """The single 64-hex value on the lines of `path` mentioning `marker`."""
    found = {value for line in path.read_text(encoding="utf-8").splitlines() if marker in line
             for value in SHA256_RE.findall(line)}
    if len(found) != 1:
        raise SystemExit(f"FAIL: expected one sha256 for {marker} in {path}, found {sorted(found)}")
    return found.pop()


def check_sha256(vectors_dir: Path, official_dir: Path, hash_name: str) -> int:
    generator = load_generator(vectors_dir, hash_name)
    txt_name = f"{hash_name}-kat.txt"
    actual = hashlib.sha256(generator.official_kat_txt()).hexdigest()
    expected = {"vectors/README.md": sha256_from_line(vectors_dir / "README.md", txt_name)}
    source_md = official_dir / "SOURCE.md"
    if source_md.is_file():
        expected[str(source_md)] = sha256_from_line(source_md, f"| {txt_name} |")
    else:
        print(f"note: {source_md} absent; checking against vectors/README.md only")
    committed = vectors_dir / txt_name
    failures = 0
    print(f"regenerated {txt_name} sha256 {actual}")
    for origin, value in expected.items():
        verdict = "ok" if value == actual else "MISMATCH"
        failures += value != actual
        print(f"{verdict:8} recorded in {origin}: {value}")
    committed_sha = hashlib.sha256(committed.read_bytes()).hexdigest()
    failures += committed_sha != actual
    print(f"{'ok' if committed_sha == actual else 'MISMATCH':8} committed {committed}: {committed_sha}")
    return 1 if failures else 0


def compare_entries(label: str, official: list, ours: list) -> int:
    if len(official) != len(ours):
        print(f"MISMATCH {label}: {len(ours)} entries, official has {len(official)}")
        return 1
    for index, (theirs, mine) in enumerate(zip(official, ours)):
        if theirs != mine:
            print(f"MISMATCH {label}: entry {index} (input {len(theirs['in']) // 2} bytes, "
                  f"key {'yes' if theirs['key'] else 'no'}):\n  official {theirs}\n  ours     {mine}")
            return 1
    print(f"ok       {label}: {len(ours)} entries equal, in order")
    return 0


def check_official_json(vectors_dir: Path, official_dir: Path, hash_name: str) -> int:
    official_json = official_dir / "blake2-kat.json"
    official_txt = official_dir / f"{hash_name}-kat.txt"
    if not official_json.is_file():
        print(f"SKIP: {official_json} not present (official vectors live outside the project)")
        return SKIP
    official = [entry for entry in json.loads(official_json.read_text(encoding="ascii"))
                if entry["hash"] == hash_name]
    unkeyed = sum(1 for entry in official if not entry["key"])
    print(f"official {hash_name} entries: {len(official)} ({unkeyed} unkeyed, "
          f"{len(official) - unkeyed} keyed)")
    failures = 0
    if len(official) != 512 or unkeyed != 256:
        print(f"MISMATCH: expected 256 unkeyed + 256 keyed {hash_name} entries in the official "
              "file")
        failures += 1
    committed = json.loads((vectors_dir / f"{hash_name}-kat.json").read_text(encoding="ascii"))
    failures += compare_entries(f"vectors/{hash_name}-kat.json", official, committed)
    generator = load_generator(vectors_dir, hash_name)
    failures += compare_entries("regenerated (hashlib)", official, generator.official_kat_entries())
    if official_txt.is_file():
        same = official_txt.read_bytes() == generator.official_kat_txt()
        print(f"{'ok' if same else 'MISMATCH':8} official {hash_name}-kat.txt == regenerated, "
              "byte for byte")
        failures += not same
    else:
        print(f"note: {official_txt} absent; the .txt was checked by sha256 only")
    return 1 if failures else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("sha256", "official-json"))
    parser.add_argument("--source-dir", type=Path, required=True, help="project root")
    parser.add_argument("--hash", choices=sorted(GENERATORS), default="blake2b",
                        help="function whose vector files are checked (default blake2b)")
    parser.add_argument("--vectors-dir", type=Path,
                        help="vector files to check (default: <source-dir>/vectors)")
    parser.add_argument("--official-dir", type=Path,
                        help="official vectors (default: <source-dir>/../shared/vectors/official)")
    args = parser.parse_args()
    source_dir = args.source_dir.resolve()
    vectors_dir = args.vectors_dir or source_dir / "vectors"
    official_dir = args.official_dir or source_dir.parent / "shared" / "vectors" / "official"
    if args.command == "sha256":
        return check_sha256(vectors_dir, official_dir, args.hash)
    return check_official_json(vectors_dir, official_dir, args.hash)


if __name__ == "__main__":
    sys.exit(main())
