#!/usr/bin/env python3
# `DESTDIR=... cmake --install` gives a consistent layout: module, blake2simd-config, man pages and
# docs where the configuration says, all under the prefix, and every path the tool names exists.
# SPDX-License-Identifier: Apache-2.0
import argparse
import os
import pathlib
import re
import subprocess
import sys
import tempfile

from system_common import Tally


def staged(root, absolute_path):
    return root / pathlib.Path(absolute_path).relative_to("/")


def check_programs(c, args, root):
    """The module and blake2simd-config where the configuration says, the tool naming the
    module."""
    module = staged(root, args.module_path)
    c.check(module.is_file() and module.read_bytes()[:4] == b"\x7fELF",
            f"module installed at {args.module_path} (an ELF object)")
    c.check(not module.name.startswith("lib"), "module file name has no lib prefix")

    tool = staged(root, args.tool_path)
    c.check(tool.is_file() and os.access(tool, os.X_OK),
            f"blake2simd-config installed executable at {args.tool_path}")
    text = tool.read_text() if tool.is_file() else ""
    named = re.findall(r'^INSTALLED_MODULE = "(.*)"$', text, re.M)
    c.equal(named, [args.module_path], "blake2simd-config names the installed module")
    c.check(text.startswith("#!/usr/bin/python3 -I\n"),
            "blake2simd-config runs /usr/bin/python3 -I (no PYTHON* variables, no user site)")
    shown = subprocess.run([sys.executable, tool, "--help"], capture_output=True, text=True,
                           timeout=60)
    c.check(shown.returncode == 0 and "enable" in shown.stdout, "installed tool --help works")


def check_docs(c, args, root):
    """blake2simd-sum (when built), the man pages (when pod2man built them), the docs."""
    if args.sum_path:
        program = staged(root, args.sum_path)
        c.check(program.is_file() and os.access(program, os.X_OK),
                f"blake2simd-sum installed executable at {args.sum_path}")
    man_built = any((pathlib.Path(args.build_dir) / "man").glob("*.gz"))
    if man_built:
        pages = ["man7/blake2simd.7.gz", "man8/blake2simd-config.8.gz"]
        pages += ["man1/blake2simd-sum.1.gz"] if args.sum_path else []
        for page in pages:
            c.check((staged(root, args.mandir) / page).is_file(), f"{page} under {args.mandir}")
    else:
        print("note: no man pages in this tree (pod2man missing), not checked")
    docdir = staged(root, args.docdir)
    for doc in ("README.md", "deploying.md"):
        c.check((docdir / doc).is_file(), f"{doc} installed under {args.docdir}")
    licence = "copyright" if args.prefix == "/usr" else "LICENSE"
    c.check((docdir / licence).is_file(), f"{licence} installed under {args.docdir}")


def check_nothing_else(c, args, root):
    """Everything under the prefix, no configuration file, nothing but what is expected."""
    installed = sorted("/" + str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())
    print("installed files:\n  " + "\n  ".join(installed))
    c.equal([f for f in installed if not f.startswith(args.prefix.rstrip("/") + "/")], [],
            f"everything is under the prefix {args.prefix}")
    c.check(not any(f.endswith("openssl.cnf") or f.startswith("/etc/") for f in installed),
            "install writes no configuration file")
    expected = {args.module_path, args.tool_path}
    if args.sum_path:
        completion = f"{args.prefix.rstrip('/')}/share/bash-completion/completions/blake2simd-sum"
        c.check(staged(root, completion).is_file(), f"bash completion at {completion}")
        expected |= {args.sum_path, completion}
    extra = [f for f in installed if f not in expected and not f.startswith(args.docdir + "/")
             and not f.startswith(args.mandir + "/")]
    c.equal(extra, [], "nothing else is installed")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cmake", required=True)
    parser.add_argument("--build-dir", required=True)
    parser.add_argument("--prefix", required=True, help="CMAKE_INSTALL_PREFIX")
    parser.add_argument("--module-path", required=True, help="installed blake2simd.so, absolute")
    parser.add_argument("--tool-path", required=True, help="installed blake2simd-config")
    parser.add_argument("--mandir", required=True, help="CMAKE_INSTALL_FULL_MANDIR")
    parser.add_argument("--docdir", required=True, help="CMAKE_INSTALL_FULL_DOCDIR")
    parser.add_argument("--sum-path", default="", help="installed blake2simd-sum, when built")
    args = parser.parse_args()

    c = Tally("system_install", verbose=True)
    with tempfile.TemporaryDirectory(prefix="b2sys-install-") as tmp:
        root = pathlib.Path(tmp)
        env = dict(os.environ, DESTDIR=str(root))
        result = subprocess.run([args.cmake, "--install", args.build_dir], env=env,
                                capture_output=True, text=True, timeout=60)
        if not c.check(result.returncode == 0, "cmake --install with DESTDIR succeeds",
                       result.stdout + result.stderr):
            c.exit()
        print(result.stdout.strip())

        check_programs(c, args, root)
        check_docs(c, args, root)
        check_nothing_else(c, args, root)
    c.exit()


if __name__ == "__main__":
    main()
