// The 4-lane compression contract behind BLAKE2bp: four independent BLAKE2b states at once.
// SPDX-License-Identifier: Apache-2.0
//
// Restricted header (see blake2b_state.hpp): declarations only, so the ISA-flagged 4-lane
// kernels can include it. Choosing among them is forms.hpp's business.
#pragma once

#include "kernel.hpp"

namespace blake2simd {

inline constexpr size_t kLanes = 4;

// Compresses `block_count` blocks into each of the four states `states[0..3]` (8-byte alignment
// is enough). Lane i's k-th block starts at blocks[i] + k * block_stride, any alignment; lanes
// may share blocks (stride 0 repeats one block). Per state the semantics are CompressFn's: its
// counter grows by `counter_increment` before each block and its own flags state->f apply.
// BLAKE2bp passes blocks = {p, p + 128, p + 256, p + 384} and stride 512: block j of the
// message belongs to leaf j % 4.
using Compress4Fn = void (*)(Blake2bState* states, const uint8_t* const* blocks, size_t block_count,
                             size_t block_stride, uint64_t counter_increment) noexcept;

namespace kernels {
// One 64-bit word of each lane per YMM lane. Built with -mavx2, resp. -mavx512f -mavx512vl.
void compress4_avx2(Blake2bState* states, const uint8_t* const* blocks, size_t block_count,
                    size_t block_stride, uint64_t counter_increment) noexcept;
void compress4_avx512(Blake2bState* states, const uint8_t* const* blocks, size_t block_count,
                      size_t block_stride, uint64_t counter_increment) noexcept;
}  // namespace kernels

}  // namespace blake2simd
