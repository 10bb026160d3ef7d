#!/usr/bin/env python3
"""Writes evp_blake2_names.txt: stanzas for OpenSSL's test/evp_test covering the algorithms only
blake2simd has by name: the RFC 7693 sizes (BLAKE2B-160/256/384, BLAKE2S-128/160/224), the
BLAKE2XB and BLAKE2XS digests and the BLAKE2XBMAC and BLAKE2XSMAC MACs.

The expected outputs are computed here, independently of OpenSSL and of our C++: the sizes by
Python's own hashlib (CPython's bundled BLAKE2, never libcrypto), BLAKE2X by vectors/blake2x.py
(H0 from hashlib, output blocks from a pure-Python BLAKE2 checked against hashlib first).

How evp_test drives them (test/evp_test.c):
  Digest, `XOF = 1`        sends `xoflen` = the Output length to EVP_DigestInit_ex2: the
                           known-length mode (the length in H0, as the official vectors); it
                           then calls EVP_DigestFinalXOF with length 0 on a copy and on a dup
                           (which must succeed and write nothing) before the real one
  Digest, `OutputSize = N` sends `size` at init: the known-length mode too
  Digest, neither          a plain init, then EVP_DigestFinalXOF (EVP_MD_xof is 1): the
                           unknown-length mode
  MAC, `Ctrl = size:N`     the known-length MAC of N bytes; EVP_MAC_final, then a NULL-key
                           re-init and the same again, then EVP_Q_mac
  MAC, `Ctrl = xof:1`, XOF the unknown-length mode, read with EVP_MAC_finalXOF. evp_test (4.0)
                           first requires the MAC size after EVP_MAC_init to equal the fresh
                           context's when no `size` is passed; ours is 64 (32) before and 0 in
                           the unknown-length mode (as the digest's: no length is fixed), so
                           these stanzas stop at "MAC SIZE check failed" before any output:
                           the expected Result until the provider reports a size there (see
                           UNKNOWN_MAC_RESULT); their outputs are checked by evp.blake2x
  Result = ..._ERROR       a refusal: the init must fail
With only base and blake2simd active (tools/ci/evp-test.sh), nothing else has these names; with
base alone every stanza fails to fetch.

usage: gen_blake2_names.py [--check]   (--check: exit 1 if the committed file differs)
SPDX-License-Identifier: Apache-2.0
"""
import hashlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "..", "vectors")]
from blake2x import BLAKE2XB, BLAKE2XS  # noqa: E402  (needs the path set above)
from stanza_files import write_or_check  # noqa: E402

OUTPUT = os.path.join(HERE, "evp_blake2_names.txt")
SIZES = (("BLAKE2B-160", hashlib.blake2b, 20), ("BLAKE2B-256", hashlib.blake2b, 32),
         ("BLAKE2B-384", hashlib.blake2b, 48), ("BLAKE2S-128", hashlib.blake2s, 16),
         ("BLAKE2S-160", hashlib.blake2s, 20), ("BLAKE2S-224", hashlib.blake2s, 28))
# What evp_test says of an unknown-length MAC stanza (see the docstring); None: its Output.
UNKNOWN_MAC_RESULT = "MAC SIZE check failed"
XOFS = (("BLAKE2XB", "BLAKE2XBMAC", BLAKE2XB), ("BLAKE2XS", "BLAKE2XSMAC", BLAKE2XS))


def pattern(length, seed):
    return bytes((seed * 37 + i * 13 + (i >> 8)) & 0xFF for i in range(length))


def stanza(kind, name, lines, output=None, result=None):
    body = [f"{kind} = {name}", *lines]
    body.append(f"Output = {output.hex()}" if result is None else f"Result = {result}")
    return "\n".join(body)


def size_stanzas():
    out = []
    for name, new, size in SIZES:
        block = new().block_size
        salt, person = pattern(new.SALT_SIZE, 1), pattern(new.PERSON_SIZE, 2)
        for length in (0, 3, block - 1, block, block + 1, 1000):
            message = pattern(length, size + length)
            out.append(stanza("Digest", name, [f"Input = {message.hex()}"],
                              new(message, digest_size=size).digest()))
        message = b"abc"
        out.append(stanza("Digest", name, ["Input = 616263", f"OutputSize = {size}"],
                          new(message, digest_size=size).digest()))
        out.append(stanza("Digest", name, ["Input = 616263", f"Ctrl = hexsalt:{salt.hex()}",
                                           f"Ctrl = hexcustom:{person.hex()}"],
                          new(message, digest_size=size, salt=salt, person=person).digest()))
        # A size other than the name's own is refused at init.
        for other in (size - 1, size + 1):
            out.append(stanza("Digest", name, ["Input = 616263", f"OutputSize = {other}"],
                              result="DIGESTINIT_ERROR"))
    return out


def xof_digest_stanzas(name, xof):
    out, width = [], xof.variant.out
    official = bytes(range(256))
    for length in (1, width - 1, width, width + 1, 2 * width + 1, 256, 1000):
        out.append(stanza("Digest", name, [f"Input = {official.hex()}", "XOF = 1"],
                          xof.digest(official, length)))
    for length in (width // 2, 3 * width):
        message = pattern(200, length)
        out.append(stanza("Digest", name, [f"Input = {message.hex()}", f"OutputSize = {length}"],
                          xof.digest(message, length)))
    salt, person = pattern(xof.variant.salt_bytes, 3), pattern(xof.variant.salt_bytes, 4)
    for length in (7, 2 * width + 5):
        out.append(stanza("Digest", name, ["Input = 616263", "XOF = 1",
                                           f"Ctrl = hexsalt:{salt.hex()}",
                                           f"Ctrl = hexcustom:{person.hex()}"],
                          xof.digest(b"abc", length, salt=salt, person=person)))
    for length in (1, width, width + 1, 5 * width + 3):
        message = pattern(150, length + 1)
        out.append(stanza("Digest", name, [f"Input = {message.hex()}"],
                          xof.digest(message, length, unknown=True)))
    out.append(stanza("Digest", name, ["Input = 616263", f"Ctrl = hexsalt:{salt.hex()}"],
                      xof.digest(b"abc", 40, salt=salt, unknown=True)))
    # Init lengths outside 1..maximum: 0, the unknown-length sentinel, one past it.
    for bad in (0, xof.unknown_length, xof.unknown_length + 1):
        out.append(stanza("Digest", name, ["Input = 616263", f"Ctrl = xoflen:{bad}"],
                          result="DIGESTINIT_ERROR"))
    return out


def xof_mac_stanzas(name, xof):
    out, width = [], xof.variant.out
    official, official_key = bytes(range(256)), bytes(range(width))
    for length in (1, width - 1, width, width + 1, 2 * width + 1, 256):
        out.append(stanza("MAC", name, [f"Key = {official_key.hex()}",
                                        f"Input = {official.hex()}", f"Ctrl = size:{length}",
                                        f"OutputSize = {length}"],
                          xof.digest(official, length, official_key)))
    key, salt, person = pattern(17, 5), pattern(xof.variant.salt_bytes, 6), b"custom"
    out.append(stanza("MAC", name, [f"Key = {key.hex()}", "Input = 616263",
                                    f"OutputSize = {width}"],
                      xof.digest(b"abc", width, key)))
    out.append(stanza("MAC", name, [f"Key = {key.hex()}", "Input = 616263",
                                    f"Salt = {salt.hex()}", f"Custom = {person.hex()}",
                                    "Ctrl = size:100"],
                      xof.digest(b"abc", 100, key, salt, person)))
    for length in (1, width, 3 * width + 1):
        message = pattern(300, length + 7)
        out.append(stanza("MAC", name, [f"Key = {key.hex()}", f"Input = {message.hex()}",
                                        "Ctrl = xof:1", "XOF = 1"],
                          xof.digest(message, length, key, unknown=True), UNKNOWN_MAC_RESULT))
    out.append(stanza("MAC", name, [f"Key = {pattern(width + 1, 7).hex()}", "Input = 616263"],
                      result="MAC_INIT_ERROR"))
    for bad in (0, xof.unknown_length):
        out.append(stanza("MAC", name, [f"Key = {key.hex()}", "Input = 616263",
                                        f"Ctrl = size:{bad}"], result="MAC_INIT_ERROR"))
    return out


def render():
    header = ("# Generated by gen_blake2_names.py: do not edit. Expected values come from Python's\n"
              "# hashlib and vectors/blake2x.py, not from OpenSSL or blake2simd.\n"
              "# SPDX-License-Identifier: Apache-2.0\n")
    parts = ["Title = The RFC 7693 sizes by name"] + size_stanzas()
    for digest, mac, xof in XOFS:
        parts += [f"Title = {digest}: known length (XOF = 1, OutputSize), unknown length, refusals"]
        parts += xof_digest_stanzas(digest, xof)
        parts += [f"Title = {mac}: known length (size), unknown length (xof:1), refusals"]
        if UNKNOWN_MAC_RESULT:
            parts += [f"# The xof:1 stanzas end in Result = {UNKNOWN_MAC_RESULT}: evp_test wants the\n"
                      "# MAC size unchanged by init, ours is 0 in the unknown-length mode (see\n"
                      "# gen_blake2_names.py)."]
        parts += xof_mac_stanzas(mac, xof)
    return header + "\n" + "\n\n".join(parts) + "\n"


def main():
    return write_or_check(OUTPUT, render())


if __name__ == "__main__":
    sys.exit(main())
