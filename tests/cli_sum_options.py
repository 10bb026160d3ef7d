#!/usr/bin/env python3
# blake2simd-sum's options are declared once (cli/options.cpp's table, which getopt and --help
# follow): the bash completion and the man page must say the same.
# SPDX-License-Identifier: Apache-2.0
"""Fails when the bash completion (cli/blake2simd-sum.bash-completion) or the man page
(docs/man/blake2simd-sum.1.pod) drift from --help: the same options (short and long), the same
argument names, the same -a algorithms. Each option --help lists is also one the program
accepts (with --help after it, so nothing is hashed)."""
import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from b2check import Tally

TALLY = Tally("cli_sum_options")
check = TALLY.check


def help_options(help_text: str) -> dict:
    """{option: argument name or None} for every -x and --long of --help's entries."""
    options = {}
    for line in help_text.splitlines():
        match = re.match(r"^ +(?:(-[a-z]), )?(--[a-z-]+)(?:=([A-Z]+))?", line)
        if match:
            short, long, argument = match.groups()
            options[long] = argument
            if short:
                options[short] = argument
    return options


def help_algorithms(help_text: str) -> list:
    lines = help_text.splitlines()
    start = next(i for i, line in enumerate(lines) if "--algorithm=" in line)
    entry = [lines[start]] + [line for line in lines[start + 1:start + 4] if line.startswith(" " * 20)]
    return re.findall(r"\bblake2[a-z0-9]*", " ".join(entry).split("NAME", 1)[1])


def completion(program: str, script: Path, words: list) -> list:
    """COMPREPLY of the completion function for the command line `program words...`."""
    line = " ".join(f"'{w}'" for w in [program, *words])
    code = (f"source '{script}'; COMP_WORDS=({line}); COMP_CWORD={len(words)}; _blake2simd_sum; "
            "printf '%s\\n' \"${COMPREPLY[@]}\"")
    result = subprocess.run(["bash", "-c", code], capture_output=True, text=True)
    return [word for word in result.stdout.splitlines() if word]


def man_options(pod: str) -> dict:
    """{option: argument name or None} from the =item lines of OPTIONS."""
    options = {}
    for line in pod.splitlines():
        if not line.startswith("=item B<-"):
            continue
        # "B<-a>, B<--algorithm>=I<NAME>": the short option takes the long one's argument.
        for short, option, argument in re.findall(
                r"(?:B<(-[a-z])>, )?B<(--?[a-z-]+)>(?:=I<([A-Z]+)>)?", line):
            options[option] = argument or None
            if short:
                options[short] = argument or None
    return options


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sum", required=True, help="the blake2simd-sum program")
    parser.add_argument("--source-dir", type=Path, required=True)
    args = parser.parse_args()
    program = args.sum
    help_text = subprocess.run([program, "--help"], capture_output=True, text=True).stdout
    options = help_options(help_text)
    algorithms = help_algorithms(help_text)
    check(len(options) >= 20 and "--algorithm" in options and "-a" in options,
          "--help lists the options", help_text[:400])
    check(algorithms[:1] == ["blake2b"] and len(algorithms) >= 6, "--help lists the algorithms",
          str(algorithms))
    for option, argument in sorted(options.items()):
        if option in ("--help", "--version"):
            continue
        if not argument:
            given = [option]
        else:
            given = [f"{option}=x"] if option.startswith("--") else [option, "x"]
        result = subprocess.run([program, *given, "--help"], capture_output=True, text=True)
        check(result.returncode in (0, 1) and "unrecognized option" not in result.stderr and
              "invalid option" not in result.stderr, f"the program accepts {option}",
              result.stderr[:300])

    script = args.source_dir / "cli" / "blake2simd-sum.bash-completion"
    if shutil.which("bash"):
        offered = completion(program, script, ["-"])
        check(sorted(offered) == sorted(options), "the completion offers --help's options",
              f"completion only: {sorted(set(offered) - set(options))}, "
              f"--help only: {sorted(set(options) - set(offered))}")
        for option in ("-a", "--algorithm"):
            offered = completion(program, script, [option, ""])
            check(offered == algorithms, f"the completion offers --help's algorithms after {option}",
                  f"{offered} vs {algorithms}")

    pod = (args.source_dir / "docs" / "man" / "blake2simd-sum.1.pod").read_text()
    documented = man_options(pod)
    check(documented == options, "the man page documents --help's options and argument names",
          f"man only: {sorted(set(documented.items()) - set(options.items()))}, "
          f"--help only: {sorted(set(options.items()) - set(documented.items()))}")
    section = pod.split("=item B<-a>", 1)[1].split("=item", 1)[0]
    named = set(re.findall(r"B<(blake2[a-z0-9]*)>", section))
    check(named == set(algorithms), "the man page's -a names --help's algorithms",
          f"{sorted(named)} vs {sorted(algorithms)}")
    return TALLY.finish()


if __name__ == "__main__":
    sys.exit(main())
