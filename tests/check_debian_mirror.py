#!/usr/bin/env python3
# tools/ci/debian-mirror.sh against scratch apt configurations in both formats (deb822 .sources,
# one-line .list), and no Debian mirror host spelled anywhere in the project: the jobs that make
# roots or fetch sources use the host's own mirror or fail saying so.
# usage: check_debian_mirror.py SOURCE_DIR
# SPDX-License-Identifier: Apache-2.0
import os
import pathlib
import subprocess
import sys
import tempfile

from b2check import Tally, tree_files

SOURCE = pathlib.Path(sys.argv[1])
SCRIPT = SOURCE / "tools/ci/debian-mirror.sh"
SECURITY = "Types: deb\nURIs: http://sec.example/debian-security\nSuites: bookworm-security\n"
MAIN = "Types: deb\nURIs: http://main.example/debian/\nSuites: bookworm bookworm-updates\n"

# (what, files under etc/apt, codename, expected mirror or None for a refusal)
CASES = [
    ("deb822: the release's entry, not -security", {"sources.list.d/debian.sources":
     SECURITY + "\n" + MAIN}, "bookworm", "http://main.example/debian"),
    ("deb822: fields in any order, URIs continued on the next line", {"sources.list.d/a.sources":
     "Suites: trixie\nURIs:\n http://cont.example/debian\nTypes: deb-src deb\n"},
     "trixie", "http://cont.example/debian"),
    ("deb822: Enabled: no is passed over", {"sources.list.d/a.sources":
     "Enabled: no\n" + MAIN + "\nTypes: deb\nURIs: http://on.example/d\nSuites: bookworm\n"},
     "bookworm", "http://on.example/d"),
    ("deb822: deb-src alone is no mirror for packages", {"sources.list.d/a.sources":
     "Types: deb-src\nURIs: http://src.example/debian\nSuites: bookworm\n"}, "bookworm", None),
    ("one-line sources.list with options", {"sources.list":
     "# comment\ndeb [arch=amd64 signed-by=/k.gpg] http://one.example/debian bookworm main\n"},
     "bookworm", "http://one.example/debian"),
    ("one-line .list in sources.list.d", {"sources.list.d/x.list":
     "deb http://vendor.example/apt cloud-sdk-bookworm main\n"
     "deb http://list.example/debian bookworm main contrib\n"}, "bookworm",
     "http://list.example/debian"),
    ("a vendor's repository only", {"sources.list":
     "deb http://vendor.example/apt cloud-sdk-bookworm main\n"}, "bookworm", None),
    ("no sources at all", {}, "bookworm", None),
    ("another release's entry only", {"sources.list.d/debian.sources": MAIN}, "trixie", None),
]


def run(etc, codename, extra=None):
    os_release = etc.parent / "os-release"
    os_release.write_text(f'NAME="Debian GNU/Linux"\nVERSION_CODENAME={codename}\n')
    env = dict(os.environ, B2_APT_ETC=str(etc), B2_OS_RELEASE=str(os_release))
    env.pop("B2_DEBIAN_MIRROR", None)
    env.update(extra or {})
    return subprocess.run(["sh", str(SCRIPT)], capture_output=True, text=True, env=env)


def check_case(c, what, files, codename, expected):
    with tempfile.TemporaryDirectory() as tmp:
        etc = pathlib.Path(tmp) / "apt"
        (etc / "sources.list.d").mkdir(parents=True)
        for name, text in files.items():
            (etc / name).write_text(text)
        result = run(etc, codename)
        if expected is None:
            c.check(result.returncode != 0 and result.stdout == ""
                    and "B2_DEBIAN_MIRROR" in result.stderr, f"{what}: refused with a reason")
        else:
            c.check(result.returncode == 0 and result.stdout.strip() == expected,
                    f"{what}: {expected} (got {result.stdout.strip()!r})")
        override = run(etc, codename, {"B2_DEBIAN_MIRROR": "http://set.example/debian"})
        c.check(override.stdout.strip() == "http://set.example/debian",
                f"{what}: B2_DEBIAN_MIRROR wins")


def project_files():
    """The tracked files, or (no git, as in a minimal Debian root) every file but build trees."""
    try:
        tracked = subprocess.run(["git", "-C", str(SOURCE), "ls-files", "-z"],
                                 capture_output=True)
        if tracked.returncode == 0:
            return tracked.stdout.decode().split("\0")
    except OSError:
        pass
    return [str(name) for name in tree_files(SOURCE)]


def check_no_host_spelled(c):
    hosts = ["deb." + "debian.org", "ftp." + "debian.org", "http." + "debian.net",
             "snapshot." + "debian.org"]
    spelled = []
    for name in project_files():
        path = SOURCE / name
        if name and path.is_file():
            text = path.read_bytes().decode("utf-8", "replace")
            spelled += [f"{name}: {h}" for h in hosts if h in text]
    c.check(not spelled, "no Debian mirror host spelled in the project: " + "; ".join(spelled))


def main():
    c = Tally("debian_mirror")
    for case in CASES:
        check_case(c, *case)
    check_no_host_spelled(c)
    host = subprocess.run(["sh", str(SCRIPT)], capture_output=True, text=True)
    print(f"note: this host's mirror: {host.stdout.strip() or host.stderr.strip()}")
    c.exit()


if __name__ == "__main__":
    main()
