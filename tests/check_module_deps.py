#!/usr/bin/env python3
"""The module's only dynamic dependency is libc.

No libcrypto: the core hands the module its allocator and error functions, so one module loads
into a libcrypto.so.3 or .so.4 process, and never brings a second libcrypto into it. No
libstdc++: every process that loads OpenSSL with a system-wide config loads blake2simd.so, and
would map and relocate it (about 0.6 ms here, against the 0.1 ms the module may add). Also
checks the only exported symbol is OSSL_provider_init. Matches the C library by name, not by
soname version, so no OpenSSL or libc version is assumed.
SPDX-License-Identifier: Apache-2.0
"""
import re
import subprocess
import sys

from b2check import Tally

LIBC = re.compile(r"^libc\.so\.\d+$")


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
    unexpected = [library for library in needed if not LIBC.match(library)]
    exported = sorted(line.split()[-1] for line in symbols.splitlines() if line.strip())
    tally = Tally("module_deps")
    tally.check(len(needed) == 1 and not unexpected, "the module needs libc only",
                f"NEEDED {needed}; not allowed: {unexpected}")
    tally.check(exported == ["OSSL_provider_init"], "only OSSL_provider_init is exported",
                f"exported symbols {exported}")
    print(f"NEEDED {needed}")
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
