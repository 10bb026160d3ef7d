#!/bin/sh
# Fetch an OpenSSL source package of one Debian suite and build, in its own tree, what the core jobs
# need: libcrypto (and libssl, which apps/openssl links), apps/openssl and test/evp_test. Built once per
# machine: the tree is kept under CACHE and reused while its stamp names the same version.
# usage: tools/ci/openssl-core.sh SUITE CACHE   (e.g. experimental /var/cache/blake2simd-ci/openssl-4.0)
# Prints the tree's path as its last line. A tree that a killed run left unbuilt is fetched and built again. Mirrors can lag their own index, so the versions the index
# lists are tried newest first and the first one that downloads is used.
# SPDX-License-Identifier: Apache-2.0
# shellcheck disable=SC2086 # apt_options and missing are word lists
set -eu
suite=$1
cache=$2
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9

for tool in dpkg-source:dpkg-dev make:make gcc:gcc perl:perl; do
    command -v "${tool%%:*}" >/dev/null || missing="${missing:-} ${tool#*:}"
done
if [ -n "${missing:-}" ]; then
    apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing >/dev/null
fi

# A private apt configuration: the host's sources stay as they are.
mirror=$(sh "$(dirname "$0")/debian-mirror.sh")
apt_dir=$cache/apt
mkdir -p "$apt_dir/lists/partial" "$apt_dir/archives/partial"
echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main" \
    >"$apt_dir/sources.list"
apt_options="-o Dir::Etc::SourceList=$apt_dir/sources.list -o Dir::Etc::SourceParts=/nonexistent
    -o Dir::State::Lists=$apt_dir/lists -o Dir::Cache=$apt_dir -o Dir::Cache::archives=$apt_dir/archives"

# A tree counts as built only with its stamp (written last) and the programs the jobs run, and
# its openssl must run on its own libraries (a stamp outlives a library truncated since).
built() {
    [ -f "$1/.blake2simd-built" ] && [ -x "$1/test/evp_test" ] &&
        LD_LIBRARY_PATH="$1" "$1/apps/openssl" version >/dev/null 2>&1
}

if [ -f "$cache/tree" ] && built "$(cat "$cache/tree")"; then
    tree=$(cat "$cache/tree")
    echo "openssl-core: cached $(cat "$cache/version") from Debian $suite in $tree" >&2
    echo "$tree"
    exit 0
fi

apt-get $apt_options update -q >/dev/null
versions=$(apt-cache $apt_options showsrc openssl | sed -n 's/^Version: //p' | sort -r -V)
[ -n "$versions" ] || { echo "openssl-core: no openssl source in Debian $suite" >&2; exit 1; }
used=""
for version in $versions; do
    rm -rf "$cache/src"
    mkdir -p "$cache/src"
    if (cd "$cache/src" && apt-get $apt_options source -q openssl="$version" >"$cache/fetch.log" 2>&1); then
        used=$version
        break
    fi
    echo "openssl-core: openssl $version is in the $suite index but does not download; trying older" >&2
done
[ -n "$used" ] || { echo "openssl-core: no listed version downloads (see $cache/fetch.log)" >&2; exit 1; }
tree=$(find "$cache/src" -mindepth 1 -maxdepth 1 -type d -name 'openssl-*' | head -n 1)
echo "openssl-core: using openssl $used from Debian $suite" >&2

cd "$tree"
# Debian's patches are applied by apt-get source; the build is upstream's, shared, in the tree itself.
./Configure shared no-docs --prefix=/nonexistent --libdir=lib >"$cache/configure.log" 2>&1
make -j2 build_generated >"$cache/build.log" 2>&1
make -j2 libcrypto.so libssl.so apps/openssl test/evp_test >>"$cache/build.log" 2>&1
echo "$used" >"$cache/version"
echo "$tree" >"$cache/tree"
touch "$tree/.blake2simd-built"
echo "$tree"
