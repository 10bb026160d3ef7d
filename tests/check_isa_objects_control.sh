#!/bin/sh
# Negative control for check_isa_objects.sh: a 4-lane AVX2 object is built twice, once clean
# and once with a weak inline helper (what a `inline` function in kernel.hpp becomes when
# compiled into an ISA object). The check must pass the clean archive and fail the planted one,
# naming the helper: otherwise it would not catch the leak it exists for.
# Usage: check_isa_objects_control.sh CHECK_SCRIPT CXX AR OBJDUMP NM [KERNEL=CLASS ...]
# SPDX-License-Identifier: Apache-2.0
set -eu
check=$1
cxx=$2
ar_tool=$3
objdump_tool=$4
nm_tool=$5
shift 5
# The build's KERNEL=CLASS list (kernels/CMakeLists.txt), passed through to the check.
classes="$*"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat >"$work/kernel.cpp" <<'CPP'
#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
namespace blake2simd {
#ifdef PLANT_WEAK_HELPER
// Emitted as a weak (COMDAT) symbol: the linker may keep this AVX2 copy for baseline callers.
__attribute__((noinline)) inline uint64_t planted_rotate(uint64_t x) { return x >> 7 | x << 57; }
#endif
namespace kernels {
void blake2b_compress4_avx2(uint64_t* words, size_t count) noexcept {
    __m256i sum = _mm256_setzero_si256();
    for (size_t i = 0; i + 4 <= count; i += 4) {
        sum = _mm256_add_epi64(sum, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(words + i)));
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(words), sum);
#ifdef PLANT_WEAK_HELPER
    words[0] = planted_rotate(words[0]);
#endif
    _mm256_zeroupper();
}
}  // namespace kernels
}  // namespace blake2simd
CPP

build_archive() {
    dir="$work/$1"
    shift
    mkdir -p "$dir"
    # The member name the check must recognise as an ISA object.
    "$cxx" -std=c++20 -O2 -mavx2 "$@" -c "$work/kernel.cpp" -o "$dir/compress_blake2b4_avx2.cpp.o"
    "$ar_tool" qc "$dir/libplanted.a" "$dir/compress_blake2b4_avx2.cpp.o"
    echo "$dir/libplanted.a"
}

clean=$(build_archive clean)
planted=$(build_archive planted -DPLANT_WEAK_HELPER)

if ! sh "$check" "$objdump_tool" "$clean" "$nm_tool" $classes >"$work/clean.log" 2>&1; then
    cat "$work/clean.log"
    echo "FAIL: the check rejects the clean 4-lane object (the control itself is broken)"
    exit 1
fi
if sh "$check" "$objdump_tool" "$planted" "$nm_tool" $classes >"$work/planted.log" 2>&1; then
    cat "$work/planted.log"
    echo "FAIL: the check passes a 4-lane AVX2 object that defines a weak helper"
    exit 1
fi
if ! grep -q "planted_rotate" "$work/planted.log"; then
    cat "$work/planted.log"
    echo "FAIL: the check failed the planted object, but not for its weak helper"
    exit 1
fi
echo "control: clean object passes; planted weak helper fails the check:"
grep "compress_avx2_lanes4" "$work/planted.log" | head -3
