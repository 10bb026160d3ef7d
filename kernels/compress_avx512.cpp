// BLAKE2b compression with AVX-512VL: YMM rows with single-instruction vprorq rotates
// (built with -mavx512f -mavx512vl; no 512-bit registers, so no frequency license change).
// SPDX-License-Identifier: Apache-2.0
#include <immintrin.h>

#include "kernel.hpp"

namespace blake2simd::kernels {
namespace {
#define B2_256_HAS_VPRORQ 1
#include "compress_256.inc"
#undef B2_256_HAS_VPRORQ
}  // namespace

void compress_avx512(Blake2bState* state, const uint8_t* blocks, size_t block_count,
                     uint64_t counter_increment) noexcept {
    compress_blocks_256(state, blocks, block_count, counter_increment);
    // Callers are baseline (legacy SSE) code: avoid the AVX-SSE transition penalty.
    _mm256_zeroupper();
}

}  // namespace blake2simd::kernels
