#!/bin/sh
# One-command setup for Debian 12 and 13: install what is missing, build, then either hash a file
# through `openssl dgst` with this provider (demo: builds the module alone), run the whole test
# suite (test), or build the Debian package into build/ (deb; checked with lintian where lintian is
# installed, as `test` installs it: the package build itself needs no linter on your machine).
# usage: tools/quickstart.sh demo [FILE] | test | deb
# SPDX-License-Identifier: Apache-2.0
# shellcheck disable=SC2086 # the package lists and B2_HARDENING_JOBS are word lists
set -eu
cd "$(dirname "$0")/.."
log_prefix=quickstart
# shellcheck source=tools/common.sh
. tools/common.sh

BUILD_PACKAGES="g++ make cmake pkg-config libssl-dev openssl python3"
# Versionless names (Debian's default clang: 14 on Debian 12, 19 on 13), so one list serves both.
# debootstrap, lintian and perl (pod2man) let the system tests check the .deb in scratch roots;
# libargon2-dev and libsodium-dev are the Argon2 tests' reference implementations; libb2-dev is
# the independent BLAKE2bp/BLAKE2sp of every size (blake2bp.sizes; the CI jobs on Debian 12 and 13
# install through this list too).
TEST_PACKAGES="qemu-user valgrind clang libclang-rt-dev clang-format dpkg-dev file debootstrap lintian perl libargon2-dev libsodium-dev libb2-dev"
DEB_PACKAGES="dpkg-dev perl"

# build [--target TARGET]: the main build tree, the same configuration for demo and test.
build() {
    cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX=/usr -DB2_WERROR=ON
    cmake --build build -j "$(nproc)" "$@"
}

case "${1:-}" in
demo)
    install_missing $BUILD_PACKAGES
    build --target blake2simd
    file="${2:-README.md}"
    modules="build/ossl-modules"
    openssl dgst -provider-path "$modules" -provider blake2simd -propquery provider=blake2simd \
        -blake2b512 "$file"
    openssl list -providers -verbose -provider-path "$modules" -provider blake2simd |
        sed -n "s/^ *build info: \\(blake2simd .*\\)/computed by: \\1/p"
    ;;
test)
    install_missing $BUILD_PACKAGES $TEST_PACKAGES
    build
    ctest --test-dir build --output-on-failure -j 2
    # Sanitizer, thread-sanitizer, valgrind and fuzzing jobs (tests/hardening/README.md);
    # B2_HARDENING_JOBS picks some of them (CI's second distribution runs a subset).
    sh tools/ci-hardening.sh ${B2_HARDENING_JOBS:-all}
    ;;
deb)
    # Release build of its own (no tests, no benchmark), so `test` keeps its configuration.
    install_missing $BUILD_PACKAGES $DEB_PACKAGES
    tree=build/release-deb
    cmake -S . -B "$tree" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
        -DBUILD_TESTING=OFF -DB2_BUILD_BENCH=OFF -DB2_REQUIRE_MAN_PAGES=ON
    cmake --build "$tree" -j "$(nproc)"
    rm -f "$tree"/blake2simd_*.deb
    (cd "$tree" && cpack -G DEB)
    for deb in "$tree"/blake2simd_*.deb; do
        cp "$deb" build/
        deb="build/$(basename "$deb")"
        if command -v lintian >/dev/null; then
            lintian --fail-on error "$deb"
            echo "quickstart: built $deb (lintian: no errors)"
        else
            echo "quickstart: built $deb (lintian not installed, not run; the test suite runs it)"
        fi
    done
    ;;
*)
    echo "usage: $0 demo [FILE] | test | deb" >&2
    exit 2
    ;;
esac
