// BLAKE2b compression with AVX2: one state row per YMM register (built with -mavx2).
// SPDX-License-Identifier: Apache-2.0
#include <immintrin.h>

#include "kernel.hpp"

namespace blake2simd::kernels {
namespace {
#define B2_BODY_HAS_ROTATE 0
#include "blake2b_256.inc"
#undef B2_BODY_HAS_ROTATE
}  // namespace

void blake2b_compress_avx2(Blake2bState* state, const uint8_t* blocks, size_t block_count,
                           uint64_t counter_increment) noexcept {
    compress_blocks_256(state, blocks, block_count, counter_increment);
    // Callers are baseline (legacy SSE) code: avoid the AVX-SSE transition penalty.
    _mm256_zeroupper();
}

}  // namespace blake2simd::kernels
