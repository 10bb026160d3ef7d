// BLAKE2s compression with AVX: the 128-bit body, VEX-encoded (built with -mavx).
// SPDX-License-Identifier: Apache-2.0
#include <immintrin.h>

#include "kernel.hpp"

namespace blake2simd::kernels {
namespace {
#define B2_BODY_HAS_ROTATE 0
#include "blake2s_128.inc"
#undef B2_BODY_HAS_ROTATE
}  // namespace

void blake2s_compress_avx(Blake2sState* state, const uint8_t* blocks, size_t block_count,
                          uint32_t counter_increment) noexcept {
    blake2s_compress_blocks_128(state, blocks, block_count, counter_increment);
    // Callers are baseline (legacy SSE) code: leave the upper YMM state clean for them.
    _mm256_zeroupper();
}

}  // namespace blake2simd::kernels
