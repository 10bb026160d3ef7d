// A single-lane kernel applied lane by lane: the many-lane form every kernel has (BLAKE2bp's four
// lanes, BLAKE2sp's eight).
// SPDX-License-Identifier: Apache-2.0
//
// Baseline code only (the selection and the self-tests): an inline template here, instantiated in
// an ISA object, would be a weak symbol the linker could pick for baseline callers.
#pragma once

#include "kernel.hpp"

namespace blake2simd {

// Block-major order: the lanes' blocks of one step are adjacent in a tree-mode message, so each
// cache line of the input is used once. Family: Blake2bFamily or Blake2sFamily.
template <class Family, typename Family::Compress compress, size_t kLanes = Family::kLanes>
void compress_by_lane(typename Family::State* states, const uint8_t* const* blocks,
                      size_t block_count, size_t block_stride,
                      typename Family::Word counter_increment) noexcept {
    for (size_t k = 0; k < block_count; ++k) {
        for (size_t lane = 0; lane < kLanes; ++lane) {
            compress(&states[lane], blocks[lane] + k * block_stride, 1, counter_increment);
        }
    }
}

}  // namespace blake2simd
