// The algorithms blake2simd-sum offers: the reference b2sum's -a spellings, the tag names its
// --tag lines carry, and the provider's EVP names for them.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string_view>

namespace b2sum {

struct Algorithm {
    std::string_view option;  // -a NAME
    std::string_view tag;     // "BLAKE2b" in "BLAKE2b-256 (FILE) = ..."
    const char* digest;       // EVP_MD name
    const char* mac;          // EVP_MAC name (-k)
    unsigned max_bits;
    bool variable_length;  // -l applies (the tree modes have one output size)
    size_t max_key;        // bytes
};

inline constexpr Algorithm kAlgorithms[] = {
    {"blake2b", "BLAKE2b", "BLAKE2B-512", "BLAKE2BMAC", 512, true, 64},
    {"blake2s", "BLAKE2s", "BLAKE2S-256", "BLAKE2SMAC", 256, true, 32},
    {"blake2bp", "BLAKE2bp", "BLAKE2BP-512", "BLAKE2BPMAC", 512, false, 64},
    {"blake2sp", "BLAKE2sp", "BLAKE2SP-256", "BLAKE2SPMAC", 256, false, 32},
};
inline constexpr const Algorithm& kDefaultAlgorithm = kAlgorithms[0];

// The reference b2sum's names not offered yet (no provider algorithm behind them).
inline constexpr std::string_view kPlannedAlgorithms[] = {"blake2xb", "blake2xs"};

inline const Algorithm* find_algorithm(std::string_view option) {
    for (const Algorithm& a : kAlgorithms) {
        if (a.option == option) {
            return &a;
        }
    }
    return nullptr;
}

}  // namespace b2sum
