// A single-lane kernel applied lane by lane: the 4-lane form every kernel has.
// SPDX-License-Identifier: Apache-2.0
//
// Baseline code only (dispatch and self-test): an inline template here, instantiated in an ISA
// object, would be a weak symbol the linker could pick for baseline callers.
#pragma once

#include "lanes4.hpp"

namespace blake2simd {

// Block-major order: the four lanes' blocks of one step are adjacent in a BLAKE2bp message,
// so each cache line of the input is used once.
template <CompressFn compress>
void compress4_by_lane(Blake2bState* states, const uint8_t* const* blocks, size_t block_count,
                       size_t block_stride, uint64_t counter_increment) noexcept {
    for (size_t k = 0; k < block_count; ++k) {
        for (size_t lane = 0; lane < kLanes; ++lane) {
            compress(&states[lane], blocks[lane] + k * block_stride, 1, counter_increment);
        }
    }
}

}  // namespace blake2simd
