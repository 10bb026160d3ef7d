// BlaMka block compression (Argon2's G) with SSSE3: two words per XMM register, a block in 64
// (built with -mssse3).
// SPDX-License-Identifier: Apache-2.0
#include <immintrin.h>

#include "kernel.hpp"

namespace blake2simd::kernels {
namespace {

#define B2_BODY_ALWAYS_INLINE inline __attribute__((always_inline))

// x + y + 2 * lo32(x) * lo32(y) per word.
B2_BODY_ALWAYS_INLINE __m128i blamka_add(__m128i x, __m128i y) {
    const __m128i product = _mm_mul_epu32(x, y);
    return _mm_add_epi64(_mm_add_epi64(x, y), _mm_add_epi64(product, product));
}

B2_BODY_ALWAYS_INLINE __m128i rotr32(__m128i x) {
    return _mm_shuffle_epi32(x, _MM_SHUFFLE(2, 3, 0, 1));
}
B2_BODY_ALWAYS_INLINE __m128i rotr24(__m128i x) {
    return _mm_shuffle_epi8(x, _mm_setr_epi8(3, 4, 5, 6, 7, 0, 1, 2, 11, 12, 13, 14, 15, 8, 9, 10));
}
B2_BODY_ALWAYS_INLINE __m128i rotr16(__m128i x) {
    return _mm_shuffle_epi8(x, _mm_setr_epi8(2, 3, 4, 5, 6, 7, 0, 1, 10, 11, 12, 13, 14, 15, 8, 9));
}
B2_BODY_ALWAYS_INLINE __m128i rotr63(__m128i x) {
    return _mm_xor_si128(_mm_srli_epi64(x, 63), _mm_add_epi64(x, x));
}

B2_BODY_ALWAYS_INLINE void mix(__m128i& a, __m128i& b, __m128i& c, __m128i& d) {
    a = blamka_add(a, b);
    d = rotr32(_mm_xor_si128(d, a));
    c = blamka_add(c, d);
    b = rotr24(_mm_xor_si128(b, c));
    a = blamka_add(a, b);
    d = rotr16(_mm_xor_si128(d, a));
    c = blamka_add(c, d);
    b = rotr63(_mm_xor_si128(b, c));
}

// The four words of (x0, x1) rotated by one: (w0, w1), (w2, w3) -> (w1, w2), (w3, w0).
B2_BODY_ALWAYS_INLINE void rotate_words(__m128i& x0, __m128i& x1) {
    const __m128i low = _mm_alignr_epi8(x1, x0, 8);
    x1 = _mm_alignr_epi8(x0, x1, 8);
    x0 = low;
}

B2_BODY_ALWAYS_INLINE void swap(__m128i& x0, __m128i& x1) {
    const __m128i t = x0;
    x0 = x1;
    x1 = t;
}

// P over 16 words held as a0 = (w0, w1), a1 = (w2, w3), b0 = (w4, w5), ... d1 = (w14, w15):
// columns, then the diagonals by rotating b, c and d by one, two and three words, and back.
B2_BODY_ALWAYS_INLINE void permute(__m128i* v0, __m128i* v1, __m128i* v2, __m128i* v3, __m128i* v4,
                                   __m128i* v5, __m128i* v6, __m128i* v7) {
    __m128i a0 = *v0, a1 = *v1, b0 = *v2, b1 = *v3, c0 = *v4, c1 = *v5, d0 = *v6, d1 = *v7;
    mix(a0, b0, c0, d0);
    mix(a1, b1, c1, d1);
    rotate_words(b0, b1);  // (w5, w6), (w7, w4)
    swap(c0, c1);
    rotate_words(d0, d1);
    swap(d0, d1);  // (w15, w12), (w13, w14)
    mix(a0, b0, c0, d0);
    mix(a1, b1, c1, d1);
    rotate_words(b0, b1);
    swap(b0, b1);
    swap(c0, c1);
    rotate_words(d0, d1);
    *v0 = a0, *v1 = a1, *v2 = b0, *v3 = b1, *v4 = c0, *v5 = c1, *v6 = d0, *v7 = d1;
}

constexpr size_t kRegisters = kArgon2BlockWords / 2;

}  // namespace

void fill_block_ssse3(uint64_t* next, const uint64_t* previous, const uint64_t* reference,
                      bool xor_into_next) noexcept {
    __m128i r[kRegisters];
    __m128i q[kRegisters];
    for (size_t i = 0; i < kRegisters; ++i) {
        r[i] = _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(previous) + i),
                             _mm_loadu_si128(reinterpret_cast<const __m128i*>(reference) + i));
        q[i] = r[i];
    }
    for (size_t row = 0; row < 8; ++row) {  // row k: registers 8k .. 8k + 7
        __m128i* v = q + 8 * row;
        permute(v, v + 1, v + 2, v + 3, v + 4, v + 5, v + 6, v + 7);
    }
    for (size_t column = 0; column < 8; ++column) {  // words 2i, 2i + 1 of every row: i + 8k
        __m128i* v = q + column;
        permute(v, v + 8, v + 16, v + 24, v + 32, v + 40, v + 48, v + 56);
    }
    auto* out = reinterpret_cast<__m128i*>(next);
    for (size_t i = 0; i < kRegisters; ++i) {
        const __m128i z = _mm_xor_si128(q[i], r[i]);
        _mm_storeu_si128(out + i, xor_into_next ? _mm_xor_si128(_mm_loadu_si128(out + i), z) : z);
    }
}

}  // namespace blake2simd::kernels
