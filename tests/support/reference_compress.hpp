// The test oracles for every compression kernel: rfc7693.hpp's BLAKE2b compression, and a
// BLAKE2s compression written here, both as plainly as RFC 7693 section 3.2 states them, behind
// the kernels' CompressFn and Blake2sCompressFn contracts. The shipped `ref` kernels are tuned
// for speed (kernels/compress_ref.cpp, compress_blake2s_ref.cpp); these stay simple and
// independent of them (the BLAKE2s one has its own IV and sigma).
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
        rfc7693::compress_with_flags(oracle, blocks + i * blake2simd::kBlockBytes, state->f[0],
                                     state->f[1]);
    }
    for (int i = 0; i < 8; ++i) {
        state->h[i] = oracle.h[i];
    }
    state->t[0] = oracle.t[0];
    state->t[1] = oracle.t[1];
}

namespace blake2s_oracle {

inline constexpr uint32_t kIv[8] = {
    0x6A09E667U, 0xBB67AE85U, 0x3C6EF372U, 0xA54FF53AU,
    0x510E527FU, 0x9B05688CU, 0x1F83D9ABU, 0x5BE0CD19U,
};

inline constexpr uint8_t kSchedule[10][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
};

inline uint32_t rotr(uint32_t x, int n) {
    return (x >> n) | (x << (32 - n));
}

inline uint32_t load32(const uint8_t* p) {
    return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

inline void g(uint32_t v[16], int a, int b, int c, int d, uint32_t x, uint32_t y) {
    v[a] = v[a] + v[b] + x;
    v[d] = rotr(v[d] ^ v[a], 16);
    v[c] = v[c] + v[d];
    v[b] = rotr(v[b] ^ v[c], 12);
    v[a] = v[a] + v[b] + y;
    v[d] = rotr(v[d] ^ v[a], 8);
    v[c] = v[c] + v[d];
    v[b] = rotr(v[b] ^ v[c], 7);
}

inline void compress_one(blake2simd::Blake2sState* state, const uint8_t* block) {
    uint32_t m[16];
    for (int i = 0; i < 16; ++i) {
        m[i] = load32(block + 4 * i);
    }
    uint32_t v[16];
    for (int i = 0; i < 8; ++i) {
        v[i] = state->h[i];
        v[i + 8] = kIv[i];
    }
    v[12] ^= state->t[0];
    v[13] ^= state->t[1];
    v[14] ^= state->f[0];
    v[15] ^= state->f[1];
    for (const auto& s : kSchedule) {
        g(v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
        g(v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
        g(v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
        g(v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
        g(v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
        g(v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
        g(v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
        g(v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
    }
    for (int i = 0; i < 8; ++i) {
        state->h[i] ^= v[i] ^ v[i + 8];
    }
}

}  // namespace blake2s_oracle

// Same contract as blake2simd::Blake2sCompressFn (kernels/kernel_blake2s.hpp): a 64-bit counter
// in two 32-bit words, the flags in state->f applied to every block as they are.
inline void reference_blake2s_compress(blake2simd::Blake2sState* state, const uint8_t* blocks,
                                       size_t block_count, uint32_t counter_increment) noexcept {
    for (size_t i = 0; i < block_count; ++i) {
        state->t[0] += counter_increment;
        state->t[1] += state->t[0] < counter_increment ? 1U : 0U;
        blake2s_oracle::compress_one(state, blocks + i * blake2simd::kBlake2sBlockBytes);
    }
}

}  // namespace b2kernels_test
