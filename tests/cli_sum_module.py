#!/usr/bin/env python3
"""Which module blake2simd-sum loads. The program run from the build's own output directory loads
the build's module; a copy anywhere else (an installed one) never loads <its directory>/../
ossl-modules/blake2simd.so, which whoever may write the install prefix could plant, but the
module directory it was built for. With --root (as root only): a module that anyone but root
could replace (owned by another user, group/other-writable, in such a directory or reached
through a symbolic link in one) is refused with the reason, exit 2; a root-owned one loads.
What the program loads is read from the dynamic loader's own trace (glibc's LD_DEBUG=files).

usage: cli_sum_module.py --sum PATH --module-dir DIR --installed-dir DIR [--work-dir DIR] [--root]
SPDX-License-Identifier: Apache-2.0
"""
import argparse
import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from b2check import Tally, skip

TALLY = Tally("cli_sum_module", verbose=True)
check = TALLY.check
MODULE = "blake2simd.so"


def run(program, *args):
    p = subprocess.run([str(program), *map(str, args)], capture_output=True, text=True,
                       env={**os.environ, "LC_ALL": "C", "LD_DEBUG": "files"})
    return p.stdout, p.stderr, p.returncode


def loaded_modules(trace):
    """The blake2simd.so files the loader opened, as it names them."""
    return {line.split("file=", 1)[1].split()[0] for line in trace.splitlines()
            if "file=" in line and MODULE in line and "dynamically loaded" in line}


def lookup_cases(program, module_dir, installed_dir, scratch: Path, message: Path):
    want = hashlib.blake2b(message.read_bytes()).hexdigest()
    out, err, rc = run(program, message)
    built = str(Path(module_dir) / MODULE)
    check(rc == 0 and out.startswith(want) and
          {os.path.realpath(m) for m in loaded_modules(err)} == {os.path.realpath(built)},
          "the build tree's program loads the build tree's module", err[-2000:])

    copy = scratch / "prefix/bin/blake2simd-sum"
    copy.parent.mkdir(parents=True)
    shutil.copy2(program, copy)
    planted = scratch / "prefix/ossl-modules" / MODULE
    planted.parent.mkdir()
    shutil.copy2(built, planted)
    out, err, rc = run(copy, message)
    opened = loaded_modules(err)
    check(os.path.realpath(planted) not in {os.path.realpath(m) for m in opened},
          "a copy outside the build tree never loads <its dir>/../ossl-modules", str(opened))
    installed = Path(installed_dir) / MODULE
    if installed.exists():
        check(rc == 0 and out.startswith(want) and
              {os.path.realpath(m) for m in opened} == {os.path.realpath(installed)},
              f"the copy loads the installed module {installed}", err[-2000:])
    else:
        check(rc == 2 and out == "" and f"from {installed_dir}" in err,
              f"the copy, with no module in {installed_dir}, says it cannot load one there",
              err[-2000:])


def refused(program, directory, message, what, reason):
    out, err, rc = run(program, "--provider-path", directory, message)
    return check(rc == 2 and out == "" and "as root, refusing" in err and reason in err and
                 not loaded_modules(err), f"as root: {what} is refused, saying {reason!r}",
                 err[-2000:])


def trusted_by_root(path: Path):
    """Every directory from / down to `path` (resolved) root's and not group/other-writable."""
    current = Path(os.path.realpath(path))
    for part in [current, *current.parents]:
        info = os.stat(part)
        if info.st_uid != 0 or info.st_mode & 0o022:
            return False
    return True


def root_cases(program, module_dir, scratch: Path, message: Path):
    if os.geteuid() != 0:
        skip("needs root (the refusal applies to root only)")
    base = scratch / "root-cases"
    base.mkdir(mode=0o755)
    mods = base / "mods"
    mods.mkdir(mode=0o755)
    module = mods / MODULE
    shutil.copy2(Path(module_dir) / MODULE, module)
    os.chmod(module, 0o644)
    if trusted_by_root(base):
        out, err, rc = run(program, "--provider-path", mods, message)
        check(rc == 0 and loaded_modules(err), "as root: a module only root can replace loads",
              err[-2000:])
    else:
        print(f"note: {base} lies under a directory others could replace: the loading case "
              "is left to the refusals below")
    os.chmod(module, 0o666)
    refused(program, mods, message, "a world-writable module", "writable by group or others")
    os.chmod(module, 0o644)
    os.chown(module, 65534, 0)
    refused(program, mods, message, "a module owned by another user", "owned by uid 65534")
    os.chown(module, 0, 0)
    os.chmod(mods, 0o775)
    refused(program, mods, message, "a module in a group-writable directory",
            f"{os.path.realpath(mods)} is writable by group or others (mode 0775)")
    os.chmod(mods, 0o755)
    open_dir = base / "open"
    open_dir.mkdir()
    os.chmod(open_dir, 0o1777)
    (open_dir / "link").symlink_to(mods)
    refused(program, open_dir / "link", message,
            "a module reached through a symbolic link in a sticky world-writable directory",
            "writable by group or others (mode 1777)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sum", required=True)
    parser.add_argument("--module-dir", required=True)
    parser.add_argument("--installed-dir", required=True)
    parser.add_argument("--work-dir", help="where the scratch files go (default: TMPDIR)")
    parser.add_argument("--root", action="store_true")
    args = parser.parse_args()
    if not Path("/proc/self/exe").exists():
        skip("no /proc/self/exe")
    probe = subprocess.run(["/bin/true"], env={"LD_DEBUG": "files"}, capture_output=True,
                           text=True)
    if "file=" not in probe.stderr:
        skip("the dynamic loader has no LD_DEBUG=files trace (not glibc)")
    with tempfile.TemporaryDirectory(prefix="b2sum-module-", dir=args.work_dir) as tmp:
        scratch = Path(tmp)
        os.chmod(scratch, 0o755)
        message = scratch / "message"
        message.write_bytes(bytes(range(256)) * 5)
        if args.root:
            root_cases(args.sum, args.module_dir, scratch, message)
        else:
            lookup_cases(args.sum, args.module_dir, args.installed_dir, scratch, message)
    TALLY.exit()


if __name__ == "__main__":
    main()
