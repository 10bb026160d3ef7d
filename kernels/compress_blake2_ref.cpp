// Portable BLAKE2b and BLAKE2s compression (RFC 7693, section 3.2): one template, plain C++ for
// every architecture.
// SPDX-License-Identifier: Apache-2.0
//
// Shaped for speed, as the fallback every CPU without a faster kernel runs: the rounds are
// unrolled so every message index is a compile-time constant (no sigma lookups), and the four
// G functions of each half-round are interleaved step by step. The plain form, a loop over the
// sigma table, is the test oracle every kernel is checked against, this one included
// (tests/support/reference_compress.hpp).
#include <bit>
#include <cstring>
#include <utility>

#include "kernel.hpp"

namespace blake2simd::kernels {
namespace {

// What the two members' compressions differ in beyond the family traits: rounds and rotations.
template <class Family>
struct Mixing;

template <>
struct Mixing<Blake2bFamily> {
    static constexpr size_t kRounds = 12;
    static constexpr unsigned kRotations[4] = {32, 24, 16, 63};
};

template <>
struct Mixing<Blake2sFamily> {
    static constexpr size_t kRounds = kBlake2sRounds;
    static constexpr unsigned kRotations[4] = {16, 12, 8, 7};
};

template <class Word>
inline Word rotr(Word w, unsigned c) {
    return static_cast<Word>((w >> c) | (w << (8 * sizeof(Word) - c)));
}

// Little-endian at any alignment: one load on little-endian hosts (clang 14 builds an 8% faster
// kernel from memcpy than from combined bytes), the combined bytes elsewhere (GCC and clang make
// them one byte-reversing load on s390x).
template <class Word>
inline Word load_le(const uint8_t* p) {
    if constexpr (std::endian::native == std::endian::little) {
        Word w;
        std::memcpy(&w, p, sizeof w);
        return w;
    } else {
        Word w = 0;
        for (size_t i = 0; i < sizeof w; ++i) {
            w |= static_cast<Word>(Word{p[i]} << (8 * i));
        }
        return w;
    }
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
// chain after another. A G is two halves alike but for the message word (s[2i], then s[2i + 1])
// and the rotations. GCC 12 needs both hints to build it fast: without the unroll pragmas it
// keeps the loops at -O2 (five times slower), and without the forced inlining (here and on
// mix_round) it leaves some half-rounds and rounds as calls.
template <class Word, unsigned kRotD, unsigned kRotB>
[[gnu::always_inline]] inline void half_g4(Word v[16], const HalfRound& g, const Word* m,
                                           const uint8_t* s) {
    // The message word first: a is ready long before b, so one add, not two, then waits for b
    // (clang 14's BLAKE2s 2-4% faster for it; GCC orders the adds its own way).
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) {
        v[g.a[i]] += m[s[2 * i]];
    }
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) {
        v[g.a[i]] += v[g.b[i]];
    }
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) {
        v[g.d[i]] = rotr(static_cast<Word>(v[g.d[i]] ^ v[g.a[i]]), kRotD);
    }
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) {
        v[g.c[i]] = v[g.c[i]] + v[g.d[i]];
    }
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) {
        v[g.b[i]] = rotr(static_cast<Word>(v[g.b[i]] ^ v[g.c[i]]), kRotB);
    }
}

template <class Family, class Word = typename Family::Word>
[[gnu::always_inline]] inline void mix4(Word v[16], const HalfRound& g, const Word* m,
                                        const uint8_t* s) {
    constexpr const unsigned* kRot = Mixing<Family>::kRotations;
    half_g4<Word, kRot[0], kRot[1]>(v, g, m, s);
    half_g4<Word, kRot[2], kRot[3]>(v, g, m, s + 1);
}

// A template, so the sigma row is a constant and every message index resolves at compile time.
template <class Family, size_t R, class Word = typename Family::Word>
[[gnu::always_inline]] inline void mix_round(Word v[16], const Word m[16]) {
    mix4<Family>(v, kColumns, m, &kSigma[R % kSigmaRows][0]);
    mix4<Family>(v, kDiagonals, m, &kSigma[R % kSigmaRows][8]);
}

template <class Family, size_t... R>
[[gnu::always_inline]] inline void mix_rounds(typename Family::Word v[16],
                                              const typename Family::Word m[16],
                                              std::index_sequence<R...>) {
    (mix_round<Family, R>(v, m), ...);
}

// One block; the chaining value is read from the state and written back, as the single-member
// kernels before this template did. Keeping it in locals across a call's blocks instead measured
// 5% slower for clang 14's BLAKE2s and 2% faster for GCC 12's BLAKE2b, alike otherwise (Zen 4,
// kernels timed side by side).
template <class Family>
[[gnu::always_inline]] inline void compress_block(typename Family::State* state,
                                                  const uint8_t* block) noexcept {
    using Word = typename Family::Word;
    Word m[16];
#pragma GCC unroll 16
    for (int i = 0; i < 16; ++i) {
        m[i] = load_le<Word>(block + sizeof(Word) * i);
    }
    Word v[16];
    // This loop and the last are unrolled for GCC at -O2, where that measured 8% faster (GCC at
    // -O3 and clang unroll them anyway).
#pragma GCC unroll 8
    for (int i = 0; i < 8; ++i) {
        v[i] = state->h[i];
        v[i + 8] = Family::kIV[i];
    }
    v[12] ^= state->t[0];
    v[13] ^= state->t[1];
    v[14] ^= state->f[0];
    v[15] ^= state->f[1];
    mix_rounds<Family>(v, m, std::make_index_sequence<Mixing<Family>::kRounds>{});
#pragma GCC unroll 8
    for (int i = 0; i < 8; ++i) {
        state->h[i] ^= v[i] ^ v[i + 8];
    }
}

template <class Family>
void compress_blocks(typename Family::State* state, const uint8_t* blocks, size_t block_count,
                     typename Family::Word counter_increment) noexcept {
    for (size_t k = 0; k < block_count; ++k) {
        state->t[0] += counter_increment;
        state->t[1] += state->t[0] < counter_increment ? 1 : 0;
        compress_block<Family>(state, blocks + k * Family::kBlockBytes);
    }
}

}  // namespace

void blake2b_compress_ref(Blake2bState* state, const uint8_t* blocks, size_t block_count,
                          uint64_t counter_increment) noexcept {
    compress_blocks<Blake2bFamily>(state, blocks, block_count, counter_increment);
}

void blake2s_compress_ref(Blake2sState* state, const uint8_t* blocks, size_t block_count,
                          uint32_t counter_increment) noexcept {
    compress_blocks<Blake2sFamily>(state, blocks, block_count, counter_increment);
}

}  // namespace blake2simd::kernels
