// BLAKE2b compression with AVX: the 128-bit body, VEX-encoded (built with -mavx).
// SPDX-License-Identifier: Apache-2.0
#include <immintrin.h>

#include "kernel.hpp"

namespace blake2simd::kernels {
namespace {
#define B2_BODY_HAS_BLEND 1
#include "blake2b_128.inc"
#undef B2_BODY_HAS_BLEND
}  // namespace

void blake2b_compress_avx(Blake2bState* state, const uint8_t* blocks, size_t block_count,
                          uint64_t counter_increment) noexcept {
    compress_blocks_128(state, blocks, block_count, counter_increment);
    // Callers are baseline (legacy SSE) code: leave the upper YMM state clean for them.
    _mm256_zeroupper();
}

void scrub_avx() noexcept {
    _mm256_zeroall();
}

}  // namespace blake2simd::kernels
