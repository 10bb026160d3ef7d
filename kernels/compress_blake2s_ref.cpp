// Portable BLAKE2s compression (RFC 7693, section 3.2 with BLAKE2s's word size and rotations):
// plain C++ for every architecture.
// SPDX-License-Identifier: Apache-2.0
//
// Shaped for speed like compress_ref.cpp, as the BLAKE2s fallback every CPU without a faster
// kernel runs: the ten rounds are unrolled so every message index is a compile-time constant,
// and the four G functions of each half-round are interleaved step by step. The plain form, a
// loop over the sigma table, is the test oracle (tests/support/reference_compress.hpp).
#include <bit>
#include <cstring>

#include "kernel_blake2s.hpp"

namespace blake2simd::kernels {
namespace {

inline uint32_t rotr32(uint32_t w, unsigned c) {
    return (w >> c) | (w << (32 - c));
}

// Little-endian at any alignment: one load on little-endian hosts, the combined bytes elsewhere
// (GCC and clang make them one byte-reversing load on s390x).
inline uint32_t load32_le(const uint8_t* p) {
    if constexpr (std::endian::native == std::endian::little) {
        uint32_t w;
        std::memcpy(&w, p, sizeof w);
        return w;
    } else {
        return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
    }
}

inline void add_to_counter(Blake2sState* state, uint32_t increment) {
    state->t[0] += increment;
    state->t[1] += (state->t[0] < increment) ? 1 : 0;
}

// Which words a half-round's four G functions work on: G number i mixes
// v[a[i]], v[b[i]], v[c[i]], v[d[i]].
struct HalfRound {
    int a[4], b[4], c[4], d[4];
};
inline constexpr HalfRound kColumns = {
    {0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}, {12, 13, 14, 15}};
inline constexpr HalfRound kDiagonals = {
    {0, 1, 2, 3}, {5, 6, 7, 4}, {10, 11, 8, 9}, {15, 12, 13, 14}};

// Each step written for all four independent G functions at once, so the compiler interleaves
// four dependency chains; the unroll pragmas and forced inlining are needed by GCC 12 for the
// same reasons as in compress_ref.cpp.
[[gnu::always_inline]] inline void mix4(uint32_t v[16], const HalfRound& g, const uint32_t m[16],
                                        const uint8_t* s) {
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) {
        v[g.a[i]] = v[g.a[i]] + v[g.b[i]] + m[s[2 * i]];
    }
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) {
        v[g.d[i]] = rotr32(v[g.d[i]] ^ v[g.a[i]], 16);
    }
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) {
        v[g.c[i]] = v[g.c[i]] + v[g.d[i]];
    }
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) {
        v[g.b[i]] = rotr32(v[g.b[i]] ^ v[g.c[i]], 12);
    }
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) {
        v[g.a[i]] = v[g.a[i]] + v[g.b[i]] + m[s[2 * i + 1]];
    }
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) {
        v[g.d[i]] = rotr32(v[g.d[i]] ^ v[g.a[i]], 8);
    }
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) {
        v[g.c[i]] = v[g.c[i]] + v[g.d[i]];
    }
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) {
        v[g.b[i]] = rotr32(v[g.b[i]] ^ v[g.c[i]], 7);
    }
}

// A template, so the sigma row is a constant and every message index resolves at compile time.
template <int R>
[[gnu::always_inline]] inline void mix_round(uint32_t v[16], const uint32_t m[16]) {
    mix4(v, kColumns, m, &kSigma[R][0]);
    mix4(v, kDiagonals, m, &kSigma[R][8]);
}

void compress_block(Blake2sState* state, const uint8_t* block) {
    uint32_t m[16];
#pragma GCC unroll 16
    for (int i = 0; i < 16; ++i) {
        m[i] = load32_le(block + 4 * i);
    }
    uint32_t v[16];
#pragma GCC unroll 8
    for (int i = 0; i < 8; ++i) {
        v[i] = state->h[i];
        v[i + 8] = kBlake2sIV[i];
    }
    v[12] ^= state->t[0];
    v[13] ^= state->t[1];
    v[14] ^= state->f[0];
    v[15] ^= state->f[1];
    mix_round<0>(v, m);
    mix_round<1>(v, m);
    mix_round<2>(v, m);
    mix_round<3>(v, m);
    mix_round<4>(v, m);
    mix_round<5>(v, m);
    mix_round<6>(v, m);
    mix_round<7>(v, m);
    mix_round<8>(v, m);
    mix_round<9>(v, m);
#pragma GCC unroll 8
    for (int i = 0; i < 8; ++i) {
        state->h[i] ^= v[i] ^ v[i + 8];
    }
}

}  // namespace

void blake2s_compress_ref(Blake2sState* state, const uint8_t* blocks, size_t block_count,
                          uint32_t counter_increment) noexcept {
    for (size_t i = 0; i < block_count; ++i) {
        add_to_counter(state, counter_increment);
        compress_block(state, blocks + i * kBlake2sBlockBytes);
    }
}

}  // namespace blake2simd::kernels
