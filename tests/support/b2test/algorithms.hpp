// The four BLAKE2 algorithm pairs (digest + MAC) our provider serves, with the limits a test
// derives its inputs from, so one test body covers BLAKE2b, BLAKE2s and their tree modes.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace b2test {

struct Blake2Algorithm {
    const char* label;   // "blake2b", "blake2s", "blake2bp", "blake2sp" (the CTest labels)
    const char* digest;  // EVP names
    const char* mac;
    size_t max_size;     // digest bytes; the tree modes have no other size
    size_t max_key;      // MAC key bytes, 1..max_key
    size_t max_salt;     // salt and custom bytes (the same limit); 0: refused (tree modes)
    size_t block_bytes;  // one compression block (of a leaf, for the tree modes)
    bool tree;           // size fixed at max_size, no salt/custom
};

inline constexpr Blake2Algorithm kBlake2b{.label = "blake2b",
                                          .digest = "BLAKE2B-512",
                                          .mac = "BLAKE2BMAC",
                                          .max_size = 64,
                                          .max_key = 64,
                                          .max_salt = 16,
                                          .block_bytes = 128,
                                          .tree = false};
inline constexpr Blake2Algorithm kBlake2s{.label = "blake2s",
                                          .digest = "BLAKE2S-256",
                                          .mac = "BLAKE2SMAC",
                                          .max_size = 32,
                                          .max_key = 32,
                                          .max_salt = 8,
                                          .block_bytes = 64,
                                          .tree = false};
inline constexpr Blake2Algorithm kBlake2bp{.label = "blake2bp",
                                           .digest = "BLAKE2BP-512",
                                           .mac = "BLAKE2BPMAC",
                                           .max_size = 64,
                                           .max_key = 64,
                                           .max_salt = 0,
                                           .block_bytes = 128,
                                           .tree = true};
inline constexpr Blake2Algorithm kBlake2sp{.label = "blake2sp",
                                           .digest = "BLAKE2SP-256",
                                           .mac = "BLAKE2SPMAC",
                                           .max_size = 32,
                                           .max_key = 32,
                                           .max_salt = 0,
                                           .block_bytes = 64,
                                           .tree = true};
inline constexpr const Blake2Algorithm* kAllAlgorithms[] = {&kBlake2b, &kBlake2s, &kBlake2bp,
                                                            &kBlake2sp};

// The algorithm with this label, or nullptr.
inline const Blake2Algorithm* find_algorithm(std::string_view label) noexcept {
    for (const Blake2Algorithm* algorithm : kAllAlgorithms) {
        if (label == algorithm->label) {
            return algorithm;
        }
    }
    return nullptr;
}

}  // namespace b2test
