// BLAKE2s chaining state and constants shared by every BLAKE2s and BLAKE2sp compression kernel.
// SPDX-License-Identifier: Apache-2.0
//
// Restricted header (see blake2b_state.hpp): included by files built with ISA flags, so it
// defines no functions and pulls in no STL.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "blake2b_state.hpp"

namespace blake2simd {

inline constexpr size_t kBlake2sBlockBytes = 64;
inline constexpr size_t kBlake2sMaxDigestBytes = 32;
inline constexpr size_t kBlake2sMaxKeyBytes = 32;
inline constexpr size_t kBlake2sSaltBytes = 8;
inline constexpr size_t kBlake2sPersonalBytes = 8;
// One round for each row of kSigma (blake2b_state.hpp).
inline constexpr size_t kBlake2sRounds = kSigmaRows;

// No alignas: instances live inside contexts that OpenSSL allocates with malloc alignment.
struct Blake2sState {
    uint32_t h[8];  // chaining value
    uint32_t t[2];  // 64-bit byte counter, low word first
    uint32_t f[2];  // finalization flags: f[0] last block, f[1] last node (tree modes)
};

// SHA-256's initial hash value, as RFC 7693 section 2.6 specifies.
inline constexpr uint32_t kBlake2sIV[8] = {
    0x6a09e667U, 0xbb67ae85U, 0x3c6ef372U, 0xa54ff53aU,
    0x510e527fU, 0x9b05688cU, 0x1f83d9abU, 0x5be0cd19U,
};

}  // namespace blake2simd
