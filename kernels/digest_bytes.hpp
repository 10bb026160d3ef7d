// The digest as bytes: the first `length` bytes of the little-endian chaining value
// (RFC 7693 section 3.3), the one spelling the engines and the self-test share.
// SPDX-License-Identifier: Apache-2.0
//
// Baseline code only (it defines functions): not for files built with ISA flags.
#pragma once

#include <cstring>

#include "blake2b_state.hpp"
#include "blake2s_state.hpp"

namespace blake2simd {

// memcpy of a whole word compiles to one store; the swap only exists on big-endian hosts. A
// partial last word is written byte by byte from a register, so no stack copy of the bytes
// past `length` (key-derived in a MAC) is left to cleanse.
template <class State>
void write_digest(const State& state, uint8_t* out, size_t length) noexcept {
    constexpr size_t kWordBytes = sizeof state.h[0];
    const size_t whole_words = length / kWordBytes;
    for (size_t i = 0; i < whole_words; ++i) {
        auto word = state.h[i];
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        if constexpr (kWordBytes == 8) {
            word = __builtin_bswap64(word);
        } else {
            word = __builtin_bswap32(word);
        }
#endif
        std::memcpy(out + kWordBytes * i, &word, sizeof word);
    }
    if (length % kWordBytes != 0) {
        const auto word = state.h[whole_words];
        for (size_t i = 0; i < length % kWordBytes; ++i) {
            out[kWordBytes * whole_words + i] = static_cast<uint8_t>(word >> (8 * i));
        }
    }
}

}  // namespace blake2simd
