#!/bin/sh
# blake2simd_bench --kdf on the cores that have copyctx: OpenSSL 3.5 (the Debian 13 root CI
# caches, tools/ci/debian-root.sh) and OpenSSL 4.0 (the tree tools/ci/openssl-core.sh builds).
# The module of BUILD (and, with COMPARED, another build's module, say main's) beside the default
# provider, in one run per core.
# usage: bench/kdf_cores.sh BUILD BUILD40 [COMPARED_MODULE_DIR] [bench flags...]
#   BUILD: a build against the system's OpenSSL 3.0 (its bench runs in the 3.5 root, its module
#   is the one measured on both cores); BUILD40: a build against the 4.0 tree (its bench).
# Run as root (the 3.5 run chroots into a private mount namespace; the cached root is not
# changed). Environment: B2_CI_CACHE (default /var/cache/blake2simd-ci).
# SPDX-License-Identifier: Apache-2.0
# shellcheck disable=SC2016 # the 3.5 run's commands expand inside its own namespace
set -eu
build=$(cd "$1" && pwd)
build40=$(cd "$2" && pwd)
shift 2
compared=
if [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; then
    compared=$(cd "$1" && pwd)
    shift
fi
cache=${B2_CI_CACHE:-/var/cache/blake2simd-ci}
for tree in "$cache"/openssl-4.0/src/openssl-4.*/; do break; done
root=$cache/roots/trixie

echo "=== OpenSSL 4.0 ($tree)"
LD_LIBRARY_PATH=$tree "$build40/bench/blake2simd_bench" --kdf --module-dir "$build/ossl-modules" \
    ${compared:+--compare-module "$compared"} "$@"

echo "=== OpenSSL 3.5 (Debian 13 root $root)"
B2_ROOT=$root B2_BUILD=$build B2_COMPARED=$compared unshare -m --propagation private sh -eu -c '
    mount -t tmpfs tmpfs "$B2_ROOT/mnt"
    mkdir "$B2_ROOT/mnt/build" "$B2_ROOT/mnt/compared"
    mount --bind -o ro "$B2_BUILD" "$B2_ROOT/mnt/build"
    [ -z "$B2_COMPARED" ] || mount --bind -o ro "$B2_COMPARED" "$B2_ROOT/mnt/compared"
    mount -t proc proc "$B2_ROOT/proc"
    # The bench links libsodium and libb2 when the host has them; the root has neither: the
    # host copies of what the root lacks, on the tmpfs (libcrypto stays the root'"'"'s 3.5).
    mkdir "$B2_ROOT/mnt/libs"
    ldd "$B2_BUILD/bench/blake2simd_bench" | awk "/=> \// {print \$1, \$3}" |
        while read -r name path; do
            [ -e "$B2_ROOT/usr/lib/x86_64-linux-gnu/$name" ] || cp "$path" "$B2_ROOT/mnt/libs/"
        done
    LD_LIBRARY_PATH=/mnt/libs exec chroot "$B2_ROOT" /mnt/build/bench/blake2simd_bench --kdf \
        --module-dir /mnt/build/ossl-modules ${B2_COMPARED:+--compare-module /mnt/compared} "$@"
' sh "$@"
