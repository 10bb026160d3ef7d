// An independent BLAKE2b and BLAKE2s (straight RFC 7693 code, full counters) with their tree modes
// BLAKE2bp and BLAKE2sp: the oracle of the engine and provider tests, and
// (reference_compress.hpp) of the kernel tests.
// SPDX-License-Identifier: Apache-2.0
//
// Deliberately shares nothing with kernels/ or provider/: its own IV, sigma and parameter
// block, so a mistake there cannot hide in both the tested code and its oracle.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace rfc7693 {

struct State {
    uint64_t h[8];
    uint64_t t[2];  // t[0] low word
};

inline uint64_t rotr(uint64_t x, int n) {
    return (x >> n) | (x << (64 - n));
}

inline uint64_t load64(const uint8_t* p) {
    uint64_t w = 0;
    for (int i = 7; i >= 0; --i) {
        w = (w << 8) | p[i];
    }
    return w;
}

inline constexpr uint64_t kIv[8] = {
    0x6A09E667F3BCC908ULL, 0xBB67AE8584CAA73BULL, 0x3C6EF372FE94F82BULL, 0xA54FF53A5F1D36F1ULL,
    0x510E527FADE682D1ULL, 0x9B05688C2B3E6C1FULL, 0x1F83D9ABFB41BD6BULL, 0x5BE0CD19137E2179ULL,
};

inline constexpr uint8_t kSchedule[10][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
};

// RFC 7693 section 3.2, function F, with the flag words f0 (last block) and f1 (last node)
// as given; the caller has already added the block's bytes to t.
inline void compress_with_flags(State& s, const uint8_t block[128], uint64_t f0, uint64_t f1) {
    uint64_t m[16];
    uint64_t v[16];
    for (int i = 0; i < 16; ++i) {
        m[i] = load64(block + 8 * i);
    }
    for (int i = 0; i < 8; ++i) {
        v[i] = s.h[i];
        v[i + 8] = kIv[i];
    }
    v[12] ^= s.t[0];
    v[13] ^= s.t[1];
    v[14] ^= f0;
    v[15] ^= f1;
    auto g = [&v](int a, int b, int c, int d, uint64_t x, uint64_t y) {
        v[a] = v[a] + v[b] + x;
        v[d] = rotr(v[d] ^ v[a], 32);
        v[c] = v[c] + v[d];
        v[b] = rotr(v[b] ^ v[c], 24);
        v[a] = v[a] + v[b] + y;
        v[d] = rotr(v[d] ^ v[a], 16);
        v[c] = v[c] + v[d];
        v[b] = rotr(v[b] ^ v[c], 63);
    };
    for (int round = 0; round < 12; ++round) {
        const uint8_t* s8 = kSchedule[round % 10];
        g(0, 4, 8, 12, m[s8[0]], m[s8[1]]);
        g(1, 5, 9, 13, m[s8[2]], m[s8[3]]);
        g(2, 6, 10, 14, m[s8[4]], m[s8[5]]);
        g(3, 7, 11, 15, m[s8[6]], m[s8[7]]);
        g(0, 5, 10, 15, m[s8[8]], m[s8[9]]);
        g(1, 6, 11, 12, m[s8[10]], m[s8[11]]);
        g(2, 7, 8, 13, m[s8[12]], m[s8[13]]);
        g(3, 4, 9, 14, m[s8[14]], m[s8[15]]);
    }
    for (int i = 0; i < 8; ++i) {
        s.h[i] ^= v[i] ^ v[i + 8];
    }
}

inline void compress(State& s, const uint8_t block[128], bool last, bool last_node = false) {
    // last_node: tree modes, the last node of its level
    compress_with_flags(s, block, last ? ~0ULL : 0, last_node ? ~0ULL : 0);
}

inline void add_to_counter(State& s, uint64_t bytes) {
    s.t[0] += bytes;
    if (s.t[0] < bytes) {
        ++s.t[1];
    }
}

struct Options {
    size_t out_len = 64;
    const uint8_t* key = nullptr;
    size_t key_len = 0;
    const uint8_t* salt = nullptr;      // 16 bytes or nullptr
    const uint8_t* personal = nullptr;  // 16 bytes or nullptr
    // Tree parameters (BLAKE2 paper section 2.10); the defaults are sequential mode.
    uint8_t fanout = 1;
    uint8_t depth = 1;
    uint64_t node_offset = 0;
    uint8_t node_depth = 0;
    uint8_t inner_length = 0;
};

// h0 from the parameter block.
inline State initial_state(const Options& o) {
    uint8_t block[64] = {};
    block[0] = static_cast<uint8_t>(o.out_len);
    block[1] = static_cast<uint8_t>(o.key_len);
    block[2] = o.fanout;
    block[3] = o.depth;
    for (int i = 0; i < 8; ++i) {  // bytes 8..15, little-endian (leaf length 4..7 stays 0)
        block[8 + i] = static_cast<uint8_t>(o.node_offset >> (8 * i));
    }
    block[16] = o.node_depth;
    block[17] = o.inner_length;
    if (o.salt != nullptr) {
        std::memcpy(block + 32, o.salt, 16);
    }
    if (o.personal != nullptr) {
        std::memcpy(block + 48, o.personal, 16);
    }
    State s{};
    for (int i = 0; i < 8; ++i) {
        s.h[i] = kIv[i] ^ load64(block + 8 * i);
    }
    return s;
}

// Continues from `s` (which already counts every byte before `data`) to the digest.
inline std::vector<uint8_t> finish_from(State s, const uint8_t* data, size_t len, size_t out_len,
                                        bool last_node = false) {
    uint8_t block[128];
    while (len > 128) {
        add_to_counter(s, 128);
        compress(s, data, false);
        data += 128;
        len -= 128;
    }
    std::memset(block, 0, sizeof block);
    if (len > 0) {
        std::memcpy(block, data, len);
    }
    add_to_counter(s, len);
    compress(s, block, true, last_node);
    std::vector<uint8_t> out(out_len);
    for (size_t i = 0; i < out_len; ++i) {
        out[i] = static_cast<uint8_t>(s.h[i / 8] >> (8 * (i % 8)));
    }
    return out;
}

// The chaining state after the key block (a keyed hash with a non-empty message continues
// from here).
inline State keyed_state(const Options& o) {
    State s = initial_state(o);
    uint8_t block[128] = {};
    std::memcpy(block, o.key, o.key_len);
    add_to_counter(s, 128);
    compress(s, block, false);
    return s;
}

inline std::vector<uint8_t> hash(const Options& o, const uint8_t* data, size_t len,
                                 bool last_node = false) {
    if (o.key_len == 0) {
        return finish_from(initial_state(o), data, len, o.out_len, last_node);
    }
    if (len == 0) {  // the key block is the last block
        uint8_t block[128] = {};
        std::memcpy(block, o.key, o.key_len);
        return finish_from(initial_state(o), block, 128, o.out_len, last_node);
    }
    return finish_from(keyed_state(o), data, len, o.out_len, last_node);
}

// BLAKE2bp (BLAKE2 paper section 2.10): 128-byte block j of the message goes to leaf j % 4;
// each leaf (node offset 0..3, depth 0) is a keyed BLAKE2b of its blocks, leaf 3 the last
// node; the root (depth 1, last node, no key block) hashes the four leaf digests.
inline std::vector<uint8_t> blake2bp(const uint8_t* key, size_t key_len, const uint8_t* data,
                                     size_t len) {
    Options node;
    node.key = key;
    node.key_len = key_len;
    node.fanout = 4;
    node.depth = 2;
    node.inner_length = 64;
    std::vector<uint8_t> leaf_digests;
    for (uint64_t leaf = 0; leaf < 4; ++leaf) {
        std::vector<uint8_t> leaf_input;
        for (size_t offset = leaf * 128; offset < len; offset += 4 * 128) {
            const size_t n = len - offset < 128 ? len - offset : 128;
            leaf_input.insert(leaf_input.end(), data + offset, data + offset + n);
        }
        node.node_offset = leaf;
        const std::vector<uint8_t> digest =
            hash(node, leaf_input.data(), leaf_input.size(), leaf == 3);
        leaf_digests.insert(leaf_digests.end(), digest.begin(), digest.end());
    }
    node.node_offset = 0;
    node.node_depth = 1;
    return finish_from(initial_state(node), leaf_digests.data(), leaf_digests.size(), 64, true);
}

// BLAKE2s (RFC 7693: 32-bit words, 64-byte blocks, ten rounds, rotations 16, 12, 8, 7).
namespace blake2s {

struct State {
    uint32_t h[8];
    uint32_t t[2];  // t[0] low word
};

inline uint32_t rotr(uint32_t x, int n) {
    return (x >> n) | (x << (32 - n));
}

inline uint32_t load32(const uint8_t* p) {
    return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

inline constexpr uint32_t kIv[8] = {
    0x6A09E667U, 0xBB67AE85U, 0x3C6EF372U, 0xA54FF53AU,
    0x510E527FU, 0x9B05688CU, 0x1F83D9ABU, 0x5BE0CD19U,
};

inline void compress(State& s, const uint8_t block[64], bool last, bool last_node = false) {
    uint32_t m[16];
    uint32_t v[16];
    for (int i = 0; i < 16; ++i) {
        m[i] = load32(block + 4 * i);
    }
    for (int i = 0; i < 8; ++i) {
        v[i] = s.h[i];
        v[i + 8] = kIv[i];
    }
    v[12] ^= s.t[0];
    v[13] ^= s.t[1];
    v[14] ^= last ? ~0U : 0U;
    v[15] ^= last_node ? ~0U : 0U;
    auto g = [&v](int a, int b, int c, int d, uint32_t x, uint32_t y) {
        v[a] = v[a] + v[b] + x;
        v[d] = rotr(v[d] ^ v[a], 16);
        v[c] = v[c] + v[d];
        v[b] = rotr(v[b] ^ v[c], 12);
        v[a] = v[a] + v[b] + y;
        v[d] = rotr(v[d] ^ v[a], 8);
        v[c] = v[c] + v[d];
        v[b] = rotr(v[b] ^ v[c], 7);
    };
    for (int round = 0; round < 10; ++round) {
        const uint8_t* s8 = kSchedule[round];
        g(0, 4, 8, 12, m[s8[0]], m[s8[1]]);
        g(1, 5, 9, 13, m[s8[2]], m[s8[3]]);
        g(2, 6, 10, 14, m[s8[4]], m[s8[5]]);
        g(3, 7, 11, 15, m[s8[6]], m[s8[7]]);
        g(0, 5, 10, 15, m[s8[8]], m[s8[9]]);
        g(1, 6, 11, 12, m[s8[10]], m[s8[11]]);
        g(2, 7, 8, 13, m[s8[12]], m[s8[13]]);
        g(3, 4, 9, 14, m[s8[14]], m[s8[15]]);
    }
    for (int i = 0; i < 8; ++i) {
        s.h[i] ^= v[i] ^ v[i + 8];
    }
}

inline void add_to_counter(State& s, uint32_t bytes) {
    s.t[0] += bytes;
    if (s.t[0] < bytes) {
        ++s.t[1];
    }
}

struct Options {
    size_t out_len = 32;
    const uint8_t* key = nullptr;
    size_t key_len = 0;
    const uint8_t* salt = nullptr;      // 8 bytes or nullptr
    const uint8_t* personal = nullptr;  // 8 bytes or nullptr
    // Tree parameters (BLAKE2 paper section 2.10); the defaults are sequential mode.
    uint8_t fanout = 1;
    uint8_t depth = 1;
    uint64_t node_offset = 0;  // 48 bits
    uint8_t node_depth = 0;
    uint8_t inner_length = 0;
};

// h0 from the 32-byte parameter block.
inline State initial_state(const Options& o) {
    uint8_t block[32] = {};
    block[0] = static_cast<uint8_t>(o.out_len);
    block[1] = static_cast<uint8_t>(o.key_len);
    block[2] = o.fanout;
    block[3] = o.depth;
    for (int i = 0; i < 6; ++i) {  // bytes 8..13, little-endian (leaf length 4..7 stays 0)
        block[8 + i] = static_cast<uint8_t>(o.node_offset >> (8 * i));
    }
    block[14] = o.node_depth;
    block[15] = o.inner_length;
    if (o.salt != nullptr) {
        std::memcpy(block + 16, o.salt, 8);
    }
    if (o.personal != nullptr) {
        std::memcpy(block + 24, o.personal, 8);
    }
    State s{};
    for (int i = 0; i < 8; ++i) {
        s.h[i] = kIv[i] ^ load32(block + 4 * i);
    }
    return s;
}

// Continues from `s` (which already counts every byte before `data`) to the digest.
inline std::vector<uint8_t> finish_from(State s, const uint8_t* data, size_t len, size_t out_len,
                                        bool last_node = false) {
    uint8_t block[64];
    while (len > 64) {
        add_to_counter(s, 64);
        compress(s, data, false);
        data += 64;
        len -= 64;
    }
    std::memset(block, 0, sizeof block);
    if (len > 0) {
        std::memcpy(block, data, len);
    }
    add_to_counter(s, static_cast<uint32_t>(len));
    compress(s, block, true, last_node);
    std::vector<uint8_t> out(out_len);
    for (size_t i = 0; i < out_len; ++i) {
        out[i] = static_cast<uint8_t>(s.h[i / 4] >> (8 * (i % 4)));
    }
    return out;
}

// The chaining state after the key block.
inline State keyed_state(const Options& o) {
    State s = initial_state(o);
    uint8_t block[64] = {};
    std::memcpy(block, o.key, o.key_len);
    add_to_counter(s, 64);
    compress(s, block, false);
    return s;
}

inline std::vector<uint8_t> hash(const Options& o, const uint8_t* data, size_t len,
                                 bool last_node = false) {
    if (o.key_len == 0) {
        return finish_from(initial_state(o), data, len, o.out_len, last_node);
    }
    if (len == 0) {  // the key block is the last block
        uint8_t block[64] = {};
        std::memcpy(block, o.key, o.key_len);
        return finish_from(initial_state(o), block, 64, o.out_len, last_node);
    }
    return finish_from(keyed_state(o), data, len, o.out_len, last_node);
}

}  // namespace blake2s

// BLAKE2sp: as BLAKE2bp with BLAKE2s nodes, eight leaves, 64-byte blocks and 32-byte digests.
inline std::vector<uint8_t> blake2sp(const uint8_t* key, size_t key_len, const uint8_t* data,
                                     size_t len) {
    blake2s::Options node;
    node.key = key;
    node.key_len = key_len;
    node.fanout = 8;
    node.depth = 2;
    node.inner_length = 32;
    std::vector<uint8_t> leaf_digests;
    for (uint64_t leaf = 0; leaf < 8; ++leaf) {
        std::vector<uint8_t> leaf_input;
        for (size_t offset = leaf * 64; offset < len; offset += 8 * 64) {
            const size_t n = len - offset < 64 ? len - offset : 64;
            leaf_input.insert(leaf_input.end(), data + offset, data + offset + n);
        }
        node.node_offset = leaf;
        const std::vector<uint8_t> digest =
            blake2s::hash(node, leaf_input.data(), leaf_input.size(), leaf == 7);
        leaf_digests.insert(leaf_digests.end(), digest.begin(), digest.end());
    }
    node.node_offset = 0;
    node.node_depth = 1;
    return blake2s::finish_from(blake2s::initial_state(node), leaf_digests.data(),
                                leaf_digests.size(), 32, true);
}

}  // namespace rfc7693
