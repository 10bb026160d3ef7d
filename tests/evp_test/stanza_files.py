"""The one command line of the evp_test stanza generators: write the file, or with --check
compare it (exit 1 if the committed file differs).
SPDX-License-Identifier: Apache-2.0
"""
import re
import sys


def write_or_check(path, text):
    if sys.argv[1:] == ["--check"]:
        with open(path) as f:
            if f.read() != text:
                print(f"{path} is stale: run {sys.argv[0]}", file=sys.stderr)
                return 1
        stanzas = len(re.findall("^(Output|Result) = ", text, re.M))
        print(f"{path}: up to date ({stanzas} stanzas)")
        return 0
    with open(path, "w") as f:
        f.write(text)
    return 0
