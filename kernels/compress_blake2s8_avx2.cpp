// BLAKE2s compression of eight states at once with AVX2, for BLAKE2sp: vpshufb rotates for 16
// and 8, shifts for 12 and 7 (built with -mavx2).
// SPDX-License-Identifier: Apache-2.0
#include <immintrin.h>

#include "kernel.hpp"

namespace blake2simd::kernels {
namespace {
#define B2_BODY_HAS_ROTATE 0
#include "blake2s8_256.inc"
#undef B2_BODY_HAS_ROTATE
}  // namespace

void blake2s_compress8_avx2(Blake2sState* states, const uint8_t* const* blocks, size_t block_count,
                            size_t block_stride, uint32_t counter_increment) noexcept {
    compress8_256(states, blocks, block_count, block_stride, counter_increment);
    // Callers are baseline (legacy SSE) code: avoid the AVX-SSE transition penalty.
    _mm256_zeroupper();
}

}  // namespace blake2simd::kernels
