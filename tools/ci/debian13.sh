#!/bin/sh
# Debian 13 job (OpenSSL 3.5, g++ 14, clang 19): in a fresh copy of a cached minimal Debian 13 root,
# a clean clone of this repository runs the README's quick start (`sh tools/quickstart.sh test`:
# packages, build, whole suite, hardening jobs), then the build-type x compiler matrix.
# usage: tools/ci/debian13.sh        (run as root; called by tools/ci-cores.sh)
# Environment: B2_CI_CACHE (default /var/cache/blake2simd-ci), B2_D13_SUITES (build types whose
# suite runs with g++ in the matrix, default "Release Debug"; RelWithDebInfo is the quick start's),
# B2_D13_CTEST_ARGS (what those suites leave out; default the CPU-model emulations under qemu and
# the 4 GiB input, about 70% of the suite's time, which the quick start's suite runs; "" for all).
# Each run starts from a fresh copy of the shared pristine Debian 13 root (tools/ci/debian-root.sh),
# so the quick start installs its own packages. Downloaded .debs and compiler output are cached beside it.
# SPDX-License-Identifier: Apache-2.0
# shellcheck disable=SC2016 # commands in single quotes run in the root
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
cache=${B2_CI_CACHE:-/var/cache/blake2simd-ci}/debian-13
suites=${B2_D13_SUITES:-Release Debug}
ctest_args=${B2_D13_CTEST_ARGS-"-LE '^(qemu|slow)\$'"}

# Every mount below lives in a private mount namespace and ends with it: nothing leaks to the host.
if [ "${B2_D13_IN_NAMESPACE:-}" != 1 ]; then
    mkdir -p "$cache"
    B2_D13_IN_NAMESPACE=1 exec flock "$cache/.lock" unshare -m --propagation private sh "$0" "$@"
fi

base=$(sh "$repo/tools/ci/debian-root.sh" trixie)
root=$cache/root
logs=$cache/logs
mkdir -p "$logs" "$cache/archives/partial" "$cache/ccache"

# apt takes a cached .deb of the right size without checking its hash (a damaged one fails the
# unpack, and the job with it), so a run keeps only the files whose sums a passing quick start
# recorded, as they were then; anything else is downloaded again.
archive_sums=$cache/archives/SHA256SUMS
keep_recorded_archives() {
    for deb in "$cache"/archives/*.deb; do
        [ -e "$deb" ] || continue
        recorded=$(awk -v name="${deb##*/}" '$2 == name { print $1 }' "$archive_sums" \
            2>/dev/null || true)
        [ -n "$recorded" ] && [ "$(sha256sum <"$deb" | cut -d' ' -f1)" = "$recorded" ] ||
            rm -f "$deb"
    done
}
record_archives() {
    (cd "$cache/archives" && sha256sum -- *.deb >SHA256SUMS.new && mv SHA256SUMS.new SHA256SUMS) ||
        echo "debian13: the downloaded packages' sums were not recorded: the next run downloads them"
}
keep_recorded_archives

if grep -q " $root/" /proc/mounts; then
    echo "debian13: something is mounted under $root: unmount it first" >&2
    exit 1
fi
rm -rf --one-file-system "$root"
cp -a "$base" "$root"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
mount -t proc proc "$root/proc"
mount --rbind /dev "$root/dev"
mount --rbind /sys "$root/sys"
mount --bind "$cache/archives" "$root/var/cache/apt/archives"
mkdir -p "$root/ccache"
mount --bind "$cache/ccache" "$root/ccache"

# A clean clone, as a newcomer gets it (a minimal Debian has no git: clone from outside), and
# the shared vectors beside it as in CI, so the official-vector tests run rather than skip.
git clone -q "$repo" "$root/root/project"
[ -d "$repo/../shared/vectors" ] && mkdir -p "$root/root/shared" &&
    cp -a "$repo/../shared/vectors" "$root/root/shared/"

in_root() {
    chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb CI=true \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        CCACHE_DIR=/ccache CMAKE_C_COMPILER_LAUNCHER="${launcher:-}" \
        CMAKE_CXX_COMPILER_LAUNCHER="${launcher:-}" sh -c "cd /root/project && $1"
}

# "name" "command": runs in the root, log in $logs/name.log; prints its verdict and duration.
step() {
    start=$(date +%s)
    if in_root "$2" >"$logs/$1.log" 2>&1; then
        verdict=passed
    else
        verdict=FAILED
        failed="${failed:-} $1"
        tail -n 40 "$logs/$1.log" | sed "s/^/  $1| /"
    fi
    echo "debian13: $1 $verdict in $(($(date +%s) - start))s$(counts "$logs/$1.log")   (log: $logs/$1.log)"
}

counts() {
    sed -n 's/^\([0-9]*% tests passed, [0-9]* tests failed out of [0-9]*\)$/; ctest: \1/p' "$1" |
        head -n 1 | tr -d '\n'
    n=$(grep -c '\*\*\*Skipped\|Not Run' "$1" || true)
    [ "$n" = 0 ] || printf '; %s skipped' "$n"
}

# ccache only speeds the builds up across runs (the root itself is new each time); installing it
# is the one step before the quick start, which must install everything the project needs.
in_root "apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends ccache" \
    >"$logs/ccache.log" 2>&1 && launcher=ccache
in_root 'echo "debian13: $(. /etc/os-release; echo "$PRETTY_NAME")"'

# The sanitizer build and valgrind run on Debian 12 in the main job; here the suite, TSan and
# the fuzzers (clang 19) keep the job within CI's time.
step quickstart "B2_HARDENING_JOBS='tsan fuzz' sh tools/quickstart.sh test"
case " ${failed:-} " in *" quickstart "*) ;; *) record_archives ;; esac
in_root 'echo "debian13: OpenSSL $(openssl version | cut -d" " -f2), $(g++ --version | head -n 1), $(clang --version | head -n 1)"'

for type in Release Debug RelWithDebInfo MinSizeRel; do
    for compiler in g++ clang++; do
        cc=gcc
        [ "$compiler" = clang++ ] && cc=clang
        [ "$type $compiler" = "RelWithDebInfo g++" ] && continue # the quick start's build and suite
        dir=build-$type-$cc
        command="cmake -S . -B $dir -DCMAKE_BUILD_TYPE=$type -DCMAKE_C_COMPILER=$cc -DCMAKE_CXX_COMPILER=$compiler && cmake --build $dir -j 2"
        what=build
        case " $suites " in
        *" $type "*) [ "$compiler" = g++ ] && command="$command && ctest --test-dir $dir --output-on-failure -j 2 $ctest_args" && what=suite ;;
        esac
        step "$what-$type-$cc" "$command"
    done
done

if [ -n "${failed:-}" ]; then
    echo "debian13: FAILED:$failed"
    exit 1
fi
echo "debian13: all passed"
