// BLAKE2b compression with SSSE3 (built with -mssse3 only: no SSE4.1 instruction may appear).
// SPDX-License-Identifier: Apache-2.0
#include <tmmintrin.h>

#include "kernel.hpp"

namespace blake2simd::kernels {
namespace {
#define B2_BODY_HAS_BLEND 0
#include "blake2b_128.inc"
#undef B2_BODY_HAS_BLEND
}  // namespace

void blake2b_compress_ssse3(Blake2bState* state, const uint8_t* blocks, size_t block_count,
                            uint64_t counter_increment) noexcept {
    compress_blocks_128(state, blocks, block_count, counter_increment);
}

}  // namespace blake2simd::kernels
