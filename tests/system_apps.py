#!/usr/bin/env python3
# Unmodified applications (openssl CLI, Python hashlib, a C program) served via openssl.cnf only.
# SPDX-License-Identifier: Apache-2.0
#
# No program gets a -provider flag: each runs with OPENSSL_CONF naming a generated configuration
# that loads blake2simd.so from the build tree. Expected values come from Python's built-in
# hashlib.blake2b / hmac (not OpenSSL), and composites are also compared with a default-only run.
import argparse
import hashlib
import hmac
import os
import pathlib
import shutil
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "vectors"))
import blake2x  # noqa: E402  (vectors/ is not a package; hashlib plus a pure-Python BLAKE2)
from system_common import (Tally, digest_hex, provider_config, providers, run, skip_if_sanitized,
                           write)

KEY = bytes(range(0x40, 0x60))  # 32-byte MAC/HMAC key
HKDF_SALT = b"blake2simd salt"
HKDF_INFO = b"blake2simd info"
PBKDF2_ITER = 1000

# Python code the hashlib "application" runs; hashlib.new() hands names it does not build in to
# OpenSSL's EVP (only 'blake2b'/'blake2s' are pinned to the built-in code).
HASHLIB_APP = (
    "import hashlib, sys\n"
    "data = open(sys.argv[2], 'rb').read()\n"
    "print(hashlib.new(sys.argv[1], data).hexdigest())\n"
)


# The same for an XOF: hexdigest(n) is EVP_DigestFinalXOF after a plain init.
HASHLIB_XOF_APP = (
    "import hashlib, sys\n"
    "data = open(sys.argv[2], 'rb').read()\n"
    "print(hashlib.new(sys.argv[1], data).hexdigest(int(sys.argv[3])))\n"
)


def hkdf_blake2b(key, salt, info, length):
    """RFC 5869 over Python's built-in BLAKE2b."""
    prk = hmac.new(salt, key, hashlib.blake2b).digest()
    output, block, counter = b"", b"", 1
    while len(output) < length:
        block = hmac.new(prk, block + info + bytes([counter]), hashlib.blake2b).digest()
        output += block
        counter += 1
    return output[:length]


def pbkdf2_blake2b(password, salt, iterations, length):
    """RFC 8018 PBKDF2 over Python's built-in BLAKE2b (hashlib.pbkdf2_hmac would use OpenSSL)."""
    prf = hmac.new(password, digestmod=hashlib.blake2b)
    output, index = b"", 1
    while len(output) < length:
        mac = prf.copy()
        mac.update(salt + index.to_bytes(4, "big"))
        u = mac.digest()
        block = int.from_bytes(u, "big")
        for _ in range(iterations - 1):
            mac = prf.copy()
            mac.update(u)
            u = mac.digest()
            block ^= int.from_bytes(u, "big")
        output += block.to_bytes(len(u), "big")
        index += 1
    return output[:length]


class Apps:
    def __init__(self, args, workdir):
        self.openssl = args.openssl
        self.legacy_app = args.legacy_app
        self.python_app = args.python_app
        self.hashlib_app = write(workdir / "hashlib_app.py", HASHLIB_APP)
        self.hashlib_xof_app = write(workdir / "hashlib_xof_app.py", HASHLIB_XOF_APP)

    def dgst(self, conf, path, *options):
        return digest_hex(run([self.openssl, "dgst", *options, path], conf))

    def blake2bmac(self, conf, path, *macopts):
        opts = [a for m in ("hexkey:" + KEY.hex(), *macopts) for a in ("-macopt", m)]
        return digest_hex(run([self.openssl, "mac", *opts, "-in", path, "BLAKE2BMAC"], conf))

    def hmac_mac(self, conf, path, digest):
        cmd = [self.openssl, "mac", "-digest", digest, "-macopt", "hexkey:" + KEY.hex(),
               "-in", path, "HMAC"]
        return digest_hex(run(cmd, conf))

    def hkdf(self, conf, length):
        cmd = [self.openssl, "kdf", "-keylen", str(length), "-kdfopt", "digest:BLAKE2B-512",
               "-kdfopt", "hexkey:" + KEY.hex(), "-kdfopt", "hexsalt:" + HKDF_SALT.hex(),
               "-kdfopt", "hexinfo:" + HKDF_INFO.hex(), "HKDF"]
        return digest_hex(run(cmd, conf))

    def pbkdf2(self, conf, length):
        cmd = [self.openssl, "kdf", "-keylen", str(length), "-kdfopt", "digest:BLAKE2B-512",
               "-kdfopt", "hexpass:" + KEY.hex(), "-kdfopt", "hexsalt:" + HKDF_SALT.hex(),
               "-kdfopt", f"iter:{PBKDF2_ITER}", "PBKDF2"]
        return digest_hex(run(cmd, conf))

    def hashlib_new(self, conf, name, path):
        result = run([self.python_app, self.hashlib_app, name, path], conf)
        return result.stdout.strip() if result.returncode == 0 else None

    def hashlib_xof(self, conf, name, path, length):
        result = run([self.python_app, self.hashlib_xof_app, name, path, length], conf)
        return result.stdout.strip() if result.returncode == 0 else None

    def legacy(self, conf, path):
        """{'init_ex': hex, 'q_digest': hex, 'kernel': .., 'fetch_provider': .., and the same
        with a blake2s_ prefix}; {} on error."""
        result = run([self.legacy_app, path], conf)
        if result.returncode != 0:
            return {}
        return dict(line.split(" ", 1) for line in result.stdout.splitlines() if " " in line)


# The sizes RFC 7693 names (BLAKE2 with that digest length): name for hashlib.new and
# `openssl dgst -NAME`, Python's built-in oracle.
NAMED_SIZES = (("blake2b160", "BLAKE2B-160", lambda data: hashlib.blake2b(data, digest_size=20)),
               ("blake2b256", "BLAKE2B-256", lambda data: hashlib.blake2b(data, digest_size=32)),
               ("blake2b384", "BLAKE2B-384", lambda data: hashlib.blake2b(data, digest_size=48)),
               ("blake2s128", "BLAKE2S-128", lambda data: hashlib.blake2s(data, digest_size=16)),
               ("blake2s160", "BLAKE2S-160", lambda data: hashlib.blake2s(data, digest_size=20)),
               ("blake2s224", "BLAKE2S-224", lambda data: hashlib.blake2s(data, digest_size=28)))


def check_named_sizes(c, apps, conf, label, path, data):
    """Programs that take only a digest name reach the fixed sizes through openssl.cnf."""
    for alias, name, oracle in NAMED_SIZES:
        expected = oracle(data).hexdigest()
        c.equal(apps.hashlib_new(conf, alias, path), expected,
                f"[{label}] hashlib.new('{alias}') ({len(data)} B)")
        c.equal(apps.dgst(conf, path, "-" + name), expected,
                f"[{label}] dgst -{name} ({len(data)} B)")


def check_blake2x_by_name(c, apps, conf, label, path, data):
    """hashlib.new('blake2xb').hexdigest(n): the unknown-length output (vectors/blake2x.py)."""
    for name, xof in (("blake2xb", blake2x.BLAKE2XB), ("BLAKE2XS", blake2x.BLAKE2XS)):
        for length in (16, 100):
            c.equal(apps.hashlib_xof(conf, name, path, length),
                    xof.digest(data, length, unknown=True).hex(),
                    f"[{label}] hashlib.new('{name}').hexdigest({length}) ({len(data)} B)")


def make_inputs(workdir):
    # Lengths around the 128-byte block, plus a multi-block one that is not a multiple of it.
    inputs = {}
    for length in (0, 128, 129, 100_003):
        path = workdir / f"input_{length}.bin"
        path.write_bytes(os.urandom(length))
        inputs[path] = path.read_bytes()
    return inputs


def check_only_blake2simd_can_answer(c, apps, conf, inputs):
    """base + blake2simd, no default: every BLAKE2b answer must have come from blake2simd."""
    c.equal(providers(apps.openssl, conf), {"base": "active", "blake2simd": "active"},
            "[no default] list -providers shows exactly base and blake2simd, both active")
    c.check(apps.dgst(conf, next(iter(inputs)), "-sha256") is None,
            "[no default] dgst -sha256 fails, so default really is absent")
    for path, data in inputs.items():
        expected = hashlib.blake2b(data).hexdigest()
        n = len(data)
        c.equal(apps.dgst(conf, path, "-blake2b512"), expected,
                f"[no default] dgst -blake2b512 ({n} B)")
        c.equal(apps.blake2bmac(conf, path), hashlib.blake2b(data, key=KEY).hexdigest(),
                f"[no default] mac BLAKE2BMAC hexkey ({n} B)")
        c.equal(apps.blake2bmac(conf, path, "size:32"),
                hashlib.blake2b(data, key=KEY, digest_size=32).hexdigest(),
                f"[no default] mac BLAKE2BMAC hexkey size:32 ({n} B)")
        for name in ("blake2b512", "BLAKE2B-512"):
            c.equal(apps.hashlib_new(conf, name, path), expected,
                    f"[no default] {apps.python_app} hashlib.new('{name}') ({n} B)")
        legacy = apps.legacy(conf, path)
        c.equal(legacy.get("init_ex"), expected,
                f"[no default] legacy_app EVP_blake2b512() ({n} B)")
        c.equal(legacy.get("q_digest"), expected, f"[no default] legacy_app EVP_Q_digest ({n} B)")
        c.check(legacy.get("kernel", "(none)") != "(none)",
                f"[no default] legacy_app context reports a blake2simd kernel ({n} B)",
                f"got {legacy!r}")
        expected_s = hashlib.blake2s(data).hexdigest()
        c.equal(apps.dgst(conf, path, "-blake2s256"), expected_s,
                f"[no default] dgst -blake2s256 ({n} B)")
        c.equal(apps.hashlib_new(conf, "blake2s256", path), expected_s,
                f"[no default] {apps.python_app} hashlib.new('blake2s256') ({n} B)")
        c.equal(legacy.get("blake2s_init_ex"), expected_s,
                f"[no default] legacy_app EVP_blake2s256() ({n} B)")
        c.check(legacy.get("blake2s_kernel", "(none)") != "(none)",
                f"[no default] legacy_app BLAKE2s context reports a blake2simd kernel ({n} B)",
                f"got {legacy!r}")
        check_named_sizes(c, apps, conf, "no default", path, data)
        check_blake2x_by_name(c, apps, conf, "no default", path, data)


def check_negative_control(c, apps, conf, inputs):
    """base only: the same programs must fail, or the checks above prove nothing."""
    path = next(iter(inputs))
    c.check(apps.dgst(conf, path, "-blake2b512") is None, "[base only] dgst -blake2b512 fails")
    c.check(apps.hashlib_new(conf, "blake2b512", path) is None,
            "[base only] hashlib.new('blake2b512') fails: that name goes through OpenSSL EVP")
    c.check(apps.legacy(conf, path) == {}, "[base only] legacy_app fails")
    c.check(apps.hashlib_new(conf, "blake2b256", path) is None,
            "[base only] hashlib.new('blake2b256') fails")


def composites(apps, conf, path):
    return {
        "dgst -blake2b512 -hmac": apps.dgst(conf, path, "-blake2b512", "-hmac", KEY.decode()),
        "mac -digest BLAKE2B-512 HMAC": apps.hmac_mac(conf, path, "BLAKE2B-512"),
        "kdf HKDF digest:BLAKE2B-512": apps.hkdf(conf, 80),
        "kdf PBKDF2 digest:BLAKE2B-512": apps.pbkdf2(conf, 80),
        "dgst -sha256": apps.dgst(conf, path, "-sha256"),
        "dgst -sha256 -hmac": apps.dgst(conf, path, "-sha256", "-hmac", KEY.decode()),
        "mac -digest SHA256 HMAC": apps.hmac_mac(conf, path, "SHA256"),
    }


def python_composites(data):
    return {
        "dgst -blake2b512 -hmac": hmac.new(KEY, data, hashlib.blake2b).hexdigest(),
        "mac -digest BLAKE2B-512 HMAC": hmac.new(KEY, data, hashlib.blake2b).hexdigest(),
        "kdf HKDF digest:BLAKE2B-512": hkdf_blake2b(KEY, HKDF_SALT, HKDF_INFO, 80).hex(),
        "kdf PBKDF2 digest:BLAKE2B-512": pbkdf2_blake2b(KEY, HKDF_SALT, PBKDF2_ITER, 80).hex(),
        "dgst -sha256": hashlib.sha256(data).hexdigest(),
        "dgst -sha256 -hmac": hmac.new(KEY, data, hashlib.sha256).hexdigest(),
        "mac -digest SHA256 HMAC": hmac.new(KEY, data, hashlib.sha256).hexdigest(),
    }


def check_preferred_next_to_default(c, apps, conf, label, baseline, inputs):
    """default + blake2simd + default_properties = ?provider=blake2simd."""
    c.equal(providers(apps.openssl, conf), {"default": "active", "blake2simd": "active"},
            f"[{label}] list -providers shows default and blake2simd active")
    path, data = max(inputs.items(), key=lambda item: len(item[1]))
    expected = hashlib.blake2b(data).hexdigest()
    c.equal(apps.dgst(conf, path, "-blake2b512"), expected, f"[{label}] dgst -blake2b512")
    c.equal(apps.hashlib_new(conf, "blake2b512", path), expected,
            f"[{label}] hashlib.new('blake2b512')")
    legacy = apps.legacy(conf, path)
    c.equal(legacy.get("init_ex"), expected, f"[{label}] legacy_app EVP_blake2b512()")
    c.check(legacy.get("kernel", "(none)") != "(none)",
            f"[{label}] legacy EVP_blake2b512() context is served by blake2simd", f"got {legacy!r}")
    c.equal(legacy.get("fetch_provider"), "blake2simd",
            f"[{label}] implicit BLAKE2B-512 fetch (as HMAC/HKDF/PBKDF2 make) picks blake2simd")
    check_named_sizes(c, apps, conf, label, path, data)
    ours = composites(apps, conf, path)
    python = python_composites(data)
    for name, value in ours.items():
        c.check(value is not None and value == baseline[name],
                f"[{label}] {name} equals the default-only answer",
                f"got {value}, default-only {baseline[name]}")
        c.equal(value, python[name], f"[{label}] {name} equals Python's answer")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--openssl", required=True)
    parser.add_argument("--module", required=True, help="blake2simd.so in the build tree")
    parser.add_argument("--legacy-app", required=True)
    parser.add_argument("--sanitized-module", action="store_true")
    parser.add_argument("--python-app", default="/usr/bin/python3",
                        help="the Python whose hashlib is tested (falls back to this interpreter)")
    args = parser.parse_args()
    skip_if_sanitized(args)
    if not os.path.exists(args.python_app):
        args.python_app = sys.executable
    for tool in (args.openssl, args.module, args.legacy_app):
        if not (shutil.which(tool) or os.path.exists(tool)):
            sys.exit(f"FAIL: {tool} not found (build the project first)")

    with tempfile.TemporaryDirectory(prefix="b2sys-apps-") as tmp:
        workdir = pathlib.Path(tmp)
        apps = Apps(args, workdir)
        inputs = make_inputs(workdir)
        c = Tally("system_apps", verbose=True)

        def cnf(name, *activate, **options):
            text = provider_config(args.module, list(activate), **options)
            return write(workdir / f"{name}.cnf", text)

        check_only_blake2simd_can_answer(c, apps, cnf("no_default", "base", "blake2simd"), inputs)
        check_negative_control(c, apps, cnf("base_only", "base"), inputs)

        default_only = cnf("default_only", "default")
        path, data = max(inputs.items(), key=lambda item: len(item[1]))
        legacy = apps.legacy(default_only, path)
        c.equal(legacy.get("kernel"), "(none)",
                "[default only] legacy_app context has no kernel param")
        c.equal(legacy.get("fetch_provider"), "default",
                "[default only] implicit fetch picks default")
        baseline = composites(apps, default_only, path)
        for name, value in python_composites(data).items():
            c.equal(baseline[name], value, f"[default only] {name} equals Python's answer")

        prefer = "?provider=blake2simd"
        for order in (("default", "blake2simd"), ("blake2simd", "default")):
            label = " then ".join(order) + ", " + prefer
            conf = cnf("_".join(order), *order, default_properties=prefer)
            check_preferred_next_to_default(c, apps, conf, label, baseline, inputs)
        c.exit()


if __name__ == "__main__":
    main()
