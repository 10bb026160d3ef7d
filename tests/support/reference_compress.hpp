// The test oracle for every compression kernel: BLAKE2b compression written as plainly as
// RFC 7693, section 3.2 states it, with its own copy of the constants. The shipped `ref` kernel
// is tuned for speed (kernels/compress_ref.cpp); this one stays simple and independent of it.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>

#include "blake2b_state.hpp"

namespace b2kernels_test {
namespace reference_detail {

inline constexpr uint64_t kIV[8] = {
    0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
    0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
};

// RFC 7693, section 2.7; rounds 10 and 11 reuse rows 0 and 1.
inline constexpr uint8_t kSigma[10][16] = {
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

inline uint64_t rotr64(uint64_t w, unsigned c) {
    return (w >> c) | (w << (64 - c));
}

// Byte by byte, so the word is little-endian on any host and at any alignment.
inline uint64_t load64_le(const uint8_t* p) {
    uint64_t w = 0;
    for (int i = 7; i >= 0; --i) {
        w = (w << 8) | p[i];
    }
    return w;
}

inline void mix(uint64_t v[16], int a, int b, int c, int d, uint64_t x, uint64_t y) {
    v[a] = v[a] + v[b] + x;
    v[d] = rotr64(v[d] ^ v[a], 32);
    v[c] = v[c] + v[d];
    v[b] = rotr64(v[b] ^ v[c], 24);
    v[a] = v[a] + v[b] + y;
    v[d] = rotr64(v[d] ^ v[a], 16);
    v[c] = v[c] + v[d];
    v[b] = rotr64(v[b] ^ v[c], 63);
}

inline void compress_block(blake2simd::Blake2bState* state, const uint8_t* block) {
    uint64_t m[16];
    for (int i = 0; i < 16; ++i) {
        m[i] = load64_le(block + 8 * i);
    }
    uint64_t v[16];
    for (int i = 0; i < 8; ++i) {
        v[i] = state->h[i];
        v[i + 8] = kIV[i];
    }
    v[12] ^= state->t[0];
    v[13] ^= state->t[1];
    v[14] ^= state->f[0];
    v[15] ^= state->f[1];
    for (int round = 0; round < 12; ++round) {
        const uint8_t* s = kSigma[round % 10];
        mix(v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
        mix(v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
        mix(v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
        mix(v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
        mix(v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
        mix(v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
        mix(v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
        mix(v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
    }
    for (int i = 0; i < 8; ++i) {
        state->h[i] ^= v[i] ^ v[i + 8];
    }
}

}  // namespace reference_detail

// Same contract as blake2simd::CompressFn (kernels/kernel.hpp), so it stands in for any kernel.
inline void reference_compress(blake2simd::Blake2bState* state, const uint8_t* blocks,
                               size_t block_count, uint64_t counter_increment) noexcept {
    for (size_t i = 0; i < block_count; ++i) {
        state->t[0] += counter_increment;
        state->t[1] += (state->t[0] < counter_increment) ? 1 : 0;
        reference_detail::compress_block(state, blocks + i * blake2simd::kBlockBytes);
    }
}

}  // namespace b2kernels_test
