// Portable reference BLAKE2b compression (RFC 7693, section 3.2).
// SPDX-License-Identifier: Apache-2.0
#include <string.h>

#include "kernel.hpp"

namespace blake2simd::kernels {
namespace {

inline uint64_t rotr64(uint64_t w, unsigned c) {
    return (w >> c) | (w << (64 - c));
}

inline uint64_t load64_le(const uint8_t* p) {
    // Assembled byte by byte so the result is little-endian on any host and any alignment.
    uint64_t w = 0;
    for (int i = 7; i >= 0; --i) {
        w = (w << 8) | p[i];
    }
    return w;
}

inline void add_to_counter(Blake2bState* state, uint64_t increment) {
    state->t[0] += increment;
    state->t[1] += (state->t[0] < increment) ? 1 : 0;
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

void compress_block(Blake2bState* state, const uint8_t* block) {
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
    for (const auto& s : kSigma) {
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

}  // namespace

void compress_ref(Blake2bState* state, const uint8_t* blocks, size_t block_count,
                  uint64_t counter_increment) noexcept {
    for (size_t i = 0; i < block_count; ++i) {
        add_to_counter(state, counter_increment);
        compress_block(state, blocks + i * kBlockBytes);
    }
}

}  // namespace blake2simd::kernels
