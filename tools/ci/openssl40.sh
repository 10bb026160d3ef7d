#!/bin/sh
# OpenSSL 4.0 core jobs: the module built against the system's 3.0 (MODULE) loaded by an OpenSSL
# 4.0 built from Debian's source (TREE, from tools/ci/openssl-core.sh).
#   suite:  the test programs are built against TREE (OPENSSL_ROOT_DIR) in BUILD; the EVP, KAT,
#           semantics, bad-input and other provider tests and the CLI tests run with MODULE.
#   hidden: the same KAT and CLI checks with libcrypto.so.3 hidden in a private mount namespace
#           (bind-mounted over by an empty file), where only OpenSSL 4.0's libcrypto.so.4 exists.
# usage: tools/ci/openssl40.sh suite|hidden TREE MODULE [BUILD]   (BUILD default build-openssl-4.0)
# SPDX-License-Identifier: Apache-2.0
# shellcheck disable=SC2016 # the hidden checks expand inside their own namespace
set -eu
cd "$(dirname "$0")/../.."
job=$1
tree=$(cd "$2" && pwd)
module=$(cd "$(dirname "$3")" && pwd)/$(basename "$3")
build=${4:-build-openssl-4.0}
modules=$build/ossl-modules
tests_selected="-L ^(provider|cli)$ -E ^(provider\.module_dependencies|style\.clang_format)$"

# The 4.0 CLI (apps/openssl) has no run path of its own: it finds libcrypto.so.4 through this.
PATH=$tree/apps:$PATH
LD_LIBRARY_PATH=$tree${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH LD_LIBRARY_PATH

job_suite() {
    cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOPENSSL_ROOT_DIR="$tree" >/dev/null
    crypto=$(sed -n 's/^OPENSSL_CRYPTO_LIBRARY:FILEPATH=//p' "$build/CMakeCache.txt")
    case "$crypto" in
    "$tree"/*) ;;
    *)
        echo "openssl40: cmake found $crypto, not the 4.0 tree's libcrypto" >&2
        exit 1
        ;;
    esac
    # Everything builds against 4.0 (the tests, the benchmark, and a module that is not used).
    cmake --build "$build" -j 2
    # Only the module comes from the 3.0 build: the one built here against 4.0 is replaced.
    cp "$module" "$modules/blake2simd.so"
    echo "openssl40: $(openssl version) ($(command -v openssl)); tests link $(ldd "$build/tests/test_kat" |
        awk '/libcrypto/{print $3}'); module $module"
    # shellcheck disable=SC2086
    ctest --test-dir "$build" --output-on-failure -j 2 $tests_selected
}

# ctest and cmake themselves link libcrypto.so.3 (through libcurl), so the checks run directly.
job_hidden() {
    [ -x "$build/tests/test_kat" ] || {
        echo "openssl40: run the suite job first ($build/tests/test_kat is missing)" >&2
        exit 1
    }
    cp "$module" "$modules/blake2simd.so"
    system_crypto=$(ldconfig -p | awk '$1 == "libcrypto.so.3" && /x86-64/ {print $NF; exit}')
    [ -n "$system_crypto" ] && system_crypto=$(readlink -f "$system_crypto")
    B2_HIDE="$system_crypto" B2_BUILD="$build" B2_MODULE="$module" \
        unshare -m --propagation private sh -eu -c '
        if [ -n "$B2_HIDE" ]; then
            empty=$(mktemp)
            mount --bind "$empty" "$B2_HIDE"
            echo "hidden: $B2_HIDE is now an empty file ($(stat -c %s "$B2_HIDE") bytes)"
        fi
        if python3 -c "import ctypes; ctypes.CDLL(\"libcrypto.so.3\")" 2>/dev/null; then
            echo "hidden: libcrypto.so.3 still loads" >&2
            exit 1
        fi
        echo "hidden: dlopen(libcrypto.so.3) fails; the core is $(openssl version)"
        echo "hidden: the module needs: $(readelf -d "$B2_MODULE" | sed -n "s/.*Shared library: \[\(.*\)\]/\1/p" | tr "\n" " ")"
        openssl list -providers -verbose -provider-path "$B2_BUILD/ossl-modules" -provider blake2simd
        printf abc | openssl dgst -provider-path "$B2_BUILD/ossl-modules" -provider blake2simd \
            -propquery provider=blake2simd -blake2b512
        "$B2_BUILD/tests/test_kat"
        "$B2_BUILD/tests/test_blake2bp"
        python3 tests/cli_smoke.py "$B2_BUILD/ossl-modules"
        python3 tests/blake2bp_cli.py "$B2_BUILD/ossl-modules" vectors
    '
}

case "$job" in
suite | hidden) "job_$job" ;;
*)
    echo "usage: $0 suite|hidden TREE MODULE [BUILD]" >&2
    exit 2
    ;;
esac
