#!/bin/sh
# Tests the installed blake2simd module, as a packager runs it after installing (autopkgtest, an
# RPM's %check against the buildroot) or a user checking their system: the known answers, the EVP
# behaviour and the CLI tests (CTest label "installed", tests/installed.cmake) against the module
# in MODULE_DIR, offline and as a normal user. Without MODULE_DIR: the directory
# `pkg-config --variable=modulesdir libcrypto` names, else the MODULESDIR of `openssl version -m`
# (an installed system often lacks the -dev package that has the .pc file).
# blake2simd-sum: $B2_SUM, else the one on PATH; its tests run when it loads that same directory
# (it loads the directory it was installed for; a buildroot's copy does not), else say why not.
# The test programs come from a build tree of this source: $B2_BUILD_DIR (default build/), built
# first (tests only, no benchmark) when it has no tests yet.
# usage: tools/test-installed.sh [MODULE_DIR | MODULE_FILE]
# SPDX-License-Identifier: Apache-2.0
set -eu
cd "$(dirname "$0")/.."
say() { echo "test-installed: $*"; }

modules_dir() {
    if [ -n "${1:-}" ]; then
        if [ -f "$1" ]; then dirname "$1"; else echo "$1"; fi
    elif dir=$(pkg-config --variable=modulesdir libcrypto 2>/dev/null) && [ -n "$dir" ]; then
        echo "$dir"
    else
        openssl version -m | sed -n 's/^MODULESDIR: "\(.*\)"$/\1/p'
    fi
}

same_directory() {
    [ "$(stat -L -c %d:%i "$1" 2>/dev/null)" = "$(stat -L -c %d:%i "$2" 2>/dev/null || echo none)" ]
}

dir=$(modules_dir "${1:-}")
if [ -z "$dir" ] || [ ! -f "$dir/blake2simd.so" ]; then
    say "no blake2simd.so in '${dir:-?}' (give the module's directory: $0 DIR)" >&2
    exit 2
fi
dir=$(cd "$dir" && pwd -P)
say "module $dir/blake2simd.so"

system_dir=$(modules_dir "")
sum="${B2_SUM:-$(command -v blake2simd-sum || true)}"
if [ -n "$sum" ] && same_directory "$dir" "$system_dir"; then
    say "blake2simd-sum $sum"
else
    # An empty B2_SUM means the build tree's program: those tests are left out below.
    say "blake2simd-sum not tested: ${sum:-none on PATH}; it loads OpenSSL's module directory" \
        "$system_dir, not $dir"
    sum=""
fi

tree="${B2_BUILD_DIR:-build}"
if [ ! -f "$tree/tests/CTestTestfile.cmake" ]; then
    say "building the test programs in $tree"
    cmake -S . -B "$tree" -DB2_BUILD_BENCH=OFF
    cmake --build "$tree" -j "$(nproc)"
fi
exclude='^$'
[ -n "$sum" ] || exclude='^sum\.'
B2_MODULE_DIR="$dir" B2_SUM="$sum" ctest --test-dir "$tree" -L '^installed$' -E "$exclude" \
    --output-on-failure -j "${B2_TEST_JOBS:-2}"
