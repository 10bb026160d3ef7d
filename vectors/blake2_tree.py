# Pure-Python BLAKE2b/BLAKE2s (for tree roots) and the BLAKE2bp/BLAKE2sp tree modes over hashlib.
# SPDX-License-Identifier: Apache-2.0
"""The 4-leaf BLAKE2bp and the 8-leaf BLAKE2sp (BLAKE2 paper, section 2.10; reference blake2bp.c
and blake2sp.c), shared by gen_blake2bp.py and gen_blake2sp.py. Standard library only.

The message is cut into blocks (128 bytes for BLAKE2b, 64 for BLAKE2s) dealt round-robin to the
leaves (block j to leaf j % leaves). Every node is BLAKE2 with fanout = leaves, depth 2,
leaf_length 0, inner_length = digest_length = the longest digest (64 or 32) and the key length.
Leaf i has node_offset i and node_depth 0 and absorbs the key block (when keyed), then its blocks;
the last leaf is the last node. The root has node_offset 0, node_depth 1, is the last node and
absorbs the leaf digests but never a key block, although its parameter block carries the key length.

hashlib computes every leaf (its tree parameters and key= match exactly). It cannot compute a keyed
root (key_length without a key block), so roots come from pure_hash(), an RFC 7693 BLAKE2b/BLAKE2s
written here from the RFC and checked against hashlib, plain, keyed and as a tree node, before any
vector is produced. Unkeyed roots are computed both ways and must agree.
"""

import hashlib
from dataclasses import dataclass

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


@dataclass(frozen=True)
class Blake2:
    """One member of the family as RFC 7693 section 2.1 parameterises it."""
    name: str
    word_bits: int
    rounds: int
    rotations: tuple  # R1..R4
    iv: tuple
    node_offset_bytes: int  # node_offset plus xof_length in the parameter block
    hashlib_new: object
    named_sizes: tuple  # the shorter digest lengths RFC 7693 section 4 names (BLAKE2B-256, ...)

    @property
    def word_bytes(self) -> int:
        return self.word_bits // 8

    @property
    def block(self) -> int:
        return 16 * self.word_bytes

    @property
    def out(self) -> int:
        """Longest digest, also the longest key."""
        return 8 * self.word_bytes

    @property
    def salt_bytes(self) -> int:
        """Length of the salt field, and of the personalization field."""
        return 2 * self.word_bytes

    @property
    def mask(self) -> int:
        return (1 << self.word_bits) - 1


BLAKE2B = Blake2("blake2b", 64, 12, (32, 24, 16, 63),
                 (0x6A09E667F3BCC908, 0xBB67AE8584CAA73B, 0x3C6EF372FE94F82B, 0xA54FF53A5F1D36F1,
                  0x510E527FADE682D1, 0x9B05688C2B3E6C1F, 0x1F83D9ABFB41BD6B, 0x5BE0CD19137E2179),
                 8, hashlib.blake2b, (20, 32, 48))
BLAKE2S = Blake2("blake2s", 32, 10, (16, 12, 8, 7),
                 (0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A,
                  0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19),
                 6, hashlib.blake2s, (16, 20, 28))


# ---------------------------------------------------------------- pure-Python BLAKE2 (RFC 7693)


def _compress(variant: Blake2, h: list, block: bytes, counter: int, last_block: bool,
              last_node: bool) -> None:
    size, mask, bits = variant.word_bytes, variant.mask, variant.word_bits
    m = [int.from_bytes(block[size * i:size * i + size], "little") for i in range(16)]
    v = h[:] + list(variant.iv)
    v[12] ^= counter & mask
    v[13] ^= counter >> bits
    if last_block:
        v[14] ^= mask
    if last_node:
        v[15] ^= mask
    r1, r2, r3, r4 = variant.rotations
    l1, l2, l3, l4 = bits - r1, bits - r2, bits - r3, bits - r4

    # G on values, not list slots: the generators spend most of their time here.
    def g(a, b, c, d, x, y):
        a = (a + b + x) & mask
        d ^= a
        d = ((d >> r1) | (d << l1)) & mask
        c = (c + d) & mask
        b ^= c
        b = ((b >> r2) | (b << l2)) & mask
        a = (a + b + y) & mask
        d ^= a
        d = ((d >> r3) | (d << l3)) & mask
        c = (c + d) & mask
        b ^= c
        b = ((b >> r4) | (b << l4)) & mask
        return a, b, c, d

    v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15 = v
    for r in range(variant.rounds):
        s = SIGMA[r % 10]
        v0, v4, v8, v12 = g(v0, v4, v8, v12, m[s[0]], m[s[1]])
        v1, v5, v9, v13 = g(v1, v5, v9, v13, m[s[2]], m[s[3]])
        v2, v6, v10, v14 = g(v2, v6, v10, v14, m[s[4]], m[s[5]])
        v3, v7, v11, v15 = g(v3, v7, v11, v15, m[s[6]], m[s[7]])
        v0, v5, v10, v15 = g(v0, v5, v10, v15, m[s[8]], m[s[9]])
        v1, v6, v11, v12 = g(v1, v6, v11, v12, m[s[10]], m[s[11]])
        v2, v7, v8, v13 = g(v2, v7, v8, v13, m[s[12]], m[s[13]])
        v3, v4, v9, v14 = g(v3, v4, v9, v14, m[s[14]], m[s[15]])
    v = (v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15)
    for i in range(8):
        h[i] ^= v[i] ^ v[i + 8]


def parameter_block(variant: Blake2, digest_size: int, key_length: int, fanout: int = 1,
                    depth: int = 1, leaf_length: int = 0, node_offset: int = 0,
                    node_depth: int = 0, inner_length: int = 0, salt: bytes = b"",
                    person: bytes = b"") -> bytes:
    """The 64-byte (BLAKE2b) or 32-byte (BLAKE2s) parameter block, every field of RFC 7693
    section 2.8 / the BLAKE2 paper section 2.8. node_offset includes BLAKE2X's xof_length (its
    upper 32 bits for BLAKE2b, upper 16 for BLAKE2s); short salt and person are zero-padded."""
    head = (bytes((digest_size, key_length, fanout, depth)) + leaf_length.to_bytes(4, "little")
            + node_offset.to_bytes(variant.node_offset_bytes, "little")
            + bytes((node_depth, inner_length)))
    width = variant.salt_bytes
    assert len(salt) <= width and len(person) <= width, "salt/person too long"
    # BLAKE2b has 14 reserved bytes before salt and personalization; BLAKE2s none.
    return (head.ljust(variant.out - 2 * width, b"\0") + salt.ljust(width, b"\0")
            + person.ljust(width, b"\0"))


def pure_hash(variant: Blake2, message: bytes, params: bytes, key: bytes = b"",
              last_node: bool = False, absorb_key: bool = True, out_length: int = 0) -> bytes:
    """BLAKE2 over `message` from the parameter block `params`. With absorb_key the zero-padded
    key is the first block (ordinary keyed BLAKE2); without it the parameter block alone carries
    the key length, as for a tree root. out_length 0: the block's digest length (a sized tree's
    leaves output their full inner length instead)."""
    size, block = variant.word_bytes, variant.block
    h = [variant.iv[i] ^ int.from_bytes(params[size * i:size * i + size], "little")
         for i in range(8)]
    data = (key.ljust(block, b"\0") if key and absorb_key else b"") + message
    full_blocks = max(0, (len(data) - 1) // block)
    for j in range(full_blocks):
        _compress(variant, h, data[block * j:block * (j + 1)], block * (j + 1), False, False)
    tail = data[block * full_blocks:]
    _compress(variant, h, tail.ljust(block, b"\0"), len(data), True, last_node)
    return b"".join(word.to_bytes(size, "little") for word in h)[:out_length or params[0]]


# ---------------------------------------------------------------- tree mode


@dataclass(frozen=True)
class Tree:
    """BLAKE2bp (BLAKE2B, 4 leaves) or BLAKE2sp (BLAKE2S, 8 leaves)."""
    variant: Blake2
    leaves: int

    @property
    def name(self) -> str:
        return self.variant.name + "p"

    def params(self, key_length: int, node_offset: int, node_depth: int, size: int = 0) -> bytes:
        """size: the tree's digest length, in every node's block (0: the longest)."""
        out = self.variant.out
        return parameter_block(self.variant, size or out, key_length, self.leaves, 2, 0,
                               node_offset, node_depth, out)

    def leaf_messages(self, message: bytes) -> list:
        block = self.variant.block
        blocks = [message[i:i + block] for i in range(0, len(message), block)]
        return [b"".join(blocks[leaf::self.leaves]) for leaf in range(self.leaves)]

    def hashlib_node(self, message: bytes, key: bytes, node_offset: int, node_depth: int,
                     last_node: bool) -> bytes:
        out = self.variant.out
        return self.variant.hashlib_new(message, key=key, digest_size=out, fanout=self.leaves,
                                        depth=2, leaf_size=0, node_offset=node_offset,
                                        node_depth=node_depth, inner_size=out,
                                        last_node=last_node).digest()

    def digest(self, message: bytes, key: bytes = b"", size: int = 0) -> bytes:
        """size: 1..out as the reference blake2bp/blake2sp define it (0: the longest)."""
        if self not in _CHECKED:
            self.check_pure_against_hashlib()
        if size and size != self.variant.out:
            return self.sized_digest(message, key, size)
        digests = b"".join(self.hashlib_node(part, key, leaf, 0, leaf == self.leaves - 1)
                           for leaf, part in enumerate(self.leaf_messages(message)))
        root = pure_hash(self.variant, digests, self.params(len(key), 0, 1), key, last_node=True,
                         absorb_key=False)
        # Two independent computations of the same unkeyed root must agree.
        if not key and self.hashlib_node(digests, b"", 0, 1, True) != root:
            raise SystemExit(f"{self.name}: pure-Python root disagrees with hashlib's")
        return root

    def sized_digest(self, message: bytes, key: bytes, size: int) -> bytes:
        """Every node's block names `size`; the leaves still output their full inner length,
        which hashlib cannot (its digest_size is both), so the pure-Python BLAKE2 computes."""
        out = self.variant.out
        digests = b"".join(
            pure_hash(self.variant, part, self.params(len(key), leaf, 0, size), key,
                      last_node=leaf == self.leaves - 1, out_length=out)
            for leaf, part in enumerate(self.leaf_messages(message)))
        return pure_hash(self.variant, digests, self.params(len(key), 0, 1, size), key,
                         last_node=True, absorb_key=False)

    def check_pure_against_hashlib(self) -> None:
        """pure_hash must agree with hashlib before it may produce any vector."""
        variant, block, out = self.variant, self.variant.block, self.variant.out
        for length in (0, 1, block - 1, block, block + 1, 2 * block - 1, 2 * block,
                       2 * block + 1, 300):
            message = bytes((7 * i + 3) & 0xFF for i in range(length))
            for key in (b"", b"\x01", bytes(range(17)), bytes(range(out))):
                for size in (out, out // 2, 1):
                    theirs = variant.hashlib_new(message, key=key, digest_size=size).digest()
                    ours = pure_hash(variant, message, parameter_block(variant, size, len(key)),
                                     key)
                    if theirs != ours:
                        raise SystemExit(f"pure-Python {variant.name} disagrees with hashlib: "
                                         f"length {length}, key {len(key)}, size {size}")
        # The tree fields and the last-node flag, on the same leaf hashlib can compute.
        message = bytes(range(200))
        for offset, last in ((0, False), (self.leaves - 1, True)):
            theirs = self.hashlib_node(message, b"k" * 9, offset, 0, last)
            ours = pure_hash(variant, message, self.params(9, offset, 0), b"k" * 9, last_node=last)
            if theirs != ours:
                raise SystemExit(f"pure-Python {variant.name} tree node disagrees with hashlib "
                                 f"(offset {offset})")
        _CHECKED.add(self)


# Trees whose pure-Python root passed check_pure_against_hashlib in this process.
_CHECKED = set()


BLAKE2BP = Tree(BLAKE2B, 4)
BLAKE2SP = Tree(BLAKE2S, 8)
