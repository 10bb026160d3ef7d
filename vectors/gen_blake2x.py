#!/usr/bin/env python3
# Regenerates the BLAKE2Xb/BLAKE2Xs known answers from hashlib plus a small pure-Python BLAKE2.
# SPDX-License-Identifier: Apache-2.0
"""Writes, without any of this project's own code:

  blake2xb-kat.json  the 512 "blake2xb" entries of the official blake2-kat.json, same layout and
                     order: the 256-byte input 00..ff, output lengths 1..256, unkeyed, then keyed
                     with the 64-byte key 00..3f
  blake2xs-kat.json  the same for the 512 "blake2xs" entries (32-byte key 00..1f)

BLAKE2Xb and BLAKE2Xs are blake2x.BLAKE2XB and BLAKE2XS (H0 from hashlib, the output blocks from a
pure-Python BLAKE2 checked against hashlib first; see blake2x.py).

--check                  regenerates in memory and compares with the committed files (exit 1 if
                         any differs)
--cases FILE             writes our extended cases (extended layout plus "hash" and "mode") to FILE
--verify-official DIR    entry-by-entry equality of the regeneration and of the committed files with
                         the blake2xb/blake2xs entries of DIR/blake2-kat.json; exit 77 when DIR
                         is absent
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


def case_entry(xof, name: str, in_len: int, length: int, key: bytes = b"", salt: bytes = b"",
               custom: bytes = b"", unknown: bool = False) -> dict:
    """One case in the extended layout (vectors/README.md) plus "hash" and "mode"."""
    message = kat_files.pattern_bytes(in_len)
    stored = in_len <= kat_files.MAX_STORED_INPUT
    return {"name": f"{xof.name}-{name}", "hash": xof.name,
            "mode": "unknown" if unknown else "known",
            "in_pattern": "hex" if stored else "mod251", "in_len": in_len,
            "in": message.hex() if stored else "", "key": key.hex(), "salt": salt.hex(),
            "custom": custom.hex(), "size": length,
            "out": xof.digest(message, length, key, salt, custom, unknown).hex()}


# Unknown-length streams already computed: {(member, in_len): output}. In that mode a shorter
# read is a prefix of a longer one, so the long cases share one computation.
_STREAMS = {}


def unknown_stream_entry(xof, name: str, in_len: int, length: int, longest: int) -> dict:
    """case_entry(..., unknown=True), the output cut from one stream of `longest` bytes."""
    key = (xof.name, in_len)
    if key not in _STREAMS:
        _STREAMS[key] = xof.digest(kat_files.pattern_bytes(in_len), longest, unknown=True)
    entry = case_entry(xof, name, in_len, 1, unknown=True)
    entry["size"], entry["out"] = length, _STREAMS[key][:length].hex()
    return entry


def power_of_two_edges(xof) -> list:
    """Known length at every power of two 2^1..2^16, and one below and above it, within the
    member's maximum; then a few up to 2^20 (BLAKE2Xb only: BLAKE2Xs stops at 65534)."""
    lengths = sorted({n for k in range(1, 17) for n in ((1 << k) - 1, 1 << k, (1 << k) + 1)
                      if n <= xof.max_length})
    if xof.max_length > 1 << 20:
        lengths += [(1 << 18) + 1, (1 << 20) - 1, 1 << 20]
    return [case_entry(xof, f"pow2-{n}", 5, n) for n in lengths]


def unknown_long_cases(xof) -> list:
    """The unknown-length mode past BLAKE2Xs's known-length maximum, up to 2^20."""
    longest = 1 << 20
    return [unknown_stream_entry(xof, f"unknown-long{n}", 9, n, longest)
            for n in (65535, 65536, (1 << 17) + 1, (1 << 19) - 1, longest)]


def extended_cases(xof) -> list:
    """Every output length 1..1024 (known length, unkeyed); salt, personalization and keys;
    output lengths at block edges up to 2^16, at every power of two +-1 up to 2^16 and a few up
    to 2^20; input lengths across block edges; the unknown-length mode, up to 2^20."""
    out, block, width = xof.variant.out, xof.variant.block, xof.variant.salt_bytes
    salt, custom = bytes(range(0x30, 0x30 + width)), b"blake2x-custom!!"[:width]
    key = bytes(range(0x80, 0x80 + out))
    cases = [case_entry(xof, f"len{n}", 100, n) for n in range(1, 1025)]
    for n in (1, out - 1, out, out + 1, 100, 1000):
        cases.append(case_entry(xof, f"len{n}-salt-custom", 33, n, salt=salt, custom=custom))
        cases.append(case_entry(xof, f"len{n}-key{out}", 33, n, key=key))
        cases.append(case_entry(xof, f"len{n}-key1-salt", 200, n, key=b"\x07", salt=salt[:3]))
        for keyed in (b"", key[:out // 2]):
            cases.append(case_entry(xof, f"unknown-len{n}-key{len(keyed)}", 150, n, key=keyed,
                                    salt=salt, unknown=True))
    for n in (4095, 4096, 4097, 65533, 65534):
        cases.append(case_entry(xof, f"edge{n}", 7, n))
    # Keyed and unknown-length outputs over several groups of the lanes form (4 x 64, 8 x 32
    # bytes) and tails after them (power_of_two_edges has the unkeyed ones).
    for n in (4 * 256 + 1, 4 * 256 + 255, 4097):
        cases.append(case_entry(xof, f"groups{n}-key", 9, n, key=key))
        cases.append(case_entry(xof, f"unknown-groups{n}", 9, n, salt=salt, unknown=True))
    cases.append(case_entry(xof, "unknown-len65537", 7, 65537, unknown=True))
    for in_len in (0, 1, block - 1, block, block + 1, 2 * block, 2 * block + 1, 1000):
        cases.append(case_entry(xof, f"in{in_len}", in_len, 2 * out + 3))
        cases.append(case_entry(xof, f"in{in_len}-key", in_len, 2 * out + 3, key=key))
    return cases + power_of_two_edges(xof) + unknown_long_cases(xof)


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
    parser.add_argument("--cases", type=Path, metavar="FILE",
                        help="write the extended cases of both (for the EVP tests) to FILE")
    args = parser.parse_args()
    if args.cases is not None:
        entries = [case for xof in MEMBERS for case in extended_cases(xof)]
        args.cases.write_bytes(kat_files.format_json_array(entries))
        print(f"wrote {len(entries)} cases to {args.cases}")
        return 0
    if args.verify_official is not None:
        return verify_official(args.verify_official, args.dir)
    if args.check:
        return kat_files.check_files(generated_files(), args.dir, Path(__file__).name)
    return kat_files.write_files(generated_files(), args.dir)


if __name__ == "__main__":
    sys.exit(main())
