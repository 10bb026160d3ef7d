// Portable BlaMka block compression (Argon2's G, RFC 9106 section 3.5): the fallback on every
// architecture and the oracle the other BlaMka kernels are tested against.
// SPDX-License-Identifier: Apache-2.0
#include "kernel.hpp"

namespace blake2simd::kernels {
namespace {

inline uint64_t rotr(uint64_t w, unsigned c) {
    return (w >> c) | (w << (64 - c));
}

// x + y + 2 * lo32(x) * lo32(y): BLAKE2b's addition made multiplication-hard.
inline uint64_t blamka(uint64_t x, uint64_t y) {
    return x + y + 2 * (x & 0xffffffffULL) * (y & 0xffffffffULL);
}

inline void mix(uint64_t& a, uint64_t& b, uint64_t& c, uint64_t& d) {
    a = blamka(a, b);
    d = rotr(d ^ a, 32);
    c = blamka(c, d);
    b = rotr(b ^ c, 24);
    a = blamka(a, b);
    d = rotr(d ^ a, 16);
    c = blamka(c, d);
    b = rotr(b ^ c, 63);
}

// P over the 16 words w[at[0]], ..., w[at[15]]: four column mixes, then four diagonal ones.
inline void permute(uint64_t* w, const size_t (&at)[16]) {
    mix(w[at[0]], w[at[4]], w[at[8]], w[at[12]]);
    mix(w[at[1]], w[at[5]], w[at[9]], w[at[13]]);
    mix(w[at[2]], w[at[6]], w[at[10]], w[at[14]]);
    mix(w[at[3]], w[at[7]], w[at[11]], w[at[15]]);
    mix(w[at[0]], w[at[5]], w[at[10]], w[at[15]]);
    mix(w[at[1]], w[at[6]], w[at[11]], w[at[12]]);
    mix(w[at[2]], w[at[7]], w[at[8]], w[at[13]]);
    mix(w[at[3]], w[at[4]], w[at[9]], w[at[14]]);
}

}  // namespace

void fill_block_ref(uint64_t* next, const uint64_t* previous, const uint64_t* reference,
                    bool xor_into_next) noexcept {
    uint64_t r[kArgon2BlockWords];
    uint64_t q[kArgon2BlockWords];
    for (size_t i = 0; i < kArgon2BlockWords; ++i) {
        r[i] = previous[i] ^ reference[i];
        q[i] = r[i];
    }
    for (size_t row = 0; row < 8; ++row) {
        size_t at[16];
        for (size_t k = 0; k < 16; ++k) {
            at[k] = 16 * row + k;
        }
        permute(q, at);
    }
    for (size_t column = 0; column < 8; ++column) {
        size_t at[16];
        for (size_t k = 0; k < 8; ++k) {
            at[2 * k] = 2 * column + 16 * k;
            at[2 * k + 1] = 2 * column + 16 * k + 1;
        }
        permute(q, at);
    }
    for (size_t i = 0; i < kArgon2BlockWords; ++i) {
        next[i] = (xor_into_next ? next[i] : 0) ^ q[i] ^ r[i];
    }
}

}  // namespace blake2simd::kernels
