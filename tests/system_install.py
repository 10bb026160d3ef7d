#!/usr/bin/env python3
# `DESTDIR=... cmake --install` puts module, snippet and docs where the configuration says.
# SPDX-License-Identifier: Apache-2.0
import argparse
import os
import pathlib
import subprocess
import tempfile

from system_common import Checks


def staged(root, absolute_path):
    return root / pathlib.Path(absolute_path).relative_to("/")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cmake", required=True)
    parser.add_argument("--build-dir", required=True)
    parser.add_argument("--module-path", required=True, help="installed blake2simd.so, absolute")
    parser.add_argument("--snippet-path", required=True, help="installed blake2simd.cnf, absolute")
    parser.add_argument("--docdir", required=True, help="CMAKE_INSTALL_FULL_DOCDIR")
    parser.add_argument("--source-dir", required=True)
    args = parser.parse_args()

    c = Checks()
    with tempfile.TemporaryDirectory(prefix="b2sys-install-") as tmp:
        root = pathlib.Path(tmp)
        env = dict(os.environ, DESTDIR=str(root))
        result = subprocess.run([args.cmake, "--install", args.build_dir], env=env,
                                capture_output=True, text=True, timeout=60)
        if not c.check(result.returncode == 0, "cmake --install with DESTDIR succeeds",
                       result.stdout + result.stderr):
            c.finish()
        print(result.stdout.strip())

        module = staged(root, args.module_path)
        c.check(module.is_file(), f"module installed at {args.module_path}")
        c.check(module.is_file() and module.read_bytes()[:4] == b"\x7fELF",
                "installed module is an ELF shared object")
        c.check(module.is_file() and not module.name.startswith("lib"),
                "module file name has no lib prefix")

        snippet = staged(root, args.snippet_path)
        c.check(snippet.is_file(), f"snippet installed at {args.snippet_path}")
        text = snippet.read_text() if snippet.is_file() else ""
        module_lines = [l.strip() for l in text.splitlines() if l.strip().startswith("module")]
        c.equal(module_lines, [f"module = {args.module_path}"],
                "snippet's only module = line names the installed module")
        sections = [l.strip() for l in text.splitlines() if l.strip().startswith("[")]
        c.equal(sections, ["[blake2simd_sect]", "[ default ]"],
                "snippet defines only its own section (plus the parser reset)")
        c.check("@" not in "".join(l for l in text.splitlines() if not l.startswith("#")),
                "no unexpanded @VAR@ left in the snippet's settings")
        c.check(".include " + args.snippet_path in text,
                "snippet comments give the exact .include line")
        if pathlib.PurePath(args.snippet_path).parts[1:2] == ("etc",):
            c.check(not staged(root, "/etc/ssl/openssl.cnf").exists(),
                    "install does not write openssl.cnf")

        docdir = staged(root, args.docdir)
        for doc in ("README.md", "LICENSE"):
            if (pathlib.Path(args.source_dir) / doc).exists():
                c.check((docdir / doc).is_file(), f"{doc} installed under {args.docdir}")
            else:
                print(f"note: {doc} not in the source tree, not checked")

        installed = sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())
        print("installed files:\n  " + "\n  ".join(installed))
        expected = {str(staged(root, p).relative_to(root))
                    for p in (args.module_path, args.snippet_path)}
        extra = [f for f in installed if f not in expected and not f.startswith(
            str(docdir.relative_to(root)))]
        c.equal(extra, [], "nothing else is installed")
    c.finish()


if __name__ == "__main__":
    main()
