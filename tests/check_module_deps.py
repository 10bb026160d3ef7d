#!/usr/bin/env python3
"""The module's dynamic dependencies are libcrypto and libc only.

Every process that loads OpenSSL with a system-wide config loads blake2simd.so; a dependency
on libstdc++ would make each of them map and relocate it (about 0.6 ms here, against the
0.1 ms the module may add). Also checks the only exported symbol is OSSL_provider_init.
SPDX-License-Identifier: Apache-2.0
"""
import re
import subprocess
import sys

ALLOWED = re.compile(r"^(libcrypto\.so\.3|libc\.so\.6|libpthread\.so\.0|ld-linux[-\w.]*\.so\.\d)$")


def main():
    module = sys.argv[1]
    try:
        dynamic = subprocess.run(["readelf", "-dW", module], capture_output=True, text=True,
                                 check=True).stdout
        symbols = subprocess.run(["nm", "-D", "--defined-only", module], capture_output=True,
                                 text=True, check=True).stdout
    except FileNotFoundError:
        print("SKIP: readelf/nm not found (binutils)")
        return 77
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", dynamic)
    unexpected = [library for library in needed if not ALLOWED.match(library)]
    exported = sorted(line.split()[-1] for line in symbols.splitlines() if line.strip())
    failures = 0
    if "libcrypto.so.3" not in needed or unexpected:
        print(f"FAIL: NEEDED {needed}; not allowed: {unexpected}")
        failures += 1
    if exported != ["OSSL_provider_init"]:
        print(f"FAIL: exported symbols {exported}")
        failures += 1
    print(f"module_deps: {2 - failures} passed, {failures} failed (NEEDED {needed})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
