#!/bin/sh
# Prints the Debian archive this host installs its own release from, read from its apt sources in
# either format (deb822 `*.sources` or one-line `sources.list` / `*.list`): the URI of the first
# `deb` entry whose suites include the host's codename exactly (so not -security, not a vendor's
# repository). B2_DEBIAN_MIRROR, when set, is printed instead. No host name is assumed: with no
# such entry it fails and says where it looked.
# usage: tools/ci/debian-mirror.sh        (jobs that debootstrap a root or fetch a source package)
# SPDX-License-Identifier: Apache-2.0
set -eu
if [ -n "${B2_DEBIAN_MIRROR:-}" ]; then
    echo "$B2_DEBIAN_MIRROR"
    exit 0
fi
etc=${B2_APT_ETC:-/etc/apt}
codename=$(sed -n 's/^VERSION_CODENAME=//p' "${B2_OS_RELEASE:-/etc/os-release}" | tr -d '"')
[ -n "$codename" ] || {
    echo "debian-mirror: no VERSION_CODENAME in /etc/os-release: set B2_DEBIAN_MIRROR" >&2
    exit 1
}

# deb822 stanzas: Types, URIs and Suites may come in any order; a blank line ends a stanza.
from_deb822() {
    awk -v want="$codename" '
        function flush() {
            if (types ~ /(^| )deb( |$)/ && (" " suites " ") ~ (" " want " ") && uris != "" &&
                enabled != "no") { split(uris, u, " "); print u[1]; found = 1; exit }
            types = ""; uris = ""; suites = ""; enabled = ""
        }
        /^[ \t]*#/ { next }
        /^[ \t]*$/ { flush(); next }
        /^[ \t]/ { value = $0; sub(/^[ \t]+/, "", value); $0 = key " " value }
        { key = tolower($1); $1 = ""; sub(/^ +/, "") }
        key == "types:" { types = types " " $0 } key == "uris:" { uris = uris " " $0 }
        key == "suites:" { suites = suites " " $0 } key == "enabled:" { enabled = tolower($0) }
        END { if (!found) flush() }' "$@"
}

# One-line form: deb [options] URI SUITE COMPONENT...
from_one_line() {
    awk -v want="$codename" '
        $1 != "deb" { next }
        { i = 2; if ($2 ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ } }
        $(i + 1) == want { print $i; exit }' "$@"
}

for file in "$etc"/sources.list.d/*.sources; do
    [ -f "$file" ] || continue
    mirror=$(from_deb822 "$file")
    [ -n "$mirror" ] && echo "${mirror%/}" && exit 0
done
for file in "$etc"/sources.list "$etc"/sources.list.d/*.list; do
    [ -f "$file" ] || continue
    mirror=$(from_one_line "$file")
    [ -n "$mirror" ] && echo "${mirror%/}" && exit 0
done
echo "debian-mirror: no 'deb' entry for suite '$codename' in $etc/sources.list," \
    "$etc/sources.list.d/*.sources or *.list: add one, or set B2_DEBIAN_MIRROR" >&2
exit 1
