# Shared helpers of the system tests: run tools under a given openssl.cnf, parse their output.
# SPDX-License-Identifier: Apache-2.0
import os
import re
import subprocess

from b2check import SKIP, Tally, digest_hex, skip  # noqa: F401 (the system tests' imports)


def skip_if_sanitized(args):
    if args.sanitized_module:
        skip("the module is built with a sanitizer; openssl and python cannot load it")


def clean_env(conf):
    """Environment of a program under test: only `conf` decides what gets loaded."""
    env = dict(os.environ)
    for name in ("OPENSSL_MODULES", "OPENSSL_CONF_INCLUDE", "OPENSSL_ENGINES"):
        env.pop(name, None)
    env["OPENSSL_CONF"] = str(conf)
    return env


def run(cmd, conf, stdin=None):
    return subprocess.run([str(c) for c in cmd], env=clean_env(conf), input=stdin,
                          capture_output=True, text=True, timeout=60)


def describe(result):
    stdout, stderr = result.stdout.strip(), result.stderr.strip()[:600]
    return f"rc={result.returncode} stdout={stdout!r} stderr={stderr!r}"


def providers(openssl, conf):
    """{name: status} from `openssl list -providers`; status is 'active' for a working provider."""
    result = run([openssl, "list", "-providers"], conf)
    found = {}
    current = None
    for line in result.stdout.splitlines():
        if re.fullmatch(r"  \S+", line):
            current = line.strip()
            found[current] = "?"
        elif current and line.strip().startswith("status:"):
            found[current] = line.split(":", 1)[1].strip()
    return found


def cnf_value(text):
    return text.replace("\\", "/")


def provider_config(module, providers_to_activate, default_properties=None, kernel=None):
    """A minimal openssl.cnf activating the named providers (in that order). `module` is the
    blake2simd.so to load; the built-in providers need no module line."""
    lines = ["openssl_conf = openssl_init", "config_diagnostics = 1", "", "[openssl_init]",
             "providers = provider_sect"]
    if default_properties is not None:
        lines.append("alg_section = algorithm_sect")
    lines += ["", "[provider_sect]"]
    lines += [f"{name} = {name}_sect" for name in providers_to_activate]
    for name in providers_to_activate:
        lines += ["", f"[{name}_sect]", "activate = 1"]
        if name == "blake2simd":
            lines.append(f"module = {cnf_value(module)}")
            if kernel:
                lines.append(f"kernel = {kernel}")
    if default_properties is not None:
        lines += ["", "[algorithm_sect]", f"default_properties = {default_properties}"]
    return "\n".join(lines) + "\n"


def write(path, text):
    with open(path, "w", encoding="utf-8") as out:
        out.write(text)
    return path
