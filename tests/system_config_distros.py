#!/usr/bin/env python3
# blake2simd-config on the stock openssl.cnf of other distributions (tests/data/README.md says
# where each file comes from), each in a scratch tree laid out like that distribution: RHEL 9.0-9.3
# (the crypto policy's back-end file included, the only one naming the alg section), RHEL 9.4+
# and RHEL 9's openssl 3.5 (the drop-in directory too), upstream OpenSSL 3.0 and Arch; the kernel
# line the admin keeps; the kernel's FIPS flag; includes the tool must refuse.
# SPDX-License-Identifier: Apache-2.0
#
# Absolute include paths point into the scratch tree (the only change made to a stock file, and
# the file `disable` must give back byte for byte). Needs no root; as root the ownership cases
# with another owner are added.
import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile

from system_common import Tally, describe, providers, run
from system_config import (check_served, config_arguments, enable_succeeds, shared_module_copy,
                           status_lines, trusted_base)

POLICY = "usr/share/crypto-policies/DEFAULT/opensslcnf.txt"
BACKEND = "etc/crypto-policies/back-ends/opensslcnf.config"
# RHEL's libcrypto knows this alg-section key; upstream's (Debian's) rejects it as an unknown
# option, and with config_diagnostics = 1 then loads nothing.
RH_ONLY_KEY = "rh-allow-sha1-signatures = no"
STAND_IN_KEY = "fips_mode = no"  # also touches the alg section without default_properties


class Layout:
    """A scratch tree with openssl.cnf at `cnf` (relative), the module, and what it includes."""

    def __init__(self, args, root, cnf, text, files=()):
        self.args, self.root = args, root
        self.real = root / cnf
        self.link = self.real
        self.module = root / "modules/blake2simd.so"
        for path in (self.real, self.module):
            path.parent.mkdir(parents=True, exist_ok=True)
        self.real.write_bytes(self.rooted(text).encode())
        for relative, content in files:
            (root / relative).parent.mkdir(parents=True, exist_ok=True)
            (root / relative).write_text(content)
        shared_module_copy(args, root.parent, self.module)
        self.data = root / "data.bin"
        self.data.write_bytes(os.urandom(3000))

    def rooted(self, text):
        for prefix in (".include = /etc/", ".include /etc/"):
            text = text.replace(prefix, prefix.replace("/etc/", f"{self.root}/etc/"))
        return text

    def tool(self, *command, env=None, fips_flag=None):
        cmd = [sys.executable, self.args.tool, *command, "--config", self.real, "--module",
               self.module, "--openssl", self.args.openssl]
        if fips_flag:
            cmd += ["--fips-flag", fips_flag]
        base = {k: v for k, v in os.environ.items()
                if k not in ("OPENSSL_CONF", "BLAKE2SIMD_KERNEL")}
        return subprocess.run([str(c) for c in cmd], stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=300,
                              env=dict(base, **(env or {})))

    def legacy_app(self):
        result = run([self.args.legacy_app, self.data], self.real)
        return dict(line.partition(" ")[::2] for line in result.stdout.splitlines())

    def text(self):
        return self.real.read_bytes()


def policy_text(args, data):
    """The DEFAULT policy's back-end, with RHEL's own alg-section key replaced by a stand-in when
    this libcrypto rejects it (saying so)."""
    text = (data / "crypto-policies-DEFAULT-opensslcnf.config").read_text()
    with tempfile.NamedTemporaryFile("w", suffix=".cnf") as probe:
        probe.write("config_diagnostics = 1\nopenssl_conf = i\n[i]\nalg_section = e\n[e]\n"
                    f"{RH_ONLY_KEY}\n")
        probe.flush()
        if run([args.openssl, "version"], probe.name).returncode == 0:
            return text
    print(f"note: this libcrypto rejects RHEL's '{RH_ONLY_KEY}'; the back-end file has "
          f"'{STAND_IN_KEY}' in its place")
    return text.replace(RH_ONLY_KEY, STAND_IN_KEY)


def rhel_files(args, data, root):
    """The crypto policy as update-crypto-policies leaves it: the back-end a link into the
    policy's directory."""
    policy = root / POLICY
    policy.parent.mkdir(parents=True)
    policy.write_text(policy_text(args, data))
    backend = root / BACKEND
    backend.parent.mkdir(parents=True)
    backend.symlink_to(policy)
    (root / "etc/pki/tls/openssl.d").mkdir(parents=True, exist_ok=True)


def tls_policy(m):
    """What the crypto policy's TLS settings make of the cipher list (`openssl ciphers -s`)."""
    return run([m.args.openssl, "ciphers", "-s", "-v"], m.real).stdout


def parsed(m):
    """{section: {key: value}} as libcrypto's NCONF_load reads the configuration (through the
    tool's --parse child, which loads no configuration)."""
    child = subprocess.run([sys.executable, m.args.tool, "--parse", m.args.libcrypto,
                            str(m.real)], capture_output=True, text=True, timeout=60)
    return json.loads(child.stdout) if child.returncode == 0 else {}


def round_trip(c, m, label, dropin):
    """enable, status, disable with the file's own settings kept; returns nothing."""
    original, before = m.text(), providers(m.args.openssl, m.real)
    tls = tls_policy(m)
    bare = run([m.args.openssl, "ciphers", "-s", "-v"], "/dev/null").stdout
    check_served(c, m, f"{label}, before", by_blake2simd=False)
    if not enable_succeeds(c, m, label):
        return
    ours = m.root / "etc/pki/tls/openssl.d/blake2simd.cnf"
    if dropin:
        c.check(m.text() == original and ours.is_file(),
                f"[{label}] drop-in mode: openssl.cnf untouched, {ours.name} written")
        c.equal(ours.stat().st_mode & 0o777, 0o644, f"[{label}] the drop-in file is 0644")
    else:
        added = m.text()[len(original):]
        named = "crypto_policy" in label  # an alg section is named already
        c.check(m.text().startswith(original) and (b"alg_section" not in added or not named),
                f"[{label}] block appended" + ("; alg_section not re-pointed" if named else ""),
                added.decode())
    c.equal(providers(m.args.openssl, m.real), dict(before, blake2simd="active"),
            f"[{label}] every provider active before is active, blake2simd too")
    check_served(c, m, f"{label}, enabled", by_blake2simd=True)
    if tls:
        c.check(tls_policy(m) == tls and (tls != bare or "crypto_policy" not in label),
                f"[{label}] the crypto policy's TLS settings still apply (ciphers -s)")
    if "crypto_policy" in label:
        algs = parsed(m).get("evp_properties", {})
        c.check(algs.get("default_properties") == "?provider=blake2simd"
                and any(f"{key} = {value}" in (RH_ONLY_KEY, STAND_IN_KEY)
                        for key, value in algs.items()),
                f"[{label}] libcrypto reads the policy's alg-section key and the preference "
                "side by side in [evp_properties]", repr(algs))
    status = m.tool("status")
    said = status.stdout
    c.check(status.returncode == 0 and (not dropin or str(ours) in said),
            f"[{label}] status exit 0" + (", naming the drop-in file" if dropin else ""),
            describe(status))
    again = m.tool("enable")
    c.check(again.returncode == 0 and "nothing changed" in again.stdout,
            f"[{label}] enable twice = once", describe(again))
    disabled = m.tool("disable")
    c.check(disabled.returncode == 0 and m.text() == original and not ours.exists(),
            f"[{label}] disable gives back the file byte for byte"
            + (" and removes exactly the drop-in file" if dropin else ""), describe(disabled))
    check_served(c, m, f"{label}, disabled", by_blake2simd=False)


def distributions(c, args, work, data):
    def stock(name):
        return (data / name).read_text()

    for label, cnf, name in (("upstream OpenSSL 3.0", "usr/local/ssl/openssl.cnf",
                              "openssl-upstream-3.0.cnf"),
                             ("Arch", "etc/ssl/openssl.cnf", "openssl-arch.cnf")):
        round_trip(c, Layout(args, work / label.replace(" ", "-"), cnf, stock(name)), label,
                   dropin=False)
    for label, name, dropin in (("RHEL 9.0-9.3 crypto_policy", "openssl-rhel9.3.cnf", False),
                                ("RHEL 9.4+ crypto_policy", "openssl-rhel9.4.cnf", True),
                                ("RHEL 9.4+ crypto_policy + legacy drop-in", "openssl-rhel9.4.cnf",
                                 True),
                                ("RHEL 9 openssl-3.5 crypto_policy", "openssl-rhel9-3.5.cnf",
                                 True)):
        root = work / label.replace(" ", "-")
        rhel_files(args, data, root)
        if "legacy" in label:  # another provider's drop-in file, as an admin would add it
            (root / "etc/pki/tls/openssl.d/legacy.conf").write_text(
                "[ provider_sect ]\nlegacy = legacy_sect\n[ legacy_sect ]\nactivate = 1\n")
        m = Layout(args, root, "etc/pki/tls/openssl.cnf", stock(name))
        if "legacy" in label:
            c.equal(providers(args.openssl, m.real).get("legacy"), "active",
                    f"[{label}] legacy active through its drop-in file")
        round_trip(c, m, label, dropin)
        if not dropin:  # RHEL 9.0-9.3: the preference goes where the back-end's alg_section points
            m.tool("enable")
            c.check(b"[ evp_properties ]\ndefault_properties = ?provider=blake2simd" in m.text(),
                    f"[{label}] the preference lands in [evp_properties], the back-end's section")
            m.tool("disable")
        fips_refusals(c, m, label)


def mid_section_dropin(c, args, work):
    """Lines after the include of the drop-in directory, before any header, stay in the section
    open at the include (the drop-in file reopens it at its end)."""
    text = ("openssl_conf = init\n[ init ]\n.include /etc/conf.d\nproviders = provs\n"
            "[ provs ]\ndefault = d_sect\n[ d_sect ]\nactivate = 1\n")
    m = Layout(args, work / "mid-section", "etc/openssl.cnf", text, [("etc/conf.d/.keep", "")])
    original = m.text()
    enabled = m.tool("enable")
    ours = m.root / "etc/conf.d/blake2simd.cnf"
    c.check(enabled.returncode == 0 and m.text() == original and ours.is_file()
            and ours.read_text().splitlines()[-2] == "[ init ]",
            "[mid-section include] drop-in file written, ending in [ init ]", describe(enabled))
    check_served(c, m, "mid-section include, enabled", by_blake2simd=True)
    disabled = m.tool("disable")
    c.check(disabled.returncode == 0 and not ours.exists() and m.text() == original,
            "[mid-section include] disable removes exactly the drop-in file", describe(disabled))
    # OpenSSL reads "a#b.cnf" from the directory; an .include line would stop at the "#"
    (m.root / "etc/conf.d/a#b.cnf").write_text("[ x ]\ny = 1\n")
    refused = m.tool("enable")
    c.check(refused.returncode != 0 and "a#b.cnf" in refused.stderr and not ours.exists(),
            "[mid-section include] a drop-in name the check cannot spell is refused",
            describe(refused))


def fips_refusals(c, m, label):
    original = m.text()
    flag = m.root / "fips_enabled"
    flag.write_text("1\n")
    refused = m.tool("enable", fips_flag=flag)
    c.check(refused.returncode != 0 and "FIPS mode" in refused.stderr and m.text() == original,
            f"[{label}] the kernel's FIPS flag (1) is refused, saying so", describe(refused))
    status = m.tool("status", fips_flag=flag)
    c.check("FIPS mode:     on" in status.stdout, f"[{label}] status reports the FIPS flag",
            describe(status))
    flag.write_text("0\n")
    allowed = m.tool("enable", fips_flag=flag)
    c.equal(allowed.returncode, 0, f"[{label}] the kernel's FIPS flag 0 does not refuse")
    m.tool("disable")
    # A container image's mandatory fips=yes
    m.real.write_bytes(original + b"\n[ evp_properties ]\ndefault_properties = fips=yes\n")
    changed = m.text()
    refused = m.tool("enable")
    c.check(refused.returncode != 0 and "fips=yes" in refused.stderr
            and m.text() == changed and not (m.root / "etc/pki/tls/openssl.d/blake2simd.cnf")
            .exists(), f"[{label}] default_properties = fips=yes is refused with the reason",
            describe(refused))
    m.real.write_bytes(original)


def kernel_line(c, args, work, data):
    """The kernel line in the block is the admin's: status healthy, reported; enable keeps it;
    BLAKE2SIMD_KERNEL in the caller's environment is reported as what a program would get.
    The block forces the build's first kernel (the reference, which every CPU runs); the
    environment asks for the last (which this CPU may not run: then the module's fallback)."""
    forced, requested = args.kernels[0], args.kernels[-1]
    m = Layout(args, work / "kernel", "etc/ssl/openssl.cnf",
               (data / "openssl-debian12.cnf").read_text())
    original = m.text()
    c.equal(m.tool("enable").returncode, 0, "[kernel line] enable succeeds")
    comment = b"# kernel = auto      (or force one by name: blake2simd(7) lists them)"
    c.check(comment in m.text(), "[kernel line] the block offers the commented kernel line")
    m.real.write_bytes(m.text().replace(comment, f"kernel = {forced}".encode()))
    with_line = m.text()
    status = m.tool("status")
    kernels = {kernel for _, kernel in status_lines(status.stdout).values() if kernel}
    c.check(status.returncode == 0 and "stale" not in status.stdout and kernels == {forced}
            and f"kernel:        {forced} (forced" in status.stdout,
            f"[kernel line] status: exit 0, not stale, reports the forced kernel {forced}",
            describe(status))
    again = m.tool("enable")
    c.check(again.returncode == 0 and m.text() == with_line,
            "[kernel line] enable keeps the admin's kernel line", describe(again))
    app = m.legacy_app()
    c.equal(app.get("kernel"), forced, f"[kernel line] a program gets kernel {forced}")
    other = m.tool("status", env={"BLAKE2SIMD_KERNEL": requested})
    c.check(other.returncode == 0 and f"BLAKE2SIMD_KERNEL={requested}" in other.stdout,
            "[kernel line] status reports the caller's BLAKE2SIMD_KERNEL", describe(other))
    env_app = subprocess.run([str(args.legacy_app), str(m.data)], capture_output=True,
                             text=True, env=dict(os.environ, OPENSSL_CONF=str(m.real),
                                                 BLAKE2SIMD_KERNEL=requested))
    got = dict(line.partition(" ")[::2] for line in env_app.stdout.splitlines()).get("kernel")
    c.check(f"BLAKE2B-512 {got}" in other.stdout,
            f"[kernel line] status says the kernel a program started there gets ({got})",
            describe(other))
    m.tool("disable")
    c.equal(m.text(), original, "[kernel line] disable gives back the file")


def include_refusals(c, args, work, data):
    """Includes the tool must refuse, the file unchanged, the reason named."""
    debian = (data / "openssl-debian12.cnf").read_text()
    as_root = os.geteuid() == 0
    cases = []

    def case(name, include_line, files, words, spoil=None):
        cases.append((name, include_line, files, words, spoil))

    inc = "etc/ssl/inc/extra.cnf"
    case("an included file sets default_properties", f".include /{inc}",
         [(inc, "[ openssl_init ]\nalg_section = inc_algs\n[ inc_algs ]\n"
                "default_properties = ?fips=no\n")], ["extra.cnf", "default_properties"])
    case("a relative include", ".include extra.cnf", [], ["relative"])
    case("a comment ending in a backslash", "# a comment \\", [], ["continues"])
    case("an included directory others can write", "[ x ]\n.include /etc/ssl/open.d",
         [("etc/ssl/open.d/a.cnf", "y = 1\n")], ["open.d", "0777"],
         lambda m: (m.root / "etc/ssl/open.d").chmod(0o777))
    case("a linked include into a directory others can write", f".include /{inc}",
         [("srv/open/real.cnf", "[ y ]\nz = 1\n")], ["srv/open", "0777"],
         lambda m: ((m.root / inc).parent.mkdir(parents=True, exist_ok=True),
                    (m.root / inc).symlink_to(m.root / "srv/open/real.cnf"),
                    (m.root / "srv/open").chmod(0o777)))
    case("a missing include target in a directory others can write",
         ".include /etc/ssl/open2/later.cnf", [("etc/ssl/open2/.keep", "")], ["open2", "0777"],
         lambda m: (m.root / "etc/ssl/open2").chmod(0o777))
    if as_root:
        case("an included file owned by nobody", f".include /{inc}",
             [(inc, "[ y ]\nz = 1\n")], ["extra.cnf", "uid 65534"],
             lambda m: os.chown(m.root / inc, 65534, 65534))
    for name, include_line, files, words, spoil in cases:
        text = debian.replace("# .include fipsmodule.cnf", include_line, 1)
        m = Layout(args, work / ("refuse-" + name.replace(" ", "-")), "etc/ssl/openssl.cnf", text,
                   files)
        if spoil:
            spoil(m)
        before = m.text()
        result = m.tool("enable")
        c.check(result.returncode != 0 and all(w in result.stderr for w in words)
                and "Traceback" not in result.stderr and m.text() == before,
                f"[refuse: {name}] refused naming {' / '.join(words)}, file unchanged",
                describe(result))
    # an include the tool cannot follow, added after enable: disable still removes the block
    m = Layout(args, work / "late-include", "etc/ssl/openssl.cnf", debian)
    c.equal(m.tool("enable").returncode, 0, "[late include] enable succeeds")
    edited = m.text().replace(b"# .include fipsmodule.cnf", b".include fipsmodule.cnf", 1)
    m.real.write_bytes(edited)
    disabled = m.tool("disable")
    c.check(disabled.returncode == 0 and m.text() == debian.replace(
        "# .include fipsmodule.cnf", ".include fipsmodule.cnf", 1).encode(),
            "[late include] disable removes the block from a file with a relative include",
            describe(disabled))
    # accepted: a missing include target in a root-owned directory, and a nested include
    text = debian.replace("# .include fipsmodule.cnf",
                          ".include /etc/ssl/missing.cnf\n.include /etc/ssl/a.cnf", 1)
    m = Layout(args, work / "missing-include", "etc/ssl/openssl.cnf", text,
               [("etc/ssl/b.cnf", "[ tsa ]\nx = 1\n")])
    (m.root / "etc/ssl/a.cnf").write_text(m.rooted(".include /etc/ssl/b.cnf\n"))
    text = m.real.read_text()
    result = m.tool("enable")
    c.check(result.returncode == 0, "[accepted] a missing include and a nested include",
            describe(result))
    c.check(m.tool("disable").returncode == 0 and m.real.read_text() == text,
            "[accepted] disable gives the file back")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--libcrypto", required=True, help="the libcrypto openssl loads")
    parser.add_argument("--kernels", required=True, type=lambda text: text.split(","),
                        help="the build's kernels, comma-separated, the reference first")
    args = config_arguments(parser)
    c = Tally("system_config_distros", verbose=True)
    os.umask(0o022)
    data = pathlib.Path(args.data_dir)
    with tempfile.TemporaryDirectory(prefix="b2sys-distros-", dir=trusted_base(args)) as tmp:
        work = pathlib.Path(tmp)
        distributions(c, args, work, data)
        mid_section_dropin(c, args, work)
        kernel_line(c, args, work, data)
        include_refusals(c, args, work, data)
    c.exit()


if __name__ == "__main__":
    main()
