#!/bin/bash
# CI job: arm64 and s390x (64-bit big-endian). Cross-built with Debian 12's cross toolchains
# (crossbuild-essential-<arch>) against multiarch libssl-dev:<arch>; the EVP known answers,
# semantics, differential, kernel and hardening tests run under qemu-user, and that
# architecture's own `openssl` CLI (openssl:<arch>, unpacked, under qemu) loads the module for
# `openssl dgst` / `openssl mac` (tests cli.smoke and blake2bp.cli). Serialized digest states
# saved under qemu resume on the host and the other way (exchange_states).
#
# Why a Debian 12 root: libssl-dev:<arch> must be exactly the host's libssl-dev version, and a
# long-lived host rarely has exactly the archive's; a root made from the archive always does.
# The root is a copy of the shared pristine Debian 12 root (tools/ci/debian-root.sh), provisioned
# once and kept in B2_CI_CACHE/cross/ with the build trees, so a warm run only rebuilds what
# changed; a provisioning that was cut short is done again. The source is bind-mounted read-only.
#
# usage: tools/ci-cross.sh [ARCH ...]      (default: arm64 s390x; root; Debian 12 host)
# Environment: B2_CI_CACHE (default /var/cache/blake2simd-ci). Prints one summary line with the
# duration; exits non-zero on failure.
# SPDX-License-Identifier: Apache-2.0
set -euo pipefail
SECONDS=0
source_dir=$(cd "$(dirname "$0")/.." && pwd)
cache=${B2_CI_CACHE:-/var/cache/blake2simd-ci}/cross
root=$cache/bookworm
archs=${*:-arm64 s390x}

triplet_of() { case $1 in arm64) echo aarch64-linux-gnu ;; s390x) echo s390x-linux-gnu ;;
    *) echo "ci-cross: unknown architecture $1" >&2; return 1 ;; esac; }
qemu_of() { case $1 in arm64) echo aarch64 ;; *) echo "$1" ;; esac; }

packages="cmake make python3 qemu-user binutils ccache"
for arch in $archs; do
    triplet_of "$arch" >/dev/null
    packages="$packages crossbuild-essential-$arch libssl-dev:$arch libstdc++6:$arch libargon2-dev:$arch libsodium-dev:$arch"
done
# The root is re-provisioned when what it must hold changes.
stamp=$root/.b2-provisioned-$(echo "$packages" | md5sum | cut -c1-12)

mkdir -p "$cache"
exec 9>"$cache/lock"
flock 9

mounts="proc dev src shared"
unmount_all() {
    for m in $mounts; do
        mountpoint -q "$root/$m" && umount -R "$root/$m"
    done
    return 0
}
trap unmount_all EXIT

in_root() {
    chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb DEBIAN_FRONTEND=noninteractive \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
}

# A provisioned root is trusted only while what the builds run is there: a stamp survives files
# deleted or truncated since (a full disk, a killed unpack), so each tool is asked to run too.
root_works() {
    local arch triplet
    for arch in $archs; do
        triplet=$(triplet_of "$arch")
        # The target's openssl under qemu checks qemu, the multiarch libraries and openssl at once.
        in_root sh -c "cmake --version && ccache --version && $triplet-g++ --version &&
            test -s /usr/include/$triplet/openssl/opensslconf.h &&
            qemu-$(qemu_of "$arch") /opt/openssl-$arch/usr/bin/openssl version" \
            >/dev/null 2>&1 || return 1
    done
}

# The root as the stamps say, then checked: one that lacks a tool (dpkg does not reinstall what
# it thinks installed) is copied anew from the pristine root and provisioned again. A
# provisioning that fails (the mirror, say) fails the job and keeps the cache as it is.
# Every step below says its own failure: a function called in a condition runs without `set -e`.
make_root() {
    provision_root || return 1
    root_works && return 0
    echo "ci-cross: the provisioned root lacks a tool it needs; making it again"
    rm -f "$root/.b2-copied"
    provision_root && root_works
}

provision_root() {
    if [ ! -f "$root/.b2-copied" ]; then
        local base
        base=$(sh "$source_dir/tools/ci/debian-root.sh" bookworm) || return 1
        unmount_all
        rm -rf --one-file-system "$root"
        cp -a "$base" "$root" || return 1
        touch "$root/.b2-copied"
    fi
    [ -f "$stamp" ] && return 0
    echo "ci-cross: installing into the root:$packages (log: $cache/provision.log)"
    cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
    install_packages >"$cache/provision.log" 2>&1 || { tail -n 30 "$cache/provision.log"; return 1; }
    rm -f "$root"/.b2-provisioned-*
    touch "$stamp"
}

install_packages() {
    local arch
    # A provisioning killed midway left packages half-installed.
    in_root dpkg --configure -a || return 1
    for arch in $archs; do
        in_root dpkg --add-architecture "$arch" || return 1
    done
    in_root apt-get update -q || return 1
    # shellcheck disable=SC2086
    in_root apt-get install -y -q --no-install-recommends $packages || return 1
    for arch in $archs; do
        # openssl:<arch> is Multi-Arch: foreign (installing it would remove the root's own
        # openssl), so it is unpacked beside, and run under qemu on the multiarch libraries.
        in_root sh -c "set -e; rm -rf /opt/openssl-$arch; mkdir -p /opt/openssl-$arch;
            cd /opt/openssl-$arch; apt-get download -q openssl:$arch;
            dpkg-deb -x openssl_*_$arch.deb .; rm openssl_*_$arch.deb" || return 1
    done
}

mount_all() {
    mkdir -p "$root/proc" "$root/dev" "$root/src" "$root/shared"
    mount -t proc proc "$root/proc"
    mount --rbind /dev "$root/dev"
    mount --bind "$source_dir" "$root/src"
    mount -o remount,ro,bind "$root/src"
    # The official vectors, where the source tree has them beside it (../shared).
    if [ -d "$source_dir/../shared" ]; then
        mount --bind "$source_dir/../shared" "$root/shared"
        mount -o remount,ro,bind "$root/shared"
    fi
}

# Every test that runs a program built here, under qemu; left out: "system" (install layout,
# Debian package, the root's own amd64 openssl), "slow" (> 4 GiB through an emulator) and the
# 1000 module loads and unloads (two minutes under qemu; OpenSSL's core, not the CPU, is tested).
cross_build_and_test() {
    local arch=$1 triplet qemu build log
    triplet=$(triplet_of "$arch")
    qemu=qemu-$(qemu_of "$arch")
    build=/build/$arch
    log=$cache/$arch.log
    # `openssl` in PATH is this architecture's own CLI under qemu (cli.smoke, blake2bp.cli).
    in_root sh -c "mkdir -p /opt/openssl-$arch/wrapper && printf '%s\n' '#!/bin/sh' \
        'exec $qemu /opt/openssl-$arch/usr/bin/openssl \"\$@\"' >/opt/openssl-$arch/wrapper/openssl
        chmod +x /opt/openssl-$arch/wrapper/openssl"
    local start=$SECONDS
    # A fresh clone is all new to make; ccache (by content) makes its rebuild cheap. A tree
    # without the stamp of a finished build (a run killed midway) is built anew, and so is a
    # finished one that no longer builds (an object truncated since), so a broken tree costs
    # time, never the verdict.
    if ! in_root sh -c "set -e
        export CCACHE_DIR=/build/ccache CCACHE_BASEDIR=/src CCACHE_NOHASHDIR=1
        configure_and_build() {
            cmake -S /src -B $build -DCMAKE_TOOLCHAIN_FILE=/src/cmake/toolchain-$arch.cmake \
                -DCMAKE_BUILD_TYPE=RelWithDebInfo -DB2_WERROR=ON \
                -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache &&
                cmake --build $build -j2
        }
        reused=no
        [ -f $build/.b2-built ] && reused=yes || rm -rf $build
        rm -f $build/.b2-built
        if ! configure_and_build; then
            [ \$reused = yes ] || exit 1
            echo 'ci-cross: $arch: the reused tree failed to build; building it anew'
            rm -rf $build
            configure_and_build
        fi
        touch $build/.b2-built
        PATH=/opt/openssl-$arch/wrapper:\$PATH ctest --test-dir $build -j2 \
            --output-on-failure -LE '^(system|slow)\$' -E '^hardening\.load_unload_1000\$'
        echo '--- facts:'
        $qemu $build/tests/test_kat | tail -n 1
        $qemu $build/tests/test_blake2bp | tail -n 1
        $qemu $build/tests/kernels_info | sed 's/^/kernels_info: /'" >"$log" 2>&1; then
        tail -n 60 "$log"
        echo "ci-cross: $arch FAILED after $((SECONDS - start)) s (log: $log)"
        return 1
    fi
    local tests
    tests=$(grep -E '^[0-9]+% tests passed' "$log" || true)
    echo "ci-cross: $arch: $tests ($((SECONDS - start)) s; log: $log)"
    # The figures worth reading: the known answers and what the module says it is.
    sed -n '/^--- facts:/,$p' "$log" | sed -n "2,\$s/^/  $arch: /p"
    in_root /opt/openssl-$arch/wrapper/openssl list -providers -verbose -provider-path \
        "$build/ossl-modules" -provider blake2simd | sed -n "s/^ *build info: /  $arch buildinfo: /p"
    local digest
    digest=$(in_root sh -c "printf abc | /opt/openssl-$arch/wrapper/openssl dgst -provider-path \
        $build/ossl-modules -provider blake2simd -propquery provider=blake2simd -blake2b512")
    echo "  $arch openssl dgst: $digest"
    # RFC 7693, appendix A: BLAKE2b-512("abc").
    case $digest in *ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d17d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923*) ;;
    *) echo "ci-cross: $arch: openssl dgst gave the wrong BLAKE2b-512 of abc"; return 1 ;; esac
    exchange_states "$arch"
}

# Serialized digest states cross the byte order: every digest's states saved under qemu resume
# in the host's build (B2_HOST_BUILD, default ./build; its module, its kernels) and the host's
# resume under qemu, each checked against that side's own one-shot output. The roots have
# OpenSSL 3.0 (no EVP_MD_CTX_serialize): test_digest_state calls the dispatch ids 16 and 17.
exchange_states() {
    local arch=$1 qemu host_build=${B2_HOST_BUILD:-$source_dir/build}
    qemu=qemu-$(qemu_of "$arch")
    if [ ! -x "$host_build/tests/test_digest_state" ]; then
        echo "  $arch states: no host build at $host_build (B2_HOST_BUILD): exchange not checked"
        return 0
    fi
    rm -rf "$root/build/states-$arch" "$root/build/states-host"
    mkdir -p "$root/build/states-$arch" "$root/build/states-host"
    if ! { in_root "$qemu" "/build/$arch/tests/test_digest_state" --save "/build/states-$arch" &&
        "$host_build/tests/test_digest_state" --resume "$root/build/states-$arch" &&
        "$host_build/tests/test_digest_state" --save "$root/build/states-host" &&
        in_root "$qemu" "/build/$arch/tests/test_digest_state" --resume /build/states-host; }; then
        echo "ci-cross: $arch: serialized states do not cross between $arch and the host"
        return 1
    fi
    echo "  $arch states: saved on $arch resume on the host and the other way"
}

unmount_all # what a killed run left mounted
make_root
mount_all
in_root sh -c 'dpkg-query -W -f="\${Package}:\${Architecture} \${Version}\n" libssl-dev libssl3' |
    sed 's/^/ci-cross: /'
failed=""
for arch in $archs; do
    cross_build_and_test "$arch" || failed="$failed $arch"
done
if [ -n "$failed" ]; then
    echo "ci-cross: FAILED:$failed ($SECONDS s)"
    exit 1
fi
echo "ci-cross: OK: $archs cross-built, tests passed under qemu-user ($SECONDS s)"
