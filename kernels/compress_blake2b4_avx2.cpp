// BLAKE2b compression of four states at once with AVX2, for BLAKE2bp (built with -mavx2).
// SPDX-License-Identifier: Apache-2.0
#include <immintrin.h>

#include "kernel.hpp"

namespace blake2simd::kernels {
namespace {
#define B2_BODY_HAS_ROTATE 0
#include "blake2b4_256.inc"
#undef B2_BODY_HAS_ROTATE
}  // namespace

void blake2b_compress4_avx2(Blake2bState* states, const uint8_t* const* blocks, size_t block_count,
                            size_t block_stride, uint64_t counter_increment) noexcept {
    compress4_256(states, blocks, block_count, block_stride, counter_increment);
    // Callers are baseline (legacy SSE) code: avoid the AVX-SSE transition penalty.
    _mm256_zeroupper();
}

}  // namespace blake2simd::kernels
