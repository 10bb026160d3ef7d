# Pass/fail tally of the `openssl` CLI tests (cli_smoke.py, blake2bp_cli.py).
# SPDX-License-Identifier: Apache-2.0
import sys


class Tally:
    """Counts checks so one run reports every broken expectation, not just the first."""

    def __init__(self, program: str):
        self.program = program
        self.passed = 0
        self.failed = 0

    def check(self, condition: bool, what: str, detail: str = "") -> None:
        if condition:
            self.passed += 1
        else:
            self.failed += 1
            print(f"FAIL: {what}\n{detail}", file=sys.stderr)

    def finish(self) -> int:
        """Prints the summary; the exit status fails a run that checked nothing."""
        print(f"{self.program}: {self.passed} passed, {self.failed} failed")
        return 0 if self.failed == 0 and self.passed > 0 else 1
