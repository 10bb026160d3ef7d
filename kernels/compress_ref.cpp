// Portable BLAKE2b compression (RFC 7693, section 3.2): plain C++ for every architecture.
// SPDX-License-Identifier: Apache-2.0
//
// Shaped for speed, as the fallback every CPU without a faster kernel runs: the twelve rounds are
// unrolled so every message index is a compile-time constant (no sigma lookups), and the four G
// functions of each half-round are interleaved step by step. The plain form, a loop over the
// sigma table, is the test oracle every kernel is checked against, this one included
// (tests/support/reference_compress.hpp).
#include <bit>
#include <cstring>

#include "kernel.hpp"

namespace blake2simd::kernels {
namespace {

inline uint64_t rotr64(uint64_t w, unsigned c) {
    return (w >> c) | (w << (64 - c));
}

// Little-endian at any alignment. Both forms compile to one load on little-endian hosts, but
// clang 14 builds an 8% faster kernel from memcpy; the combined bytes serve the other hosts
// (GCC and clang make them one byte-reversing load on s390x).
inline uint64_t load64_le(const uint8_t* p) {
    if constexpr (std::endian::native == std::endian::little) {
        uint64_t w;
        std::memcpy(&w, p, sizeof w);
        return w;
    } else {
        return uint64_t{p[0]} | uint64_t{p[1]} << 8 | uint64_t{p[2]} << 16 | uint64_t{p[3]} << 24 |
               uint64_t{p[4]} << 32 | uint64_t{p[5]} << 40 | uint64_t{p[6]} << 48 |
               uint64_t{p[7]} << 56;
    }
}

inline void add_to_counter(Blake2bState* state, uint64_t increment) {
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

// The four G functions of a half-round are independent, so each step is written for all four
// at once: the compiler then interleaves four dependency chains instead of running one G's long
// chain after another. G number i takes message words m[s[2i]] and m[s[2i + 1]].
// GCC 12 needs both hints to build it fast: without the unroll pragmas it keeps the loops at -O2
// (five times slower), and without the forced inlining (here and on mix_round) it leaves some
// half-rounds and rounds as calls.
[[gnu::always_inline]] inline void mix4(uint64_t v[16], const HalfRound& g, const uint64_t m[16],
                                        const uint8_t* s) {
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) {
        v[g.a[i]] = v[g.a[i]] + v[g.b[i]] + m[s[2 * i]];
    }
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) {
        v[g.d[i]] = rotr64(v[g.d[i]] ^ v[g.a[i]], 32);
    }
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) {
        v[g.c[i]] = v[g.c[i]] + v[g.d[i]];
    }
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) {
        v[g.b[i]] = rotr64(v[g.b[i]] ^ v[g.c[i]], 24);
    }
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) {
        v[g.a[i]] = v[g.a[i]] + v[g.b[i]] + m[s[2 * i + 1]];
    }
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) {
        v[g.d[i]] = rotr64(v[g.d[i]] ^ v[g.a[i]], 16);
    }
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) {
        v[g.c[i]] = v[g.c[i]] + v[g.d[i]];
    }
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) {
        v[g.b[i]] = rotr64(v[g.b[i]] ^ v[g.c[i]], 63);
    }
}

// A template, so the sigma row is a constant and every message index resolves at compile time.
template <int R>
[[gnu::always_inline]] inline void mix_round(uint64_t v[16], const uint64_t m[16]) {
    mix4(v, kColumns, m, &kSigma[R][0]);
    mix4(v, kDiagonals, m, &kSigma[R][8]);
}

void compress_block(Blake2bState* state, const uint8_t* block) {
    uint64_t m[16];
    for (int i = 0; i < 16; ++i) {
        m[i] = load64_le(block + 8 * i);
    }
    uint64_t v[16];
    // This loop and the last are unrolled for GCC at -O2, where that measured 8% faster (GCC at
    // -O3 and clang unroll them anyway).
#pragma GCC unroll 8
    for (int i = 0; i < 8; ++i) {
        v[i] = state->h[i];
        v[i + 8] = kIV[i];
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
    mix_round<10>(v, m);
    mix_round<11>(v, m);
#pragma GCC unroll 8
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
