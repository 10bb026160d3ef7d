#!/usr/bin/env python3
# The .deb on a real, minimal Debian: install, the installed module tested as a packager would
# (tools/test-installed.sh as a normal user, offline, with this build tree's test programs),
# `blake2simd-config enable`, `status`, purge while enabled (openssl and update-ca-certificates
# keep working), reinstall, `disable` (byte-identical openssl.cnf), purge. Runs in a copy of the shared pristine root (tools/ci/debian-root.sh) with
# the package's dependencies added, made once and cached outside the clone.
# SPDX-License-Identifier: Apache-2.0
#
# Needs root, chroot and debootstrap, the Debian mirror the host's apt sources name (only for the
# first run) and a host that is not itself inside a chroot; otherwise it reports itself skipped
# (77). No mounts: nothing here needs /proc, and debootstrap creates the /dev nodes.
import argparse
import os
import pathlib
import random
import re
import shutil
import subprocess
import tempfile

from system_common import Tally, skip
from system_deb import TOOL, build_deb, deb_arguments

PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
STOCK_CNF = "etc/ssl/openssl.cnf"
SOURCE_DIR = pathlib.Path(__file__).resolve().parent.parent
DEBIAN_ROOT = SOURCE_DIR / "tools/ci/debian-root.sh"
# ctest (cmake) runs the installed-module tests; coreutils' b2sum is in every root already.
PACKAGES = "openssl ca-certificates python3 cmake"
NOBODY = 65534


def check_prerequisites():
    if os.geteuid() != 0:
        skip("needs root (dpkg and chroot into a scratch Debian root)")
    try:
        if os.stat("/proc/1/root/") != os.stat("/"):
            skip("this host is itself inside a chroot")
    except OSError:
        pass  # a container hides init's root; chroot below is tried instead
    for program in ("debootstrap", "chroot"):
        if shutil.which(program) is None:
            skip(f"{program} not installed (apt-get install debootstrap)")
    if subprocess.run(["chroot", "/", "true"], capture_output=True).returncode != 0:
        skip("chroot is not permitted here")


def base_works(base):
    """The stamp outlives files lost since (a full disk, a killed copy): what the tests run must run."""
    ran = subprocess.run(["chroot", base, "/usr/bin/env", "-i", f"PATH={PATH}", "sh", "-c",
                          "openssl version && python3 -c pass && ctest --version"],
                         capture_output=True, timeout=120)
    if ran.returncode != 0:
        print(f"note: the cached {base.name} root does not run openssl, python3 and ctest; "
              "making it again")
    return ran.returncode == 0


def cached_base(cache, suite):
    """A copy of the shared pristine root of the suite with the package's dependencies, made once."""
    base = cache / f"{suite}-base"
    if (base / ".ok").is_file() and base_works(base):
        return base
    made = subprocess.run(["sh", str(DEBIAN_ROOT), suite], stdout=subprocess.PIPE, text=True,
                          timeout=1500)
    if made.returncode != 0:
        skip(f"no pristine {suite} root (tools/ci/debian-root.sh said why above)")
    cache.mkdir(parents=True, exist_ok=True)
    work = pathlib.Path(tempfile.mkdtemp(prefix=f"{suite}-new-", dir=cache)) / "root"
    subprocess.run(["cp", "-a", made.stdout.strip(), work], check=True)
    shutil.copy("/etc/resolv.conf", work / "etc/resolv.conf")
    log = cache / f"provision-{suite}.log"
    print(f"note: installing {PACKAGES} into the {suite} root (log {log})")
    with open(log, "w") as out:
        installed = subprocess.run(
            ["chroot", work, "/usr/bin/env", "-i", f"PATH={PATH}", "DEBIAN_FRONTEND=noninteractive",
             "sh", "-c", "apt-get update -q && apt-get install -y -q --no-install-recommends "
             f"{PACKAGES} && apt-get clean"],
            stdout=out, stderr=subprocess.STDOUT, timeout=1500)
    if installed.returncode != 0:
        subprocess.run(["rm", "-rf", "--one-file-system", work.parent])
        skip(f"installing into the {suite} root failed (mirror unreachable?): see {log}")
    if base.exists():
        subprocess.run(["rm", "-rf", "--one-file-system", base])
    work.rename(base)
    work.parent.rmdir()
    (base / ".ok").touch()
    return base


def installed_version(root, package):
    status = (root / "var/lib/dpkg/status").read_text(errors="replace")
    for stanza in status.split("\n\n"):
        if f"Package: {package}\n" in stanza + "\n":
            for line in stanza.splitlines():
                if line.startswith("Version: "):
                    return line.split(" ", 1)[1]
    return None


def check_installable(deb, root, suite):
    """A package takes the libc of the release it was built on (dpkg-shlibdeps): one built on a
    newer release than the root's is not for it, so that pairing is skipped, saying so."""
    depends = subprocess.run(["dpkg-deb", "-f", str(deb), "Depends"], capture_output=True,
                             text=True).stdout
    wanted = re.search(r"libc6 \(>= ([^)]+)\)", depends)
    have = installed_version(root, "libc6")
    if wanted and have and subprocess.run(
            ["dpkg", "--compare-versions", have, "lt", wanted.group(1)]).returncode == 0:
        skip(f"the package needs libc6 >= {wanted.group(1)} (built on a newer release); "
             f"{suite}'s is {have}")


class Chroot:
    def __init__(self, root):
        self.root = root

    def run(self, command):
        result = subprocess.run(["chroot", self.root, "/usr/bin/env", "-i", "HOME=/root",
                                 f"PATH={PATH}", "LC_ALL=C", "sh", "-c", command],
                                stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                timeout=600)
        print(f"# {command}  -> rc {result.returncode}")
        text = (result.stdout + result.stderr).strip()
        if text:
            print("  " + "\n  ".join(text.splitlines()[-12:]))
        return result

    def ok(self, c, command, what):
        result = self.run(command)
        c.check(result.returncode == 0, what)
        return result


def openssl_works(c, root, label):
    root.ok(c, "openssl version", f"[{label}] openssl version")
    root.ok(c, "openssl dgst -sha256 /etc/hostname", f"[{label}] openssl dgst -sha256")
    root.ok(c, "update-ca-certificates", f"[{label}] update-ca-certificates")
    blake = root.run("openssl dgst -blake2b512 /etc/hostname")
    c.check(blake.returncode == 0, f"[{label}] openssl dgst -blake2b512 answers")
    port = random.randrange(20000, 60000)
    tls = root.run(
        "cd /tmp && openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes "
        "-keyout k.pem -out c.pem -subj /CN=localhost -days 1 2>/dev/null && "
        f"(openssl s_server -accept 127.0.0.1:{port} -key k.pem -cert c.pem -naccept 1 -quiet "
        ">/dev/null 2>&1 &) && for i in 1 2 3 4 5 6 7 8 9 10; do sleep 0.5; "
        f"echo | openssl s_client -connect 127.0.0.1:{port} -CAfile c.pem -verify_return_error "
        "-brief 2>&1 | grep -q 'CONNECTION ESTABLISHED' && exit 0; done; exit 1")
    c.check(tls.returncode == 0, f"[{label}] TLS handshake (s_client to a local s_server)")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    deb_arguments(parser)
    parser.add_argument("--cache-dir", help="where the prepared roots live (default: "
                        "$B2_CI_CACHE/deploy, B2_CI_CACHE defaulting to /var/cache/blake2simd-ci)")
    parser.add_argument("--suite", default="bookworm")
    args = parser.parse_args()
    check_prerequisites()

    c = Tally("system_root", verbose=True)
    cache = pathlib.Path(args.cache_dir or os.path.join(
        os.environ.get("B2_CI_CACHE") or "/var/cache/blake2simd-ci", "deploy"))
    with tempfile.TemporaryDirectory(prefix="b2sys-root-") as tmp:
        deb = build_deb(c, args, pathlib.Path(tmp))
        base = cached_base(cache, args.suite)
        check_installable(deb, base, args.suite)
        scratch = pathlib.Path(tempfile.mkdtemp(prefix="root-", dir=cache))
        try:
            tree = scratch / "root"
            subprocess.run(["cp", "-a", base, tree], check=True)
            shutil.copy(deb, tree / "tmp/blake2simd.deb")
            sequence(c, Chroot(tree), tree, pathlib.Path(args.build_dir).resolve())
        finally:
            subprocess.run(["rm", "-rf", "--one-file-system", scratch])
    c.exit()


def traversable(tree, inside):
    """Every directory above `inside` in the scratch root opened to nobody: a path under /root
    (the checkout of CI's Debian 13 job) sits below a mode 0700 directory."""
    for directory in inside.relative_to(tree).parents:
        os.chmod(tree / directory, os.stat(tree / directory).st_mode | 0o755)


def copy_into(tree, path):
    inside = tree / str(path).lstrip("/")
    inside.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["cp", "-a", path, inside], check=True)
    subprocess.run(["chown", "-R", f"{NOBODY}:{NOBODY}", inside], check=True)
    traversable(tree, inside)


def python_at(tree, build_dir):
    """The tests run the Python the build tree was configured with; one the root lacks (the build
    host's own, e.g. a pyenv shim under /root) becomes a link to the root's python3, its
    directories made traversable (the root is a scratch copy)."""
    cache = (build_dir / "CMakeCache.txt").read_text()
    found = re.search(r"^_?Python3_EXECUTABLE:[A-Z]+=(.+)$", cache, re.M)
    if not found or (tree / found.group(1).lstrip("/")).exists():
        return
    link = tree / found.group(1).lstrip("/")
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to("/usr/bin/python3")
    traversable(tree, link)


def installed_tests(c, root, tree, build_dir):
    """tools/test-installed.sh in the root, as the user nobody, against the package's module: the
    scripts, the test sources and this build tree (its test programs) copied in at their paths."""
    for path in (SOURCE_DIR / "tools", SOURCE_DIR / "tests", SOURCE_DIR / "vectors", build_dir):
        copy_into(tree, path)
    python_at(tree, build_dir)
    result = root.ok(c, f"cd {SOURCE_DIR} && setpriv --reuid={NOBODY} --regid={NOBODY} "
                     f"--clear-groups env HOME=/tmp B2_BUILD_DIR={build_dir} "
                     "sh tools/test-installed.sh",
                     "tools/test-installed.sh passes as nobody against the installed module")
    c.check("blake2simd-sum /usr/bin/blake2simd-sum" in result.stdout and
            "100% tests passed" in result.stdout, "it tested the installed module and "
            "blake2simd-sum (found by openssl version -m: the root has no pkg-config)",
            result.stdout[-3000:])


def sequence(c, root, tree, build_dir):
    stock = (tree / STOCK_CNF).read_bytes()
    link = tree / "usr/lib/ssl/openssl.cnf"
    root.ok(c, "dpkg -i /tmp/blake2simd.deb", "dpkg -i the package")
    root.ok(c, f"test -x {TOOL} && test -f /usr/share/man/man8/blake2simd-config.8.gz",
            "tool and man page installed")
    installed_tests(c, root, tree, build_dir)
    root.ok(c, "blake2simd-config enable", "enable (default configuration file)")
    c.check(link.is_symlink() and (tree / STOCK_CNF).read_bytes() != stock,
            "/usr/lib/ssl/openssl.cnf is still a symlink; /etc/ssl/openssl.cnf was edited")
    status = root.run("blake2simd-config status")
    c.check(status.returncode == 0 and status.stdout.count("served by blake2simd") == 21,
            "status: blake2simd serves the 18 BLAKE2 algorithms (BLAKE2b/bp/s/sp/Xb/Xs digest and "
            "MAC, BLAKE2b-160/256/384, BLAKE2s-128/160/224) and ARGON2I/ARGON2D/ARGON2ID")
    openssl_works(c, root, "enabled")

    root.ok(c, "dpkg --purge blake2simd", "purge while enabled")
    openssl_works(c, root, "purged while enabled")
    c.check(not (tree / TOOL.lstrip("/")).exists(), "purge removed blake2simd-config")

    root.ok(c, "dpkg -i /tmp/blake2simd.deb", "reinstall")
    status = root.run("blake2simd-config status")
    c.check(status.returncode == 0, "the block left in openssl.cnf serves again after reinstall")
    root.ok(c, "blake2simd-config disable", "disable")
    c.check((tree / STOCK_CNF).read_bytes() == stock, "disable restores the stock openssl.cnf")
    root.ok(c, "dpkg --purge blake2simd", "purge after disable")
    openssl_works(c, root, "purged after disable")


if __name__ == "__main__":
    main()
