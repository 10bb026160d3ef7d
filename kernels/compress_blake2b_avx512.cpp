// BLAKE2b compression with AVX-512VL: YMM rows with single-instruction vprorq rotates
// (built with -mavx512f -mavx512vl; no 512-bit registers, so no frequency license change).
// SPDX-License-Identifier: Apache-2.0
#include <immintrin.h>

#include "kernel.hpp"

namespace blake2simd::kernels {
namespace {
#define B2_BODY_HAS_ROTATE 1
#include "blake2b_256.inc"
#undef B2_BODY_HAS_ROTATE
}  // namespace

void blake2b_compress_avx512(Blake2bState* state, const uint8_t* blocks, size_t block_count,
                             uint64_t counter_increment) noexcept {
    compress_blocks_256(state, blocks, block_count, counter_increment);
    // Callers are baseline (legacy SSE) code: avoid the AVX-SSE transition penalty.
    _mm256_zeroupper();
}

// EVEX writes to ymm16-31 zero the whole zmm register; vzeroall then clears 0-15.
void scrub_avx512() noexcept {
    __asm__ volatile(
        "vpxord %%ymm16, %%ymm16, %%ymm16\n\tvpxord %%ymm17, %%ymm17, %%ymm17\n\t"
        "vpxord %%ymm18, %%ymm18, %%ymm18\n\tvpxord %%ymm19, %%ymm19, %%ymm19\n\t"
        "vpxord %%ymm20, %%ymm20, %%ymm20\n\tvpxord %%ymm21, %%ymm21, %%ymm21\n\t"
        "vpxord %%ymm22, %%ymm22, %%ymm22\n\tvpxord %%ymm23, %%ymm23, %%ymm23\n\t"
        "vpxord %%ymm24, %%ymm24, %%ymm24\n\tvpxord %%ymm25, %%ymm25, %%ymm25\n\t"
        "vpxord %%ymm26, %%ymm26, %%ymm26\n\tvpxord %%ymm27, %%ymm27, %%ymm27\n\t"
        "vpxord %%ymm28, %%ymm28, %%ymm28\n\tvpxord %%ymm29, %%ymm29, %%ymm29\n\t"
        "vpxord %%ymm30, %%ymm30, %%ymm30\n\tvpxord %%ymm31, %%ymm31, %%ymm31" ::
            : "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23", "xmm24",
              "xmm25", "xmm26", "xmm27", "xmm28", "xmm29", "xmm30", "xmm31");
    _mm256_zeroall();
}

}  // namespace blake2simd::kernels
