// The compression contracts of BLAKE2s (one state) and BLAKE2sp (eight states at once), and the
// BLAKE2s kernels' declarations.
// SPDX-License-Identifier: Apache-2.0
//
// Restricted header (see blake2b_state.hpp): declarations only.
#pragma once

#include "blake2s_state.hpp"
#include "kernel.hpp"

namespace blake2simd {

// CompressFn's contract (kernel.hpp) for BLAKE2s: 64-byte blocks, a 64-bit counter in
// state->t, ten rounds. The final block passes the number of message bytes it carries (0..64).
using Blake2sCompressFn = void (*)(Blake2sState* state, const uint8_t* blocks, size_t block_count,
                                   uint32_t counter_increment) noexcept;

inline constexpr size_t kBlake2spLanes = 8;

// Compress4Fn's contract (lanes4.hpp) for eight BLAKE2s states `states[0..7]`: lane i's k-th
// block starts at blocks[i] + k * block_stride. BLAKE2sp passes blocks = {p, p + 64, ...,
// p + 448} and stride 512: block j of the message belongs to leaf j % 8.
using Blake2sCompress8Fn = void (*)(Blake2sState* states, const uint8_t* const* blocks,
                                    size_t block_count, size_t block_stride,
                                    uint32_t counter_increment) noexcept;

namespace kernels {
// Portable C++; the fallback on every CPU and the BLAKE2s kernel the others are tested against.
void blake2s_compress_ref(Blake2sState* state, const uint8_t* blocks, size_t block_count,
                          uint32_t counter_increment) noexcept;

#if defined(__x86_64__) || defined(_M_X64)
// Each is built with its registry row's ISA flags and runs only where the selection allows it.
void blake2s_compress_x64(Blake2sState* state, const uint8_t* blocks, size_t block_count,
                          uint32_t counter_increment) noexcept;
void blake2s_compress_ssse3(Blake2sState* state, const uint8_t* blocks, size_t block_count,
                            uint32_t counter_increment) noexcept;
void blake2s_compress_avx(Blake2sState* state, const uint8_t* blocks, size_t block_count,
                          uint32_t counter_increment) noexcept;
void blake2s_compress_avx512(Blake2sState* state, const uint8_t* blocks, size_t block_count,
                             uint32_t counter_increment) noexcept;

// One 32-bit word of each of the eight lanes per YMM lane.
void blake2s_compress8_avx2(Blake2sState* states, const uint8_t* const* blocks, size_t block_count,
                            size_t block_stride, uint32_t counter_increment) noexcept;
void blake2s_compress8_avx512(Blake2sState* states, const uint8_t* const* blocks,
                              size_t block_count, size_t block_stride,
                              uint32_t counter_increment) noexcept;
#endif
}  // namespace kernels

}  // namespace blake2simd
