#!/usr/bin/env python3
# Random BLAKE2b/BLAKE2s cases with the whole parameter block, from Python's hashlib alone.
# SPDX-License-Identifier: Apache-2.0
"""Writes test cases whose answers come from hashlib.blake2b / hashlib.blake2s (CPython's own
BLAKE2, which takes every field of the parameter block), never from our code:

  --random N --family blake2b|blake2s --output FILE
      N cases in the extended layout (gen_vectors.py's docstring) plus the tree fields
      "fanout", "depth", "leaf_size", "node_offset" (a decimal string: it may need 64 bits),
      "node_depth", "inner_size", "last_node" (0/1): every field at its edges or random, keys,
      salt and personalization of every length, messages across block edges; then trees, objects
      with "tree": 1 built the way bt2sum's unlimited-fanout mode builds them (hashlib's own
      documentation example, generalised): the message cut into leaves of "leaf_size" bytes
      (an empty message is one empty leaf), leaf i hashed with fanout 0, depth 2, node offset i,
      node depth 0, inner size "size", the last leaf with last_node; the root hashes the leaf
      digests with node depth 1 and last_node. Their "out" is the root.

--seed S (default: $B2_SEED, else fresh; always printed) reproduces a file.
"""

import argparse
import hashlib
import json
import os
import random
import sys
from pathlib import Path

FAMILIES = {
    # longest digest and key, salt/personalization bytes, block, node-offset bits
    "blake2b": (hashlib.blake2b, 64, 16, 128, 64),
    "blake2s": (hashlib.blake2s, 32, 8, 64, 48),
}


def edge_or_random(rng: random.Random, low: int, high: int) -> int:
    roll = rng.random()
    if roll < 0.25:
        return low
    if roll < 0.5:
        return high
    return rng.randint(low, high)


def message_length(rng: random.Random, block: int) -> int:
    if rng.random() < 0.5:
        return max(0, rng.randint(0, 4) * block + rng.randint(-1, 1))
    return rng.randint(0, 4 * block + 3)


def random_case(rng: random.Random, family: str, index: int, seed: int) -> dict:
    new, out, salt_bytes, block, offset_bits = FAMILIES[family]
    fields = {
        "fanout": edge_or_random(rng, 0, 255),
        "depth": edge_or_random(rng, 1, 255),
        "leaf_size": edge_or_random(rng, 0, 2**32 - 1),
        "node_offset": edge_or_random(rng, 0, 2**offset_bits - 1),
        "node_depth": edge_or_random(rng, 0, 255),
        "inner_size": edge_or_random(rng, 0, out),
        "last_node": rng.randint(0, 1),
    }
    key = rng.randbytes(edge_or_random(rng, 1, out)) if rng.random() < 0.5 else b""
    salt = rng.randbytes(edge_or_random(rng, 0, salt_bytes))
    custom = rng.randbytes(edge_or_random(rng, 0, salt_bytes))
    size = edge_or_random(rng, 1, out)
    message = rng.randbytes(message_length(rng, block))
    digest = new(message, digest_size=size, key=key, salt=salt, person=custom,
                 fanout=fields["fanout"], depth=fields["depth"], leaf_size=fields["leaf_size"],
                 node_offset=fields["node_offset"], node_depth=fields["node_depth"],
                 inner_size=fields["inner_size"], last_node=bool(fields["last_node"])).digest()
    case = {
        "name": f"{family}-tree-params{index}-seed{seed}",
        "in_pattern": "hex",
        "in_len": len(message),
        "in": message.hex(),
        "key": key.hex(),
        "salt": salt.hex(),
        "custom": custom.hex(),
        "size": size,
        "out": digest.hex(),
    }
    case.update(fields)
    case["node_offset"] = str(fields["node_offset"])
    return case


def tree_case(rng: random.Random, family: str, index: int, seed: int) -> dict:
    new, out, _, block, _ = FAMILIES[family]
    size = rng.choice((out, out // 2, rng.randint(1, out)))
    leaf_size = rng.choice((block, 2 * block, rng.randint(1, 3 * block)))
    message = rng.randbytes(rng.choice((0, leaf_size, rng.randint(1, 9 * leaf_size))))
    leaves = [message[i:i + leaf_size] for i in range(0, len(message), leaf_size)] or [b""]
    common = {"digest_size": size, "fanout": 0, "depth": 2, "leaf_size": leaf_size,
              "inner_size": size}
    digests = b"".join(
        new(leaf, node_offset=i, node_depth=0, last_node=i == len(leaves) - 1, **common).digest()
        for i, leaf in enumerate(leaves))
    root = new(digests, node_offset=0, node_depth=1, last_node=True, **common).digest()
    return {
        "name": f"{family}-tree{index}-seed{seed}",
        "tree": 1,
        "in_pattern": "hex",
        "in_len": len(message),
        "in": message.hex(),
        "key": "",
        "salt": "",
        "custom": "",
        "size": size,
        "leaf_size": leaf_size,
        "out": root.hex(),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--random", type=int, metavar="N", required=True)
    parser.add_argument("--family", choices=sorted(FAMILIES), required=True)
    parser.add_argument("--trees", type=int, default=40, help="tree cases (default 40)")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--output", type=Path, required=True)
    args = parser.parse_args()
    seed = args.seed
    if seed is None:
        seed = int(os.environ["B2_SEED"]) if os.environ.get("B2_SEED") else \
            random.SystemRandom().randrange(2**32)
    print(f"{args.family}: {args.random} parameter-block cases and {args.trees} trees, "
          f"seed {seed} (reproduce with --seed {seed})")
    rng = random.Random(seed)
    cases = [random_case(rng, args.family, i, seed) for i in range(args.random)]
    cases += [tree_case(rng, args.family, i, seed) for i in range(args.trees)]
    args.output.write_text(json.dumps(cases, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
