// BlaMka block compression (Argon2's G) with AVX-512VL: the AVX2 body with single-instruction
// vprorq rotates, YMM registers only (built with -mavx512f -mavx512vl).
// SPDX-License-Identifier: Apache-2.0
#include <immintrin.h>

#include "kernel.hpp"

namespace blake2simd::kernels {
namespace {
#define B2_BODY_HAS_ROTATE 1
#include "blamka_256.inc"
#undef B2_BODY_HAS_ROTATE
}  // namespace

void fill_block_avx512(uint64_t* next, const uint64_t* previous, const uint64_t* reference,
                       bool xor_into_next) noexcept {
    fill_block_256(next, previous, reference, xor_into_next);
    _mm256_zeroupper();
}

}  // namespace blake2simd::kernels
