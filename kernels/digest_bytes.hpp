// The digest as bytes: the first `length` bytes of the little-endian chaining value
// (RFC 7693 section 3.3), the one spelling the engines and the self-test share.
// SPDX-License-Identifier: Apache-2.0
//
// Baseline code only (it defines functions): not for files built with ISA flags.
#pragma once

#include <cstring>

#include "blake2b_state.hpp"

namespace blake2simd {

// memcpy of a whole word compiles to one store; the swap only exists on big-endian hosts. A
// partial last word is written byte by byte from a register, so no stack copy of the bytes
// past `length` (key-derived in a MAC) is left to cleanse.
inline void write_digest(const Blake2bState& state, uint8_t* out, size_t length) noexcept {
    const size_t whole_words = length / 8;
    for (size_t i = 0; i < whole_words; ++i) {
        uint64_t word = state.h[i];
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        word = __builtin_bswap64(word);
#endif
        std::memcpy(out + 8 * i, &word, sizeof word);
    }
    if (length % 8 != 0) {
        const uint64_t word = state.h[whole_words];
        for (size_t i = 0; i < length % 8; ++i) {
            out[8 * whole_words + i] = static_cast<uint8_t>(word >> (8 * i));
        }
    }
}

}  // namespace blake2simd
