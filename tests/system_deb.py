#!/usr/bin/env python3
# `cpack -G DEB` builds a Debian package with the right paths and dependencies, no conffile, no
# scripts, no lintian errors, directories 0755 under any builder's umask (000 and 002 tried), and
# writes nothing outside its tree; dpkg installs and purges it cleanly in an empty dpkg root.
# SPDX-License-Identifier: Apache-2.0
#
# A plain `cpack` first builds the tree's "preinstall" target, which would relink blake2simd.so
# while other tests load it. So this test stages the files with `DESTDIR=... cmake --install`
# (which builds nothing) and runs cpack on the build tree's own CPackConfig.cmake with only the
# input switched to that staged directory. For a tree configured with the /usr prefix, which is
# the only one the .deb accepts, both ways yield the same files. Output goes to a scratch directory.
import argparse
import hashlib
import os
import pathlib
import re
import shutil
import subprocess
import tempfile

from system_common import Tally, skip

MAINTAINER_SCRIPTS = ("preinst", "postinst", "prerm", "postrm", "config", "triggers")
TOOL = "/usr/sbin/blake2simd-config"
ALGORITHMS = ("BLAKE2B-512", "BLAKE2BMAC", "BLAKE2BP-512", "BLAKE2BPMAC", "BLAKE2S-256",
              "BLAKE2SMAC", "BLAKE2SP-256", "BLAKE2SPMAC")


def sh(*cmd, cwd=None, timeout=300):
    return subprocess.run([str(c) for c in cmd], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout)


def deb_arguments(parser):
    parser.add_argument("--cmake", required=True)
    parser.add_argument("--cpack", required=True)
    parser.add_argument("--build-dir", required=True)
    parser.add_argument("--prefix", required=True, help="CMAKE_INSTALL_PREFIX of the build tree")
    parser.add_argument("--module-path", required=True)
    parser.add_argument("--version", required=True)
    parser.add_argument("--sum-path", default="", help="installed blake2simd-sum, when built")


def build_deb(c, args, scratch):
    """The tree's .deb, built from a staged install into `scratch`; skips (77) when the tree
    cannot make one (prefix other than /usr, no man pages), after checking cpack says why."""
    if shutil.which("dpkg-deb") is None:
        skip("dpkg-deb not found")
    scratch.mkdir(parents=True, exist_ok=True)
    stage = scratch / "stage"
    installed = subprocess.run([args.cmake, "--install", args.build_dir, "--strip"],
                               capture_output=True,
                               text=True, timeout=120, env=dict(os.environ, DESTDIR=str(stage)))
    if not c.check(installed.returncode == 0, "cmake --install into the staging directory",
                   installed.stdout + installed.stderr):
        c.exit()
    config = pathlib.Path(args.build_dir) / "CPackConfig.cmake"
    staged_config = scratch / "CPackStaged.cmake"
    staged_config.write_text(f'include("{config}")\n'
                             'set(CPACK_INSTALL_CMAKE_PROJECTS "")\n'
                             f'set(CPACK_INSTALLED_DIRECTORIES "{stage};/")\n')
    result = sh(args.cpack, "-G", "DEB", "--config", staged_config, "-B", scratch / "out",
                cwd=scratch)
    output = result.stdout + result.stderr
    if args.prefix != "/usr":
        c.check(result.returncode != 0 and "CMAKE_INSTALL_PREFIX=/usr" in output,
                f"cpack refuses a .deb from a tree with prefix {args.prefix}", output)
        if c.failures:
            c.exit()
        skip("package contents not checked: configure with -DCMAKE_INSTALL_PREFIX=/usr "
             f"(this tree has {args.prefix})")
    if result.returncode != 0 and "no man pages in this tree" in output:
        skip("this tree has no man pages (pod2man was missing at configure time)")
    if not c.check(result.returncode == 0, "cpack -G DEB succeeds", output):
        c.exit()
    debs = sorted((scratch / "out").glob("*.deb"))
    if not c.equal(len(debs), 1, "exactly one .deb produced"):
        c.exit()
    return debs[0]


STRAY_SHLIBDEPS_DIR = pathlib.Path("/b2-shlibdeps")  # where cpack once wrote outside the tree


def clear_stray_shlibdeps_dir():
    """Removes what an older cpack left at the filesystem root; False if it cannot."""
    shutil.rmtree(STRAY_SHLIBDEPS_DIR, ignore_errors=True)
    return not STRAY_SHLIBDEPS_DIR.exists()


def check_wrote_only_its_tree(c, when):
    c.check(not STRAY_SHLIBDEPS_DIR.exists(),
            f"{when}: cpack wrote nothing outside its tree ({STRAY_SHLIBDEPS_DIR} absent)")


def check_modes(c, listing, umask):
    """Every directory in the package is 0755 and no file is group- or other-writable, whatever
    the builder's umask (dpkg creates the directories with the modes the package gives)."""
    dirs = [line for line in listing.splitlines() if line.startswith("d")]
    bad_dirs = [line for line in dirs if not line.startswith("drwxr-xr-x ")]
    c.check(dirs and not bad_dirs, f"umask {umask:03o}: every directory is drwxr-xr-x",
            "\n".join(bad_dirs))
    writable = [line for line in listing.splitlines()
                if not line.startswith("d") and (line[5] == "w" or line[8] == "w")]
    c.check(not writable, f"umask {umask:03o}: no file is group- or other-writable",
            "\n".join(writable))


def check_built_under_umasks(c, args, scratch, stray_cleared):
    """The package built under the umasks a builder may have: 000 and 002."""
    for umask in (0o000, 0o002):
        previous = os.umask(umask)
        try:
            deb = build_deb(c, args, scratch / f"umask-{umask:03o}")
        finally:
            os.umask(previous)
        check_modes(c, sh("dpkg-deb", "-c", deb).stdout, umask)
        if stray_cleared:
            check_wrote_only_its_tree(c, f"umask {umask:03o}")


def control_fields(info):
    fields = {}
    for line in info.splitlines():
        match = re.match(r"^ ([A-Za-z-]+): (.*)$", line)
        if match:
            fields[match.group(1)] = match.group(2).strip()
    return fields


def depends_items(depends):
    return [re.sub(r"\s+", " ", item.strip()) for item in depends.split(",") if item.strip()]


def check_sum_program(c, args, listing, paths, root):
    """blake2simd-sum is shipped, executable, with its man page, and runs from the package
    (only libc and libcrypto needed) with the packaged module."""
    c.check(args.sum_path in paths, f"ships {args.sum_path}")
    c.check("/usr/share/man/man1/blake2simd-sum.1.gz" in paths, "ships blake2simd-sum(1)")
    c.check("/usr/share/bash-completion/completions/blake2simd-sum" in paths,
            "ships blake2simd-sum's bash completion")
    c.check(re.search(rf"^-rwxr-xr-x .*\.{re.escape(args.sum_path)}$", listing, re.M),
            "blake2simd-sum is mode 0755")
    program = root / args.sum_path.lstrip("/")
    module_dir = (root / args.module_path.lstrip("/")).parent
    result = subprocess.run([program, "--provider-path", module_dir, "-"], input=b"abc",
                            capture_output=True, timeout=60)
    c.equal(result.stdout.split(b" ")[0].decode(), hashlib.blake2b(b"abc").hexdigest(),
            "the packaged blake2simd-sum hashes with the packaged module")
    needed = sh("readelf", "-d", program).stdout if shutil.which("readelf") else ""
    c.check("libstdc++" not in needed, "blake2simd-sum needs no libstdc++ at run time", needed)


def check_control(c, args, deb):
    """The control fields: name, version, description, the Depends, no maintainer scripts."""
    info = sh("dpkg-deb", "-I", deb).stdout
    print(info)
    fields = control_fields(info)
    c.equal(fields.get("Package"), "blake2simd", "Package: blake2simd")
    c.equal(fields.get("Version"), args.version, "Version is the project version")
    for name in ALGORITHMS:
        c.check(name in info, f"the description names {name}")
    items = depends_items(fields.get("Depends", ""))
    # Named by hand, not by dpkg-shlibdeps: right also when the module links no libcrypto.
    c.check("libssl3t64 | libssl3" in items,
            "Depends: libssl3t64 | libssl3 (libcrypto's package on Debian 13 / 12)", repr(items))
    c.check(not any(re.match(r"^libssl3(t64)?\b", i) for i in items
                    if i != "libssl3t64 | libssl3"),
            "no other libssl3 dependency (a Debian 12 name alone would not fit Debian 13)",
            repr(items))
    c.check(any(re.match(r"^libc6 \(>= 2\.\d+\)$", i) for i in items), "Depends: libc6 (>= 2.x)",
            repr(items))
    for needed in ("openssl", "python3"):
        c.check(needed in items, f"Depends: {needed} (blake2simd-config needs it)", repr(items))
    c.check(not any(i.startswith("libstdc++") for i in items), "no Depends: libstdc++6")
    for script in MAINTAINER_SCRIPTS:
        c.check(not re.search(rf"^\s+\d+ bytes,\s+\d+ lines\s+\*?\s*{script}\b", info, re.M),
                f"no {script} maintainer script")
    c.check(not re.search(r"^\s+\d+ bytes,\s+\d+ lines\s+conffiles\b", info, re.M),
            "no conffiles")


def check_file_list(c, args, deb):
    """What the package ships, where, with which modes; returns the listing and its paths."""
    listing = sh("dpkg-deb", "-c", deb).stdout
    paths = sorted(line.split()[-1].lstrip(".") for line in listing.splitlines()
                   if not line.startswith("d"))
    print("files:\n  " + "\n  ".join(paths))
    for path in (args.module_path, TOOL, "/usr/share/man/man7/blake2simd.7.gz",
                 "/usr/share/man/man8/blake2simd-config.8.gz",
                 "/usr/share/doc/blake2simd/README.md", "/usr/share/doc/blake2simd/deploying.md",
                 "/usr/share/doc/blake2simd/copyright", "/usr/share/doc/blake2simd/changelog.gz"):
        c.check(path in paths, f"ships {path}")
    c.check(not any(p.startswith(("/usr/local", "/etc")) for p in paths),
            "nothing under /usr/local or /etc")
    c.check(re.search(r"^-rwxr-xr-x .*\./usr/sbin/blake2simd-config$", listing, re.M),
            "blake2simd-config is mode 0755")
    return listing, paths


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    deb_arguments(parser)
    args = parser.parse_args()

    c = Tally("system_deb", verbose=True)
    # In the build tree, not /tmp: as root, blake2simd-sum refuses a module in a directory that
    # others could write (cli/module_trust.hpp), and the unpacked package is run from here.
    with tempfile.TemporaryDirectory(prefix="b2sys-deb-", dir=args.build_dir) as tmp:
        scratch = pathlib.Path(tmp)
        os.chmod(scratch, 0o755)
        stray_cleared = clear_stray_shlibdeps_dir()
        if not stray_cleared:
            print(f"note: {STRAY_SHLIBDEPS_DIR} exists and cannot be removed: not checked")
        deb = build_deb(c, args, scratch)
        print(f"package: {deb.name}")
        if stray_cleared:
            check_wrote_only_its_tree(c, "cpack -G DEB")
        check_built_under_umasks(c, args, scratch, stray_cleared)

        check_control(c, args, deb)
        listing, paths = check_file_list(c, args, deb)
        root = scratch / "root"
        sh("dpkg-deb", "-x", deb, root)
        if args.sum_path:
            check_sum_program(c, args, listing, paths, root)
        tool = (root / TOOL.lstrip("/")).read_text()
        c.check(f'INSTALLED_MODULE = "{args.module_path}"' in tool,
                "packaged blake2simd-config names the packaged module")

        if shutil.which("lintian"):
            lint = sh("lintian", "--fail-on", "error", deb, timeout=600)
            print("lintian:\n" + (lint.stdout + lint.stderr).strip())
            c.check(lint.returncode == 0, "lintian reports no errors")
        else:
            print("note: lintian not installed (sh tools/quickstart.sh deb installs it), not run")

        # dpkg chowns what it unpacks, which needs root even inside a scratch root.
        if shutil.which("dpkg") and os.geteuid() == 0:
            check_dpkg_lifecycle(c, deb, scratch / "dpkg-root", args)
        else:
            print("note: dpkg install/purge not checked (needs dpkg and root)")
    c.exit()


def check_dpkg_lifecycle(c, deb, root, args):
    """Install into an empty dpkg root and purge: nothing is left behind. The root has none of
    the dependencies, hence --force-depends (tests/system_root.py installs into a real system)."""
    for sub in ("var/lib/dpkg/updates", "var/lib/dpkg/info", "var/log"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    for name in ("status", "available"):
        (root / "var/lib/dpkg" / name).touch()

    def dpkg(*action):
        return sh("dpkg", f"--root={root}", f"--log={root}/var/log/dpkg.log", "--force-depends",
                  "--force-not-root", "--force-script-chrootless", *action)

    module = root / args.module_path.lstrip("/")
    tool = root / TOOL.lstrip("/")
    result = dpkg("-i", deb)
    c.check(result.returncode == 0 and module.is_file() and tool.is_file(),
            "dpkg -i into a scratch root installs module and tool", result.stdout + result.stderr)
    dpkg("-P", "blake2simd")
    left = [str(p.relative_to(root)) for p in (root / "usr").rglob("*") if not p.is_dir()] \
        if (root / "usr").exists() else []
    c.equal(left, [], "purge leaves no file behind")


if __name__ == "__main__":
    main()
