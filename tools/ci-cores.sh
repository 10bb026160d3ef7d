#!/bin/sh
# CI jobs on other OpenSSL cores and distributions (docs/openssl-versions.md):
#   debian13   Debian 13 root (OpenSSL 3.5, g++ 14, clang 19): quick start + whole suite, build matrix
#   openssl40  OpenSSL 4.0 from Debian's experimental source, our 3.0-built module loaded into it,
#              provider and CLI tests built against 4.0
#   hidden     the same 4.0 core with libcrypto.so.3 hidden: KAT and CLI checks
#   evp_test   OpenSSL 4.0's own test/evp_test with our module
#   core40     only fetch and build the 4.0 tree the three jobs above use (they build it if absent)
# usage: tools/ci-cores.sh [all|core40|debian13|openssl40|hidden|evp_test]...   (default: all; root)
# The module comes from the main build (B2_MAIN_BUILD, default build: tools/quickstart.sh test
# makes it; built here if absent). Caches (Debian root, OpenSSL tree) live outside the clone, under
# B2_CI_CACHE (default /var/cache/blake2simd-ci). Prints each job's wall time and a summary line.
# SPDX-License-Identifier: Apache-2.0
set -eu
cd "$(dirname "$0")/.."
main_build=${B2_MAIN_BUILD:-build}
cache=${B2_CI_CACHE:-/var/cache/blake2simd-ci}
export B2_CI_CACHE="$cache"
started=$(date +%s)
summary=""
log_prefix=ci-cores
# shellcheck source=tools/common.sh
. tools/common.sh

# Prints the module's path (and nothing else) on stdout.
module() {
    if [ ! -f "$main_build/ossl-modules/blake2simd.so" ]; then
        cmake -S . -B "$main_build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >&2
        cmake --build "$main_build" -j 2 --target blake2simd >&2
    fi
    echo "$main_build/ossl-modules/blake2simd.so"
}

# Built once per machine (the first run takes several minutes), then reused.
openssl40_tree() {
    [ -n "${tree:-}" ] || tree=$(sh tools/ci/openssl-core.sh experimental "$cache/openssl-4.0")
}

job_debian13() { sh tools/ci/debian13.sh; }
job_openssl40() { openssl40_tree && sh tools/ci/openssl40.sh suite "$tree" "$(module)"; }
job_hidden() { openssl40_tree && sh tools/ci/openssl40.sh hidden "$tree" "$(module)"; }
job_evp_test() { openssl40_tree && sh tools/ci/evp-test.sh "$tree" "$(module)"; }

[ $# -gt 0 ] || set -- all
for job in "$@"; do
    case "$job" in
    all)
        timed openssl40-core-build openssl40_tree
        timed openssl40 job_openssl40
        timed hidden job_hidden
        timed evp_test job_evp_test
        timed debian13 job_debian13
        ;;
    core40) timed openssl40-core-build openssl40_tree ;;
    debian13 | openssl40 | hidden | evp_test) timed "$job" "job_$job" ;;
    *)
        echo "usage: $0 [all|core40|debian13|openssl40|hidden|evp_test]..." >&2
        exit 2
        ;;
    esac
done
echo "ci-cores: all passed in $(($(date +%s) - started))s;$summary"
