#!/usr/bin/python3 -I
# blake2simd-config: turn the blake2simd OpenSSL provider on or off system-wide, and show who serves.
# SPDX-License-Identifier: Apache-2.0
#
# Installed (as /usr/sbin/blake2simd-config or ${sbindir}/blake2simd-config) by CMake, which fills
# in the module path below. Python 3 standard library only. Man page: blake2simd-config(8).
"""Enable, disable or inspect the blake2simd OpenSSL provider in openssl.cnf.

enable   appends one marked block to openssl.cnf: blake2simd active next to every provider that is
         active now, and ?provider=blake2simd as the preferred implementation of a plain fetch
disable  removes exactly that block again
status   says whether it is enabled and which provider (and kernel) serves a plain fetch of each
         BLAKE2 algorithm (digests and MACs, tree modes, RFC 7693 sizes, BLAKE2X); exit status 0
         only when blake2simd serves every one that the loaded module offers

The block defines its provider section inline with the module's absolute path and includes no
other file: if the module is removed, OpenSSL skips the provider and the default one answers.

It refuses (changing nothing) a module, openssl.cnf or directory above them that anyone but
root can replace, a file whose reading by libcrypto's own parser differs from its own, and a
file with more than one hard link; blake2simd-config(8) says why.
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

VERSION = "@PROJECT_VERSION@"
INSTALLED_MODULE = "@B2_MODULE_INSTALL_PATH@"

BEGIN = "# >>> blake2simd-config: begin (added by `blake2simd-config enable`, removed by `disable`)"
BEGIN_EOL_ADDED = BEGIN + " +eol"
END = "# <<< blake2simd-config: end"
PREFERENCE = "?provider=blake2simd"
PROVIDER = "blake2simd"
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
    header's `]`, and takes every key that starts with .include (.pragma) as the directive."""

    def __init__(self, text):
        self.sections = {"default": {}}
        section = "default"
        if "\0" in text:
            raise Refusal("the file holds a NUL byte, which OpenSSL reads as the end of its line; "
                          "edit this file by hand")
        if text.startswith("\ufeff"):
            text = text[1:]
        for number, raw in enumerate(text.split("\n"), 1):
            line = strip_comment(raw).strip()
            if not line:
                continue
            if line.endswith("\\"):
                raise Refusal(f"line {number} continues on the next line; edit this file by hand")
            if line.startswith("["):
                header = re.match(r"\[\s*([^\]\s]+)\s*\]", line)
                if not header:
                    raise Refusal(f"line {number} is a section header blake2simd-config cannot "
                                  f"read: {raw.strip()!r}; edit this file by hand")
                section = header.group(1)  # OpenSSL ignores what follows the "]"
                self.sections.setdefault(section, {})
                continue
            if line.startswith(".include"):
                # An included file can set or override any key (default_properties = fips=yes)
                # where this parse cannot see it, and our block would silently replace it.
                raise Refusal(f"line {number} includes another file ({raw.strip()!r}); "
                              "settings there are invisible to blake2simd-config: edit this "
                              "file by hand (docs/deploying.md)")
            if line.startswith(".pragma"):
                continue
            pair = re.fullmatch(r"([^=\s]+)\s*=\s*(.*)", line)
            if not pair:
                raise Refusal(f"line {number} is neither a section, a directive nor key = value: "
                              f"{raw.strip()!r}")
            if "::" in pair.group(1):
                raise Refusal(f"line {number} sets a key in another section "
                              f"({pair.group(1)}); edit this file by hand")
            self.sections[section][pair.group(1)] = pair.group(2).strip()

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


def make_block(text, module, active_before):
    """The marked block that activates blake2simd in `text`, whose active providers (as OpenSSL
    reports them) are `active_before`."""
    cnf = Cnf(text)
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
    add(own, "# kernel = auto      (or force one by name: blake2simd(7) lists them)")

    eol_added = bool(text) and not text.endswith("\n")
    # A CRLF file gets a CRLF block, so that editors and diff see one line-ending style.
    newline = "\r\n" if text.split("\n", 1)[0].endswith("\r") and "\n" in text else "\n"
    out = [BEGIN_EOL_ADDED if eol_added else BEGIN,
           "# Inline on purpose: without the module OpenSSL skips this provider and uses default.",
           "# Without blake2simd-config (package purged), remove it by deleting every line from",
           "# the begin line above to the end line below, both included."]
    for section, lines in added.items():
        out.append(f"[ {section} ]")
        out += lines
    out.append(END)
    return (newline if eol_added else "") + newline.join(out) + newline


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


def run_child(command, conf):
    return subprocess.run(command, env=clean_env(conf), stdin=subprocess.DEVNULL,
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


def ask_libcrypto(libcrypto, conf):
    """probe() in a fresh process, so that libcrypto reads `conf` (None: as it would anyway)."""
    # -I: the probe, run as root, must not pick up PYTHON* variables or a user's site-packages.
    child = run_child([sys.executable, "-I", os.path.abspath(__file__), "--probe", libcrypto],
                      conf)
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
        os.rename(scratch, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        scratch = None
        try:
            os.fsync(dir_fd)  # makes the rename durable; it has happened already
        except OSError:
            pass
    finally:
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


def fresh_block(args, real, text, module):
    """(the file without our block, our block or None, the block `enable` would write today),
    after checking that libcrypto reads the file as the tool does."""
    base, block = split_block(text)
    make_block(base, module, {"default"})  # refuses a file it cannot edit before asking OpenSSL
    check_reading(libcrypto_of(args), real, Cnf(text))
    # Every provider active now stays active (also one an edit since `enable` activates only
    # through the block's lines).
    before = active_providers(args.openssl, real) - {PROVIDER}
    return base, block, make_block(base, module, before), before


def command_enable(args):
    path = config_path(args)
    module = os.path.abspath(args.module)
    if not os.path.isfile(module):
        raise Refusal(f"module {module} not found: install the blake2simd package (or cmake "
                      "--install), or pass --module PATH")
    check_trusted(module, f"the module {module}")
    check_programs(args)
    if not os.path.lexists(path):
        raise Refusal(f"{path} does not exist (or is not a regular file)")
    real, checked = trusted_config(path, writing=True)
    text = read_text(real)
    base, block, new_block, before = fresh_block(args, real, text, module)
    if text == base + new_block:
        print(f"blake2simd is already enabled in {describe_path(path)}; nothing changed")
        return 0

    def verify(scratch):
        after = active_providers(args.openssl, scratch)
        lost = sorted(before - after)
        if lost or PROVIDER not in after:
            raise Refusal(f"with the change, OpenSSL reports active providers {sorted(after)} "
                          f"(before: {sorted(before)}); nothing written")
        served = ask_libcrypto(libcrypto_of(args), scratch)
        others = [f"{name} by {served.get(name) or 'nobody'}" for name in DROP_IN
                  if served.get(name) != PROVIDER]
        if others:
            raise Refusal(f"with the change, a plain fetch is still served elsewhere "
                          f"({', '.join(others)}): "
                          "probably a mandatory property in default_properties (fips=yes?) "
                          "rules blake2simd out; nothing written" +
                          ("; to remove the present block: blake2simd-config disable"
                           if block else ""))

    verified_write(real, checked, text, base + new_block, verify)
    done = "refreshed the blake2simd block in" if block else "enabled blake2simd in"
    print(f"{done} {describe_path(path)} (undo: blake2simd-config disable)")
    print(f"providers now active: {', '.join(sorted(before | {PROVIDER}))}")
    print("check with: blake2simd-config status")
    return 0


def command_disable(args):
    path = config_path(args)
    if not os.path.isfile(path):
        raise Refusal(f"{os.path.realpath(path)} does not exist")
    check_programs(args)
    real, checked = trusted_config(path, writing=True)
    text = read_text(real)
    base, block = split_block(text)
    if block is None:
        print(f"blake2simd is not enabled in {describe_path(path)}; nothing changed")
        return 0
    try:
        kept = active_providers(args.openssl, real) - {PROVIDER}
    except Refusal:
        kept = set()  # a file OpenSSL rejects now: removing the block must at least not fail

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


def stale_report(args, real, text, module):
    """None when the block is what `enable` would write for today's file, else what differs."""
    try:
        _, block, fresh, _ = fresh_block(args, real, text, module)
    except Refusal as refusal:
        return f"the block cannot be checked against the rest of the file: {refusal}"
    has, needs = block_items(block), block_items(fresh)
    if has == needs:  # the same settings; at most the comments differ
        return None
    lines = [f"  the block has:      {item}" for item in has if item not in needs]
    lines += [f"  today's file needs: {item}" for item in needs if item not in has]
    return ("the block is stale: it was written for an earlier version of this file and, as the "
            "last word on what it sets, overrides the lines above it:\n" + "\n".join(lines) +
            "\nrun `blake2simd-config enable` to refresh it (or `blake2simd-config disable` to "
            "remove it)")


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
    module = block_module(block) if block else os.path.abspath(args.module)
    if block and os.geteuid() == 0 and os.path.exists(module):
        check_trusted(module, f"the module {module} (named in the block)")
    print(f"configuration: {describe_path(path)}")
    print(f"enabled:       {'yes (blake2simd-config block present)' if block else 'no'}")
    present = "present" if os.path.isfile(module) else "MISSING"
    print(f"module:        {module} ({present})")
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
    # Every algorithm the loaded module offers, and at least the drop-ins (so a module that did
    # not load, and offers nothing, fails too).
    ok = all(served.get(algorithm) == PROVIDER for algorithm in set(offered) | set(DROP_IN))
    if not ok:
        hint = ("run `blake2simd-config enable`" if not block else
                "the module is missing or failed to load: see blake2simd-config(8)")
        print(f"blake2simd does not serve plain fetches: {hint}")
    stale = block and stale_report(args, real, text, module)
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
