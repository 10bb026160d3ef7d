#!/usr/bin/env python3
# blake2simd-config enable/status/disable on scratch copies of stock Debian 12 and 13 openssl.cnf.
# SPDX-License-Identifier: Apache-2.0
#
# Each copy sits where Debian has it (etc/ssl/openssl.cnf, reached through the symlink
# usr/lib/ssl/openssl.cnf) and the tool is driven with --config on the link. Who serves a plain
# fetch is checked by an unmodified C program (b2_legacy_app: EVP_MD_get0_provider of a plain
# EVP_MD_fetch, and the context's `kernel` param that only blake2simd has), not by the tool.
import argparse
import hashlib
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

from system_common import Tally, describe, digest_hex, providers, run, skip_if_sanitized, write

STOCK_FILES = ("openssl-debian12.cnf", "openssl-debian13.cnf")


class Machine:
    """A scratch /etc/ssl + /usr/lib/ssl layout and a module copy that can be deleted."""

    def __init__(self, args, root, stock_text):
        self.args = args
        self.root = root
        self.real = root / "etc/ssl/openssl.cnf"
        self.link = root / "usr/lib/ssl/openssl.cnf"
        self.module = root / "modules/blake2simd.so"
        self.real.parent.mkdir(parents=True)
        self.link.parent.mkdir(parents=True)
        self.module.parent.mkdir(parents=True)
        self.real.write_bytes(stock_text.encode())
        self.link.symlink_to(self.real)
        shared_module_copy(args, root.parent, self.module)
        self.data = root / "data.bin"
        self.data.write_bytes(os.urandom(3000))
        self.key = root / "key.pem"

    def tool(self, *command, config=None, module=None, openssl=None, env=None):
        cmd = [sys.executable, self.args.tool, *command, "--config", config or self.link,
               "--module", module or self.module, "--openssl", openssl or self.args.openssl]
        return subprocess.run([str(c) for c in cmd], stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=300,
                              env=env or {k: v for k, v in os.environ.items()
                                          if k != "OPENSSL_CONF"})

    def legacy_app(self):
        result = run([self.args.legacy_app, self.data], self.link)
        found = {}
        for line in result.stdout.splitlines():
            key, _, value = line.partition(" ")
            found[key] = value.strip()
        return found

    def text(self):
        return self.real.read_bytes()


def shared_module_copy(args, directory, target):
    """A hard link to one root-owned copy of the module per scratch tree: a copy per machine
    would take megabytes each, and the tree must be trusted (root-owned, not group/other
    writable) for the tool to accept the module."""
    master = directory / ".module-master.so"
    if not master.exists():
        shutil.copy(args.module, master)
        master.chmod(0o644)
    os.link(master, target)


def untrusted_reason(path):
    """Why blake2simd-config must not trust `path` (None: it may): like sshd's StrictModes, the
    resolved file and every directory above it owned by root (or by us) and not writable by
    group or others. Written independently of the tool's own check."""
    real = pathlib.Path(os.path.realpath(path))
    for component in [real, *real.parents]:
        info = component.stat()
        if info.st_uid not in (0, os.geteuid()):
            return f"{component} is owned by uid {info.st_uid}"
        if info.st_mode & 0o022:
            return f"{component} has mode {oct(info.st_mode & 0o7777)}"
    return None


# What `status` must say serves each algorithm (OpenSSL's default provider has only BLAKE2b-512
# and BLAKE2s-256 and their MACs: no tree modes, no RFC 7693 sizes by name, no BLAKE2X).
ONLY_BLAKE2SIMD = ("BLAKE2B-160", "BLAKE2B-256", "BLAKE2B-384", "BLAKE2BP-512", "BLAKE2BPMAC",
                   "BLAKE2S-128", "BLAKE2S-160", "BLAKE2S-224", "BLAKE2SP-256", "BLAKE2SPMAC",
                   "BLAKE2XB", "BLAKE2XBMAC", "BLAKE2XS", "BLAKE2XSMAC")
DEFAULT_SERVES = {"BLAKE2B-512": "default", "BLAKE2BMAC": "default",
                  "BLAKE2S-256": "default", "BLAKE2SMAC": "default",
                  **{name: "nobody" for name in ONLY_BLAKE2SIMD}}
DIGESTS = tuple(name for name in DEFAULT_SERVES if not name.endswith("MAC"))
# The Argon2 KDFs: OpenSSL's default provider serves them from 3.2 on, nobody before.
ARGON2 = ("ARGON2I", "ARGON2D", "ARGON2ID")


def status_lines(stdout, names=tuple(DEFAULT_SERVES) + ARGON2):
    """{algorithm: (server, kernel or None)} from `status` lines "NAME: served by X[, kernel K]"."""
    found = {}
    for line in stdout.splitlines():
        name, _, rest = line.partition(":")
        if name in names and rest.strip().startswith("served by "):
            served, _, kernel = rest.strip()[len("served by "):].partition(", kernel ")
            found[name] = (served.split()[0], kernel or None)
    return found


def check_served(c, m, label, by_blake2simd):
    app = m.legacy_app()
    server = "blake2simd" if by_blake2simd else "default"
    for prefix, hash_function in (("", hashlib.blake2b), ("blake2s_", hashlib.blake2s)):
        name = "BLAKE2b" if prefix == "" else "BLAKE2s"
        c.equal(app.get(f"{prefix}init_ex"), hash_function(m.data.read_bytes()).hexdigest(),
                f"[{label}] legacy {name} EVP_MD gives the right digest")
        c.equal(app.get(f"{prefix}fetch_provider"), server,
                f"[{label}] plain EVP_MD_fetch of {name} served by {server}")
        has_kernel = app.get(f"{prefix}kernel", "(none)") != "(none)"
        c.check(has_kernel == by_blake2simd,
                f"[{label}] {name} context 'kernel' param "
                f"{'present' if by_blake2simd else 'absent'}", repr(app))
    status = m.tool("status")
    c.equal(status.returncode, 0 if by_blake2simd else 1, f"[{label}] status exit code")
    said = status_lines(status.stdout)
    expected = {name: "blake2simd" if by_blake2simd else default
                for name, default in DEFAULT_SERVES.items()}
    c.equal({name: said.get(name, ("(no line)",))[0] for name in DEFAULT_SERVES}, expected,
            f"[{label}] status names the server of each of the {len(DEFAULT_SERVES)} algorithms")
    kernels = {name: said.get(name, (None, None))[1] for name in DIGESTS}
    c.check(all(kernels.values()) == by_blake2simd and (by_blake2simd or not any(kernels.values())),
            f"[{label}] status names a kernel for each digest only when blake2simd serves",
            repr(kernels))
    argon2 = {name: said.get(name, ("(no line)", None)) for name in ARGON2}
    c.check(all(server == "blake2simd" and kernel for server, kernel in argon2.values())
            if by_blake2simd else
            all(server in ("default", "nobody") and not kernel for server, kernel in argon2.values()),
            f"[{label}] status: the Argon2 KDFs served by "
            f"{'blake2simd, with their BlaMka kernel' if by_blake2simd else 'default or nobody'}",
            repr(argon2))


def enable_succeeds(c, m, label):
    """Runs enable, expecting success; says why when it fails."""
    enabled = m.tool("enable")
    c.equal(enabled.returncode, 0, f"[{label}] enable succeeds")
    if enabled.returncode != 0:
        print(enabled.stdout + enabled.stderr)
    return enabled.returncode == 0


def check_everything_else_works(c, m, label, legacy):
    conf = m.link
    c.check(run([m.args.openssl, "version"], conf).returncode == 0, f"[{label}] openssl version")
    sha = run([m.args.openssl, "dgst", "-sha256", m.data], conf)
    c.equal(digest_hex(sha), hashlib.sha256(m.data.read_bytes()).hexdigest(),
            f"[{label}] openssl dgst -sha256")
    cert = m.root / "cert.pem"
    req = run([m.args.openssl, "req", "-new", "-x509", "-key", m.key, "-subj", "/CN=b2",
               "-days", "1", "-out", cert], conf)
    c.check(req.returncode == 0 and cert.is_file(), f"[{label}] openssl req -x509 (stock [req])",
            describe(req))
    if legacy:
        md4 = run([m.args.openssl, "dgst", "-md4", m.data], conf)
        c.check(digest_hex(md4) is not None, f"[{label}] legacy provider still serves MD4",
                describe(md4))


def with_legacy(stock):
    """The stock file with legacy loaded next to default, as an administrator would set it up."""
    lines = stock.splitlines()
    for old, new in (("# providers = provider_sect", "providers = provider_sect"),
                     ("# [provider_sect]", "[provider_sect]"),
                     ("# default = default_sect", "default = default_sect"),
                     ("# [default_sect]", "[default_sect]"), ("# activate = 1", "activate = 1")):
        lines = [new if line == old else line for line in lines]
    index = lines.index("default = default_sect")
    lines.insert(index + 1, "legacy = legacy_sect")
    lines += ["", "[legacy_sect]", "activate = 1"]
    return "\n".join(lines) + "\n"


def scenario(c, args, workdir, name, stock, legacy):
    label = name + (" + legacy" if legacy else "")
    root = workdir / label.replace(" ", "")
    m = Machine(args, root, stock)
    run([args.openssl, "genpkey", "-algorithm", "ED25519", "-out", m.key], m.link)
    original = m.text()
    before = providers(args.openssl, m.link)
    c.check(before.get("default") == "active" and (not legacy or before.get("legacy") == "active"),
            f"[{label}] before: expected providers active", repr(before))
    check_served(c, m, f"{label}, before", by_blake2simd=False)
    if not enable_succeeds(c, m, label):
        return
    c.check(m.link.is_symlink() and m.link.resolve() == m.real.resolve(),
            f"[{label}] the symlink is kept, its target edited")
    c.check(m.text() != original and b".include" not in m.text()[len(original):],
            f"[{label}] enable appended a block without .include")
    # No backup: after `disable` one would hold the enabled file, and restoring "the backup"
    # would silently enable blake2simd again (disable is the undo).
    c.check(not pathlib.Path(str(m.real) + ".blake2simd-config.bak").exists(),
            f"[{label}] no backup file left next to openssl.cnf")
    after = providers(args.openssl, m.link)
    c.equal(after, dict(before, blake2simd="active"), f"[{label}] providers after enable")
    check_served(c, m, f"{label}, enabled", by_blake2simd=True)
    check_everything_else_works(c, m, f"{label}, enabled", legacy)

    enabled_text = m.text()
    again = m.tool("enable")
    c.check(again.returncode == 0 and m.text() == enabled_text,
            f"[{label}] enable twice = once", describe(again))

    disabled = m.tool("disable")
    c.check(disabled.returncode == 0 and m.text() == original,
            f"[{label}] disable restores the file byte for byte", describe(disabled))
    c.check(m.link.is_symlink(), f"[{label}] the symlink survives disable")
    noop = m.tool("disable")
    c.check(noop.returncode == 0 and m.text() == original, f"[{label}] disable twice = once")
    check_served(c, m, f"{label}, disabled", by_blake2simd=False)

    # An administrator's edit made while enabled survives disable.
    m.tool("enable")
    edit = b"# local change made while blake2simd was enabled\n"
    m.real.write_bytes(edit + m.text())
    m.tool("disable")
    c.equal(m.text(), edit + original, f"[{label}] disable keeps the admin's own edit")
    m.real.write_bytes(original)

    # The package removed while enabled: the inline block names a missing module.
    m.tool("enable")
    m.module.unlink()
    check_everything_else_works(c, m, f"{label}, module removed", legacy)
    check_served(c, m, f"{label}, module removed", by_blake2simd=False)
    gone = providers(args.openssl, m.link)
    c.check(gone.get("default") == "active" and "blake2simd" not in gone,
            f"[{label}, module removed] default active, blake2simd not loaded", repr(gone))
    cleaned = m.tool("disable")
    c.check(cleaned.returncode == 0 and m.text() == original,
            f"[{label}, module removed] disable still restores the file")
    refused = m.tool("enable")
    c.check(refused.returncode != 0 and "not found" in refused.stderr and m.text() == original,
            f"[{label}] enable with the module missing refuses and says so", describe(refused))


def refusals(c, args, workdir, stock):
    """Files the tool must not edit: it says why and leaves them byte for byte unchanged."""
    cases = {
        "garbage line": stock + "\nthis line is not valid\n",
        "openssl_conf names a missing section": stock.replace(
            "openssl_conf = openssl_init", "openssl_conf = no_such_init", 1),
        "providers names a missing section": stock.replace(
            "# providers = provider_sect", "providers = nowhere_sect", 1),
        "blake2simd already set up by hand": stock + (
            "\n[openssl_init]\nproviders = provider_sect\n[provider_sect]\ndefault = default_sect\n"
            "blake2simd = blake2simd_sect\n[default_sect]\nactivate = 1\n[blake2simd_sect]\n"
            f"module = {args.module}\nactivate = 1\n"),
        "fips=yes rules blake2simd out": stock + (
            "\n[openssl_init]\nalg_section = fips_algs\n[fips_algs]\n"
            "default_properties = fips=yes\n"),
        # The included file sets default_properties in a section the block reopens; the
        # block's copy would keep overriding it after that file changes.
        "an included file sets what the block sets": stock.replace(
            "# .include fipsmodule.cnf", f".include {workdir}/included.cnf", 1),
        "key set in another section": stock + "\n[ other ]\nopenssl_init::alg_section = x\n",
        # OpenSSL runs every `providers.<anything>` line as the providers module
        "a second providers line": stock + "\n[openssl_init]\nproviders.2 = other_sect\n"
                                            "[other_sect]\n",
    }
    (workdir / "included.cnf").write_text("[ openssl_init ]\nalg_section = inc_algs\n"
                                          "[ inc_algs ]\ndefault_properties = fips=no\n")
    for name, text in cases.items():
        m = Machine(args, workdir / ("refuse-" + name.replace(" ", "-")), text)
        result = m.tool("enable")
        c.check(result.returncode != 0 and result.stderr.strip() != "",
                f"[refuse: {name}] enable fails with a message", describe(result))
        c.check(m.text() == text.encode(), f"[refuse: {name}] file unchanged")
        c.check(not pathlib.Path(str(m.real) + ".blake2simd-config.bak").exists(),
                f"[refuse: {name}] no backup written")
        print(f"     message: {result.stderr.strip()[:200]}")


def minimal_file(c, args, workdir):
    """No openssl_conf at all and no newline at the end: enable adds the whole chain, disable
    gives back the exact bytes."""
    text = "HOME = .\n[ req ]\ndistinguished_name = dn\n[ dn ]"
    m = Machine(args, workdir / "minimal", text)
    enabled = m.tool("enable")
    c.equal(enabled.returncode, 0, "[minimal file] enable succeeds")
    check_served(c, m, "minimal file, enabled", by_blake2simd=True)
    disabled = m.tool("disable")
    c.check(disabled.returncode == 0 and m.text() == text.encode(),
            "[minimal file] disable restores it, missing final newline included")


def round_trip(c, args, workdir, name, data):
    """enable serves and disable gives back `data` byte for byte; returns the enabled bytes."""
    m = Machine(args, workdir / name.replace(" ", "-"), "")
    m.real.write_bytes(data)
    enabled = m.tool("enable")
    c.equal(enabled.returncode, 0, f"[{name}] enable succeeds")
    result = m.text()
    if enabled.returncode == 0:
        check_served(c, m, f"{name}, enabled", by_blake2simd=True)
    disabled = m.tool("disable")
    c.check(disabled.returncode == 0 and m.text() == data,
            f"[{name}] disable restores it byte for byte", describe(disabled))
    return result


def unusual_bytes(c, args, workdir, stock):
    """CRLF line ends, bytes that are not UTF-8, a form feed in a comment: OpenSSL reads these
    files, so the tool must edit them without damage."""
    crlf = stock.replace("\n", "\r\n").encode()
    enabled = round_trip(c, args, workdir, "CRLF file", crlf)
    c.check(b"\n" not in enabled.replace(b"\r\n", b""),
            "[CRLF file] the block has CRLF line ends too")
    latin1 = stock.replace("# OpenSSL example", "# OpenSSL \xe9xample", 1).encode("latin-1")
    c.check(latin1 != stock.encode(), "[Latin-1 comment] test data changed")
    round_trip(c, args, workdir, "Latin-1 comment", latin1)
    # OpenSSL splits lines at \n only: after the form feed this is still a comment.
    feed = stock.replace("# providers = provider_sect", "# \fproviders = nowhere_sect", 1)
    round_trip(c, args, workdir, "form feed in a comment", feed.encode())


def edit_relying_on_block(c, args, workdir, stock):
    """On Debian 12 the block creates the provider list; an administrator who then adds legacy to
    it outside the block would silently lose legacy on disable, so disable refuses."""
    m = Machine(args, workdir / "relying-edit", stock)
    c.equal(m.tool("enable").returncode, 0, "[edit relying on the block] enable succeeds")
    edited = m.text() + b"[ provider_sect ]\nlegacy = legacy_sect\n[ legacy_sect ]\nactivate = 1\n"
    m.real.write_bytes(edited)
    c.equal(providers(args.openssl, m.link).get("legacy"), "active",
            "[edit relying on the block] legacy active through the block's provider list")
    refused = m.tool("disable")
    c.check(refused.returncode != 0 and "legacy" in refused.stderr and m.text() == edited,
            "[edit relying on the block] disable refuses, names legacy, changes nothing",
            describe(refused))


def unusable_libcrypto(c, args, workdir, stock):
    """A --libcrypto that cannot be loaded: one line saying so, no traceback, nothing written."""
    m = Machine(args, workdir / "bad-libcrypto", stock)
    result = m.tool("enable", "--libcrypto", m.root / "no-such-libcrypto.so")
    c.check(result.returncode == 1 and "no-such-libcrypto.so" in result.stderr
            and "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1,
            "[unusable libcrypto] enable fails with a one-line message", describe(result))
    c.check(m.text() == stock.encode(), "[unusable libcrypto] file unchanged")


def careful_writes(c, args, workdir, stock):
    """Mode and owner are kept, and nothing is written through a link planted at the old
    backup name."""
    m = Machine(args, workdir / "careful", stock)
    m.real.chmod(0o640)
    # a group other than ours (the owner must stay root: a file others own is refused)
    owner = (0, 65534) if os.geteuid() == 0 else (os.geteuid(), os.getegid())
    if os.geteuid() == 0:
        os.chown(m.real, *owner)
    victim = m.root / "victim"
    victim.write_bytes(b"not a backup\n")
    backup = pathlib.Path(str(m.real) + ".blake2simd-config.bak")
    backup.symlink_to(victim)
    enabled = m.tool("enable")
    c.equal(enabled.returncode, 0, "[careful] enable succeeds")
    info = m.real.stat()
    c.equal((oct(info.st_mode & 0o7777), info.st_uid, info.st_gid), (oct(0o640), *owner),
            "[careful] mode and owner of the edited file kept")
    c.check(victim.read_bytes() == b"not a backup\n" and backup.is_symlink(),
            "[careful] nothing written through a link planted at the old backup name")
    leftovers = [p.name for p in m.real.parent.iterdir() if "blake2simd-config-" in p.name]
    c.equal(leftovers, [], "[careful] no scratch files left behind")


def not_root(c, args, workdir, stock):
    """Run as an ordinary user (nobody), enable must say it needs root and change nothing."""
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        print("note: not-root message not checked (needs root and setpriv)")
        return
    m = Machine(args, workdir / "not-root", stock)
    for path in [workdir, *m.root.rglob("*")]:
        if path.is_dir():
            path.chmod(0o755)
    cmd = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", sys.executable,
           args.tool, "enable", "--config", m.link, "--module", m.module,
           "--openssl", args.openssl]
    result = subprocess.run([str(x) for x in cmd], stdin=subprocess.DEVNULL, capture_output=True,
                            text=True, timeout=120)
    # e.g. a build tree under /root (mode 0700): python cannot even open the tool as nobody
    if "Permission denied" in result.stderr and ("can't open file" in result.stderr
                                                 or "blake2simd-config" not in result.stderr):
        print(f"note: nobody cannot run the tool here, not checked: {result.stderr.strip()}")
        return
    c.check(result.returncode != 0 and "not writable" in result.stderr and "root" in result.stderr,
            "[not root] enable says the file is not writable and to run it as root",
            describe(result))
    c.check(m.text() == stock.encode(), "[not root] file unchanged")


def refused_unchanged(c, m, label, result, words, before):
    """`result` is a refusal whose message has every one of `words`, and the file still holds
    `before`."""
    said = result.stderr
    c.check(result.returncode != 0 and all(w in said for w in words) and "Traceback" not in said,
            f"[{label}] refused, saying {' / '.join(words)}", describe(result))
    c.check(m.text() == before, f"[{label}] file unchanged")
    print(f"     message: {said.strip()[:300]}")


def untrusted_module(c, args, workdir, stock):
    """Item 1: a module, or a directory above it, that someone other than root can replace is
    never written into openssl.cnf (the next root `openssl` would run it)."""
    as_root = os.geteuid() == 0
    m = Machine(args, workdir / "untrusted-module", stock)
    original = m.text()
    cases = []
    open_dir = m.root / "open"
    open_dir.mkdir()
    open_dir.chmod(0o777)
    if as_root:
        os.chown(open_dir, 65534, 65534)
    shutil.copy(args.module, open_dir / "blake2simd.so")
    cases.append(("module in a 0777 directory", open_dir / "blake2simd.so",
                  [str(open_dir), "0777"]))
    sticky = m.root / "sticky"
    sticky.mkdir()
    sticky.chmod(0o1777)
    shutil.copy(args.module, sticky / "blake2simd.so")
    cases.append(("module in a sticky world-writable directory (like /tmp)",
                  sticky / "blake2simd.so", [str(sticky), "1777"]))
    link = m.root / "modules/linked.so"
    link.symlink_to(open_dir / "blake2simd.so")
    cases.append(("module reached through a link into a 0777 directory", link, [str(open_dir)]))
    writable = m.root / "modules/writable.so"
    shutil.copy(args.module, writable)
    writable.chmod(0o666)
    cases.append(("module file mode 0666", writable, [str(writable), "0666"]))
    if as_root:
        owned = m.root / "modules/owned.so"
        shutil.copy(args.module, owned)
        os.chown(owned, 65534, 65534)
        cases.append(("module file owned by nobody", owned, [str(owned), "uid 65534"]))
        nobody_dir = m.root / "nobody"
        nobody_dir.mkdir()
        shutil.copy(args.module, nobody_dir / "blake2simd.so")
        os.chown(nobody_dir, 65534, 65534)
        cases.append(("module in a directory owned by nobody", nobody_dir / "blake2simd.so",
                      [str(nobody_dir), "uid 65534"]))
    for name, module, words in cases:
        refused_unchanged(c, m, f"untrusted: {name}", m.tool("enable", module=module), words,
                          original)


def untrusted_config(c, args, workdir, stock):
    """Items 1 and 4: the openssl.cnf written and every directory above it must be root's: else
    the file (and the modules it names) could be swapped, and OpenSSL would run them as root."""
    as_root = os.geteuid() == 0
    cases = [("directory of openssl.cnf mode 0775", lambda m: m.real.parent.chmod(0o775),
              "0775"),
             ("openssl.cnf mode 0666", lambda m: m.real.chmod(0o666), "0666"),
             ("directory of the link mode 0777", lambda m: m.link.parent.chmod(0o777), "0777")]
    if as_root:
        cases += [("openssl.cnf owned by nobody", lambda m: os.chown(m.real, 65534, 0),
                   "65534"),
                  ("directory above openssl.cnf owned by nobody",
                   lambda m: os.chown(m.real.parent.parent, 65534, 0), "65534")]
    for name, spoil, what in cases:
        m = Machine(args, workdir / ("untrusted-config-" + name.replace(" ", "-")), stock)
        spoil(m)
        before = m.text()
        refused_unchanged(c, m, f"untrusted: {name}: enable", m.tool("enable"), [what], before)
        if as_root:
            status = m.tool("status")
            c.check(status.returncode != 0 and what in status.stderr
                    and "served by" not in status.stdout,
                    f"[untrusted: {name}] status as root refuses before running OpenSSL",
                    describe(status))
    # disable of a file with the block in a directory someone else can write
    m = Machine(args, workdir / "untrusted-config-disable", stock)
    c.equal(m.tool("enable").returncode, 0, "[untrusted: disable] enable succeeds first")
    m.real.parent.chmod(0o777)
    before = m.text()
    refused_unchanged(c, m, "untrusted: disable in a 0777 directory", m.tool("disable"),
                      ["0777"], before)


def stale_block(c, args, workdir, stock):
    """Item 2: the block copies default_properties; an admin who later tightens the line above
    must learn from status that the block overrides it, and enable must refresh the block."""
    text = stock + "\n[openssl_init]\nalg_section = local_algs\n[local_algs]\n" \
                   "default_properties = ?fips=yes\n"
    m = Machine(args, workdir / "stale-block", text)
    c.equal(m.tool("enable").returncode, 0, "[stale block] enable succeeds")
    fresh = m.tool("status")
    c.check(fresh.returncode == 0 and "is stale" not in fresh.stdout + fresh.stderr,
            "[stale block] status of a fresh block: exit 0, no 'stale'", describe(fresh))
    enabled = m.text()
    # the admin's edit above the block: fips=yes now mandatory
    m.real.write_bytes(enabled.replace(b"default_properties = ?fips=yes\n",
                                       b"default_properties = fips=yes\n", 1))
    status = m.tool("status")
    said = status.stdout + status.stderr
    c.check(status.returncode != 0 and "is stale" in said
            and "default_properties = fips=yes,?provider=blake2simd" in said
            and "blake2simd-config enable" in said and "disable" in said,
            "[stale block] status exits non-zero, names the line and says what to run",
            describe(status))
    print(f"     status said: {said.strip()[-400:]}")
    # a looser edit the block can follow: enable refreshes the block
    m.real.write_bytes(enabled.replace(b"default_properties = ?fips=yes\n",
                                       b"default_properties = ?fips=no\n", 1))
    edited_base = text.replace("?fips=yes", "?fips=no").encode()
    refresh = m.tool("enable")
    c.check(refresh.returncode == 0 and b"default_properties = ?fips=no,?provider=blake2simd"
            in m.text() and b"?fips=yes,?provider" not in m.text(),
            "[stale block] enable refreshes the stale block", describe(refresh))
    c.equal(m.tool("status").returncode, 0, "[stale block] status exit 0 after the refresh")
    c.check(m.tool("disable").returncode == 0 and m.text() == edited_base,
            "[stale block] disable gives back the edited file")


def reads_as_openssl(c, args, workdir, stock):
    """Item 3: files OpenSSL reads differently from a naive reader, each hiding a mandatory
    fips=yes that a block appended on the naive reading would silently override."""
    (workdir / "fips-algs.cnf").write_text("[ openssl_init ]\nalg_section = fips_algs\n"
                                           "[ fips_algs ]\ndefault_properties = fips=yes\n")
    hidden = "alg_section = fips_algs\n[fips_algs]\ndefault_properties = fips=yes\n"
    minimal = ("openssl_conf = fips_init\n[fips_init]\n" + hidden).encode()
    cases = {
        ".include<anything> = FILE": stock.replace(
            "# .include fipsmodule.cnf", f".include_local = {workdir}/fips-algs.cnf", 1).encode(),
        # OpenSSL switches to [openssl_init] at "[openssl_init]x=1"; a naive reader stays in
        # [fips_algs] and misses alg_section
        "text after a section header": (stock + "\n[fips_algs]\ndefault_properties = fips=yes\n"
                                        "[openssl_init]x=1\nalg_section = fips_algs\n").encode(),
        "UTF-8 byte order mark": b"\xef\xbb\xbf" + minimal,
    }
    for name, data in cases.items():
        m = Machine(args, workdir / ("reads-" + str(len(name))), "")
        m.real.write_bytes(data)
        result = m.tool("enable")
        c.check(result.returncode != 0 and m.text() == data,
                f"[read as OpenSSL: {name}] enable refuses, file unchanged "
                "(the hidden fips=yes is kept)", describe(result))
        print(f"     message: {result.stderr.strip()[:300]}")


def links_and_xattrs(c, args, workdir, stock):
    """Item 7: the rename over openssl.cnf would split hard links (refused, saying so) and must
    keep extended attributes (SELinux labels, ACLs: here a user.* attribute)."""
    m = Machine(args, workdir / "hard-link", stock)
    other = m.root / "other-name.cnf"
    os.link(m.real, other)
    before = m.text()
    refused_unchanged(c, m, "hard link", m.tool("enable"), ["hard link"], before)
    m = Machine(args, workdir / "xattr", stock)
    try:
        os.setxattr(m.real, "user.blake2simd_test", b"label")
    except OSError as error:
        print(f"note: extended attributes not checked here: {error}")
        return
    for command in ("enable", "disable"):
        c.equal(m.tool(command).returncode, 0, f"[xattr] {command} succeeds")
        c.check("user.blake2simd_test" in os.listxattr(m.real)
                and os.getxattr(m.real, "user.blake2simd_test") == b"label",
                f"[xattr] {command} keeps the file's extended attributes",
                repr(os.listxattr(m.real)))


def isolated_children(c, args, workdir, stock):
    """Item 7: the tool is run as root from an administrator's shell; LD_PRELOAD,
    LD_LIBRARY_PATH, OPENSSL_ENGINES (and PYTHON* for itself) must not reach what it runs."""
    m = Machine(args, workdir / "isolated", stock)
    seen = m.root / "seen-env"
    wrapper = m.root / "openssl-wrapper"
    wrapper.write_text(f"#!/bin/sh\nenv >> {seen}\nexec {args.openssl} \"$@\"\n")
    wrapper.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k != "OPENSSL_CONF"}
    env.update(LD_LIBRARY_PATH=str(m.root / "evil-libs"), OPENSSL_ENGINES=str(m.root / "evil"),
               LD_PRELOAD="", B2_CANARY="from-the-admin-shell")
    result = m.tool("enable", openssl=wrapper, env=env)
    c.equal(result.returncode, 0, "[isolated] enable through the wrapper succeeds")
    lines = seen.read_text().splitlines() if seen.exists() else []
    names = {line.split("=", 1)[0] for line in lines if "=" in line}
    leaked = sorted(names & {"LD_LIBRARY_PATH", "OPENSSL_ENGINES", "LD_PRELOAD", "B2_CANARY"})
    c.check(lines and not leaked, "[isolated] the children get a clean environment",
            f"leaked: {leaked}")
    # the shebang's -I: a sitecustomize on PYTHONPATH must not run inside the root tool
    if not os.access(args.tool, os.X_OK) or not os.path.exists("/usr/bin/python3"):
        print("note: shebang not checked (tool not executable or no /usr/bin/python3)")
        return
    evil = m.root / "pythonpath"
    evil.mkdir()
    marker = m.root / "sitecustomize-ran"
    (evil / "sitecustomize.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    env.update(PYTHONPATH=str(evil))
    ran = subprocess.run([args.tool, "--version"], env=env, capture_output=True, text=True,
                         timeout=60)
    c.check(ran.returncode == 0 and not marker.exists(),
            "[isolated] the tool's shebang ignores PYTHONPATH (python3 -I)", describe(ran))


def trusted_base(args):
    """A directory the tool trusts to hold the scratch trees: the build directory, or as root
    /run when the build directory is somewhere others can write (a clone under /tmp)."""
    candidates = [args.work_dir] + (["/run"] if os.geteuid() == 0 else [])
    reasons = []
    for candidate in candidates:
        reason = os.path.isdir(candidate) and untrusted_reason(candidate)
        if reason is None:
            return os.path.abspath(candidate)
        reasons.append(f"{candidate}: {reason or 'missing'}")
    skip("no directory blake2simd-config would trust for the scratch trees (" +
         "; ".join(reasons) + ")")


def config_arguments(parser):
    """The arguments of the tests of blake2simd-config on scratch trees; parses them, checks the
    files exist and skips for a sanitized module."""
    parser.add_argument("--tool", required=True, help="configured blake2simd-config script")
    parser.add_argument("--openssl", required=True)
    parser.add_argument("--module", required=True, help="blake2simd.so in the build tree")
    parser.add_argument("--legacy-app", required=True)
    parser.add_argument("--data-dir", required=True, help="tests/data with the stock files")
    parser.add_argument("--work-dir", required=True,
                        help="where to make the scratch trees (the build directory)")
    parser.add_argument("--sanitized-module", action="store_true")
    args = parser.parse_args()
    skip_if_sanitized(args)
    for path in (args.tool, args.module, args.legacy_app):
        if not os.path.isfile(path):
            sys.exit(f"FAIL: {path} missing")
    return args


def main():
    args = config_arguments(argparse.ArgumentParser(description=__doc__))

    c = Tally("system_config", verbose=True)
    help_text = subprocess.run([sys.executable, args.tool, "--help"], capture_output=True,
                               text=True, timeout=60)
    c.check(help_text.returncode == 0 and all(w in help_text.stdout
                                              for w in ("enable", "disable", "status")),
            "--help lists enable, disable and status")
    os.umask(0o022)
    with tempfile.TemporaryDirectory(prefix="b2sys-config-", dir=trusted_base(args)) as tmp:
        workdir = pathlib.Path(tmp)
        for name in STOCK_FILES:
            stock = (pathlib.Path(args.data_dir) / name).read_text()
            scenario(c, args, workdir, name, stock, legacy=False)
            scenario(c, args, workdir, name, with_legacy(stock), legacy=True)
        debian12 = (pathlib.Path(args.data_dir) / STOCK_FILES[0]).read_text()
        for check in (refusals, not_root, unusual_bytes, careful_writes, edit_relying_on_block,
                      unusable_libcrypto, untrusted_module, untrusted_config, stale_block,
                      reads_as_openssl, links_and_xattrs, isolated_children):
            check(c, args, workdir, debian12)
        minimal_file(c, args, workdir)
    c.exit()


if __name__ == "__main__":
    main()
