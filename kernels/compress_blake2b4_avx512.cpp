// BLAKE2b compression of four states at once with AVX-512VL: YMM registers, vprorq rotates and
// 32 registers, so the message and the state both stay in registers (built with -mavx512f
// -mavx512vl; no 512-bit registers, so no frequency license change).
// SPDX-License-Identifier: Apache-2.0
#include <immintrin.h>

#include "kernel.hpp"

namespace blake2simd::kernels {
namespace {
#define B2_BODY_HAS_ROTATE 1
#include "blake2b4_256.inc"
#undef B2_BODY_HAS_ROTATE
}  // namespace

void blake2b_compress4_avx512(Blake2bState* states, const uint8_t* const* blocks,
                              size_t block_count, size_t block_stride,
                              uint64_t counter_increment) noexcept {
    compress4_256(states, blocks, block_count, block_stride, counter_increment);
    // Callers are baseline (legacy SSE) code: avoid the AVX-SSE transition penalty.
    _mm256_zeroupper();
}

}  // namespace blake2simd::kernels
