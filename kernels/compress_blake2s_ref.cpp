// Portable BLAKE2s compression (RFC 7693, section 3.2 with BLAKE2s's word size and rotations).
// SPDX-License-Identifier: Apache-2.0
#include <bit>
#include <cstring>

#include "kernel_blake2s.hpp"

namespace blake2simd::kernels {
namespace {

inline uint32_t load32_le(const uint8_t* p) {
    if constexpr (std::endian::native == std::endian::little) {
        uint32_t w;
        std::memcpy(&w, p, sizeof w);
        return w;
    } else {
        return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
    }
}

inline void g(uint32_t v[16], int a, int b, int c, int d, uint32_t x, uint32_t y) {
    v[a] = v[a] + v[b] + x;
    v[d] = std::rotr(v[d] ^ v[a], 16);
    v[c] = v[c] + v[d];
    v[b] = std::rotr(v[b] ^ v[c], 12);
    v[a] = v[a] + v[b] + y;
    v[d] = std::rotr(v[d] ^ v[a], 8);
    v[c] = v[c] + v[d];
    v[b] = std::rotr(v[b] ^ v[c], 7);
}

void compress_one(Blake2sState* state, const uint8_t* block) {
    uint32_t m[16];
    for (int i = 0; i < 16; ++i) {
        m[i] = load32_le(block + 4 * i);
    }
    uint32_t v[16];
    for (int i = 0; i < 8; ++i) {
        v[i] = state->h[i];
        v[i + 8] = kBlake2sIV[i];
    }
    v[12] ^= state->t[0];
    v[13] ^= state->t[1];
    v[14] ^= state->f[0];
    v[15] ^= state->f[1];
    for (size_t r = 0; r < kBlake2sRounds; ++r) {
        const uint8_t* s = kSigma[r];
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

}  // namespace

void blake2s_compress_ref(Blake2sState* state, const uint8_t* blocks, size_t block_count,
                          uint32_t counter_increment) noexcept {
    for (size_t k = 0; k < block_count; ++k) {
        state->t[0] += counter_increment;
        state->t[1] += (state->t[0] < counter_increment) ? 1 : 0;
        compress_one(state, blocks + k * kBlake2sBlockBytes);
    }
}

}  // namespace blake2simd::kernels
