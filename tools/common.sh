# Shell functions the tools/ scripts share; POSIX sh, sourced (`. tools/common.sh`), not run.
# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=sh
#
# Each script sets `log_prefix` (how its messages start) before calling these. Their variables
# have names of their own (timed_*, missing_packages), so a timed job cannot change what is reported.

# install_missing PACKAGE...: apt-installs the Debian packages that are not installed yet
# (through sudo unless root); does nothing, not even `apt-get update`, when all are there.
install_missing() {
    missing_packages=""
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" ||
            missing_packages="$missing_packages $package"
    done
    [ -z "$missing_packages" ] && return 0
    echo "${log_prefix:?}: installing$missing_packages"
    as_root=""
    [ "$(id -u)" -eq 0 ] || as_root="sudo"
    $as_root apt-get update -q
    # shellcheck disable=SC2086 # word lists
    DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -q --no-install-recommends \
        $missing_packages
}

# timed NAME COMMAND...: runs a job between two banner lines, the second with its wall time, and
# appends NAME=<seconds>s to `summary` (set -e ends the script on a failing job first).
timed() {
    timed_job=$1
    shift
    timed_start=$(date +%s)
    echo "=== ${log_prefix:?}: $timed_job"
    "$@"
    timed_seconds=$(($(date +%s) - timed_start))
    echo "=== $log_prefix: $timed_job passed in ${timed_seconds}s"
    summary="${summary:-} $timed_job=${timed_seconds}s"
}
