#!/bin/sh
# The one pristine minimal Debian root of a suite that every CI job and system test copies from
# (ci-cross's Debian 12 root, the Debian 13 job, tests/system_root.py): made once by debootstrap
# under B2_CI_CACHE/roots/SUITE, never changed after, and checked before each use. A root that a
# killed run left half-made, or one that fails the check, is made again: the cache only saves time.
# usage: tools/ci/debian-root.sh SUITE      (root; prints the root's path as its only stdout line)
# SPDX-License-Identifier: Apache-2.0
set -eu
suite=$1
here=$(cd "$(dirname "$0")" && pwd)
roots=${B2_CI_CACHE:-/var/cache/blake2simd-ci}/roots
root=$roots/$suite
mkdir -p "$roots"
exec 8>"$roots/.lock-$suite"
flock 8

sound() {
    [ -f "$root/.b2-root-ok" ] && [ -x "$root/usr/bin/apt-get" ] && [ -x "$root/bin/sh" ] &&
        grep -q "^VERSION_CODENAME=$suite\$" "$root/etc/os-release" 2>/dev/null
}

if ! sound; then
    command -v debootstrap >/dev/null || {
        apt-get update -q >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends debootstrap >/dev/null
    }
    mirror=$(sh "$here/debian-mirror.sh")
    rm -rf --one-file-system "$root" "$roots/.new-$suite"
    log=$roots/debootstrap-$suite.log
    echo "debian-root: making the $suite root from $mirror (once per machine; log $log)" >&2
    started=$(date +%s)
    debootstrap --variant=minbase "$suite" "$roots/.new-$suite" "$mirror" >"$log" 2>&1 || {
        tail -n 20 "$log" >&2
        echo "debian-root: debootstrap $suite failed (log $log)" >&2
        exit 1
    }
    touch "$roots/.new-$suite/.b2-root-ok"
    mv "$roots/.new-$suite" "$root"
    echo "debian-root: made $root in $(($(date +%s) - started)) s" >&2
fi
echo "$root"
