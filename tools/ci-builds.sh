#!/bin/sh
# CI job: every build type with both Debian 12 compilers, and a packager's build.
#   g++ 12:    Release build + whole suite but the labels system and qemu, Debug build + suite
#              but system and the EVP x CPU-model matrix under qemu, MinSizeRel build + smoke suite
#              (RelWithDebInfo + whole suite is the main job, tools/quickstart.sh test)
#   clang 14:  Release build + whole suite but the label system, Debug, RelWithDebInfo and
#              MinSizeRel build + smoke suite (the whole suite but the labels qemu, slow, system)
#   packager:  g++ with dpkg-buildflags (hardening=+all), CMAKE_BUILD_TYPE=None, the suite but
#              the qemu CPU models and the 4 GiB run
#   rpm:       dist/blake2simd.spec built with Debian's rpm (tools/ci/rpm.sh): the source tarball
#              prepared, the checkout built with %check running the label installed, the files
#              against the packager build's (the .deb's), rpmlint; after packager
# Every build has B2_WERROR=ON and quickstart's /usr prefix (the .deb test needs it). Build trees
# and a ccache live in B2_CI_CACHE/builds/ (default /var/cache/blake2simd-ci), so a warm run
# recompiles only what changed.
#
# usage: tools/ci-builds.sh [NAME ...]    NAME: gcc-release gcc-debug gcc-minsizerel
#        clang-release clang-debug clang-relwithdebinfo clang-minsizerel packager rpm (default: all)
# Prints a table (build, seconds to build, seconds to test, tests passed/skipped/total) and a
# one-line summary with the duration; exits non-zero if any build or test fails.
# SPDX-License-Identifier: Apache-2.0
set -eu
start_time=$(date +%s)
cd "$(dirname "$0")/.."
source_dir=$(pwd)
log_prefix=ci-builds
# shellcheck source=tools/common.sh
. tools/common.sh
cache=${B2_CI_CACHE:-/var/cache/blake2simd-ci}/builds
jobs=2

install_missing g++ clang make cmake libssl-dev openssl python3 qemu-user dpkg-dev ccache file

mkdir -p "$cache"
# Same ccache for every clone: paths below the source tree hash relative to it, and the
# prefix map (which names the clone) is left out of the hash: it only makes __FILE__ relative.
export CCACHE_DIR="$cache/ccache" CCACHE_BASEDIR="$source_dir" CCACHE_NOHASHDIR=1
export CCACHE_IGNOREOPTIONS="-fmacro-prefix-map=*"
ccache --max-size=2G >/dev/null

names=${*:-gcc-release gcc-debug gcc-minsizerel clang-release clang-debug clang-relwithdebinfo \
clang-minsizerel packager rpm}
table="$cache/table.txt"
: >"$table"
failed=""

# configure_and_build [cmake args...]: the tree $dir for $type with $cc/$cxx, through ccache.
configure_and_build() {
    cmake -S "$source_dir" -B "$dir" -DCMAKE_BUILD_TYPE="$type" -DB2_WERROR=ON \
        -DCMAKE_INSTALL_PREFIX=/usr -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
        -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache "$@" &&
        cmake --build "$dir" -j "$jobs"
}

# run_build NAME C CXX BUILD_TYPE TEST(yes|smoke|no) [cmake args...]; a whole suite gets $ctest_args.
ctest_args=""
run_build() {
    name=$1 cc=$2 cxx=$3 type=$4 test=$5
    shift 5
    dir="$cache/$name"
    log="$cache/$name.log"
    # A tree configured from another clone (or another compiler) is not reused.
    if [ -f "$dir/CMakeCache.txt" ] &&
        ! grep -qx "CMAKE_HOME_DIRECTORY:INTERNAL=$source_dir" "$dir/CMakeCache.txt"; then
        rm -rf "$dir"
    fi
    t0=$(date +%s)
    reused=no
    [ -f "$dir/CMakeCache.txt" ] && reused=yes
    # A reused tree that fails (a run killed midway can leave a truncated object behind) is
    # built once more from nothing, so a broken cache costs time, never the verdict.
    if ! configure_and_build "$@" >"$log" 2>&1 &&
        ! { [ "$reused" = yes ] && echo "ci-builds: $name: the reused tree failed; building it anew" &&
            rm -rf "$dir" && configure_and_build "$@" >"$log" 2>&1; }; then
        tail -n 40 "$log"
        echo "ci-builds: $name: BUILD FAILED (log: $log)"
        printf '%-22s %-14s %6s %6s  %s\n' "$name" "$type" "$(($(date +%s) - t0))" - \
            "build failed" >>"$table"
        failed="$failed $name"
        return 0
    fi
    t1=$(date +%s)
    result="build only"
    # smoke: the suite but the CPU models under emulation, the 4 GiB streams and the system tests,
    # which other builds run; a build type's own miscompilation shows in what is left.
    selection=$ctest_args
    [ "$test" = smoke ] && selection="-LE ^(qemu|slow|system)\$"
    if [ "$test" != no ]; then
        # shellcheck disable=SC2086
        if ctest --test-dir "$dir" -j "$jobs" --output-on-failure $selection >>"$log" 2>&1; then
            status=passed
        else
            status=FAILED
            failed="$failed $name"
            sed -n '/The following tests FAILED/,$p' "$log" | head -n 30
        fi
        total=$(sed -n 's/.*tests failed out of \([0-9]*\)$/\1/p' "$log" | tail -n 1)
        bad=$(sed -n 's/.* tests passed, \([0-9]*\) tests failed out of.*/\1/p' "$log" | tail -n 1)
        skipped=$(grep -c '\*\*\*Skipped' "$log" || true)
        result="$status: $((total - bad - skipped)) passed, $skipped skipped, $bad failed, of $total"
    fi
    printf '%-22s %-14s %6s %6s  %s\n' "$name" "$type" "$((t1 - t0))" "$(($(date +%s) - t1))" \
        "$result" >>"$table"
    echo "ci-builds: $name ($type): $result (log: $log)"
}

# A Debian package build: dpkg-buildflags with every hardening feature, CPPFLAGS folded into the
# compile flags as debhelper's cmake step does, build type None (the flags alone decide).
packager_build() {
    export DEB_BUILD_MAINT_OPTIONS=hardening=+all
    cppflags=$(dpkg-buildflags --get CPPFLAGS)
    cflags="$cppflags $(dpkg-buildflags --get CFLAGS)"
    cxxflags="$cppflags $(dpkg-buildflags --get CXXFLAGS)"
    ldflags=$(dpkg-buildflags --get LDFLAGS)
    unset DEB_BUILD_MAINT_OPTIONS
    echo "ci-builds: packager CXXFLAGS: $cxxflags; LDFLAGS: $ldflags"
    # The suite but the qemu-x86_64 CPU models and the 4 GiB run: what they test does not
    # depend on these flags, and g++ runs them in three other builds.
    ctest_args="-LE ^(qemu|slow)\$"
    run_build packager gcc g++ None yes \
        -DCMAKE_C_FLAGS="$cflags" -DCMAKE_CXX_FLAGS="$cxxflags" \
        -DCMAKE_EXE_LINKER_FLAGS="$ldflags" -DCMAKE_SHARED_LINKER_FLAGS="$ldflags" \
        -DCMAKE_MODULE_LINKER_FLAGS="$ldflags"
    ctest_args=""
}

# The RPM of dist/blake2simd.spec, its files checked against the packager tree's install.
rpm_build() {
    log="$cache/rpm.log"
    t0=$(date +%s)
    if [ ! -f "$cache/packager/CMakeCache.txt" ]; then
        result="not run: needs the packager build first"
        failed="$failed rpm"
    elif sh tools/ci/rpm.sh "$cache/packager" "$cache/rpm" >"$log" 2>&1; then
        result="passed: $(sed -n 's/^rpm: %check: //p' "$log")"
    else
        tail -n 30 "$log"
        result="FAILED"
        failed="$failed rpm"
    fi
    printf '%-22s %-14s %6s %6s  %s\n' rpm rpmbuild "$(($(date +%s) - t0))" - "$result" >>"$table"
    echo "ci-builds: rpm: $result (log: $log)"
}

# The label system (the .deb and the system configuration in scratch Debian roots, two minutes of
# a whole suite) runs in the quick start's g++ build and the packager's: it tests the install
# layout and the configuration tool, which neither the compiler nor the build type changes.
no_system="-LE ^system\$"
for name in $names; do
    case $name in
    gcc-release)
        # The CPU models under qemu-x86_64 (label qemu) run in the quick start's g++ build and in
        # clang-release: which kernel runs where is decided at run time, not by -O2 or -O3.
        ctest_args="-LE ^(system|qemu)\$"
        run_build "$name" gcc g++ Release yes
        ctest_args=""
        ;;
    gcc-debug)
        # The EVP known answers and BLAKE2bp sizes under each qemu-x86_64 CPU model for each
        # kernel request are left out: unoptimised, they take many minutes of emulation here and
        # test nothing the optimised builds' runs do not; the models' kernel-level runs stay.
        ctest_args="$no_system -E ^(evp\.kat|blake2bp\.evp|blake2bp\.sizes)\..+\.qemu\."
        run_build "$name" gcc g++ Debug yes
        ctest_args=""
        ;;
    gcc-relwithdebinfo) run_build "$name" gcc g++ RelWithDebInfo yes ;;
    gcc-minsizerel) run_build "$name" gcc g++ MinSizeRel smoke ;;
    clang-release)
        ctest_args=$no_system
        run_build "$name" clang clang++ Release yes
        ctest_args=""
        ;;
    clang-debug) run_build "$name" clang clang++ Debug smoke ;;
    clang-relwithdebinfo) run_build "$name" clang clang++ RelWithDebInfo smoke ;;
    clang-minsizerel) run_build "$name" clang clang++ MinSizeRel smoke ;;
    packager) packager_build ;;
    rpm) rpm_build ;;
    *)
        echo "ci-builds: unknown build $name" >&2
        exit 2
        ;;
    esac
done

echo "ci-builds: build                  type           build s test s  tests"
sed 's/^/ci-builds: /' "$table"
elapsed=$(($(date +%s) - start_time))
if [ -n "$failed" ]; then
    echo "ci-builds: FAILED:$failed (${elapsed} s)"
    exit 1
fi
echo "ci-builds: OK: $(wc -l <"$table") builds ($names), every test run passed (${elapsed} s)"
