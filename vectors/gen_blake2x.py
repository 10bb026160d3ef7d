#!/usr/bin/env python3
# Regenerates the BLAKE2Xb/BLAKE2Xs known-answer vectors from hashlib plus a small pure-Python BLAKE2.
# SPDX-License-Identifier: Apache-2.0
"""Writes, without any of this project's own code:

  blake2xb-kat.json  the 512 "blake2xb" entries of the official blake2-kat.json, same layout and
                     order: the 256-byte input 00..ff, output lengths 1..256, unkeyed, then keyed
                     with the 64-byte key 00..3f
  blake2xs-kat.json  the same for the 512 "blake2xs" entries (32-byte key 00..1f)

BLAKE2Xb and BLAKE2Xs are blake2x.BLAKE2XB and BLAKE2XS (H0 from hashlib, the output blocks from a
pure-Python BLAKE2 checked against hashlib first; see blake2x.py).

--check                  regenerates in memory and compares with the committed files (exit 1 on difference)
--verify-official DIR    entry-by-entry equality of the regeneration and of the committed files with
                         the blake2xb/blake2xs entries of DIR/blake2-kat.json; exit 77 when DIR is absent
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also when tests load it by path
import kat_files  # noqa: E402  (needs the path set above)
from blake2x import BLAKE2XB, BLAKE2XS  # noqa: E402

MEMBERS = (BLAKE2XB, BLAKE2XS)
SKIP = 77
OFFICIAL_INPUT = bytes(range(256))
OFFICIAL_LENGTHS = range(1, 257)


def official_kat_entries(xof) -> list:
    """The `xof.name` entries of blake2-kat.json, in its order: all unkeyed, then all keyed."""
    return [{"hash": xof.name, "in": OFFICIAL_INPUT.hex(), "key": key.hex(),
             "out": xof.digest(OFFICIAL_INPUT, length, key).hex()}
            for key in (b"", kat_files.OFFICIAL_KEY[:xof.variant.out])
            for length in OFFICIAL_LENGTHS]


def generated_files() -> dict:
    return {f"{xof.name}-kat.json": kat_files.format_json_array(official_kat_entries(xof))
            for xof in MEMBERS}


def first_difference(label: str, official: list, ours: list) -> int:
    if official == ours:
        print(f"ok        {label}: {len(ours)} entries equal the official JSON, in order")
        return 0
    print(f"MISMATCH  {label}: {len(ours)} entries, official {len(official)}")
    for index, (theirs, mine) in enumerate(zip(official, ours)):
        if theirs != mine:
            print(f"  first difference at entry {index}:\n  official {theirs}\n  ours     {mine}")
            break
    return 1


def verify_official(official_dir: Path, vectors_dir: Path) -> int:
    official_json = official_dir / "blake2-kat.json"
    if not official_json.is_file():
        print(f"SKIP: {official_json} absent (the official vectors live outside the project)")
        return SKIP
    official_text = official_json.read_text(encoding="ascii")
    everything = json.loads(official_text)
    failures = 0
    for xof in MEMBERS:
        official = [entry for entry in everything if entry["hash"] == xof.name]
        committed_text = (vectors_dir / f"{xof.name}-kat.json").read_text(encoding="ascii")
        regenerated = kat_files.format_json_array(official_kat_entries(xof)).decode("ascii")
        failures += len(official) != 512
        failures += first_difference(f"regenerated {xof.name}", official, json.loads(regenerated))
        failures += first_difference(f"vectors/{xof.name}-kat.json", official,
                                     json.loads(committed_text))
        # The objects between "[\n" and "\n]\n", as text: a run of the official file.
        verbatim = regenerated[2:-3] in official_text
        failures += not verbatim
        print(f"{'ok' if verbatim else 'MISMATCH':9} regenerated {xof.name} objects appear byte "
              "for byte in the official file")
    return 1 if failures else 0


def main() -> int:
    parser = kat_files.argument_parser(__doc__.splitlines()[0])
    parser.add_argument("--verify-official", type=Path, metavar="DIR")
    args = parser.parse_args()
    if args.verify_official is not None:
        return verify_official(args.verify_official, args.dir)
    if args.check:
        return kat_files.check_files(generated_files(), args.dir, Path(__file__).name)
    return kat_files.write_files(generated_files(), args.dir)


if __name__ == "__main__":
    sys.exit(main())
