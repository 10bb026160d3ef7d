# The one helper module of the Python tests: the pass/fail tally, skipping, the hex value of
# `openssl` output, and loading the vector generators in vectors/.
# SPDX-License-Identifier: Apache-2.0
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

SKIP = 77  # CTest's SKIP_RETURN_CODE for every test


def tree_files(root: Path):
    """The tree's files, relative to root, without VCS data, caches and build trees (any
    directory with a CMakeCache.txt, whatever its name)."""
    for directory, subdirs, files in os.walk(root):
        subdirs[:] = sorted(d for d in subdirs if d not in {".git", "__pycache__", "node_modules"}
                            and not (Path(directory) / d / "CMakeCache.txt").exists())
        for name in sorted(files):
            yield (Path(directory) / name).relative_to(root)


def module_dir_under_test(built: str) -> str:
    """The build's module directory, or the installed one tools/test-installed.sh names in
    B2_MODULE_DIR (the C++ tests read it the same way: tests/support/b2test/evp.hpp)."""
    return os.environ.get("B2_MODULE_DIR") or built


def sum_under_test(built: str) -> str:
    """The build's blake2simd-sum, or the installed one tools/test-installed.sh names in B2_SUM."""
    return os.environ.get("B2_SUM") or built


def skip(reason: str) -> None:
    print(f"SKIP: {reason}")
    sys.exit(SKIP)


class Tally:
    """Counts checks so one run reports every broken expectation, not just the first.
    `verbose` also prints each passing check."""

    def __init__(self, program: str, verbose: bool = False):
        self.program = program
        self.verbose = verbose
        self.passed = 0
        self.failures = []

    def check(self, condition, what: str, detail: str = "") -> bool:
        if condition:
            self.passed += 1
            if self.verbose:
                print(f"ok   {what}")
        else:
            self.failures.append(what)
            print(f"FAIL {what}" + (f"\n     {detail}" if detail else ""), file=sys.stderr)
        return bool(condition)

    def equal(self, actual, expected, what: str) -> bool:
        return self.check(actual == expected, what, f"got {actual!r}, expected {expected!r}")

    def finish(self) -> int:
        """Prints the summary; the exit status fails a run with a failure or nothing checked."""
        print(f"{self.program}: {self.passed} passed, {len(self.failures)} failed")
        return 0 if not self.failures and self.passed > 0 else 1

    def exit(self) -> None:
        sys.exit(self.finish())


def digest_hex(output):
    """The hex value `openssl dgst/mac/kdf` printed last (after '= ' when it has a label, colons
    removed), lower case; None when there is none. `output` is the text, or a finished process
    (None when it failed)."""
    if isinstance(output, subprocess.CompletedProcess):
        if output.returncode != 0:
            return None
        output = output.stdout
    if not output or not output.strip():
        return None
    line = output.strip().splitlines()[-1]
    value = line.rsplit("= ", 1)[-1].strip().replace(":", "").lower()
    return value if re.fullmatch(r"[0-9a-f]+", value) else None


def load_generator(vectors_dir: Path, name: str):
    """vectors/<name>.py as a module (the generators are scripts, not a package)."""
    spec = importlib.util.spec_from_file_location(name, Path(vectors_dir) / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
