#!/usr/bin/env python3
# Generated openssl.cnf texts: blake2simd-config's reading must agree with libcrypto's, or the
# tool must refuse the file.
# SPDX-License-Identifier: Apache-2.0
#
# A seeded grammar-based generator (sections, headers with trailing text, keys in other sections,
# .include and .pragma in their spellings (includes of files and directories, nested, relative,
# after .pragma includedir, missing), quotes, variables, escapes, continuations, comments,
# a byte order mark, CRLF, no final newline) writes each text to a file. The reference is
# libcrypto's own parser, NCONF_load, called here through ctypes with code of this test (not the
# tool's). For every text the tool either refuses it (its reader, the checks enable makes before
# writing, or its own comparison with NCONF_load) or its reading of what decides which providers
# load (openssl_conf, the provider list, each provider's activate, alg_section,
# default_properties, the section names) equals the reference. Bounded by a case count, never by
# time (a loaded machine checks the same texts, only later); the seed is fixed (CI runs repeat) and
# --seed N / --cases N explore others.
import argparse
import ctypes
import importlib.machinery
import importlib.util
import os
import pathlib
import random
import sys
import tempfile

from b2check import Tally, skip

SECTIONS = ("default", "init", "openssl_init", "provs", "algs", "d_sect", "b_sect", "inc")
KEYS = ("openssl_conf", "providers", "alg_section", "default_properties", "activate", "default",
        "blake2simd", "module", "x", "providers.2")


def load_tool(path):
    loader = importlib.machinery.SourceFileLoader("blake2simd_config", str(path))
    spec = importlib.util.spec_from_loader("blake2simd_config", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


class Reference:
    """libcrypto's reading of a file: NCONF_load, then each section's values as OpenSSL's
    configuration modules see them (NCONF_get_section: no fallback to [default])."""

    def __init__(self, path):
        lib = ctypes.CDLL(path)
        vp, cp = ctypes.c_void_p, ctypes.c_char_p
        signatures = {"OPENSSL_init_crypto": (ctypes.c_int, [ctypes.c_uint64, vp]),
                      "NCONF_new": (vp, [vp]), "NCONF_free": (None, [vp]),
                      "NCONF_load": (ctypes.c_int, [vp, cp, ctypes.POINTER(ctypes.c_long)]),
                      "NCONF_get_section_names": (vp, [vp]),
                      "NCONF_get_section": (vp, [vp, cp]), "OPENSSL_sk_num": (ctypes.c_int, [vp]),
                      "OPENSSL_sk_value": (vp, [vp, ctypes.c_int]),
                      "OPENSSL_sk_free": (None, [vp]), "ERR_clear_error": (None, [])}
        for name, (restype, argtypes) in signatures.items():
            function = getattr(lib, name)
            function.restype, function.argtypes = restype, argtypes
        lib.OPENSSL_init_crypto(0x80, None)  # OPENSSL_INIT_NO_LOAD_CONFIG
        self.lib = lib

    def entries(self, stack):
        lib = self.lib
        return [ctypes.cast(lib.OPENSSL_sk_value(stack, i), ctypes.POINTER(ctypes.c_char_p))
                for i in range(lib.OPENSSL_sk_num(stack))] if stack else []

    def read(self, path):
        """The items as a dict, or None when libcrypto cannot parse the file."""
        lib = self.lib
        conf = lib.NCONF_new(None)
        try:
            if lib.NCONF_load(conf, os.fsencode(path), ctypes.byref(ctypes.c_long())) != 1:
                lib.ERR_clear_error()
                return None

            def section(name):
                if name is None:
                    return {}
                stack = lib.NCONF_get_section(conf, name.encode(errors="surrogateescape"))
                # CONF_VALUE is {section, name, value}: three char pointers
                return {entry[1].decode(errors="surrogateescape"):
                        entry[2].decode(errors="surrogateescape")
                        for entry in self.entries(stack)}

            names = lib.NCONF_get_section_names(conf)
            sections = [ctypes.cast(lib.OPENSSL_sk_value(names, i), ctypes.c_char_p)
                        .value.decode(errors="surrogateescape")
                        for i in range(lib.OPENSSL_sk_num(names))]
            lib.OPENSSL_sk_free(names)
            found = items(section, sections)
            lib.ERR_clear_error()
            return found
        finally:
            lib.NCONF_free(conf)


def items(section, names):
    """What decides which providers load and what a plain fetch gets, given `section(name)` ->
    {key: value} (empty for a missing section or None) and all section names."""
    init = section("default").get("openssl_conf")
    providers = section(init).get("providers")
    listed = section(providers)
    algorithms = section(init).get("alg_section")
    return {"sections": sorted(names), "openssl_conf": init, "providers": providers,
            "provider list": listed,
            "activate": {name: section(sect).get("activate") for name, sect in listed.items()},
            "alg_section": algorithms,
            "default_properties": section(algorithms).get("default_properties")}


def value(rng, include, hostile):
    plain = [rng.choice(SECTIONS), rng.choice(SECTIONS), "1", "yes", "0", "fips=yes",
             "?fips=yes", "x # trailing comment", f"{rng.choice(SECTIONS)}  ", ""]
    return rng.choice(plain if not hostile else [
        f'"{rng.choice(SECTIONS)}"', f"'{rng.choice(SECTIONS)}'", f"${rng.choice(KEYS[:3])}",
        "${init}", "a\\#b", include])


def line(rng, include, targets):
    """Mostly lines a real file has (so that many texts are accepted), some hostile ones."""
    section, key = rng.choice(SECTIONS), rng.choice(KEYS)
    target = rng.choice(targets)
    space = rng.choice(["", " ", "\t", "  "])
    hostile = rng.random() < 0.25

    def val():
        return value(rng, include, hostile and rng.random() < 0.5)

    if not hostile:
        return rng.choice([
            f"[{space}{section}{space}]", f"[ {section} ]", f"[{section}] # comment",
            f"[{section}]junk", f"[{section}]{key}={val()}",
            f"{space}{key}{space}={space}{val()}", f"{key}={val()}", f"{key} = {val()}",
            f"{key} = {val()}", "# a comment", f"# [{section}]", f"#{key} = 1", "", "   ",
            ".pragma dollarid:on", ".pragma=abspath:true", f".include {target}",
            f".include = {target}", f".include\t{target}", f".pragma includedir:{targets[0]}",
            f".pragma = includedir : {targets[0]}/", "# a comment \\"])
    return rng.choice([
        f"[ {section} {section} ]", "[unclosed", f"{section}::{key} = {val()}",
        f".include {include}", f".include={include}", f".include_{key} = {include}",
        f".includedir {include}", f".include{include}", ".pragma junk",
        f".pragma includedir:{include}", f"{key} = a \\", f'{key} = "a # b"',
        f"{key} {val()}", f"\\.include = {include}", f"{key}\0 = 1", f"{key} = {val()}"])


def text(rng, include, targets):
    lines = [line(rng, include, targets) for _ in range(rng.randint(1, 14))]
    if rng.random() < 0.6:  # a plausible skeleton, so that many texts get somewhere
        lines[0:0] = ["openssl_conf = init", "[init]", "providers = provs",
                      "alg_section = algs", "[provs]", "default = d_sect", "[d_sect]",
                      "activate = 1", "[algs]", "default_properties = ?fips=yes"]
        if rng.random() < 0.2:
            rng.shuffle(lines)
    newline = "\r\n" if rng.random() < 0.15 else "\n"
    body = newline.join(lines) + (newline if rng.random() < 0.9 else "")
    return ("\ufeff" if rng.random() < 0.1 else "") + body


def include_targets(work, include):
    """Files and directories for `.include` lines: [the directory holding them (for .pragma
    includedir), then targets absolute and relative]. Keys before a file's first header land in
    the section open at the include; a directory's *.cnf and *.conf files are read in directory
    order, others not; a missing target is skipped; a file includes another (nested)."""
    texts = {
        "keys-first.cnf": "activate = 1\ndefault_properties = ?fips=yes\n[ provs ]\nb = b_sect\n",
        "algs.cnf": "[ init ]\nalg_section = algs\n[ algs ]\nx = 1\n",
        "nested.cnf": f"[ d_sect ]\n.include {work}/keys-first.cnf\nmodule = m\n",
        "nests-dir.cnf": f".include {work}/drop.d\n",
        "drop.d/10-provs.cnf": "[ provs ]\nblake2simd = b_sect\n[ b_sect ]\nactivate = 1\n",
        "drop.d/20-keys.conf": "activate = 0\n[ algs ]\ndefault_properties = fips=yes\n",
        "drop.d/ignored.txt": "[ init ]\nproviders = nowhere\n",
        "drop.d/UPPER.CNF": "[ inc ]\nx = 2\n",
        "drop.d/nests.cnf": f".include {work}/algs.cnf\n",
        "empty.d/readme": "not read\n",
    }
    for name, content in texts.items():
        (work / name).parent.mkdir(exist_ok=True)
        (work / name).write_text(content)
    absolute = [f"{work}/{name}" for name in ("keys-first.cnf", "algs.cnf", "nested.cnf",
                                               "nests-dir.cnf", "drop.d", "empty.d",
                                               "missing.cnf")] + [include]
    return [str(work)] + absolute + ["keys-first.cnf", "drop.d", "missing.cnf"]


def tool_verdict(tool, libcrypto, path, data):
    """('refused', reason) or ('accepted', the tool's reading), as enable would decide before
    asking OpenSSL to load anything."""
    try:
        source = data.decode("utf-8", "surrogateescape")
        base, _ = tool.split_block(source)
        tool.make_block(base, "/nonexistent/blake2simd.so", {"default"})
        cnf = tool.Cnf(source)
        ours = items(lambda name: cnf.sections.get(name, {}) if name is not None else {},
                     cnf.sections)
        if hasattr(tool, "nconf_sections"):  # the tool's own comparison (main's had none)
            theirs = tool.nconf_sections(libcrypto, path)
            if isinstance(theirs, str) or tool.summarize(theirs) != cnf.summary():
                return "refused by the comparison with NCONF_load", None
        return "accepted", ours
    except tool.Refusal as refusal:
        return "refused by the reader", str(refusal)


def comparison_catches(c, tool, libcrypto, work):
    """The tool's comparison itself (its --parse child and NCONF_load): given a reading that
    differs from the file on one item, it refuses and names that item."""
    if not hasattr(tool, "check_reading"):
        c.check(False, "the tool compares its reading with NCONF_load (check_reading)")
        return
    path = work / "differs.cnf"
    text = ("openssl_conf = init\n[init]\nalg_section = algs\n[algs]\n"
            "default_properties = {}\n")
    path.write_text(text.format("fips=yes"))
    for reading, item in ((text.format("?fips=yes"), "default_properties"),
                          (text.replace("init", "other"), "openssl_conf")):
        try:
            tool.check_reading(libcrypto, str(path), tool.Cnf(reading))
            said = "(no refusal)"
        except tool.Refusal as refusal:
            said = str(refusal)
        c.check(item in said and "NCONF_load" in said,
                f"a reading that differs on {item} is refused, naming it", said)
    try:
        tool.check_reading(libcrypto, str(path), tool.Cnf(text.format("fips=yes")))
        c.check(True, "the same reading passes the comparison")
    except tool.Refusal as refusal:
        c.check(False, "the same reading passes the comparison", str(refusal))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tool", required=True)
    parser.add_argument("--libcrypto", required=True)
    parser.add_argument("--seed", type=int, default=23,
                        help="the generator's seed (fixed, so that CI runs are repeatable)")
    parser.add_argument("--cases", type=int, default=600)
    args = parser.parse_args()
    if not os.path.isfile(args.tool):
        sys.exit(f"FAIL: {args.tool} missing")
    try:
        reference = Reference(args.libcrypto)
    except (OSError, AttributeError) as error:
        skip(f"cannot use libcrypto {args.libcrypto} through ctypes: {error}")
    tool = load_tool(args.tool)
    seed = args.seed
    print(f"seed {seed} (replay: --seed {seed})")
    rng = random.Random(seed)
    c = Tally("system_config_reader")
    counts = {}
    with tempfile.TemporaryDirectory(prefix="b2-cnf-reader-") as tmp:
        work = pathlib.Path(tmp)
        include = work / "inc.cnf"
        include.write_text("[ init ]\nalg_section = inc\n[ inc ]\ndefault_properties = fips=yes\n")
        targets = include_targets(work, str(include))
        comparison_catches(c, tool, args.libcrypto, work)
        path = work / "case.cnf"
        done = 0
        while done < args.cases:
            data = text(rng, str(include), targets).encode("utf-8")
            path.write_bytes(data)
            verdict, ours = tool_verdict(tool, args.libcrypto, path, data)
            counts[verdict] = counts.get(verdict, 0) + 1
            if verdict == "accepted" and b".include" in data:
                counts["accepted, with .include"] = counts.get("accepted, with .include", 0) + 1
            if verdict == "accepted":
                expected = reference.read(path)
                c.check(expected == ours, "the tool accepted a text it reads unlike libcrypto",
                        f"text {data!r}\n     tool {ours!r}\n     libcrypto {expected!r}")
            done += 1
    print(f"{done} texts: " + ", ".join(f"{n} {v}" for v, n in sorted(counts.items())))
    accepted = counts.get("accepted", 0)
    c.check(accepted >= done // 10 and counts.get("refused by the reader", 0) >= done // 10,
            "the generator reaches both outcomes (>= 10% of the texts accepted, >= 10% refused)",
            repr(counts))
    c.check(counts.get("accepted, with .include", 0) >= accepted // 10,
            "texts with .include lines are among the accepted ones (>= 10%)", repr(counts))
    c.exit()


if __name__ == "__main__":
    main()
