// BlaMka block compression (Argon2's G) with AVX2: four words per YMM register (built with
// -mavx2).
// SPDX-License-Identifier: Apache-2.0
#include <immintrin.h>

#include "kernel.hpp"

namespace blake2simd::kernels {
namespace {
#define B2_BODY_HAS_ROTATE 0
#include "blamka_256.inc"
#undef B2_BODY_HAS_ROTATE
}  // namespace

void fill_block_avx2(uint64_t* next, const uint64_t* previous, const uint64_t* reference,
                     bool xor_into_next) noexcept {
    fill_block_256(next, previous, reference, xor_into_next);
    // Callers are baseline (legacy SSE) code: avoid the AVX-SSE transition penalty.
    _mm256_zeroupper();
}

}  // namespace blake2simd::kernels
