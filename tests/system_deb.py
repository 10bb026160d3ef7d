#!/usr/bin/env python3
# `cpack -G DEB` builds a Debian package with the right paths, dependencies, conffile, no scripts.
# SPDX-License-Identifier: Apache-2.0
#
# A plain `cpack` first builds the tree's "preinstall" target, which would relink blake2simd.so
# while other tests load it. So this test stages the files with `DESTDIR=... cmake --install`
# (which builds nothing) and runs cpack on the build tree's own CPackConfig.cmake with only the
# input switched to that staged directory. For a tree configured with the /usr prefix, which is
# the only one the .deb accepts, both ways yield the same files. Output goes to a scratch directory.
import argparse
import os
import pathlib
import re
import shutil
import subprocess
import tempfile

from system_common import Checks, skip

MAINTAINER_SCRIPTS = ("preinst", "postinst", "prerm", "postrm", "config", "triggers")


def sh(*cmd, cwd=None):
    return subprocess.run([str(c) for c in cmd], cwd=cwd, capture_output=True, text=True,
                          timeout=120)


def control_fields(info):
    fields = {}
    for line in info.splitlines():
        match = re.match(r"^ ([A-Za-z-]+): (.*)$", line)
        if match:
            fields[match.group(1)] = match.group(2).strip()
    return fields


def depends_on(depends, package):
    """The version constraint on `package` in a Depends line ('' when unversioned), or None."""
    for item in depends.split(","):
        match = re.match(r"^\s*([a-z0-9.+-]+)\s*(\(([^)]*)\))?\s*$", item)
        if match and match.group(1) == package:
            return match.group(3) or ""
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cmake", required=True)
    parser.add_argument("--cpack", required=True)
    parser.add_argument("--build-dir", required=True)
    parser.add_argument("--prefix", required=True, help="CMAKE_INSTALL_PREFIX of the build tree")
    parser.add_argument("--module-path", required=True)
    parser.add_argument("--snippet-path", required=True)
    parser.add_argument("--version", required=True)
    parser.add_argument("--source-dir", required=True, help="to know which docs should be shipped")
    args = parser.parse_args()
    if shutil.which("dpkg-deb") is None:
        skip("dpkg-deb not found")

    c = Checks()
    config = pathlib.Path(args.build_dir) / "CPackConfig.cmake"
    with tempfile.TemporaryDirectory(prefix="b2sys-deb-") as tmp:
        scratch = pathlib.Path(tmp)
        stage = scratch / "stage"
        installed = subprocess.run([args.cmake, "--install", args.build_dir], capture_output=True,
                                   text=True, timeout=60, env=dict(os.environ, DESTDIR=str(stage)))
        if not c.check(installed.returncode == 0, "cmake --install into the staging directory",
                       installed.stdout + installed.stderr):
            c.finish()
        staged_config = scratch / "CPackStaged.cmake"
        staged_config.write_text(f'include("{config}")\n'
                                 'set(CPACK_INSTALL_CMAKE_PROJECTS "")\n'
                                 f'set(CPACK_INSTALLED_DIRECTORIES "{stage};/")\n')
        result = sh(args.cpack, "-G", "DEB", "--config", staged_config, "-B", scratch / "out",
                    cwd=scratch)
        if args.prefix != "/usr":
            output = result.stdout + result.stderr
            c.check(result.returncode != 0 and "CMAKE_INSTALL_PREFIX=/usr" in output,
                    f"cpack refuses a .deb from a tree with prefix {args.prefix}", output)
            if c.failures:
                c.finish()
            skip("package contents not checked: configure with -DCMAKE_INSTALL_PREFIX=/usr "
                 f"(this tree has {args.prefix})")

        if not c.check(result.returncode == 0, "cpack -G DEB succeeds",
                       result.stdout + result.stderr):
            c.finish()
        debs = sorted((scratch / "out").glob("*.deb"))
        if not c.equal(len(debs), 1, "exactly one .deb produced"):
            c.finish()
        deb = debs[0]
        print(f"package: {deb.name}")

        info = sh("dpkg-deb", "-I", deb).stdout
        print(info)
        fields = control_fields(info)
        c.equal(fields.get("Package"), "blake2simd", "Package: blake2simd")
        c.equal(fields.get("Version"), args.version, "Version is the project version")
        depends = fields.get("Depends", "")
        libssl = depends_on(depends, "libssl3")
        c.check(libssl is not None and re.match(r">= 3\.", libssl) is not None,
                "Depends: libssl3 (>= 3.x)", depends)
        c.check(depends_on(depends, "libc6") is not None, "Depends: libc6", depends)
        # The module needs no C++ runtime (tests/check_module_deps.py), so neither does the package.
        c.check(depends_on(depends, "libstdc++6") is None, "no Depends: libstdc++6", depends)
        for script in MAINTAINER_SCRIPTS:
            c.check(not re.search(rf"^\s+\d+ bytes,\s+\d+ lines\s+\*?\s*{script}\b", info, re.M),
                    f"no {script} maintainer script")

        control = scratch / "control"
        sh("dpkg-deb", "-e", deb, control)
        listed = control / "conffiles"
        conffiles = listed.read_text().split() if listed.exists() else []
        c.equal(conffiles, [args.snippet_path], "conffiles lists exactly the snippet")

        listing = sh("dpkg-deb", "-c", deb).stdout
        paths = sorted(line.split()[-1].lstrip(".") for line in listing.splitlines()
                       if not line.startswith("d"))
        print("files:\n  " + "\n  ".join(paths))
        c.check(args.module_path in paths, f"module at {args.module_path}")
        c.check(args.snippet_path in paths, f"snippet at {args.snippet_path}")
        c.check(args.snippet_path.startswith("/etc/"),
                "snippet lives under /etc (Debian conffile policy)")
        for doc in ("README.md", "LICENSE"):
            if (pathlib.Path(args.source_dir) / doc).exists():
                c.check(f"/usr/share/doc/blake2simd/{doc}" in paths,
                        f"{doc} under /usr/share/doc/blake2simd")
            else:
                print(f"note: {doc} not in the source tree, not checked")
        c.check(not any(p.startswith("/usr/local") for p in paths), "nothing under /usr/local")
        c.check(not any(p.endswith("/openssl.cnf") for p in paths),
                "package does not ship openssl.cnf")

        root = scratch / "root"
        sh("dpkg-deb", "-x", deb, root)
        snippet = (root / args.snippet_path.lstrip("/")).read_text()
        c.check(f"module = {args.module_path}" in snippet.splitlines(),
                "packaged snippet names the packaged module")

        # dpkg chowns what it unpacks, which needs root even inside a scratch root.
        if shutil.which("dpkg") and os.geteuid() == 0:
            check_conffile_lifecycle(c, deb, scratch / "dpkg-root", args)
        else:
            print("note: conffile lifecycle not checked (needs dpkg and root)")
    c.finish()


def check_conffile_lifecycle(c, deb, root, args):
    """Install into an empty dpkg root: an edited snippet survives reinstall and removal and
    goes only on purge. The root has no libssl3 package, hence --force-depends."""
    for sub in ("var/lib/dpkg/updates", "var/lib/dpkg/info", "var/log"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    for name in ("status", "available"):
        (root / "var/lib/dpkg" / name).touch()

    def dpkg(*action):
        return sh("dpkg", f"--root={root}", f"--log={root}/var/log/dpkg.log", "--force-depends",
                  "--force-not-root", "--force-confold", *action)

    snippet = root / args.snippet_path.lstrip("/")
    module = root / args.module_path.lstrip("/")
    result = dpkg("-i", deb)
    c.check(result.returncode == 0 and module.is_file() and snippet.is_file(),
            "dpkg -i into a scratch root installs module and snippet",
            result.stdout + result.stderr)
    if not snippet.is_file():
        return
    snippet.write_text(snippet.read_text().replace("# kernel = auto", "kernel = ref"))
    dpkg("-i", deb)
    c.check("\nkernel = ref\n" in snippet.read_text(), "reinstall keeps the edited snippet")
    dpkg("-r", "blake2simd")
    c.check(not module.exists() and snippet.is_file(),
            "remove deletes the module, keeps the snippet")
    dpkg("-P", "blake2simd")
    c.check(not snippet.exists(), "purge deletes the snippet")


if __name__ == "__main__":
    main()
