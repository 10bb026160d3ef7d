#!/bin/sh
# One-command setup for Debian 12 and 13: install what is missing, build, then either hash a file
# through `openssl dgst` with this provider (demo) or run the whole test suite (test).
# usage: tools/quickstart.sh demo [FILE] | test
# SPDX-License-Identifier: Apache-2.0
set -eu
cd "$(dirname "$0")/.."

BUILD_PACKAGES="g++ make cmake pkg-config libssl-dev openssl python3"
# Versionless names (Debian's default clang: 14 on Debian 12, 19 on 13), so one list serves both.
TEST_PACKAGES="qemu-user valgrind clang libclang-rt-dev clang-format dpkg-dev file"

install_missing() {
    missing=""
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" ||
            missing="$missing $package"
    done
    [ -z "$missing" ] && return 0
    echo "quickstart: installing$missing"
    as_root=""
    [ "$(id -u)" -eq 0 ] || as_root="sudo"
    $as_root apt-get update -q
    DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -q --no-install-recommends $missing
}

build() {
    cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX=/usr
    cmake --build build -j "$(nproc)"
}

case "${1:-}" in
demo)
    install_missing $BUILD_PACKAGES
    build
    file="${2:-README.md}"
    modules="build/ossl-modules"
    openssl dgst -provider-path "$modules" -provider blake2simd -propquery provider=blake2simd \
        -blake2b512 "$file"
    openssl list -providers -verbose -provider-path "$modules" -provider blake2simd |
        sed -n 's/^ *build info: /computed by: /p'
    ;;
test)
    install_missing $BUILD_PACKAGES $TEST_PACKAGES
    build
    ctest --test-dir build --output-on-failure -j 2
    # Sanitizer, thread-sanitizer, valgrind and fuzzing jobs (tests/hardening/README.md).
    sh tools/ci-hardening.sh
    ;;
*)
    echo "usage: $0 demo [FILE] | test" >&2
    exit 2
    ;;
esac
