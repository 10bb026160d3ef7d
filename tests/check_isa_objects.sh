#!/bin/sh
# Checks the instruction encodings in the kernel library, object by object. A kernel's objects
# are its forms, compress_<member><lanes>_<name>.cpp.o (compress_blake2b_avx2, compress_blake2b4_avx2,
# compress_blamka_avx2,
# compress_blake2s8_avx2); its class comes from the build's kernel list
# (kernels/CMakeLists.txt, B2_KERNEL_ISA_CLASSES), every other object is baseline:
#   - baseline (ref, detection, dispatch, self-test, x64): no VEX/EVEX, nothing past SSE2/SSE3;
#   - ssse3: no VEX/EVEX and no SSE4.1+ instruction (golang/go#18113: SIGILL on Atom);
#   - avx: every vector instruction VEX-encoded (no legacy SSE, which costs AVX-SSE
#     transitions; golang/go#18563), no EVEX, and a vzeroupper;
#   - avx512: vector instructions VEX or EVEX, no 512-bit (zmm) registers, a vzeroupper;
#   - no object has static initialisers: detection and calibration must not run at load time.
# SPDX-License-Identifier: Apache-2.0
#   - (with NM) an object of a non-baseline kernel defines no code symbol but its kernels: no
#     weak inline function built
#     with ISA flags that the linker could pick for baseline callers.
#     tests/check_isa_objects_control.sh proves this part fails on a planted weak symbol.
# Usage: check_isa_objects.sh OBJDUMP LIBRARY.a NM|"" [KERNEL=CLASS ...]
set -eu
objdump_tool=$1
library=$2
nm_tool=${3:-}
if [ $# -ge 3 ]; then shift 3; else shift $#; fi
# "ssse3=ssse3 avx=avx avx2=avx ..." for awk: -v classes=...
classes="$*"

# The class of an archive member: its kernel's, or baseline.
class_of='
function class_of(member,    n, i, pair, entry) {
    n = split(classes, pair, " ")
    for (i = 1; i <= n; i++) {
        split(pair[i], entry, "=")
        if (member ~ ("^compress_(blake2[bs][0-9]*|blamka)_" entry[1] "\\."))
            return entry[2]
    }
    return "baseline"
}
'

if [ -n "$nm_tool" ]; then
    leaked=$("$nm_tool" "$library" | awk -v classes="$classes" "$class_of"'
        /:$/ { member = $1; sub(/:$/, "", member); next }
        class_of(member) != "baseline" && ($2 == "T" || $2 == "W" || $2 == "i") {
            if ($3 !~ /^_ZN10blake2simd7kernels[0-9]+(blake2[bs]_compress[48]?|scrub|fill_block)_/) print member ": " $3
        }')
    if [ -n "$leaked" ]; then
        echo "FAIL: ISA objects define extra code symbols:"
        echo "$leaked"
        exit 1
    fi
fi

initialisers=$("$objdump_tool" -h "$library" | awk '
    /file format/ { member = $1; sub(/:$/, "", member) }
    $2 ~ /^\.(init_array|ctors)/ { print member }')
if [ -n "$initialisers" ]; then
    echo "FAIL: static initialisers (code run at load time) in: $initialisers"
    exit 1
fi

"$objdump_tool" -d "$library" | awk -v classes="$classes" "$class_of"'
/file format/ {
    member = $1; sub(/:$/, "", member)
    kind = class_of(member)
    kinds[member] = kind
    next
}
# Instruction lines: "  addr:<TAB>raw bytes<TAB>mnemonic operands".
NF >= 1 && split($0, field, "\t") >= 3 {
    split(field[2], bytes, " "); first = bytes[1]
    text = field[3]; split(text, words, " "); mnemonic = words[1]
    count[member]++
    vex = (first == "c4" || first == "c5"); evex = (first == "62")
    vector = (text ~ /%[xyz]mm/)
    kind = kinds[member]
    why = ""
    sse41_up = "^(pblendw|pblendvb|blendp[sd]|blendvp[sd]|pextr[bdq]|pinsr[bdq]|ptest|pmov[sz]x[bwd][wdq]|pmulld|pmuldq|pmin[su][bdw]|pmax[su][bdw]|packusdw|pcmpeqq|pcmpgtq|pcmp[ei]str[im]|round[ps][sd]|dpp[sd]|mpsadbw|phminposuw|movntdqa|insertps|extractps|crc32[bwlq]?|popcnt|lzcnt|tzcnt|andn|bextr|blsi|blsr|blsmsk|bzhi|pdep|pext|sarx|shlx|shrx|rorx|mulx)$"
    ssse3_ops = "^(pshufb|palignr|phaddw|phaddd|phaddsw|phsubw|phsubd|phsubsw|pmaddubsw|pmulhrsw|psign[bwd]|pabs[bwd])$"
    if (mnemonic == "vzeroupper") zeroupper[member] = 1
    if (kind == "baseline" || kind == "ssse3") {
        if (vex || evex) why = "VEX/EVEX-encoded"
        else if (mnemonic ~ sse41_up) why = "SSE4.1 or later"
        else if (kind == "baseline" && mnemonic ~ ssse3_ops) why = "SSSE3 in a baseline object"
    } else if (kind == "avx") {
        if (evex) why = "EVEX (AVX-512) encoding"
        else if (vector && !vex) why = "legacy SSE encoding in VEX code"
        else if (mnemonic ~ sse41_up && !vex) why = "non-VEX extension instruction"
    } else if (kind == "avx512") {
        if (vector && !vex && !evex) why = "legacy SSE encoding in VEX code"
        else if (text ~ /%zmm/) why = "512-bit register (frequency license)"
    }
    if (why != "") {
        bad++
        bad_in[member]++
        if (bad_in[member] <= 5) printf "FAIL %s: %s: %s\n", member, why, text
    }
}
END {
    for (m in kinds) {
        if (count[m] == 0) { printf "FAIL %s: no instructions found\n", m; bad++ }
        if ((kinds[m] == "avx" || kinds[m] == "avx512") && !zeroupper[m]) {
            printf "FAIL %s: no vzeroupper before returning to SSE code\n", m; bad++
        }
        printf "checked %-28s as %-8s %5d instructions, %d bad\n", m, kinds[m], count[m], bad_in[m]
    }
    if (bad) { printf "%d bad instructions\n", bad; exit 1 }
    print "all objects use only the instructions their ISA allows"
}'
