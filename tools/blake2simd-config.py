#!/usr/bin/python3 -I
# blake2simd-config: turn the blake2simd OpenSSL provider on or off system-wide, and show who serves.
# SPDX-License-Identifier: Apache-2.0
#
# Installed (as /usr/sbin/blake2simd-config or ${sbindir}/blake2simd-config) by CMake, which fills
# in the module path below. Python 3 standard library only. Man page: blake2simd-config(8).
"""Enable, disable or inspect the blake2simd OpenSSL provider in openssl.cnf.

enable   appends one marked block to openssl.cnf: blake2simd active next to every provider that is
         active now, and ?provider=blake2simd as the preferred implementation of a plain fetch;
         where openssl.cnf includes a directory (RHEL 9.4+, Fedora: /etc/pki/tls/openssl.d),
         writes the same settings to blake2simd.cnf there instead and leaves openssl.cnf alone
disable  removes exactly that block (or drop-in file) again
status   says whether it is enabled and which provider (and kernel) serves a plain fetch of each
         BLAKE2 algorithm (digests and MACs, tree modes, RFC 7693 sizes, BLAKE2X); exit status 0
         only when blake2simd serves every one that the loaded module offers

The block defines its provider section inline with the module's absolute path and includes no
other file: if the module is removed, OpenSSL skips the provider and the default one answers.

It refuses (changing nothing) a module, openssl.cnf, included file or directory above them that
anyone but root can replace, a file whose reading by libcrypto's own parser differs from its own,
an included file that sets what the block sets, a file with more than one hard link, and a
kernel in FIPS mode; blake2simd-config(8) says why.
"""
import argparse
import ctypes
import ctypes.util
import json
import os
import re
import secrets
import shutil
import stat
import subprocess
import sys
import tempfile

VERSION = "@PROJECT_VERSION@"
INSTALLED_MODULE = "@B2_MODULE_INSTALL_PATH@"

BEGIN = "# >>> blake2simd-config: begin (added by `blake2simd-config enable`, removed by `disable`)"
BEGIN_EOL_ADDED = BEGIN + " +eol"
END = "# <<< blake2simd-config: end"
PREFERENCE = "?provider=blake2simd"
PROVIDER = "blake2simd"
DROPIN_NAME = "blake2simd.cnf"  # in the directory openssl.cnf includes (RHEL 9.4+, Fedora)
FIPS_FLAG = "/proc/sys/crypto/fips_enabled"
TRUE_VALUES = ("1", "yes", "true", "on")
# (digest, MAC or None) of each BLAKE2 form blake2simd serves, in the order `status` lists them;
# OpenSSL's default provider has BLAKE2B-512/BLAKE2BMAC and BLAKE2S-256/BLAKE2SMAC, the others
# (tree modes, RFC 7693 sizes by name, BLAKE2X) are blake2simd's alone.
ALGORITHM_PAIRS = (("BLAKE2B-512", "BLAKE2BMAC"), ("BLAKE2B-160", None), ("BLAKE2B-256", None),
                   ("BLAKE2B-384", None), ("BLAKE2BP-512", "BLAKE2BPMAC"),
                   ("BLAKE2S-256", "BLAKE2SMAC"), ("BLAKE2S-128", None), ("BLAKE2S-160", None),
                   ("BLAKE2S-224", None), ("BLAKE2SP-256", "BLAKE2SPMAC"),
                   ("BLAKE2XB", "BLAKE2XBMAC"), ("BLAKE2XS", "BLAKE2XSMAC"))
DIGESTS = tuple(digest for digest, _ in ALGORITHM_PAIRS)
MACS = tuple(mac for _, mac in ALGORITHM_PAIRS if mac)
# The Argon2 KDFs (RFC 9106); OpenSSL's default provider has them from 3.2 on.
KDFS = ("ARGON2I", "ARGON2D", "ARGON2ID")
ALGORITHMS = tuple(name for pair in ALGORITHM_PAIRS for name in pair if name) + KDFS
# What a plain fetch must find blake2simd serving before `enable` writes anything: the algorithms
# another provider could otherwise answer. `status` also wants every other algorithm the module
# offers (a module older than this list offers fewer; those lines say so and do not fail).
DROP_IN = ("BLAKE2B-512", "BLAKE2BMAC", "BLAKE2S-256", "BLAKE2SMAC")


class Refusal(Exception):
    """A reason to change nothing; the message tells the administrator what to do."""


# --- Reading openssl.cnf ------------------------------------------------------------------------


class Cnf:
    """The parts of an openssl.cnf that decide which providers load, as OpenSSL reads them: keys
    before any header and under [default] form the default section, a repeated header reopens its
    section, and a later value of a key replaces the earlier one. Like OpenSSL's parser
    (crypto/conf/conf_def.c) it drops a UTF-8 byte order mark, ignores the text after a section
    header's `]`, and follows `.include FILE` and `.include DIRECTORY` (its *.cnf and *.conf
    files in directory order; a missing target skipped; the section open at the include carries
    into the included text and back out of it). `origins` says which file set each key last,
    `read` lists every file and directory it read and `missing` every include target absent."""

    def __init__(self, text, skip=None):
        self.sections = {"default": {}}
        self.origins = {}  # (section, key) -> the file that set it last (None: `text` itself)
        self.read, self.missing = [], []
        self.directories = []  # (line number, path, the section open there) in `text` itself
        self.skip = skip and os.path.realpath(skip)  # a drop-in file read as if absent
        self.includedir = None
        self.section = "default"
        if text.startswith("\ufeff"):  # only the first file's: OpenSSL checks the first line
            text = text[1:]
        self.parse(text, None, depth=0, in_directory=False)

    def parse(self, text, origin, depth, in_directory):
        where = f" of {origin}" if origin else ""
        if "\0" in text:
            raise Refusal(f"the file{where} holds a NUL byte, which OpenSSL reads as the end of "
                          "its line; edit this file by hand")
        if origin and text.startswith("\ufeff"):
            raise Refusal(f"{origin} starts with a byte order mark, which OpenSSL drops only in "
                          "the first file it reads; remove it")
        for number, raw in enumerate(text.split("\n"), 1):
            # OpenSSL joins a line ending in a backslash with the next one before it strips
            # comments: a comment's trailing backslash continues it too.
            if raw.rstrip("\r").endswith("\\"):
                raise Refusal(f"line {number}{where} continues on the next line (it ends in \\, "
                              "in a comment too); edit this file by hand")
            line = strip_comment(raw).strip()
            if not line:
                continue
            if line.startswith("["):
                header = re.match(r"\[\s*([^\]\s]+)\s*\]", line)
                if not header:
                    raise Refusal(f"line {number}{where} is a section header blake2simd-config "
                                  f"cannot read: {raw.strip()!r}; edit this file by hand")
                self.section = header.group(1)  # OpenSSL ignores what follows the "]"
                self.sections.setdefault(self.section, {})
                continue
            if line.startswith(".include"):
                self.include(line, number, origin, depth, in_directory)
                continue
            if line.startswith(".pragma"):
                self.pragma(line, f"line {number}{where}")
                continue
            pair = re.fullmatch(r"([^=\s]+)\s*=\s*(.*)", line)
            if not pair:
                raise Refusal(f"line {number}{where} is neither a section, a directive nor key = "
                              f"value: {raw.strip()!r}")
            if "::" in pair.group(1):
                raise Refusal(f"line {number}{where} sets a key in another section "
                              f"({pair.group(1)}); edit this file by hand")
            self.sections[self.section][pair.group(1)] = pair.group(2).strip()
            self.origins[(self.section, pair.group(1))] = origin

    def pragma(self, line, where):
        match = re.fullmatch(r"\.pragma(?:\s*=\s*|\s+)([^:\s]+)\s*:\s*(\S.*)", line)
        if not match:
            raise Refusal(f"{where} is a .pragma blake2simd-config cannot read: {line!r}; edit "
                          "this file by hand")
        # abspath (OpenSSL then rejects a relative include) needs nothing: this reader refuses
        # relative includes anyway; dollarid concerns `$`, which it refuses in what it follows.
        if match.group(1) == "includedir":
            self.includedir = match.group(2).strip()

    def include(self, line, number, origin, depth, in_directory):
        """Reads the file or directory that an .include line names, as OpenSSL would."""
        where = f"line {number}" + (f" of {origin}" if origin else "")
        match = re.fullmatch(r"\.include(?:\s*=\s*|\s+)(\S.*)", line)
        if not match or re.search(r"[$\"'\\]", match.group(1)):
            raise Refusal(f"{where} is an .include blake2simd-config cannot read ({line!r}): "
                          "edit this file by hand (docs/deploying.md)")
        if in_directory:
            # OpenSSL reads one directory at a time and, after a nested file, goes on with the
            # directory's next file: an order this reader does not follow.
            raise Refusal(f"{where}, in a file read from an included directory, includes "
                          f"{match.group(1)!r}; edit the files by hand (docs/deploying.md)")
        if depth >= 10:
            raise Refusal(f"{where}: includes nested more than 10 deep; edit the files by hand")
        target = match.group(1).strip()
        if not target.startswith("/") and self.includedir is not None:
            target = self.includedir.rstrip("/") + "/" + target
        if not target.startswith("/"):
            raise Refusal(f"{where} includes the relative path {target!r}, which each program "
                          "resolves against its own working directory; make it absolute (or "
                          "set .pragma includedir:/DIR), then run it again")
        if not os.path.exists(target):
            self.missing.append(target)  # OpenSSL skips a missing target silently
            return
        if not os.path.isdir(target):
            self.parse_file(target, depth, in_directory=False)
            return
        self.read.append(target)
        if origin is None:
            self.directories.append((number, target, self.section))
        for name in os.listdir(target):  # readdir order, as OpenSSL's OPENSSL_DIR_read
            if not read_from_directory(name):
                continue
            path = os.path.join(target, name)
            if self.skip and os.path.realpath(path) == self.skip:
                continue
            if not os.path.exists(path):
                self.missing.append(path)  # a dangling link: OpenSSL skips what it cannot open
            elif not os.path.isfile(path):
                raise Refusal(f"{path} is not a regular file; OpenSSL would fail reading it "
                              f"from the directory that {where} includes")
            else:
                self.parse_file(path, depth, in_directory=True)

    def parse_file(self, path, depth, in_directory):
        self.read.append(path)
        self.parse(read_text(path), path, depth + 1, in_directory)

    def value(self, section, key):
        found = self.sections.get(section, {}).get(key)
        if found is not None and re.search(r"[$\"'\\]", found):
            raise Refusal(f"[{section}] {key} = {found} uses quoting or variables; edit this file by "
                          "hand (docs/deploying.md, blake2simd-config(8))")
        return found

    def referenced_section(self, section, key, what):
        """The section that `key` in `section` names, which must exist in this file."""
        name = self.value(section, key)
        if name is None:
            return None
        if name not in self.sections:
            raise Refusal(f"{key} = {name} in [{section}] names {what} [{name}] that this file does "
                          "not define; this layout is not one blake2simd-config can edit "
                          "safely: edit it by hand (docs/deploying.md)")
        return name

    def summary(self):
        return summarize(self.sections)

    def unused_name(self, preferred):
        name = preferred
        while name in self.sections:
            name = f"blake2simd_{name}"
        return name


def read_from_directory(name):
    """Whether OpenSSL reads a file of this name from an included directory (conf_def.c)."""
    lowered = name.lower()
    return lowered.endswith((".cnf", ".conf")) and lowered not in (".cnf", ".conf")


def strip_comment(line):
    return line.split("#", 1)[0]


def summarize(sections):
    """What decides which providers load and which implementation a plain fetch gets, from a
    {section: {key: value}} reading of a file: the tool's own (Cnf) or libcrypto's (NCONF)."""
    def get(section, key):
        return sections.get(section, {}).get(key) if section is not None else None

    init = get("default", "openssl_conf")
    providers = get(init, "providers")
    listed = dict(sections.get(providers, {})) if providers is not None else {}
    algorithms = get(init, "alg_section")
    return {"openssl_conf": init, "providers": providers, "the provider list": listed,
            "activate": {name: get(section, "activate") for name, section in listed.items()},
            "alg_section": algorithms, "default_properties": get(algorithms, "default_properties"),
            "the section names (an .include adds some)": sorted(sections)}


def split_block(text):
    """(text without our block, the block or None). Refuses a damaged block."""
    lines = re.findall(r"[^\n]*\n|[^\n]+\Z", text)  # as OpenSSL splits: at \n only
    starts = [i for i, l in enumerate(lines) if l.rstrip("\r\n") in (BEGIN, BEGIN_EOL_ADDED)]
    ends = [i for i, l in enumerate(lines) if l.rstrip("\r\n") == END]
    if not starts and not ends:
        return text, None
    if len(starts) != 1 or len(ends) != 1 or ends[0] < starts[0]:
        raise Refusal("the blake2simd-config block markers are damaged (expected exactly one "
                      "begin and one end line); fix the file by hand")
    first, last = starts[0], ends[0]
    block = "".join(lines[first:last + 1])
    before = "".join(lines[:first])
    if lines[first].rstrip("\r\n") == BEGIN_EOL_ADDED:
        added = "\r\n" if lines[first].endswith("\r\n") else "\n"
        if before.endswith(added):
            before = before[:-len(added)]
    return before + "".join(lines[last + 1:]), block


def block_module(block):
    match = re.search(r"^module\s*=\s*(\S.*?)\s*$", block or "", re.M)
    return match.group(1) if match else None


# --- Writing the block --------------------------------------------------------------------------


def make_block(text, module, active_before, kernel=None):
    """The marked block that activates blake2simd in `text`, whose active providers (as OpenSSL
    reports them) are `active_before`; `kernel`: the block's kernel line to keep (the admin's)."""
    added = plan(Cnf(text), module, active_before, kernel, dropin=False)
    eol_added = bool(text) and not text.endswith("\n")
    # A CRLF file gets a CRLF block, so that editors and diff see one line-ending style.
    newline = "\r\n" if text.split("\n", 1)[0].endswith("\r") and "\n" in text else "\n"
    out = [BEGIN_EOL_ADDED if eol_added else BEGIN,
           "# Inline on purpose: without the module OpenSSL skips this provider and uses default.",
           "# Without blake2simd-config (package purged), remove it by deleting every line from",
           "# the begin line above to the end line below, both included."]
    out += rendered(added)
    out.append(END)
    return (newline if eol_added else "") + newline.join(out) + newline


def make_dropin(cnf, module, active_before, kernel, section_at_include):
    """The drop-in file for the directory openssl.cnf includes, read where the include stands:
    it ends by reopening the section open there, so that what follows the include lands where
    it did without the file."""
    added = plan(cnf, module, active_before, kernel, dropin=True)
    out = [BEGIN, "# blake2simd-config's drop-in file: `blake2simd-config disable` removes it. "
           "Without", "# blake2simd-config (package purged), delete this file."]
    out += rendered(added) + [f"[ {section_at_include} ]", END]
    return "\n".join(out) + "\n"


def rendered(added):
    out = []
    for section, lines in added.items():
        out.append(f"[ {section} ]")
        out += lines
    return out


def check_overrides(cnf, added, dropin):
    """Refuses when what the block sets is also set where the block would silently override it:
    in an included file (a crypto policy's file changes under it), or, for a drop-in file read
    in the middle of openssl.cnf, anywhere at all (a later line would override the drop-in)."""
    for section, lines in added.items():
        for line in lines:
            key = line.split("=", 1)[0].strip()
            if line.startswith("#") or (section, key) not in cnf.origins:
                continue
            origin, value = cnf.origins[(section, key)], cnf.sections[section][key]
            fips = ("; fips=yes rules blake2simd out anyway: it is not a FIPS-validated provider"
                    if "fips=yes" in value.replace(" ", "").lower() else "")
            if origin is not None:
                raise Refusal(f"{origin}, which openssl.cnf includes, sets [{section}] {key} = "
                              f"{value}, which blake2simd-config would have to override (and "
                              "would keep overriding after that file changes); set the "
                              f"preference by hand (docs/deploying.md){fips}")
            if dropin:
                raise Refusal(f"openssl.cnf sets [{section}] {key} = {value}, which a drop-in "
                              "file read before that line cannot change; edit the file by hand "
                              f"(docs/deploying.md){fips}")


def plan(cnf, module, active_before, kernel, dropin):
    """{section: [lines]} that activate blake2simd next to `active_before` and prefer it for a
    plain fetch, in the order they are first needed."""
    added = {}  # section -> [lines], in the order they are first needed

    def add(section, line):
        added.setdefault(section, []).append(line)

    init = cnf.referenced_section("default", "openssl_conf", "the initialisation section")
    if init is None:
        init = cnf.unused_name("openssl_init")
        add("default", f"openssl_conf = {init}")

    for key in cnf.sections.get(init, {}):
        # OpenSSL runs `providers.2 = x` as the providers module too (the name up to the last
        # dot names the module): a second provider list this tool would not follow.
        if "." in key and key.rsplit(".", 1)[0] in ("providers", "alg_section"):
            raise Refusal(f"[{init}] {key} is a second {key.rsplit('.', 1)[0]} line; "
                          "edit this file by hand")
    providers = cnf.referenced_section(init, "providers", "the provider section")
    if providers is None:
        providers = cnf.unused_name("provider_sect")
        add(init, f"providers = {providers}")
    listed = cnf.sections.get(providers, {})
    if PROVIDER in listed:
        raise Refusal(f"[{providers}] already lists {PROVIDER} = {listed[PROVIDER]}, a setup made by "
                      "hand (an old .include of blake2simd.cnf?): remove it first, then run enable")
    for name in listed:
        cnf.referenced_section(providers, name, f"the section of provider {name}")

    # Once any provider is activated by configuration, OpenSSL stops loading default implicitly.
    if "default" in active_before:
        default_sect = listed.get("default")
        if default_sect is None:
            default_sect = cnf.unused_name("default_sect")
            add(providers, f"default = {default_sect}")
        activate = (cnf.value(default_sect, "activate") or "").lower()
        if activate not in TRUE_VALUES:
            add(default_sect, "activate = 1")
    own = cnf.unused_name("blake2simd_sect")
    add(providers, f"{PROVIDER} = {own}")

    algorithms = cnf.referenced_section(init, "alg_section", "the algorithm section")
    if algorithms is None:
        algorithms = cnf.unused_name("algorithm_sect")
        add(init, f"alg_section = {algorithms}")
    properties = cnf.value(algorithms, "default_properties")
    if properties is None or properties == "":
        add(algorithms, f"default_properties = {PREFERENCE}")
    elif "provider=blake2simd" not in properties.replace(" ", ""):
        add(algorithms, f"default_properties = {properties},{PREFERENCE}")

    add(own, f"module = {module}")
    add(own, "activate = 1")
    add(own, f"kernel = {kernel}" if kernel else
        "# kernel = auto      (or force one by name: blake2simd(7) lists them)")
    check_overrides(cnf, added, dropin)
    return added



# --- Asking OpenSSL -----------------------------------------------------------------------------


def clean_env(conf):
    """The whole environment of every child: run as root from an administrator's shell, nothing
    there (LD_PRELOAD, LD_LIBRARY_PATH, OPENSSL_ENGINES, OPENSSL_MODULES, BLAKE2SIMD_KERNEL...)
    may change what OpenSSL loads; only the file decides."""
    env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
           "LC_ALL": "C"}
    if conf is not None:
        env["OPENSSL_CONF"] = str(conf)
    return env


def run_child(command, conf, kernel_request=None):
    env = clean_env(conf)
    if kernel_request is not None:  # status: what a program started from the caller's shell gets
        env["BLAKE2SIMD_KERNEL"] = kernel_request
    return subprocess.run(command, env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=120)


def run_openssl(openssl, args, conf):
    return run_child([openssl, *args], conf)


def active_providers(openssl, conf):
    """{name} of active providers, or raises Refusal with OpenSSL's error."""
    version = run_openssl(openssl, ["version"], conf)
    if version.returncode != 0:
        raise Refusal(f"`OPENSSL_CONF={conf} openssl version` fails:\n{version.stderr.strip()}")
    listing = run_openssl(openssl, ["list", "-providers"], conf)
    if listing.returncode != 0:
        raise Refusal(f"`OPENSSL_CONF={conf} openssl list -providers` fails:\n"
                      f"{listing.stderr.strip()}")
    found, current = set(), None
    for line in listing.stdout.splitlines():
        if re.fullmatch(r"  \S+", line):
            current = line.strip()
        elif current and line.strip() == "status: active":
            found.add(current)
    return found


def openssldir(openssl):
    result = run_openssl(openssl, ["version", "-d"], None)
    match = re.search(r'OPENSSLDIR: "([^"]*)"', result.stdout)
    if result.returncode != 0 or not match:
        raise Refusal(f"`{openssl} version -d` did not say where OPENSSLDIR is; pass --config FILE")
    return match.group(1)


def find_libcrypto(openssl):
    """The libcrypto the `openssl` program loads (that is the one whose openssl.cnf we edit), else
    the one the dynamic linker finds for -lcrypto."""
    try:
        ldd = run_child(["ldd", openssl], None)
        match = re.search(r"^\s*libcrypto\S*\s+=>\s+(/\S+)", ldd.stdout, re.M)
        if match:
            return match.group(1)
    except (OSError, subprocess.SubprocessError):
        pass
    found = ctypes.util.find_library("crypto")
    if not found:
        raise Refusal("cannot find libcrypto (neither through `ldd openssl` nor the linker "
                      "cache); pass --libcrypto PATH")
    return found


class OsslParam(ctypes.Structure):
    _fields_ = [("key", ctypes.c_char_p), ("data_type", ctypes.c_uint),
                ("data", ctypes.c_void_p), ("data_size", ctypes.c_size_t),
                ("return_size", ctypes.c_size_t)]


OSSL_PARAM_UTF8_PTR = 6


def utf8_ptr_query(name):
    """An OSSL_PARAM array asking for one UTF-8 pointer parameter, and the pointer it fills."""
    answer = ctypes.c_char_p()
    params = (OsslParam * 2)()
    params[0] = OsslParam(name.encode(), OSSL_PARAM_UTF8_PTR,
                          ctypes.cast(ctypes.byref(answer), ctypes.c_void_p), 0, 0)
    return params, answer


def offered_by_blake2simd(lib):
    """The ALGORITHMS that a fetch restricted to blake2simd finds (none when it is not loaded)."""
    offered, only_ours = [], f"provider={PROVIDER}".encode()
    for name in ALGORITHMS:
        fetch, free = ((lib.EVP_MAC_fetch, lib.EVP_MAC_free) if name in MACS else
                       (lib.EVP_KDF_fetch, lib.EVP_KDF_free) if name in KDFS else
                       (lib.EVP_MD_fetch, lib.EVP_MD_free))
        found = fetch(None, name.encode(), only_ours)
        if found:
            offered.append(name)
            free(found)
    return offered


def probe(libcrypto_path):
    """Who serves a plain fetch in the default library context of a fresh process; runs in the
    child that `ask_libcrypto` starts, with OPENSSL_CONF already set."""
    lib = ctypes.CDLL(libcrypto_path)
    vp, cp = ctypes.c_void_p, ctypes.c_char_p
    for name, restype, argtypes in (
            ("OpenSSL_version", cp, [ctypes.c_int]),
            ("EVP_MD_fetch", vp, [vp, cp, cp]), ("EVP_MD_get0_provider", vp, [vp]),
            ("EVP_MD_free", None, [vp]), ("EVP_MD_CTX_new", vp, []),
            ("EVP_MD_CTX_free", None, [vp]), ("EVP_DigestInit_ex2", ctypes.c_int, [vp, vp, vp]),
            ("EVP_MD_CTX_get_params", ctypes.c_int, [vp, vp]),
            ("EVP_MAC_fetch", vp, [vp, cp, cp]), ("EVP_MAC_get0_provider", vp, [vp]),
            ("EVP_MAC_free", None, [vp]), ("OSSL_PROVIDER_get0_name", cp, [vp]),
            ("EVP_KDF_fetch", vp, [vp, cp, cp]), ("EVP_KDF_get0_provider", vp, [vp]),
            ("EVP_KDF_free", None, [vp]), ("EVP_KDF_CTX_new", vp, [vp]),
            ("EVP_KDF_CTX_free", None, [vp]), ("EVP_KDF_CTX_get_params", ctypes.c_int, [vp, vp]),
            ("OSSL_PROVIDER_get_params", ctypes.c_int, [vp, vp])):
        function = getattr(lib, name)
        function.restype, function.argtypes = restype, argtypes
    report = {"libcrypto": libcrypto_path, "version": lib.OpenSSL_version(0).decode()}

    def provider_name(provider):
        return lib.OSSL_PROVIDER_get0_name(provider).decode() if provider else None

    report["kernels"] = {}
    for digest in DIGESTS:
        md = lib.EVP_MD_fetch(None, digest.encode(), None)
        report[digest] = provider_name(lib.EVP_MD_get0_provider(md)) if md else None
        if not md:
            continue
        # Only blake2simd's contexts have the param: it names the kernel serving this digest.
        ctx = lib.EVP_MD_CTX_new()
        params, kernel = utf8_ptr_query("kernel")
        if lib.EVP_DigestInit_ex2(ctx, md, None) == 1 and lib.EVP_MD_CTX_get_params(ctx, params):
            report["kernels"][digest] = kernel.value.decode() if kernel.value else None
        provider = lib.EVP_MD_get0_provider(md)
        params, buildinfo = utf8_ptr_query("buildinfo")
        if (report[digest] == PROVIDER and "buildinfo" not in report
                and lib.OSSL_PROVIDER_get_params(provider, params)):
            report["buildinfo"] = buildinfo.value.decode() if buildinfo.value else None
        lib.EVP_MD_CTX_free(ctx)
        lib.EVP_MD_free(md)
    for mac_name in MACS:
        mac = lib.EVP_MAC_fetch(None, mac_name.encode(), None)
        report[mac_name] = provider_name(lib.EVP_MAC_get0_provider(mac)) if mac else None
        lib.EVP_MAC_free(mac)
    for kdf_name in KDFS:
        kdf = lib.EVP_KDF_fetch(None, kdf_name.encode(), None)
        report[kdf_name] = provider_name(lib.EVP_KDF_get0_provider(kdf)) if kdf else None
        if kdf:
            # blake2simd's Argon2 contexts name their BlaMka kernel.
            ctx = lib.EVP_KDF_CTX_new(kdf)
            params, kernel = utf8_ptr_query("kernel")
            if ctx and lib.EVP_KDF_CTX_get_params(ctx, params) == 1 and kernel.value:
                report["kernels"][kdf_name] = kernel.value.decode()
            lib.EVP_KDF_CTX_free(ctx)
        lib.EVP_KDF_free(kdf)
    report["offered"] = offered_by_blake2simd(lib)
    sha = lib.EVP_MD_fetch(None, b"SHA2-256", None)
    report["SHA2-256"] = provider_name(lib.EVP_MD_get0_provider(sha)) if sha else None
    lib.EVP_MD_free(sha)
    print(json.dumps(report))


class ConfValue(ctypes.Structure):
    _fields_ = [("section", ctypes.c_char_p), ("name", ctypes.c_char_p),
                ("value", ctypes.c_char_p)]


OPENSSL_INIT_NO_LOAD_CONFIG = 0x80


def nconf_sections(libcrypto_path, path):
    """{section: {key: value}} as libcrypto's own parser reads `path` (NCONF_load: includes
    followed, quotes and variables resolved), without loading any configuration or module; a
    str with libcrypto's complaint when it cannot parse the file."""
    lib = ctypes.CDLL(libcrypto_path)
    vp, cp = ctypes.c_void_p, ctypes.c_char_p
    for name, restype, argtypes in (
            ("OPENSSL_init_crypto", ctypes.c_int, [ctypes.c_uint64, vp]),
            ("NCONF_new", vp, [vp]), ("NCONF_free", None, [vp]),
            ("NCONF_load", ctypes.c_int, [vp, cp, ctypes.POINTER(ctypes.c_long)]),
            ("NCONF_get_section_names", vp, [vp]), ("NCONF_get_section", vp, [vp, cp]),
            ("OPENSSL_sk_num", ctypes.c_int, [vp]), ("OPENSSL_sk_value", vp, [vp, ctypes.c_int]),
            ("OPENSSL_sk_free", None, [vp]), ("ERR_get_error", ctypes.c_ulong, []),
            ("ERR_error_string_n", None, [ctypes.c_ulong, cp, ctypes.c_size_t])):
        function = getattr(lib, name)
        function.restype, function.argtypes = restype, argtypes
    lib.OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG, None)
    conf = lib.NCONF_new(None)
    try:
        line = ctypes.c_long(0)
        if lib.NCONF_load(conf, os.fsencode(path), ctypes.byref(line)) != 1:
            text = ctypes.create_string_buffer(256)
            lib.ERR_error_string_n(lib.ERR_get_error(), text, len(text))
            return f"line {line.value}: {text.value.decode(errors='replace')}"
        names = lib.NCONF_get_section_names(conf)
        found = {}
        for index in range(lib.OPENSSL_sk_num(names)):
            section = ctypes.cast(lib.OPENSSL_sk_value(names, index), cp).value
            values = lib.NCONF_get_section(conf, section)
            found[section.decode(errors="surrogateescape")] = {
                entry.name.decode(errors="surrogateescape"):
                    entry.value.decode(errors="surrogateescape")
                for entry in (ctypes.cast(lib.OPENSSL_sk_value(values, i),
                                          ctypes.POINTER(ConfValue)).contents
                              for i in range(lib.OPENSSL_sk_num(values)))}
        lib.OPENSSL_sk_free(names)
        return found
    finally:
        lib.NCONF_free(conf)


def check_reading(libcrypto, path, cnf):
    """Refuses unless libcrypto's parser, in a fresh process, reads `path` as `cnf` (the tool's
    reading of it) on everything that decides what loads and what a plain fetch gets."""
    child = run_child([sys.executable, "-I", os.path.abspath(__file__), "--parse", libcrypto,
                       path], None)
    try:
        theirs = json.loads(child.stdout.splitlines()[-1]) if child.returncode == 0 else None
    except (IndexError, ValueError):
        theirs = None
    if theirs is None:
        said = (child.stderr or child.stdout).strip().splitlines() or ["no answer"]
        raise Refusal(f"asking {libcrypto} to parse {path} failed: {said[-1]}")
    if isinstance(theirs, str):
        raise Refusal(f"libcrypto's own parser (NCONF_load) rejects {path}: {theirs}; "
                      "fix the file first")
    ours, openssl = cnf.summary(), summarize(theirs)
    for item, value in ours.items():
        if openssl[item] != value:
            raise Refusal(f"libcrypto's own parser (NCONF_load) reads {path} differently from "
                          f"blake2simd-config: {item} is {openssl[item]!r} for libcrypto, "
                          f"{value!r} for blake2simd-config; an edit based on that misreading "
                          "could override your settings, so edit this file by hand "
                          "(docs/deploying.md)")


def ask_libcrypto(libcrypto, conf, kernel_request=None):
    """probe() in a fresh process, so that libcrypto reads `conf` (None: as it would anyway)."""
    # -I: the probe, run as root, must not pick up PYTHON* variables or a user's site-packages.
    child = run_child([sys.executable, "-I", os.path.abspath(__file__), "--probe", libcrypto],
                      conf, kernel_request)
    try:
        if child.returncode == 0:
            return json.loads(child.stdout.splitlines()[-1])
    except (IndexError, ValueError):
        pass
    said = (child.stderr or child.stdout).strip().splitlines() or ["no answer"]
    raise Refusal(f"asking {libcrypto} failed (pass --libcrypto PATH?): {said[-1]}")


# --- Trusting paths -----------------------------------------------------------------------------


def trusted_owners():
    """Who may own what this run trusts: root, and the user running it (as root: root alone)."""
    return {0, os.geteuid()}


def judge(what, component, info):
    problems = []
    if info.st_uid not in trusted_owners():
        problems.append(f"owned by uid {info.st_uid}")
    if info.st_mode & 0o022:
        problems.append(f"writable by group or others (mode {stat.S_IMODE(info.st_mode):04o})")
    if not problems:
        return
    problem = f"{component} is {' and '.join(problems)}"
    raise Refusal(f"refusing {what}: {problem}, so someone other than root could replace it "
                  "and OpenSSL would then run their code in every program, root's included; "
                  "make every directory on the way and the file itself root's and not group/"
                  "other-writable (a sticky world-writable directory like /tmp is not safe "
                  "either), then run it again")


def check_trusted(path, what):
    """(resolved path, its lstat) when nobody but root (or this user) can replace `path`, as
    sshd's StrictModes: every directory from / down, the directory of every symbolic link on the
    way and the file itself owned by root and not group/other-writable. Refuses otherwise."""
    pending = [part for part in os.path.abspath(path).split("/") if part]
    current, info, hops = "/", os.stat("/"), 0
    judge(what, current, info)
    while pending:
        name = pending.pop(0)
        if name in (".", ".."):
            current = current if name == "." else os.path.dirname(current)
            continue
        candidate = os.path.join(current, name)
        try:
            info = os.lstat(candidate)
        except FileNotFoundError:
            raise Refusal(f"{what}: {candidate} does not exist") from None
        if stat.S_ISLNK(info.st_mode):  # its directory, `current`, was judged already
            hops += 1
            if hops > 40:
                raise Refusal(f"{what}: too many symbolic links in {path}")
            target = os.readlink(candidate)
            current = "/" if target.startswith("/") else current
            pending[:0] = [part for part in target.split("/") if part]
            continue
        judge(what, candidate, info)
        current = candidate
    return current, info


def check_programs(args):
    """As root, the openssl program and libcrypto the checks run must be root's alone too."""
    if os.geteuid() != 0:
        return
    program = shutil.which(args.openssl) or args.openssl
    check_trusted(program, f"the openssl program {program}")
    libcrypto = libcrypto_of(args)
    if os.path.isabs(libcrypto):
        check_trusted(libcrypto, f"libcrypto {libcrypto}")


def libcrypto_of(args):
    if not getattr(args, "found_libcrypto", None):
        args.found_libcrypto = args.libcrypto or find_libcrypto(args.openssl)
    return args.found_libcrypto


# --- Commands -----------------------------------------------------------------------------------


def config_path(args):
    if args.config:
        return os.path.abspath(args.config)
    return os.path.join(openssldir(args.openssl), "openssl.cnf")


def describe_path(path):
    real = os.path.realpath(path)
    return path if real == path else f"{path} (-> {real})"


def trusted_config(path, writing):
    """The resolved openssl.cnf and its lstat; refused unless root alone can replace it (and so
    the modules it names: OpenSSL loads them). Not needed by a user reading a file for `status`."""
    if not writing and os.geteuid() != 0:
        real = os.path.realpath(path)
        return real, os.lstat(real)
    real, info = check_trusted(path, f"the configuration {path}")
    if not stat.S_ISREG(info.st_mode):
        raise Refusal(f"{real} is not a regular file")
    if writing:
        check_writable(real, info)
    return real, info


def check_writable(real, info):
    directory = os.path.dirname(real)
    for what, where in ((real, real), (f"the directory {directory} (the new file is written "
                                       "there and renamed over the old one)", directory)):
        if not os.access(where, os.W_OK):
            hint = " (run it as root: sudo blake2simd-config ...)" if os.geteuid() != 0 else ""
            raise Refusal(f"{what} is not writable{hint}")
    if info.st_nlink > 1:
        raise Refusal(f"{real} has {info.st_nlink} hard links: the new file is renamed over this "
                      "name, so the other names would keep the old text and the two would "
                      "silently differ; make it a single file (or a symbolic link) first; "
                      "nothing written")


def encode(text):
    return text.encode("utf-8", "surrogateescape")


def copy_xattrs(dir_fd, name, out_fd):
    """The file's extended attributes (SELinux label, ACLs) onto the file replacing it."""
    source = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dir_fd)
    try:
        try:
            names = os.listxattr(source)
        except OSError:  # a file system without extended attributes
            return
        for attribute in names:
            try:
                os.setxattr(out_fd, attribute, os.getxattr(source, attribute))
            except OSError as error:
                raise Refusal(f"cannot keep the extended attribute {attribute} of the file "
                              f"({error.strerror}); nothing written") from None
    finally:
        os.close(source)


def scratch_copy(dir_fd, name, data, status):
    """A new file next to `name` in the directory `dir_fd` holding `data`, with the mode, owner
    and extended attributes of `status`'s file; returns its name."""
    scratch = f".{name}.blake2simd-config-{secrets.token_hex(6)}"
    fd = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                 0o600, dir_fd=dir_fd)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            if (status.st_uid, status.st_gid) != (os.geteuid(), os.getegid()):
                try:
                    os.fchown(out.fileno(), status.st_uid, status.st_gid)
                except PermissionError:
                    raise Refusal(f"cannot keep the owner of the file ({status.st_uid}:"
                                  f"{status.st_gid}); run it as root: sudo blake2simd-config "
                                  "...") from None
            os.fchmod(out.fileno(), stat.S_IMODE(status.st_mode))
            copy_xattrs(dir_fd, name, out.fileno())
            os.fsync(out.fileno())
    except BaseException:
        os.unlink(scratch, dir_fd=dir_fd)
        raise
    return scratch


def read_at(dir_fd, name):
    fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dir_fd)
    with open(fd, encoding="utf-8", errors="surrogateescape", newline="") as src:
        return src.read()


def verified_write(real, checked, old_text, new_text, verify):
    """Writes `new_text` to a scratch file next to `real` (whose lstat was `checked`) with its
    mode, owner and extended attributes, lets `verify(scratch path)` check it with OpenSSL, then
    renames it over `real`. All through one descriptor of the directory, so that neither the
    directory nor the file can be swapped between the checks and the rename (a symlink to `real`
    stays a symlink)."""
    directory, name = os.path.split(real)
    dir_fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    scratch = None
    try:
        status = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        if ((status.st_dev, status.st_ino, status.st_nlink) !=
                (checked.st_dev, checked.st_ino, checked.st_nlink)):
            raise Refusal(f"{real} was replaced while blake2simd-config was working; nothing "
                          "written, run it again")
        scratch = scratch_copy(dir_fd, name, encode(new_text), status)
        verify(os.path.join(directory, scratch))
        if read_at(dir_fd, name) != old_text:
            raise Refusal(f"{real} changed while blake2simd-config was working; nothing "
                          "written, run it again")
        scratch = renamed(dir_fd, scratch, name)
    finally:
        discard(dir_fd, scratch)


def renamed(dir_fd, scratch, name):
    """Renames `scratch` over `name` in the directory `dir_fd`; None (nothing left to discard)."""
    os.rename(scratch, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    try:
        os.fsync(dir_fd)  # makes the rename durable; it has happened already
    except OSError:
        pass
    return None


def discard(dir_fd, scratch):
    """Removes a scratch file a failed write left (None: none), then closes the directory."""
    if scratch is not None:
        try:
            os.unlink(scratch, dir_fd=dir_fd)
        except FileNotFoundError:
            pass
    os.close(dir_fd)


def read_text(real):
    # surrogateescape: bytes that are not UTF-8 (a Latin-1 comment) come back out unchanged.
    with open(real, encoding="utf-8", errors="surrogateescape", newline="") as src:
        return src.read()


def block_kernel(block):
    """The kernel the block (or drop-in file) forces: the admin's choice, kept by `enable`."""
    match = re.search(r"^kernel\s*=\s*(\S.*?)\s*$", block or "", re.M)
    return match.group(1) if match else None


def dropin_place(cnf):
    """(line number, directory, section open there, our file's path) of the first directory
    that openssl.cnf itself includes (RHEL 9.4+ and Fedora: /etc/pki/tls/openssl.d), or None."""
    if not cnf.directories:
        return None
    number, directory, section = cnf.directories[0]
    return number, directory, section, os.path.join(directory, DROPIN_NAME)


def check_included(cnf):
    """Every file and directory openssl.cnf includes, and the nearest existing directory above a
    missing one (a file created there later would be read), is root's alone, links followed."""
    for path in cnf.read:
        check_trusted(path, f"{path}, which the configuration includes")
    for path in cnf.missing:
        parent = os.path.dirname(path)
        while parent != "/" and not os.path.exists(parent):
            parent = os.path.dirname(parent)
        check_trusted(parent, f"{parent}, where the configuration includes the missing {path}")


def read_dropin(path):
    """Our drop-in file's text, None when absent; refuses a file of that name that is not ours."""
    if path is None or not os.path.lexists(path):
        return None
    text = read_text(path)
    if not text.startswith(BEGIN) or split_block(text)[1] is None:
        raise Refusal(f"{path} exists and was not written by blake2simd-config; move it away "
                      "first")
    return text


class Setup:
    """What `enable` would write and what is there: the block in openssl.cnf, or the drop-in file
    where openssl.cnf includes a directory (and holds no block)."""

    def __init__(self, real, text, module):
        self.real, self.text, self.module = real, text, module
        self.base, self.block = split_block(text)
        now = Cnf(text)  # as OpenSSL reads it today, our drop-in file included
        place = dropin_place(now)
        self.dropin = place and place[3]
        existing = read_dropin(self.dropin)
        if existing is not None and self.block is not None:
            raise Refusal(f"both a block in {real} and the drop-in file {self.dropin} are "
                          "there; run `blake2simd-config disable`, then enable")
        self.place = place if self.block is None else None
        self.current = existing if self.place else self.block
        self.fresh_for(module, {"default"}, kernel=None)  # refuses before asking OpenSSL
        check_included(now)
        self.now = now

    def ask(self, args):
        """Checks libcrypto's reading, then what `enable` would write today (`fresh`)."""
        check_reading(libcrypto_of(args), self.real, self.now)
        # Every provider active now stays active (also one an edit since `enable` activates only
        # through the block's lines).
        self.before = active_providers(args.openssl, self.real) - {PROVIDER}
        self.fresh = self.fresh_for(self.module, self.before, block_kernel(self.current))
        return self

    def fresh_for(self, module, before, kernel):
        if self.place is None:
            return make_block(self.base, module, before, kernel)
        cnf = Cnf(self.text, skip=self.dropin)
        return make_dropin(cnf, module, before, kernel, self.place[2])

    def where(self):
        return f"the drop-in file {self.dropin}" if self.place else describe_path(self.real)


def config_view(text, place, dropin_text, directory):
    """A configuration to check with: openssl.cnf with its include of the drop-in directory
    spelled out file by file in directory order (the order OpenSSL reads them in), our
    file's text `dropin_text` (None: left out) written into `directory`."""
    number, included, _, ours = place
    names, placed = [], dropin_text is None
    ours_copy = os.path.join(directory, "blake2simd-dropin")
    if dropin_text is not None:
        with open(ours_copy, "w", encoding="utf-8") as out:
            out.write(dropin_text)
    for name in os.listdir(included):
        path = os.path.join(included, name)
        if path == ours:
            if not placed:
                names.append(ours_copy)
            placed = True
        elif read_from_directory(name):
            if re.search(r"[#$\"'\\]", path) or path != path.strip():
                raise Refusal(f"{path}: a name an .include line cannot spell as it is (#, $, "
                              "quotes, backslashes, or spaces at an end); rename it")
            names.append(path)
    if not placed:
        names.append(ours_copy)
    lines = text.split("\n")
    lines[number - 1] = "\n".join(f".include {name}" for name in names) or "#"
    conf = os.path.join(directory, "openssl.cnf")
    with open(conf, "w", encoding="utf-8", errors="surrogateescape") as out:
        out.write("\n".join(lines))
    return conf


def checked_view(text, place, dropin_text, check):
    """`check(conf)` on a private copy of the configuration with `dropin_text` as our file."""
    with tempfile.TemporaryDirectory(prefix="blake2simd-config-") as directory:
        check(config_view(text, place, dropin_text, directory))


def check_dropin_directory(directory):
    check_trusted(directory, f"the drop-in directory {directory}")
    if not os.access(directory, os.W_OK):
        hint = " (run it as root: sudo blake2simd-config ...)" if os.geteuid() != 0 else ""
        raise Refusal(f"the drop-in directory {directory} is not writable{hint}")


def write_dropin(path, text, verify):
    """Writes our drop-in file atomically, once `verify()` passed: a scratch file OpenSSL never
    reads (not *.cnf) next to it, renamed over the name through one descriptor of the
    directory."""
    directory, name = os.path.split(path)
    check_dropin_directory(directory)
    verify()
    dir_fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    scratch = f".{name}.blake2simd-config-{secrets.token_hex(6)}"
    try:
        fd = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                     0o644, dir_fd=dir_fd)
        with os.fdopen(fd, "wb") as out:
            out.write(encode(text))
            out.flush()
            os.fchmod(out.fileno(), 0o644)
            os.fsync(out.fileno())
        scratch = renamed(dir_fd, scratch, name)
    finally:
        discard(dir_fd, scratch)


def kernel_fips_mode(args):
    """Whether the kernel runs in FIPS mode (absent flag: no)."""
    try:
        with open(args.fips_flag, encoding="ascii", errors="replace") as flag:
            return flag.read().strip() == "1"
    except OSError:
        return False


def check_fips(args):
    """Red Hat's libcrypto forces the FIPS provider and fips=yes when the kernel runs in FIPS
    mode, which no configuration file shows."""
    if kernel_fips_mode(args):
        raise Refusal(f"the kernel runs in FIPS mode ({args.fips_flag} is 1): there a FIPS "
                      "libcrypto (RHEL's) loads only the FIPS provider with fips=yes, and "
                      "blake2simd is not a FIPS-validated module; nothing written")


def enable_checks(args, setup):
    """The check of a changed configuration (a path) before it is put in place."""
    def verify(scratch):
        after = active_providers(args.openssl, scratch)
        lost = sorted(setup.before - after)
        if lost or PROVIDER not in after:
            raise Refusal(f"with the change, OpenSSL reports active providers {sorted(after)} "
                          f"(before: {sorted(setup.before)}); nothing written")
        served = ask_libcrypto(libcrypto_of(args), scratch)
        others = [f"{name} by {served.get(name) or 'nobody'}" for name in DROP_IN
                  if served.get(name) != PROVIDER]
        if others:
            raise Refusal(f"with the change, a plain fetch is still served elsewhere "
                          f"({', '.join(others)}): "
                          "probably a mandatory property in default_properties (fips=yes?) "
                          "rules blake2simd out; nothing written" +
                          ("; to remove the present block: blake2simd-config disable"
                           if setup.current else ""))
    return verify


def command_enable(args):
    path = config_path(args)
    module = os.path.abspath(args.module)
    if not os.path.isfile(module):
        raise Refusal(f"module {module} not found: install the blake2simd package (or cmake "
                      "--install), or pass --module PATH")
    check_trusted(module, f"the module {module}")
    check_programs(args)
    check_fips(args)
    if not os.path.lexists(path):
        raise Refusal(f"{path} does not exist (or is not a regular file)")
    real, checked = check_trusted(path, f"the configuration {path}")
    if not stat.S_ISREG(checked.st_mode):
        raise Refusal(f"{real} is not a regular file")
    text = read_text(real)
    setup = Setup(real, text, module)
    if setup.place:
        check_dropin_directory(setup.place[1])
    else:
        check_writable(real, checked)
    setup.ask(args)
    if setup.current == setup.fresh:
        print(f"blake2simd is already enabled in {setup.where()}; nothing changed")
        return 0
    verify = enable_checks(args, setup)
    if setup.place:
        write_dropin(setup.dropin, setup.fresh,
                     lambda: checked_view(text, setup.place, setup.fresh, verify))
    else:
        verified_write(real, checked, text, setup.base + setup.fresh, verify)
    done = "refreshed blake2simd's settings in" if setup.current else "enabled blake2simd in"
    print(f"{done} {setup.where()} (undo: blake2simd-config disable)")
    if setup.place:
        print(f"{describe_path(path)} is unchanged (it includes {setup.place[1]})")
    print(f"providers now active: {', '.join(sorted(setup.before | {PROVIDER}))}")
    print("check with: blake2simd-config status")
    return 0


def disable_dropin(args, real, text, place):
    """Removes exactly our drop-in file, after checking that nothing active relies on it."""
    dropin = place[3]
    check_trusted(os.path.dirname(dropin), f"the drop-in directory {os.path.dirname(dropin)}")
    try:
        kept = active_providers(args.openssl, real) - {PROVIDER}
    except Refusal:
        kept = set()

    def verify(conf):
        lost = sorted(kept - active_providers(args.openssl, conf))
        if lost:
            raise Refusal(f"without {dropin}, OpenSSL would no longer activate "
                          f"{', '.join(lost)}; copy those lines out of it by hand, then run "
                          "disable again; nothing removed")
    checked_view(text, place, None, verify)
    directory, name = os.path.split(dropin)
    dir_fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.unlink(name, dir_fd=dir_fd)
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
    print(f"disabled blake2simd: removed the drop-in file {dropin} ({describe_path(real)} "
          "unchanged)")
    return 0


def command_disable(args):
    path = config_path(args)
    if not os.path.isfile(path):
        raise Refusal(f"{os.path.realpath(path)} does not exist")
    check_programs(args)
    real, checked = check_trusted(path, f"the configuration {path}")
    text = read_text(real)
    base, block = split_block(text)
    place = dropin_place(Cnf(text)) if block is None else None  # a block: no reading needed
    if place and read_dropin(place[3]) is not None:
        return disable_dropin(args, real, text, place)
    if block is None:
        print(f"blake2simd is not enabled in {describe_path(path)}; nothing changed")
        return 0
    try:
        kept = active_providers(args.openssl, real) - {PROVIDER}
    except Refusal:
        kept = set()  # a file OpenSSL rejects now: removing the block must at least not fail
    real, checked = trusted_config(path, writing=True)

    def verify(scratch):
        lost = sorted(kept - active_providers(args.openssl, scratch))
        if lost:
            raise Refusal(f"without the block, OpenSSL would no longer activate "
                          f"{', '.join(lost)}: an edit made since `enable` relies on lines "
                          "of the block (e.g. a provider added to the provider section the "
                          "block created); copy those lines out of the block by hand, then run "
                          "disable again; nothing written")

    verified_write(real, checked, text, base, verify)
    print(f"disabled blake2simd in {describe_path(path)}")
    return 0



def block_items(block):
    """The block's settings as `[ section ] key = value` strings, in order."""
    items, section = [], None
    for line in block.splitlines():
        line = line.strip()
        if line.startswith("["):
            section = line
        elif line and not line.startswith("#"):
            items.append(f"{section} {line}")
    return items


def stale_report(setup):
    """None when the block is what `enable` would write for today's file, else what differs."""
    has, needs = block_items(setup.current), block_items(setup.fresh)
    if has == needs:  # the same settings; at most the comments differ
        return None
    lines = [f"  it has:             {item}" for item in has if item not in needs]
    lines += [f"  today's file needs: {item}" for item in needs if item not in has]
    return (f"{setup.where()} is stale: it was written for an earlier version of the "
            "configuration and, as the last word on what it sets, overrides the lines above it:\n"
            + "\n".join(lines) + "\nrun `blake2simd-config enable` to refresh it (or "
            "`blake2simd-config disable` to remove it)")


def status_setup(args, real, text, module):
    """(the Setup, None) or (None, why the block or drop-in file cannot be checked)."""
    try:
        return Setup(real, text, module).ask(args), None
    except Refusal as refusal:
        return None, f"the settings cannot be checked against the rest of the file: {refusal}"


def report_kernels(args, real, served, setup):
    """The kernel the block forces and, with BLAKE2SIMD_KERNEL in the caller's environment
    (which the module honours before the block's line), what a program started there gets."""
    forced = setup and block_kernel(setup.current)
    if forced:
        print(f"kernel:        {forced} (forced by `kernel =` in {setup.where()}; "
              "`enable` keeps it)")
    request = os.environ.get("BLAKE2SIMD_KERNEL")
    if request is None or not served["kernels"]:
        return
    theirs = ask_libcrypto(libcrypto_of(args), real, request)["kernels"]
    got = ", ".join(f"{name} {theirs.get(name) or 'none'}" for name in DIGESTS
                    if name in served["kernels"])
    print(f"your shell:    BLAKE2SIMD_KERNEL={request} (it comes before the block's kernel "
          f"line): a program started from it gets {got}")


def command_status(args):
    path = args.config and os.path.abspath(args.config)
    if path is None:
        path = os.environ.get("OPENSSL_CONF") or os.path.join(openssldir(args.openssl),
                                                              "openssl.cnf")
    check_programs(args)
    exists = os.path.isfile(path)
    real = trusted_config(path, writing=False)[0] if exists else os.path.realpath(path)
    text = read_text(real) if exists else None
    block = split_block(text)[1] if exists else None
    place = None
    if exists and block is None:
        try:
            place = dropin_place(Cnf(text))
        except Refusal:
            place = None
    dropin = read_dropin(place[3]) if place else None
    settings = block or dropin
    module = block_module(settings) if settings else os.path.abspath(args.module)
    if settings and os.geteuid() == 0 and os.path.exists(module):
        check_trusted(module, f"the module {module} (named in the blake2simd-config settings)")
    print(f"configuration: {describe_path(path)}")
    enabled = ("yes (blake2simd-config block present)" if block else
               f"yes (drop-in file {place[3]})" if dropin else "no")
    if not settings and place:
        enabled += f" (enable would write the drop-in file {place[3]})"
    print(f"enabled:       {enabled}")
    present = "present" if os.path.isfile(module) else "MISSING"
    print(f"module:        {module} ({present})")
    if kernel_fips_mode(args):
        print(f"FIPS mode:     on ({args.fips_flag} is 1): a FIPS libcrypto (RHEL's) then loads "
              "only the FIPS provider; blake2simd is not FIPS-validated")
    served = ask_libcrypto(libcrypto_of(args), real)
    print(f"libcrypto:     {served['libcrypto']} ({served['version']})")
    offered = served["offered"]
    for algorithm in ALGORITHMS:
        line = f"served by {served.get(algorithm) or 'nobody (fetch fails)'}"
        if served["kernels"].get(algorithm):  # a MAC runs on its digest's kernel, Argon2 on BlaMka's
            line += f", kernel {served['kernels'][algorithm]}"
        if offered and algorithm not in offered:
            line += " (this blake2simd module does not offer it)"
        print(f"{algorithm + ':':<15}{line}")
    if served.get("buildinfo"):
        print(f"build info:    {served['buildinfo']}")
    setup, why = status_setup(args, real, text, module) if settings else (None, None)
    report_kernels(args, real, served, setup)
    # Every algorithm the loaded module offers, and at least the drop-ins (so a module that did
    # not load, and offers nothing, fails too).
    ok = all(served.get(algorithm) == PROVIDER for algorithm in set(offered) | set(DROP_IN))
    if not ok:
        hint = ("run `blake2simd-config enable`" if not settings else
                "the module is missing or failed to load: see blake2simd-config(8)")
        print(f"blake2simd does not serve plain fetches: {hint}")
    stale = why or (setup and stale_report(setup))
    if stale:
        print(stale)
    return 0 if ok and not stale else 1


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--probe"]:
        probe(argv[1])
        return 0
    if argv[:1] == ["--parse"]:
        print(json.dumps(nconf_sections(argv[1], argv[2])))
        return 0
    parser = argparse.ArgumentParser(
        prog="blake2simd-config", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="See blake2simd-config(8) and blake2simd(7).")
    parser.add_argument("--version", action="version", version=f"blake2simd-config {VERSION}")
    commands = parser.add_subparsers(dest="command", metavar="{enable,disable,status}")
    for name, text in (("enable", "activate blake2simd and prefer it for plain fetches"),
                       ("disable", "remove exactly what enable added"),
                       ("status", "show whether blake2simd is enabled and who serves BLAKE2 and Argon2")):
        command = commands.add_parser(name, help=text, description=text)
        command.add_argument("--config", metavar="FILE",
                             help="openssl.cnf to use (default: OPENSSLDIR/openssl.cnf, from "
                                  "`openssl version -d`)")
        command.add_argument("--module", metavar="PATH", default=INSTALLED_MODULE,
                             help=f"blake2simd.so to configure (default: {INSTALLED_MODULE})")
        command.add_argument("--openssl", metavar="PROGRAM", default=shutil.which("openssl"),
                             help="the openssl program to check with (default: from PATH)")
        command.add_argument("--libcrypto", metavar="PATH",
                             help="libcrypto to ask (default: the one `openssl` loads)")
        # The kernel's FIPS flag, injectable so that the refusal can be tested.
        command.add_argument("--fips-flag", default=FIPS_FLAG, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    if not args.openssl:
        print("blake2simd-config: the openssl program is not installed (apt-get install openssl)",
              file=sys.stderr)
        return 1
    try:
        return {"enable": command_enable, "disable": command_disable,
                "status": command_status}[args.command](args)
    except Refusal as refusal:
        print(f"blake2simd-config {args.command}: {refusal}", file=sys.stderr)
        return 1
    except (OSError, subprocess.SubprocessError) as error:
        print(f"blake2simd-config {args.command}: {error}; the configuration was not changed",
              file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
