# Vector file layouts, the shared case lists and the write/--check driver of the vector generators.
# SPDX-License-Identifier: Apache-2.0
"""Layouts of the official BLAKE2 reference files (testvectors/<hash>-kat.txt and the entries of
blake2-kat.json) and of our extended vectors, filled from whatever hash function a generator passes
in, so gen_vectors.py (BLAKE2b), gen_blake2s.py (BLAKE2s), gen_blake2bp.py (BLAKE2bp) and
gen_blake2sp.py (BLAKE2sp) write byte-identical formats by construction. SingleNode and TreeMode
are those generators but for their data: each script names its member of the family
(blake2_tree's BLAKE2B, BLAKE2S, BLAKE2BP, BLAKE2SP) and what only it has.
Standard library only; nothing here computes a hash itself (hashlib and blake2_tree do).
"""

import argparse
import json
import os
import random
from pathlib import Path

# The official files use this key for every keyed entry: bytes 0x00..0x3f for BLAKE2b/BLAKE2bp,
# the first 32 of them (0x00..0x1f, the longest key) for BLAKE2s/BLAKE2sp.
OFFICIAL_KEY = bytes(range(64))
OFFICIAL_INPUT_COUNT = 256

# Messages longer than this are described by pattern and length instead of being stored.
MAX_STORED_INPUT = 257


def pattern_bytes(length: int) -> bytes:
    """Byte i is i % 251: a prime period, so block boundaries never line up with the pattern."""
    period = bytes(range(251))
    whole, rest = divmod(length, len(period))
    return period * whole + period[:rest]


def official_kat_txt(keyed_hash, key: bytes = OFFICIAL_KEY) -> bytes:
    """testvectors/<hash>-kat.txt; keyed_hash(message, key) -> digest bytes."""
    records = []
    for length in range(OFFICIAL_INPUT_COUNT):
        message = bytes(range(length))
        records.append(f"in:\t{message.hex()}\nkey:\t{key.hex()}\n"
                       f"hash:\t{keyed_hash(message, key).hex()}\n")
    # Byte-exact layout of the reference file: it opens with two newline bytes, and one blank
    # line separates records; the last record ends with a single newline.
    return ("\n\n" + "\n".join(records)).encode("ascii")


def official_kat_entries(hash_name: str, keyed_hash, official_key: bytes = OFFICIAL_KEY) -> list:
    """The `hash_name` entries of blake2-kat.json, in its order: all unkeyed, then all keyed."""
    entries = []
    for key in (b"", official_key):
        for length in range(OFFICIAL_INPUT_COUNT):
            message = bytes(range(length))
            entries.append({"hash": hash_name, "in": message.hex(), "key": key.hex(),
                            "out": keyed_hash(message, key).hex()})
    return entries


# ---------------------------------------------------------------- extended vectors


def extended_entry(name: str, length: int, digest, key: bytes = b"", salt: bytes = b"",
                   custom: bytes = b"", size: int = 0) -> dict:
    """One object of <hash>-extended.json; digest(message, key, salt, custom, size) -> bytes."""
    message = pattern_bytes(length)
    stored = length <= MAX_STORED_INPUT
    return {
        "name": name,
        "in_pattern": "hex" if stored else "mod251",
        "in_len": length,
        "in": message.hex() if stored else "",
        "key": key.hex(),
        "salt": salt.hex(),
        "custom": custom.hex(),
        "size": size,
        "out": digest(message, key, salt, custom, size).hex(),
    }


def single_key_bytes(length: int, seed: int) -> bytes:
    return bytes((0xA5 ^ (seed * 29 + 7 * i)) & 0xFF for i in range(length))


def single_boundary_lengths(block: int) -> list:
    lengths = {0, 1, 2, 63, 64, 65, 127, 128, 129, 255, 256, 257, 383, 384, 385, 511, 512, 513,
               1023, 1024, 1025, 65536, 1048576}
    for blocks in (3, 8, 17, 64, 1024, 8192, 16384):
        lengths.update(block * blocks + delta for delta in (-1, 0, 1))
    return sorted(n for n in lengths if n <= 1048576)


def single_extended_entries(digest, out: int, salt_bytes: int, block: int,
                            named_sizes: tuple = ()) -> list:
    """The extended cases of a single-node BLAKE2 (BLAKE2b: out 64, salt 16, block 128; BLAKE2s:
    32, 8, 64): every digest size and key length, salt and personalization of every length,
    message lengths 0..1 MiB around block boundaries; last, the digest sizes that have names
    of their own (BLAKE2B-256, ...) around block boundaries, plain and with salt and custom."""
    def entry(name, length, key=b"", salt=b"", custom=b"", size=out):
        return extended_entry(name, length, digest, key, salt, custom, size)

    entries = []
    salt_full = bytes(range(0x10, 0x10 + salt_bytes))
    custom_full = b"blake2simd-pers!"[:salt_bytes]
    key_full = single_key_bytes(out, 1)
    half, three_quarters = out // 2, out * 3 // 4

    for length in single_boundary_lengths(block):
        entries.append(entry(f"len{length}-plain", length))
        entries.append(entry(f"len{length}-key{out}", length, key=key_full))
        entries.append(entry(f"len{length}-key17-salt-custom-size{half}", length,
                             key=single_key_bytes(17, 2), salt=salt_full, custom=custom_full,
                             size=half))
        entries.append(entry(f"len{length}-salt-custom-size{three_quarters}", length,
                             salt=salt_full, custom=custom_full, size=three_quarters))

    for size in range(1, out + 1):
        # Varying length too, so short digests also meet multi-block messages.
        length = (size * 37) % 300
        entries.append(entry(f"size{size}-plain-len{length}", length, size=size))
        entries.append(entry(f"size{size}-key{size}-len{length}", length,
                             key=single_key_bytes(size, size), size=size))

    for key_length in range(1, out + 1):
        entries.append(entry(f"key{key_length}-len100", 100,
                             key=single_key_bytes(key_length, key_length + 100)))
    entries.append(entry("key1-empty", 0, key=b"\x00"))
    entries.append(entry(f"key{out}-empty-size1", 0, key=key_full, size=1))

    for length in range(0, salt_bytes + 1):
        salt = bytes(range(0x80, 0x80 + length))
        custom = bytes(range(0x40, 0x40 + length))
        entries.append(entry(f"salt{length}-len129", 129, salt=salt))
        entries.append(entry(f"custom{length}-len129", 129, custom=custom))
        entries.append(entry(f"salt{length}-key32-len129", 129, key=single_key_bytes(32, 3),
                             salt=salt))
        entries.append(entry(f"custom{length}-key32-len129", 129, key=single_key_bytes(32, 4),
                             custom=custom))
    # All-zero and all-ones full-width fields: the parameter block must carry them verbatim.
    entries.append(entry(f"salt{salt_bytes}-zero-len3", 3, salt=bytes(salt_bytes)))
    entries.append(entry(f"custom{salt_bytes}-ff-len3", 3, custom=b"\xff" * salt_bytes))
    for size in named_sizes:
        for length in (0, 1, block - 1, block, block + 1, 3 * block + 5):
            entries.append(entry(f"named-size{size}-len{length}", length, size=size))
            entries.append(entry(f"named-size{size}-salt-custom-len{length}", length,
                                 salt=salt_full, custom=custom_full, size=size))
    return entries


def tree_key_bytes(length: int, seed: int) -> bytes:
    return bytes((0x5A ^ (seed * 31 + 11 * i)) & 0xFF for i in range(length))


def tree_extended_entries(digest, lengths: list, out: int) -> list:
    """The extended cases of a tree mode (BLAKE2bp, BLAKE2sp: size `out` only, no salt/custom):
    every length of `lengths`, unkeyed and with the longest key, then every key length."""
    def entry(name, length, key=b""):
        return extended_entry(name, length, digest, key, size=out)

    entries = []
    key_full = tree_key_bytes(out, 1)
    for length in lengths:
        entries.append(entry(f"len{length}-plain", length))
        entries.append(entry(f"len{length}-key{out}", length, key_full))
    for key_length in range(1, out + 1):
        length = (key_length * 97) % 1100
        entries.append(entry(f"key{key_length}-len{length}", length,
                             tree_key_bytes(key_length, key_length)))
    entries.append(entry("key1-empty", 0, b"\x00"))
    return entries


def random_entries(digest, out: int, salt_bytes: int, count: int, seed: int,
                   max_length: int) -> list:
    """Random parameterised single-node cases, in the extended layout, reproducible by seed."""
    rng = random.Random(seed)
    entries = []
    for index in range(count):
        length = rng.randint(0, max_length)
        key = rng.randbytes(rng.randint(1, out)) if rng.random() < 0.5 else b""
        salt = rng.randbytes(rng.randint(0, salt_bytes))
        custom = rng.randbytes(rng.randint(0, salt_bytes))
        size = rng.randint(1, out)
        message = rng.randbytes(length)
        entries.append({
            "name": f"random{index}-seed{seed}",
            "in_pattern": "hex",
            "in_len": length,
            "in": message.hex(),
            "key": key.hex(),
            "salt": salt.hex(),
            "custom": custom.hex(),
            "size": size,
            "out": digest(message, key, salt, custom, size).hex(),
        })
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


def argument_parser(description: str) -> argparse.ArgumentParser:
    """The options every generator has: --check and --dir."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--check", action="store_true",
                        help="compare the files on disk with a fresh generation; exit 1 if any "
                        "differs")
    parser.add_argument("--dir", type=Path, default=Path(__file__).resolve().parent,
                        help="directory holding the generated files (default: next to this script)")
    return parser


class _Generator:
    """What the four generators share: the official files of `hash_name` from keyed_digest and
    the write/--check driver. `script` is the generator's __file__, `doc` its docstring."""

    def __init__(self, hash_name: str, official_key: bytes, script: str, doc: str):
        self.hash_name, self.official_key = hash_name, official_key
        self.script, self.description = Path(script).name, doc.splitlines()[0]

    def keyed_digest(self, message: bytes, key: bytes) -> bytes:
        raise NotImplementedError

    def extended_entries(self) -> list:
        raise NotImplementedError

    def official_kat_txt(self) -> bytes:
        return official_kat_txt(self.keyed_digest, self.official_key)

    def official_kat_entries(self) -> list:
        return official_kat_entries(self.hash_name, self.keyed_digest, self.official_key)

    def generated_files(self) -> dict:
        return {f"{self.hash_name}-kat.txt": self.official_kat_txt(),
                f"{self.hash_name}-kat.json": format_json_array(self.official_kat_entries()),
                f"{self.hash_name}-extended.json": format_json_array(self.extended_entries())}

    def check_or_write(self, args) -> int:
        if args.check:
            return check_files(self.generated_files(), args.dir, self.script)
        return write_files(self.generated_files(), args.dir)


class SingleNode(_Generator):
    """BLAKE2b or BLAKE2s (gen_vectors.py, gen_blake2s.py) from hashlib alone: of `variant`, a
    blake2_tree.Blake2, only the sizes and hashlib_new are used."""

    def __init__(self, variant, script: str, doc: str):
        super().__init__(variant.name, OFFICIAL_KEY[:variant.out], script, doc)
        self.variant = variant

    def digest(self, message: bytes, key: bytes = b"", salt: bytes = b"", custom: bytes = b"",
               size: int = 0) -> bytes:
        """size 0: the longest digest."""
        return self.variant.hashlib_new(message, key=key, salt=salt, person=custom,
                                        digest_size=size or self.variant.out).digest()

    def keyed_digest(self, message: bytes, key: bytes) -> bytes:
        return self.digest(message, key)

    def extended_entries(self) -> list:
        variant = self.variant
        return single_extended_entries(self.digest, variant.out, variant.salt_bytes, variant.block,
                                       variant.named_sizes)

    def random_entries(self, count: int, seed: int, max_length: int) -> list:
        variant = self.variant
        return random_entries(self.digest, variant.out, variant.salt_bytes, count, seed,
                              max_length)

    def main(self) -> int:
        """Command line: write, --check, or --random N."""
        parser = argument_parser(self.description)
        parser.add_argument("--random", type=int, metavar="N",
                            help="write N random parameterised cases to --output instead")
        parser.add_argument("--seed", type=int,
                            help="seed for --random (default: $B2_SEED, else fresh; always printed)")
        parser.add_argument("--max-length", type=int, default=4096,
                            help="longest random message for --random (default 4096)")
        parser.add_argument("--output", type=Path, help="output file for --random")
        args = parser.parse_args()
        if args.random is None:
            return self.check_or_write(args)
        if args.output is None:
            parser.error("--random needs --output")
        seed = args.seed
        if seed is None and os.environ.get("B2_SEED"):
            seed = int(os.environ["B2_SEED"], 0)
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)
        print(f"random cases: {args.random}, seed {seed} (reproduce with --seed {seed})")
        entries = self.random_entries(args.random, seed, args.max_length)
        args.output.write_bytes(format_json_array(entries))
        return 0


class TreeMode(_Generator):
    """BLAKE2bp or BLAKE2sp (gen_blake2bp.py, gen_blake2sp.py): `tree` is a blake2_tree.Tree,
    `extended_lengths` the message lengths of the extended vectors."""

    def __init__(self, tree, extended_lengths: list, script: str, doc: str):
        super().__init__(tree.name, OFFICIAL_KEY[:tree.variant.out], script, doc)
        self.tree, self.extended_lengths = tree, extended_lengths

    def digest(self, message: bytes, key: bytes = b"") -> bytes:
        return self.tree.digest(message, key)

    def keyed_digest(self, message: bytes, key: bytes) -> bytes:
        return self.digest(message, key)

    def check_pure_against_hashlib(self) -> None:
        self.tree.check_pure_against_hashlib()

    def tree_digest(self, message: bytes, key: bytes, salt: bytes, custom: bytes,
                    size: int) -> bytes:
        out = self.tree.variant.out
        assert not salt and not custom and size == out, \
            f"{self.hash_name} has no salt/custom, size {out} only"
        return self.digest(message, key)

    def extended_entries(self) -> list:
        return tree_extended_entries(self.tree_digest, self.extended_lengths,
                                     self.tree.variant.out)

    def generated_files(self) -> dict:
        self.check_pure_against_hashlib()
        return super().generated_files()

    def main(self, verify_official=None) -> int:
        """Command line: write, --check, --hash FILE..., and --verify-official DIR where the
        generator has verify_official(dir) -> exit code."""
        parser = argument_parser(self.description)
        if verify_official is not None:
            parser.add_argument("--verify-official", type=Path, metavar="DIR")
        parser.add_argument("--hash", type=Path, nargs="+", metavar="FILE",
                            help='print "<hex>  <file>" (unkeyed) for each file')
        args = parser.parse_args()
        if args.hash:
            for path in args.hash:
                print(f"{self.digest(path.read_bytes()).hex()}  {path}")
            return 0
        if getattr(args, "verify_official", None) is not None:
            return verify_official(args.verify_official)
        return self.check_or_write(args)
