#!/usr/bin/env python3
"""Writes evp_blake2b_composites.txt: stanzas for OpenSSL's test/evp_test covering the algorithms
that use BLAKE2B-512 as their digest (HMAC through EVP_MAC and EVP_PKEY, HKDF, PBKDF2, the PKCS#12
KDF, TLS1-PRF, SSKDF with hash and HMAC, X963KDF, SSHKDF, KBKDF in counter mode with HMAC).

The expected outputs are computed here, independently of OpenSSL: BLAKE2b is Python's own
(hashlib.blake2b is CPython's bundled BLAKE2 code, never libcrypto) and every construction is
written out below from its specification. Each stanza asks for its inner digest with
`properties:provider=blake2simd`, so it fails unless blake2simd serves BLAKE2B-512. Where that is
impossible the stanza relies on the configuration's preference for blake2simd: the EVP_PKEY HMAC
stanzas take no properties, and TLS1-PRF, SSKDF and KBKDF over HMAC would apply them to their
fetch of HMAC too.
tools/ci/evp-test.sh also runs the file with those lines removed under OpenSSL's default
provider alone, which checks this generator against OpenSSL's own composites.

usage: gen_blake2b_composites.py [--check]   (--check: exit 1 if the committed file differs)
SPDX-License-Identifier: Apache-2.0
"""
import hashlib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stanza_files import write_or_check  # noqa: E402

DIGEST = "BLAKE2B-512"
FORCE_OURS = "properties:provider=blake2simd"
BLOCK_SIZE = 128  # BLAKE2b's block in bytes: HMAC's pad and the PKCS#12 KDF's v
OUTPUT_SIZE = 64
HERE = os.path.dirname(os.path.abspath(__file__))
OUTPUT = os.path.join(HERE, "evp_blake2b_composites.txt")


def blake2b(data):
    return hashlib.blake2b(data, digest_size=OUTPUT_SIZE).digest()


def hmac(key, message):
    """RFC 2104."""
    if len(key) > BLOCK_SIZE:
        key = blake2b(key)
    key = key.ljust(BLOCK_SIZE, b"\0")
    inner = blake2b(bytes(k ^ 0x36 for k in key) + message)
    return blake2b(bytes(k ^ 0x5C for k in key) + inner)


def be32(n):
    return n.to_bytes(4, "big")


def counter_blocks(block, length):
    """block(i) for i = 1, 2, ... concatenated and cut to length."""
    out = b""
    i = 1
    while len(out) < length:
        out += block(i)
        i += 1
    return out[:length]


def hkdf(ikm, salt, info, length):
    """RFC 5869: extract, then expand."""
    prk = hmac(salt, ikm)
    out, t, i = b"", b"", 1
    while len(out) < length:
        t = hmac(prk, t + info + bytes([i]))
        out += t
        i += 1
    return out[:length]


def pbkdf2(password, salt, iterations, length):
    """RFC 8018 section 5.2."""

    def block(i):
        u = hmac(password, salt + be32(i))
        result = bytearray(u)
        for _ in range(iterations - 1):
            u = hmac(password, u)
            result = bytearray(a ^ b for a, b in zip(result, u))
        return bytes(result)

    return counter_blocks(block, length)


def pkcs12_kdf(password, salt, key_id, iterations, length):
    """RFC 7292 appendix B.2; password is already the BMPString with its two zero bytes."""
    v, u = BLOCK_SIZE, OUTPUT_SIZE

    def stretch(data):
        if not data:
            return b""
        size = v * ((len(data) + v - 1) // v)
        return (data * (size // len(data) + 1))[:size]

    d = bytes([key_id]) * v
    i = bytearray(stretch(salt) + stretch(password))
    out = b""
    while len(out) < length:
        a = d + bytes(i)
        for _ in range(iterations):
            a = blake2b(a)
        out += a
        b = int.from_bytes(stretch(a), "big") + 1
        for j in range(0, len(i), v):
            chunk = (int.from_bytes(i[j:j + v], "big") + b) % (1 << (8 * v))
            i[j:j + v] = chunk.to_bytes(v, "big")
    assert u == OUTPUT_SIZE
    return out[:length]


def tls1_prf(secret, seed, length):
    """RFC 5246 section 5: P_hash with HMAC over the digest."""
    out, a = b"", seed
    while len(out) < length:
        a = hmac(secret, a)
        out += hmac(secret, a + seed)
    return out[:length]


def sskdf_hash(z, info, length):
    """NIST SP 800-56C rev2 one-step KDF, H(counter || Z || FixedInfo)."""
    return counter_blocks(lambda i: blake2b(be32(i) + z + info), length)


def sskdf_hmac(z, salt, info, length):
    """The same, with H = HMAC keyed by the salt."""
    return counter_blocks(lambda i: hmac(salt, be32(i) + z + info), length)


def x963kdf(z, shared_info, length):
    """ANSI X9.63 (SEC 1 section 3.6.1): H(Z || counter || SharedInfo)."""
    return counter_blocks(lambda i: blake2b(z + be32(i) + shared_info), length)


def sshkdf(k, h, key_type, session_id, length):
    """RFC 4253 section 7.2; k is the shared secret already encoded as an mpint."""
    out = blake2b(k + h + key_type.encode() + session_id)
    while len(out) < length:
        out += blake2b(k + h + out)
    return out[:length]


def kbkdf_counter(key, label, context, length):
    """NIST SP 800-108 counter mode, HMAC as PRF, as OpenSSL's defaults lay it out: a 32-bit
    counter first, then Label, a zero byte, Context and L (the output length in bits, 32 bits)."""
    fixed = label + b"\0" + context + be32(8 * length)
    return counter_blocks(lambda i: hmac(key, be32(i) + fixed), length)


def pattern(length, seed):
    """Deterministic, non-repeating-looking bytes."""
    return bytes((seed + 37 * i + (i >> 8)) & 0xFF for i in range(length))


def mpint(value):
    """SSH mpint encoding of a positive number given as big-endian bytes."""
    value = value.lstrip(b"\0")
    if value and value[0] & 0x80:
        value = b"\0" + value
    return be32(len(value)) + value


def stanza(kind, name, lines, output, forced=True):
    body = [f"{kind} = {name}"] + lines
    if forced:
        body.append(("Ctrl = " if kind == "MAC" else "Ctrl.properties = ") + FORCE_OURS)
    body.append(f"Output = {output.hex()}")
    return "\n".join(body)


def mac_stanzas():
    cases = [(b"", b""), (pattern(20, 1), b"Hi There"), (pattern(64, 2), pattern(1000, 3)),
             (pattern(128, 4), pattern(129, 5)), (pattern(131, 6), pattern(300, 7)),
             (pattern(200, 8), b"key longer than the block is hashed first")]
    out = []
    for key, message in cases:
        common = [f"Algorithm = {DIGEST}", f"Key = {key.hex()}", f"Input = {message.hex()}"]
        expected = hmac(key, message)
        out.append(stanza("MAC", "HMAC", common + ["OutputSize = 64", "BlockSize = 128"],
                          expected))
        if key:  # EVP_PKEY HMAC keys cannot be empty
            out.append(stanza("MAC", "HMAC by EVP_PKEY", common, expected, forced=False))
    return out


def kdf_stanzas():
    out = []
    digest = f"Ctrl.digest = digest:{DIGEST}"
    for ikm, salt, info, length in ((pattern(22, 9), pattern(13, 10), pattern(10, 11), 42),
                                    (pattern(80, 12), pattern(80, 13), pattern(80, 14), 200),
                                    (pattern(22, 15), b"", b"", 64)):
        out.append(stanza("KDF", "HKDF", [digest, f"Ctrl.IKM = hexkey:{ikm.hex()}",
                                          f"Ctrl.salt = hexsalt:{salt.hex()}",
                                          f"Ctrl.info = hexinfo:{info.hex()}"],
                          hkdf(ikm, salt, info, length)))
    for password, salt, iterations, length in ((b"password", b"saltsaltsaltsalt", 1, 64),
                                               (b"password", b"saltsaltsaltsalt", 2, 64),
                                               (b"passwordPASSWORDpassword",
                                                b"saltSALTsaltSALTsaltSALTsaltSALTsalt", 1000, 150)):
        out.append(stanza("KDF", "PBKDF2", ["Ctrl.pkcs5 = pkcs5:1",
                                            f"Ctrl.pass = hexpass:{password.hex()}",
                                            f"Ctrl.salt = hexsalt:{salt.hex()}",
                                            f"Ctrl.iter = iter:{iterations}", digest],
                          pbkdf2(password, salt, iterations, length)))
    bmp_password = "smeg".encode("utf-16-be") + b"\0\0"
    for key_id, iterations, length in ((1, 1, 24), (2, 1, 8), (3, 1, 64), (1, 1000, 100)):
        salt = pattern(8, 16 + key_id)
        out.append(stanza("KDF", "PKCS12KDF", [digest, f"Ctrl.pass = hexpass:{bmp_password.hex()}",
                                               f"Ctrl.salt = hexsalt:{salt.hex()}",
                                               f"Ctrl.iter = iter:{iterations}",
                                               f"Ctrl.id = id:{key_id}"],
                          pkcs12_kdf(bmp_password, salt, key_id, iterations, length)))
    for secret, seed, length in ((pattern(48, 20), pattern(77, 21), 48),
                                 (pattern(150, 22), pattern(64, 23), 200)):
        out.append(stanza("KDF", "TLS1-PRF", [digest, f"Ctrl.Secret = hexsecret:{secret.hex()}",
                                              f"Ctrl.seed = hexseed:{seed.hex()}"],
                          tls1_prf(secret, seed, length), forced=False))
    for z, info, length in ((pattern(16, 24), pattern(12, 25), 16),
                            (pattern(66, 26), pattern(40, 27), 150)):
        out.append(stanza("KDF", "SSKDF", [digest, f"Ctrl.hexsecret = hexsecret:{z.hex()}",
                                           f"Ctrl.hexinfo = hexinfo:{info.hex()}"],
                          sskdf_hash(z, info, length)))
        salt = pattern(32, 28)
        out.append(stanza("KDF", "SSKDF", ["Ctrl.mac = mac:HMAC", digest,
                                           f"Ctrl.hexsecret = hexsecret:{z.hex()}",
                                           f"Ctrl.hexsalt = hexsalt:{salt.hex()}",
                                           f"Ctrl.hexinfo = hexinfo:{info.hex()}"],
                          sskdf_hmac(z, salt, info, length), forced=False))
    for z, info, length in ((pattern(24, 29), pattern(16, 30), 128), (pattern(66, 31), b"", 65)):
        out.append(stanza("KDF", "X963KDF", [digest, f"Ctrl.hexsecret = hexsecret:{z.hex()}",
                                             f"Ctrl.hexinfo = hexinfo:{info.hex()}"],
                          x963kdf(z, info, length)))
    k = mpint(pattern(128, 0xF3))
    h = blake2b(b"exchange hash")
    session_id = blake2b(b"session id")
    for key_type, length in (("A", 16), ("C", 32), ("E", 64), ("F", 150)):
        out.append(stanza("KDF", "SSHKDF", [digest, f"Ctrl.hexkey = hexkey:{k.hex()}",
                                            f"Ctrl.hexxcghash = hexxcghash:{h.hex()}",
                                            f"Ctrl.hexsession_id = hexsession_id:{session_id.hex()}",
                                            f"Ctrl.type = type:{key_type}"],
                          sshkdf(k, h, key_type, session_id, length)))
    for key, label, context, length in ((pattern(32, 32), b"label", b"context", 32),
                                        (pattern(64, 33), pattern(20, 34), pattern(30, 35), 160)):
        out.append(stanza("KDF", "KBKDF", ["Ctrl.mode = mode:COUNTER", digest, "Ctrl.mac = mac:HMAC",
                                           f"Ctrl.hexkey = hexkey:{key.hex()}",
                                           f"Ctrl.hexsalt = hexsalt:{label.hex()}",
                                           f"Ctrl.hexinfo = hexinfo:{context.hex()}"],
                          kbkdf_counter(key, label, context, length), forced=False))
    return out


def render():
    header = ("# Generated by gen_blake2b_composites.py: do not edit. Expected values come from\n"
              "# Python's own BLAKE2b and the constructions written out there, not from OpenSSL.\n"
              "# SPDX-License-Identifier: Apache-2.0\n")
    parts = ["Title = HMAC over BLAKE2B-512 (EVP_MAC and EVP_PKEY)"] + mac_stanzas()
    parts += ["Title = KDFs over BLAKE2B-512"] + kdf_stanzas()
    return header + "\n" + "\n\n".join(parts) + "\n"


def main():
    return write_or_check(OUTPUT, render())


if __name__ == "__main__":
    sys.exit(main())
