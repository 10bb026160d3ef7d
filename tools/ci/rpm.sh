#!/bin/sh
# CI's check of dist/blake2simd.spec with Debian's rpm (a check of the spec, not a RHEL binary):
# 1. the source tarball (cpack's source config) carries the spec and unpacks where Source0 and
#    %autosetup expect (rpmbuild -tp);
# 2. the whole build from this checkout (rpmbuild -bb --build-in-place, --nodeps: Debian's rpm
#    database is empty), through ccache, %check running the label "installed";
# 3. the .rpm's files (rpm -qlp) are the .deb's: those of DEB_TREE's staged install, which is
#    what cpack packs (system_deb.py), with the library directory (/usr/lib64 against Debian's
#    multiarch one) and the licence (%license LICENSE against Debian's copyright file; RPM keeps
#    the history in %changelog, not changelog.gz) aside;
# 4. rpmlint, every finding fixed or explained (tools/ci/rpmlint.toml).
# usage: tools/ci/rpm.sh DEB_TREE WORK_DIR    (DEB_TREE: a built tree with the /usr prefix)
# SPDX-License-Identifier: Apache-2.0
set -eu
cd "$(dirname "$0")/../.."
source_dir=$(pwd)
deb_tree=$1 work=$2
log_prefix=rpm
# shellcheck source=tools/common.sh
. tools/common.sh
install_missing rpm rpmlint

rm -rf "$work" "$source_dir/build-rpm"
mkdir -p "$work/top"
top="$work/top"

cmake -S . -B "$work/source-tree" -DBUILD_TESTING=OFF -DB2_BUILD_BENCH=OFF >/dev/null
cpack --config "$work/source-tree/CPackSourceConfig.cmake" -B "$work" >/dev/null
version=$(sed -n 's/^Version: *//p' dist/blake2simd.spec)
tarball="$work/blake2simd-$version.tar.gz"
[ -f "$tarball" ] || { echo "rpm: no $tarball (the spec's Version differs from the project's?)"; exit 1; }
rpmbuild -tp --nodeps --define "_topdir $top" "$tarball" >"$work/prep.log" 2>&1 ||
    { tail -n 20 "$work/prep.log"; echo "rpm: rpmbuild -tp on the source tarball failed"; exit 1; }
echo "rpm: the source tarball unpacks and prepares (rpmbuild -tp)"

# Debian's brp-compress is bash run by /bin/sh ("read: Illegal option -d" for every page); the
# man pages are gzipped by the build already, so it is left out.
rpmbuild -bb --build-in-place --nodeps --define "_topdir $top" --define "__brp_compress true" \
    --define "b2_cmake_args -DB2_WERROR=ON -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache" \
    --define 'b2_check_args -L ^installed$' dist/blake2simd.spec >"$work/build.log" 2>&1 ||
    { tail -n 40 "$work/build.log"; echo "rpm: rpmbuild --build-in-place failed (log $work/build.log)"; exit 1; }
rm -rf "$source_dir/build-rpm"
sed -n 's/^.*tests passed, .*$/rpm: %check: &/p' "$work/build.log"
rpm_file=$(find "$top/RPMS" -name "blake2simd-$version-*.rpm" ! -name '*debug*' | head -n 1)
echo "rpm: built $rpm_file"

# The file lists, each with its library directory and licence file under one name.
rpm -qlpv --noartifact "$rpm_file" | awk '$1 !~ /^d/ {print $NF}' | sed -e 's|^/usr/lib64/ossl-modules/|MODULESDIR/|' \
    -e 's|^/usr/share/licenses/blake2simd/LICENSE$|LICENCE|' | sort >"$work/rpm-files"
rm -rf "$work/stage"
DESTDIR="$work/stage" cmake --install "$deb_tree" >/dev/null
modulesdir=$(dirname "$(cd "$work/stage" && find . -name blake2simd.so | sed 's|^\.||')")
(cd "$work/stage" && find . ! -type d | sed 's|^\.||') |
    sed -e "s|^$modulesdir/|MODULESDIR/|" -e 's|^/usr/share/doc/blake2simd/copyright$|LICENCE|' \
        -e '\|^/usr/share/doc/blake2simd/changelog.gz$|d' | sort >"$work/deb-files"
if ! diff -u "$work/deb-files" "$work/rpm-files"; then
    echo "rpm: the .rpm's files differ from the .deb's (- .deb, + .rpm)"
    exit 1
fi
echo "rpm: the .rpm has the .deb's $(wc -l <"$work/rpm-files") files ($modulesdir as /usr/lib64/ossl-modules)"

rpmlint -c tools/ci/rpmlint.toml "$rpm_file" dist/blake2simd.spec
