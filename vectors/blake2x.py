# BLAKE2Xb and BLAKE2Xs (the BLAKE2X paper) from hashlib and a pure-Python BLAKE2, none of our code.
# SPDX-License-Identifier: Apache-2.0
"""BLAKE2Xb and BLAKE2Xs, the extendable-output variants of the BLAKE2X paper (blake2x.pdf;
reference blake2xb.c, blake2xs.c). Standard library only; used by gen_blake2x.py and the tests.

  H0        BLAKE2b (BLAKE2s) of the message with digest_length 64 (32), the key, salt and
            personalization, and the XOF length in the parameter block: the 32-bit (16-bit)
            xof_length field right after the 32-bit node_offset, i.e. the upper bits of what
            hashlib calls node_offset (xof_length << 32 for both). hashlib computes it.
  B2(i)     output block i: BLAKE2 of the 64-byte (32-byte) H0, unkeyed, with digest_length
            min(64, bytes still to write), key_length 0, fanout 0, depth 0, leaf_length 64 (32),
            node_offset i, the same xof_length, node_depth 0, inner_length 64 (32) and the same
            salt and personalization. hashlib refuses depth 0, so blake2_tree.pure_hash (a BLAKE2
            with the whole parameter block) computes these, after check_pure_against_hashlib()
            has compared it with hashlib on every field hashlib can set.
  output    B2(0) || B2(1) || ... cut to the XOF length.

Known length: xof_length = the output length, 1..2^32-2 (BLAKE2Xs 1..2^16-2). Unknown length:
xof_length all ones (2^32-1, 2^16-1); the output is then a stream of full 64-byte (32-byte) blocks,
each shorter read a prefix of a longer one (as Go's x/crypto NewXOF(OutputLengthUnknown) reads;
the reference blake2xb_final instead shortens the last block's digest_length to what is left).
"""

import hashlib
import random
from dataclasses import dataclass

from blake2_tree import BLAKE2B, BLAKE2S, Blake2, parameter_block, pure_hash


@dataclass(frozen=True)
class Blake2X:
    """BLAKE2Xb (over BLAKE2B, 32-bit xof_length) or BLAKE2Xs (BLAKE2S, 16-bit)."""
    variant: Blake2
    xof_bits: int

    @property
    def name(self) -> str:
        return "blake2x" + self.variant.name[-1]

    @property
    def unknown_length(self) -> int:
        """The xof_length value that means "length not known in advance"."""
        return (1 << self.xof_bits) - 1

    @property
    def max_length(self) -> int:
        """Longest output whose length is fixed in H0."""
        return self.unknown_length - 1

    def h0(self, message: bytes, xof_length: int, key: bytes = b"", salt: bytes = b"",
           person: bytes = b"") -> bytes:
        """The root hash, from hashlib."""
        return self.variant.hashlib_new(message, key=key, salt=salt, person=person,
                                        digest_size=self.variant.out,
                                        node_offset=xof_length << 32).digest()

    def h0_pure(self, message: bytes, xof_length: int, key: bytes = b"", salt: bytes = b"",
                person: bytes = b"") -> bytes:
        """The root hash again, from pure_hash: must equal h0()."""
        params = parameter_block(self.variant, self.variant.out, len(key),
                                 node_offset=xof_length << 32, salt=salt, person=person)
        return pure_hash(self.variant, message, params, key)

    def output_block(self, h0: bytes, index: int, size: int, xof_length: int, salt: bytes = b"",
                     person: bytes = b"") -> bytes:
        """B2(index): `size` bytes (1..64 or 1..32)."""
        out = self.variant.out
        params = parameter_block(self.variant, size, 0, fanout=0, depth=0, leaf_length=out,
                                 node_offset=index | (xof_length << 32), inner_length=out,
                                 salt=salt, person=person)
        return pure_hash(self.variant, h0, params)

    def digest(self, message: bytes, length: int, key: bytes = b"", salt: bytes = b"",
               person: bytes = b"", unknown: bool = False) -> bytes:
        """`length` output bytes; unknown=True: the unknown-length mode (a stream)."""
        if self not in _CHECKED:
            self.check_pure_against_hashlib()
        out = self.variant.out
        if unknown:
            xof_length, limit = self.unknown_length, out * (1 << 32)
        else:
            xof_length, limit = length, length
            assert 1 <= length <= self.max_length, f"{self.name}: length {length} out of range"
        assert length <= limit
        h0 = self.h0(message, xof_length, key, salt, person)
        blocks = []
        for index in range((length + out - 1) // out):
            size = min(out, limit - index * out)
            blocks.append(self.output_block(h0, index, size, xof_length, salt, person))
        return b"".join(blocks)[:length]

    def check_pure_against_hashlib(self) -> None:
        """pure_hash must agree with hashlib on every parameter hashlib can express (all but
        depth 0) before it may compute any output block; H0 must come out the same both ways."""
        variant = self.variant
        for fields in _hashlib_cases(variant):
            message, key, last_node = fields.pop("message"), fields.pop("key"), fields.pop("last")
            theirs = variant.hashlib_new(message, key=key, last_node=last_node, **fields).digest()
            params = parameter_block(variant, fields["digest_size"], len(key), fields["fanout"],
                                     fields["depth"], fields["leaf_size"], fields["node_offset"],
                                     fields["node_depth"], fields["inner_size"], fields["salt"],
                                     fields["person"])
            ours = pure_hash(variant, message, params, key, last_node=last_node)
            if theirs != ours:
                raise SystemExit(f"pure-Python {variant.name} disagrees with hashlib: {fields}, "
                                 f"message {len(message)} bytes, key {len(key)}, last {last_node}")
        message = bytes(range(256))
        for xof_length in (1, 255, self.max_length, self.unknown_length):
            for key in (b"", bytes(range(variant.out))):
                salt, person = b"\x5a" * variant.salt_bytes, b"pers"
                if self.h0(message, xof_length, key, salt, person) != \
                        self.h0_pure(message, xof_length, key, salt, person):
                    raise SystemExit(f"{self.name}: H0 from pure_hash disagrees with hashlib")
        _CHECKED.add(self)


def _hashlib_cases(variant: Blake2) -> list:
    """hashlib parameter sets: each field at its extremes with the others plain, then random
    combinations (fixed seed, so every run checks the same cases)."""
    out, salt_bytes, block = variant.out, variant.salt_bytes, variant.block
    node_offset_max = (1 << (8 * variant.node_offset_bytes)) - 1
    plain = {"digest_size": out, "fanout": 1, "depth": 1, "leaf_size": 0, "node_offset": 0,
             "node_depth": 0, "inner_size": 0, "salt": b"", "person": b"", "message": b"abc",
             "key": b"", "last": False}
    extremes = {"digest_size": (1, out // 2 + 1, out), "fanout": (0, 2, 255), "depth": (2, 255),
                "leaf_size": (1, 64, 2**32 - 1), "inner_size": (1, out),
                "node_offset": (1, 5 | (7 << 32), node_offset_max), "node_depth": (1, 255),
                "salt": (b"\x01", bytes(range(1, salt_bytes + 1)), b"\xff" * salt_bytes),
                "person": (b"p", b"\x80" * salt_bytes),
                "message": tuple(bytes((7 * i + 3) & 0xFF for i in range(n))
                                 for n in (0, 1, block - 1, block, block + 1, 2 * block + 1)),
                "key": (b"\x00", bytes(range(out))), "last": (True,)}
    cases = [dict(plain, **{field: value}) for field, values in extremes.items()
             for value in values]
    rng = random.Random(20261201)
    for _ in range(60):
        cases.append({field: rng.choice(values + (plain[field],))
                      for field, values in extremes.items()})
    return cases


# Members whose pure_hash passed check_pure_against_hashlib in this process.
_CHECKED = set()

BLAKE2XB = Blake2X(BLAKE2B, 32)
BLAKE2XS = Blake2X(BLAKE2S, 16)
