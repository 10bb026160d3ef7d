// A single-lane BLAKE2s kernel applied lane by lane: the 8-lane form every BLAKE2s kernel has.
// SPDX-License-Identifier: Apache-2.0
//
// Baseline code only (see lanes4_by_lane.hpp).
#pragma once

#include "kernel_blake2s.hpp"

namespace blake2simd {

// Block-major order, as compress4_by_lane: one step's eight blocks are adjacent in a message.
template <Blake2sCompressFn compress>
void compress8_by_lane(Blake2sState* states, const uint8_t* const* blocks, size_t block_count,
                       size_t block_stride, uint32_t counter_increment) noexcept {
    for (size_t k = 0; k < block_count; ++k) {
        for (size_t lane = 0; lane < kBlake2spLanes; ++lane) {
            compress(&states[lane], blocks[lane] + k * block_stride, 1, counter_increment);
        }
    }
}

}  // namespace blake2simd
