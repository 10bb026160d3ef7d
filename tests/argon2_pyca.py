#!/usr/bin/env python3
"""A real client of OpenSSL's Argon2 served by blake2simd: pyca/cryptography's Argon2id (its own
OpenSSL, 3.2+, loads the module through OPENSSL_CONF). With `default_properties =
provider=blake2simd` only our module can answer: the answer must be libargon2's (through ctypes),
and with the module absent the same derive must fail. Skips (77) without cryptography's Argon2id,
without libargon2, or with a sanitized module (python is not instrumented).

usage: argon2_pyca.py MODULE WORK_DIR [--sanitized-module]
SPDX-License-Identifier: Apache-2.0
"""
import ctypes
import ctypes.util
import os
import subprocess
import sys
from pathlib import Path

from b2check import Tally, skip

CLIENT = """
import sys
from cryptography.hazmat.primitives.kdf.argon2 import Argon2id
kdf = Argon2id(salt=b"somesaltsomesalt", length=32, iterations=2, lanes=2, memory_cost=64)
print(kdf.derive(b"password").hex())
"""

CONFIG = """openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
alg_section = algorithm_sect
[algorithm_sect]
default_properties = provider=blake2simd
[provider_sect]
default = default_sect
blake2simd = blake2simd_sect
[default_sect]
activate = 1
[blake2simd_sect]
module = {module}
activate = 1
"""


def reference():
    """libargon2's Argon2id (version 0x13) of the client's inputs."""
    path = ctypes.util.find_library("argon2")
    if path is None:
        skip("libargon2 is not installed (apt-get install libargon2-1)")
    lib = ctypes.CDLL(path)
    out = ctypes.create_string_buffer(32)
    status = lib.argon2id_hash_raw(2, 64, 2, b"password", 8, b"somesaltsomesalt", 16, out, 32)
    return out.raw.hex() if status == 0 else None


def derive(config):
    env = {k: v for k, v in os.environ.items() if k != "OPENSSL_MODULES"}
    env["OPENSSL_CONF"] = str(config)
    result = subprocess.run([sys.executable, "-c", CLIENT], env=env, capture_output=True,
                            text=True, timeout=120)
    return result.stdout.strip() if result.returncode == 0 else None


def main():
    if "--sanitized-module" in sys.argv:
        skip("the module is sanitized; python is not")
    module, work = Path(sys.argv[1]).resolve(), Path(sys.argv[2])
    probe = subprocess.run([sys.executable, "-c",
                            "from cryptography.hazmat.primitives.kdf.argon2 import Argon2id"],
                           capture_output=True)
    if probe.returncode != 0:
        skip("python3-cryptography without Argon2id (44+ has it)")
    expected = reference()
    work.mkdir(parents=True, exist_ok=True)
    ours, absent = work / "argon2-pyca.cnf", work / "argon2-pyca-absent.cnf"
    ours.write_text(CONFIG.format(module=module))
    absent.write_text(CONFIG.format(module=work / "no-such-module.so"))
    tally = Tally("argon2_pyca")
    tally.equal(derive(ours), expected,
                "cryptography's Argon2id with only blake2simd allowed: libargon2's answer")
    tally.equal(derive(absent), None, "the same derive fails with the module absent")
    tally.exit()


main()
