// The two members of the BLAKE2 family as types: what the engines, params and contexts are
// templated on, so BLAKE2s and BLAKE2sp reuse BLAKE2b's code rather than copy it.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernel_families.hpp"

namespace blake2simd {

// The kernels' traits of each member (kernels/kernel_families.hpp: word, state, compression
// contracts, block size, leaves of its tree mode) plus what only the engines and params need.
struct Blake2bFamily : Blake2bKernels {
    static constexpr size_t kMaxKeyBytes = kBlake2bMaxKeyBytes;
    static constexpr size_t kSaltBytes = kBlake2bSaltBytes;
    static constexpr size_t kPersonalBytes = kBlake2bPersonalBytes;
};

struct Blake2sFamily : Blake2sKernels {
    static constexpr size_t kMaxKeyBytes = kBlake2sMaxKeyBytes;
    static constexpr size_t kSaltBytes = kBlake2sSaltBytes;
    static constexpr size_t kPersonalBytes = kBlake2sPersonalBytes;
};

// The parameter block (RFC 7693 section 2.8 and the BLAKE2 paper's tree fields); node_offset
// is 48 bits in BLAKE2s.
template <class Family>
struct Blake2Params {
    uint8_t digest_length = Family::kMaxDigestBytes;
    uint8_t key_length = 0;
    uint8_t fanout = 1;
    uint8_t depth = 1;
    uint32_t leaf_length = 0;
    uint64_t node_offset = 0;
    uint8_t node_depth = 0;
    uint8_t inner_length = 0;
    uint8_t salt[Family::kSaltBytes] = {};
    uint8_t personal[Family::kPersonalBytes] = {};
};

namespace family_detail {
// memcpy compiles to one load; the swap only exists on big-endian hosts.
template <class Word>
Word load_le(const uint8_t* p) noexcept {
    Word w;
    std::memcpy(&w, p, sizeof w);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    if constexpr (sizeof(Word) == 8) {
        w = __builtin_bswap64(w);
    } else {
        w = __builtin_bswap32(w);
    }
#endif
    return w;
}
}  // namespace family_detail

// Initial chaining value: IV xor the little-endian parameter block, built word by word (this
// runs at every init, so no byte-wise serialization).
inline void initial_chaining_value(const Blake2Params<Blake2bFamily>& params,
                                   uint64_t h[8]) noexcept {
    using family_detail::load_le;
    const uint64_t first_word = uint64_t{params.digest_length} | uint64_t{params.key_length} << 8 |
                                uint64_t{params.fanout} << 16 | uint64_t{params.depth} << 24 |
                                uint64_t{params.leaf_length} << 32;
    const uint64_t third_word = uint64_t{params.node_depth} | uint64_t{params.inner_length} << 8;
    h[0] = kBlake2bIV[0] ^ first_word;
    h[1] = kBlake2bIV[1] ^ params.node_offset;
    h[2] = kBlake2bIV[2] ^ third_word;
    h[3] = kBlake2bIV[3];
    h[4] = kBlake2bIV[4] ^ load_le<uint64_t>(params.salt);
    h[5] = kBlake2bIV[5] ^ load_le<uint64_t>(params.salt + 8);
    h[6] = kBlake2bIV[6] ^ load_le<uint64_t>(params.personal);
    h[7] = kBlake2bIV[7] ^ load_le<uint64_t>(params.personal + 8);
}

inline void initial_chaining_value(const Blake2Params<Blake2sFamily>& params,
                                   uint32_t h[8]) noexcept {
    using family_detail::load_le;
    const uint32_t first_word = uint32_t{params.digest_length} | uint32_t{params.key_length} << 8 |
                                uint32_t{params.fanout} << 16 | uint32_t{params.depth} << 24;
    const uint32_t fourth_word = static_cast<uint32_t>(params.node_offset >> 32 & 0xffff) |
                                 uint32_t{params.node_depth} << 16 |
                                 uint32_t{params.inner_length} << 24;
    h[0] = kBlake2sIV[0] ^ first_word;
    h[1] = kBlake2sIV[1] ^ params.leaf_length;
    h[2] = kBlake2sIV[2] ^ static_cast<uint32_t>(params.node_offset);
    h[3] = kBlake2sIV[3] ^ fourth_word;
    h[4] = kBlake2sIV[4] ^ load_le<uint32_t>(params.salt);
    h[5] = kBlake2sIV[5] ^ load_le<uint32_t>(params.salt + 4);
    h[6] = kBlake2sIV[6] ^ load_le<uint32_t>(params.personal);
    h[7] = kBlake2sIV[7] ^ load_le<uint32_t>(params.personal + 4);
}

}  // namespace blake2simd
