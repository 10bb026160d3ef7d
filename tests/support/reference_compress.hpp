// The test oracles for every compression kernel: rfc7693.hpp's BLAKE2b and BLAKE2s compressions,
// as plainly as RFC 7693 section 3.2 states them, behind the kernels' CompressFn and
// Blake2sCompressFn contracts. The shipped `ref` kernels are tuned for speed
// (kernels/compress_blake2_ref.cpp); these stay simple and independent of
// them (own IV, sigma and parameter block).
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>

#include "blake2b_state.hpp"
#include "blake2s_state.hpp"
#include "rfc7693.hpp"

namespace b2kernels_test {

// Same contract as blake2simd::CompressFn (kernels/kernel.hpp), so it stands in for any kernel:
// the flags in state->f apply to every block as they are.
inline void reference_compress(blake2simd::Blake2bState* state, const uint8_t* blocks,
                               size_t block_count, uint64_t counter_increment) noexcept {
    rfc7693::State oracle{};
    for (int i = 0; i < 8; ++i) {
        oracle.h[i] = state->h[i];
    }
    oracle.t[0] = state->t[0];
    oracle.t[1] = state->t[1];
    for (size_t i = 0; i < block_count; ++i) {
        rfc7693::add_to_counter(oracle, counter_increment);
        rfc7693::compress_with_flags(oracle, blocks + i * blake2simd::kBlake2bBlockBytes,
                                     state->f[0], state->f[1]);
    }
    for (int i = 0; i < 8; ++i) {
        state->h[i] = oracle.h[i];
    }
    state->t[0] = oracle.t[0];
    state->t[1] = oracle.t[1];
}

// Same contract as blake2simd::Blake2sCompressFn (kernels/kernel.hpp): a 64-bit counter
// in two 32-bit words, the flags in state->f applied to every block as they are.
inline void reference_blake2s_compress(blake2simd::Blake2sState* state, const uint8_t* blocks,
                                       size_t block_count, uint32_t counter_increment) noexcept {
    rfc7693::blake2s::State oracle{};
    for (int i = 0; i < 8; ++i) {
        oracle.h[i] = state->h[i];
    }
    oracle.t[0] = state->t[0];
    oracle.t[1] = state->t[1];
    for (size_t i = 0; i < block_count; ++i) {
        rfc7693::blake2s::add_to_counter(oracle, counter_increment);
        rfc7693::blake2s::compress_with_flags(oracle, blocks + i * blake2simd::kBlake2sBlockBytes,
                                              state->f[0], state->f[1]);
    }
    for (int i = 0; i < 8; ++i) {
        state->h[i] = oracle.h[i];
    }
    state->t[0] = oracle.t[0];
    state->t[1] = oracle.t[1];
}

}  // namespace b2kernels_test
