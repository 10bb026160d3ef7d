#!/usr/bin/env python3
# Fails if an ELF file asks for an executable stack (GNU_STACK missing or flagged E).
# SPDX-License-Identifier: Apache-2.0
"""Usage: check_execstack.py ELF_FILE

One assembly object without a `.note.GNU-stack` section is enough for the linker to mark the
whole module as needing an executable stack, and dlopen() then makes every thread stack of
the host process executable. `readelf -lW` must show GNU_STACK with flags RW, not RWE.
Exit status: 0 good, 1 executable or missing GNU_STACK, 77 when readelf is unavailable.
"""

import shutil
import subprocess
import sys

SKIP = 77


def gnu_stack_flags(readelf, path):
    """The flags column of the GNU_STACK program header, or None if there is none."""
    listing = subprocess.run([readelf, "-lW", path], check=True, capture_output=True,
                             text=True).stdout
    for line in listing.splitlines():
        fields = line.split()
        if fields and fields[0] == "GNU_STACK":
            # Type Offset VirtAddr PhysAddr FileSiz MemSiz Flg... Align: flags may be "RW" or "R W".
            return "".join(fields[6:-1])
    return None


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    readelf = shutil.which("readelf")
    if readelf is None:
        print("readelf not found; cannot inspect program headers", file=sys.stderr)
        return SKIP
    flags = gnu_stack_flags(readelf, argv[1])
    if flags is None:
        print(f"FAIL {argv[1]}: no GNU_STACK program header (stack executable by default)")
        return 1
    if "E" in flags:
        print(f"FAIL {argv[1]}: GNU_STACK flags {flags}: the stack is executable")
        return 1
    print(f"{argv[1]}: GNU_STACK flags {flags}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
