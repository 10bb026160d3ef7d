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
    unsigned max_bits;        // the longest -l
    unsigned default_bits;    // no -l, -l 0, a tag without a length
    bool variable_length;     // -l applies (every algorithm here: the tree modes too, as b2sum)
    bool xof;                 // BLAKE2X: -l is the output length fixed in the root hash H0
    size_t max_key;           // bytes
};

// BLAKE2X output is capped at 64 KiB here (BLAKE2Xs's own maximum is 65534 bytes): a checksum
// line is hex, and a longer one serves no checksum file.
inline constexpr unsigned kXofMaxBits = 65536 * 8;

inline constexpr Algorithm kAlgorithms[] = {
    {"blake2b", "BLAKE2b", "BLAKE2B-512", "BLAKE2BMAC", 512, 512, true, false, 64},
    {"blake2s", "BLAKE2s", "BLAKE2S-256", "BLAKE2SMAC", 256, 256, true, false, 32},
    {"blake2bp", "BLAKE2bp", "BLAKE2BP-512", "BLAKE2BPMAC", 512, 512, true, false, 64},
    {"blake2sp", "BLAKE2sp", "BLAKE2SP-256", "BLAKE2SPMAC", 256, 256, true, false, 32},
    {"blake2xb", "BLAKE2Xb", "BLAKE2XB", "BLAKE2XBMAC", kXofMaxBits, 512, true, true, 64},
    {"blake2xs", "BLAKE2Xs", "BLAKE2XS", "BLAKE2XSMAC", 65534 * 8, 256, true, true, 32},
};
inline constexpr const Algorithm& kDefaultAlgorithm = kAlgorithms[0];

// Whether a --tag line names the length ("BLAKE2b-256 (FILE)"): always for BLAKE2X, whose
// output has no natural full length; else, as in b2sum, only when it is not the full one.
inline bool tag_names_length(const Algorithm& a, unsigned bits) {
    return a.xof || bits != a.default_bits;
}

inline const Algorithm* find_algorithm(std::string_view option) {
    for (const Algorithm& a : kAlgorithms) {
        if (a.option == option) {
            return &a;
        }
    }
    return nullptr;
}

}  // namespace b2sum
