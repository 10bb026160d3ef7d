#!/bin/sh
# OpenSSL's own test/evp_test, from an OpenSSL source tree built by tools/ci/openssl-core.sh, with
# our module (MODULE) and the configurations in tests/evp_test/:
# 1. the tree's evpmd_blake.txt and evpmac_blake.txt, whole (BLAKE2b and BLAKE2s stanzas), with
#    only base and blake2simd active, so only we can answer (and with base alone they fail); the
#    BLAKE2s stanzas are counted, so a file that lost them is noticed;
# 2. every digest, MAC and KDF data file of the tree with default + blake2simd preferred gives
#    output identical to default alone;
# 3. our composites over BLAKE2b (tests/evp_test/evp_blake2b_composites.txt, its generator in
#    step with it): with default + blake2simd, each stanza forcing blake2simd for its digest; the
#    same stanzas without that pass under default alone, and with it fail there;
# 4. the names only blake2simd has (tests/evp_test/evp_blake2_names.txt, its generator in step
#    with it: the RFC 7693 sizes, BLAKE2XB/BLAKE2XS, BLAKE2XBMAC/BLAKE2XSMAC) with only base and
#    blake2simd active; with base alone they fail;
# 5. the tree's evpkdf_argon2.txt with default + blake2simd and -propquery provider=blake2simd,
#    so only our ARGON2I/ARGON2D/ARGON2ID can answer (it fails with the module absent or
#    corrupted), from a copy without the one stanza expecting `threads` 2 without a thread pool
#    to fail at derive: we start threads of our own and succeed (docs/semantics.md), that stanza
#    has no Output (so without its Result line it would ask for 0 bytes, which every Argon2
#    refuses), and the `Threads = 2` stanza before it derives the same params with its output.
#    Step 2 leaves that file out: with blake2simd preferred, the stanza fails there for the
#    same reason.
# usage: tools/ci/evp-test.sh TREE MODULE
# SPDX-License-Identifier: Apache-2.0
set -eu
cd "$(dirname "$0")/../.."
tree=$(cd "$1" && pwd)
BLAKE2SIMD_MODULE=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
LD_LIBRARY_PATH=$tree${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export BLAKE2SIMD_MODULE LD_LIBRARY_PATH
data=$tree/test/recipes/30-test_evp_data
configs=tests/evp_test
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# evp_test CONFIG FILE...: its output in $work/out; its exit status returned.
evp_test() {
    config=$1
    shift
    "$tree/test/evp_test" -config "$configs/$config" "$@" >"$work/out" 2>&1
}

# The "Completed N tests with E errors and S skipped" lines, one per file, on one line.
completed() {
    sed -n 's/^.*Completed \([0-9]* tests with [0-9]* errors and [0-9]* skipped\).*$/\1/p' "$1" |
        tr '\n' ';' | sed 's/;$//'
}

fail() {
    echo "evp-test: FAILED: $1" >&2
    [ -f "$work/out" ] && tail -n 40 "$work/out" >&2
    exit 1
}

# The stanzas (blank-line separated) of FILE... naming a BLAKE2s algorithm.
blake2s_stanzas() {
    awk 'BEGIN { RS = ""; ORS = "\n\n" } /= *BLAKE2s256|= *BLAKE2SMAC/' "$@"
}

# 1. Only base and blake2simd, the two files whole; then their BLAKE2s stanzas alone, counted (so
# a tree whose files lost them is noticed), which fail with base alone.
blake_files="$data/evpmd_blake.txt $data/evpmac_blake.txt"
# shellcheck disable=SC2086
blake2s_stanzas $blake_files >"$work/blake2s.txt"
blake2s_count=$(grep -Ec '^(Digest|MAC) *= *(BLAKE2s256|BLAKE2SMAC)' "$work/blake2s.txt" || true)
[ "$blake2s_count" -ge 20 ] || fail "only $blake2s_count BLAKE2s stanzas in $blake_files"
# shellcheck disable=SC2086
evp_test base.cnf $blake_files && fail "BLAKE2 stanzas passed with base alone: the check proves nothing"
# shellcheck disable=SC2086
evp_test base-and-blake2simd.cnf $blake_files || fail "BLAKE2b/BLAKE2s stanzas with only base and blake2simd"
echo "evp-test: evpmd_blake.txt, evpmac_blake.txt (BLAKE2b and BLAKE2s) with base + blake2simd: $(completed "$work/out")"
evp_test base.cnf "$work/blake2s.txt" && fail "BLAKE2s stanzas passed with base alone"
evp_test base-and-blake2simd.cnf "$work/blake2s.txt" || fail "BLAKE2s stanzas with only base and blake2simd"
blake2s_done=$(sed -n 's/^.*Completed \([0-9]*\) tests with 0 errors.*$/\1/p' "$work/out")
[ "${blake2s_done:-0}" -ge "$blake2s_count" ] ||
    fail "${blake2s_done:-0} BLAKE2s stanzas completed, $blake2s_count expected"
echo "evp-test: the $blake2s_count BLAKE2s stanzas alone with base + blake2simd: $(completed "$work/out")"

# 2. The tree's digest, MAC and KDF files: default + blake2simd preferred = default alone.
tree_files=$(ls "$data"/evpmd_*.txt "$data"/evpmac_*.txt "$data"/evpkdf_*.txt | grep -v '/evpkdf_argon2\.txt$')
# shellcheck disable=SC2086
evp_test default.cnf $tree_files && status_default=0 || status_default=$?
sed '/random seed/d' "$work/out" >"$work/default.out"
# shellcheck disable=SC2086
evp_test default-and-blake2simd.cnf $tree_files && status_ours=0 || status_ours=$?
sed '/random seed/d' "$work/out" >"$work/ours.out"
if [ "$status_default" != "$status_ours" ] || ! cmp -s "$work/default.out" "$work/ours.out"; then
    diff "$work/default.out" "$work/ours.out" | head -n 40 >&2
    fail "default + blake2simd differs from default alone"
fi
[ "$status_default" = 0 ] || fail "the tree's data files fail with default alone (status $status_default)"
echo "evp-test: $(echo "$tree_files" | wc -l) digest/MAC/KDF files, default + blake2simd preferred" \
    "identical to default alone: $(grep -c 'Completed' "$work/ours.out") files," \
    "$(awk '/Completed [0-9]+ tests/ { sub(/.*Completed /, ""); n += $1 } END { print n }' "$work/ours.out") stanzas, 0 errors"

# 3. Our composites.
python3 "$configs/gen_blake2b_composites.py" --check
composites=$configs/evp_blake2b_composites.txt
sed '/provider=blake2simd/d' "$composites" >"$work/composites-unforced.txt"
evp_test default.cnf "$work/composites-unforced.txt" ||
    fail "our composite stanzas (unforced) disagree with OpenSSL's default provider"
echo "evp-test: composites over BLAKE2b, default alone: $(completed "$work/out")"
evp_test default.cnf "$composites" && fail "stanzas forcing blake2simd passed without it loaded"
evp_test default-and-blake2simd.cnf "$composites" || fail "our composite stanzas with blake2simd"
echo "evp-test: composites over BLAKE2b, default + blake2simd preferred ($(grep -c provider=blake2simd "$composites")" \
    "of them forcing blake2simd for the digest): $(completed "$work/out")"

# 4. The names only blake2simd has.
python3 "$configs/gen_blake2_names.py" --check
names=$configs/evp_blake2_names.txt
evp_test base.cnf "$names" && fail "the blake2simd-only names passed with base alone"
evp_test base-and-blake2simd.cnf "$names" || fail "the blake2simd-only names with base + blake2simd"
echo "evp-test: sizes by name, BLAKE2X digests and MACs, base + blake2simd" \
    "($(grep -c '^Result = ' "$names") of them refusals or evp_test's verdicts): $(completed "$work/out")"

# 5. Argon2, ours only by the property query. The stanza after the comment naming "threads > avail
# threads" is left out (see the top), and the copy must differ from the file by that stanza alone.
argon2_file=$data/evpkdf_argon2.txt
if [ -f "$argon2_file" ]; then
    awk 'BEGIN { RS = ""; ORS = "\n\n" } previous ~ /threads > avail threads/ { previous = $0; next }
         { print; previous = $0 }' "$argon2_file" >"$work/argon2.txt"
    stanzas=$(grep -c '^KDF *=' "$argon2_file")
    kept=$(grep -c '^KDF *=' "$work/argon2.txt")
    [ "$kept" = $((stanzas - 1)) ] || fail "evpkdf_argon2.txt: $kept of $stanzas stanzas kept, $((stanzas - 1)) expected"
    evp_test default.cnf -propquery provider=blake2simd "$work/argon2.txt" &&
        fail "Argon2 stanzas passed with provider=blake2simd and no blake2simd loaded"
    head -c 4096 "$BLAKE2SIMD_MODULE" >"$work/corrupt.so"
    BLAKE2SIMD_MODULE=$work/corrupt.so evp_test default-and-blake2simd.cnf -propquery provider=blake2simd \
        "$work/argon2.txt" && fail "Argon2 stanzas passed with a corrupted blake2simd module"
    evp_test default-and-blake2simd.cnf -propquery provider=blake2simd "$work/argon2.txt" ||
        fail "evpkdf_argon2.txt with -propquery provider=blake2simd"
    echo "evp-test: evpkdf_argon2.txt less the threads-without-pool stanza, -propquery" \
        "provider=blake2simd: $(completed "$work/out")"
else
    echo "evp-test: this tree has no evpkdf_argon2.txt (OpenSSL before 3.2): step 5 skipped"
fi
