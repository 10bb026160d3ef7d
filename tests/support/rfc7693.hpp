// An independent BLAKE2b and BLAKE2s (straight RFC 7693 code, full counters) with their tree modes
// BLAKE2bp and BLAKE2sp: the oracle of the engine and provider tests, and
// (reference_compress.hpp) of the kernel tests. One template over the word type serves both
// members, as RFC 7693 itself describes them: they differ only in the constants of Variant.
// SPDX-License-Identifier: Apache-2.0
//
// Deliberately shares nothing with kernels/ or provider/: its own IV, sigma and parameter
// block, so a mistake there cannot hide in both the tested code and its oracle.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace rfc7693 {
namespace detail {

template <class Word>
struct Variant;

// RFC 7693 section 2.1 (BLAKE2b) ...
template <>
struct Variant<uint64_t> {
    static constexpr size_t kBlockBytes = 128;
    static constexpr size_t kOutBytes = 64;
    static constexpr int kRounds = 12;
    static constexpr int kRotations[4] = {32, 24, 16, 63};
    static constexpr size_t kNodeOffsetBytes = 8;
    static constexpr uint64_t kIv[8] = {
        0x6A09E667F3BCC908ULL, 0xBB67AE8584CAA73BULL, 0x3C6EF372FE94F82BULL, 0xA54FF53A5F1D36F1ULL,
        0x510E527FADE682D1ULL, 0x9B05688C2B3E6C1FULL, 0x1F83D9ABFB41BD6BULL, 0x5BE0CD19137E2179ULL,
    };
};

// ... and BLAKE2s: 32-bit words, 64-byte blocks, ten rounds, a 48-bit node offset.
template <>
struct Variant<uint32_t> {
    static constexpr size_t kBlockBytes = 64;
    static constexpr size_t kOutBytes = 32;
    static constexpr int kRounds = 10;
    static constexpr int kRotations[4] = {16, 12, 8, 7};
    static constexpr size_t kNodeOffsetBytes = 6;
    static constexpr uint32_t kIv[8] = {
        0x6A09E667U, 0xBB67AE85U, 0x3C6EF372U, 0xA54FF53AU,
        0x510E527FU, 0x9B05688CU, 0x1F83D9ABU, 0x5BE0CD19U,
    };
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

template <class Word>
struct State {
    Word h[8];
    Word t[2];  // t[0] low word
};

template <class Word>
struct Options {
    size_t out_len = Variant<Word>::kOutBytes;
    const uint8_t* key = nullptr;
    size_t key_len = 0;
    const uint8_t* salt = nullptr;      // 2 * sizeof(Word) bytes or nullptr
    const uint8_t* personal = nullptr;  // 2 * sizeof(Word) bytes or nullptr
    // Tree parameters (BLAKE2 paper section 2.10); the defaults are sequential mode.
    uint8_t fanout = 1;
    uint8_t depth = 1;
    uint32_t leaf_length = 0;
    uint64_t node_offset = 0;  // BLAKE2X: xof_length sits in its bits 32 and up
    uint8_t node_depth = 0;
    uint8_t inner_length = 0;
};

template <class Word>
Word rotr(Word x, int n) {
    return (x >> n) | (x << (8 * sizeof(Word) - n));
}

template <class Word>
Word load(const uint8_t* p) {
    Word w = 0;
    for (int i = sizeof(Word) - 1; i >= 0; --i) {
        w = (w << 8) | p[i];
    }
    return w;
}

// Keeps the flag and byte-count arguments out of template deduction: callers pass any integer.
template <class Word>
using Same = std::type_identity_t<Word>;

// RFC 7693 section 3.2, function F, with the flag words f0 (last block) and f1 (last node)
// as given; the caller has already added the block's bytes to t.
template <class Word>
void compress_with_flags(State<Word>& s, const uint8_t* block, Same<Word> f0, Same<Word> f1) {
    using V = Variant<Word>;
    Word m[16];
    Word v[16];
    for (int i = 0; i < 16; ++i) {
        m[i] = load<Word>(block + sizeof(Word) * i);
    }
    for (int i = 0; i < 8; ++i) {
        v[i] = s.h[i];
        v[i + 8] = V::kIv[i];
    }
    v[12] ^= s.t[0];
    v[13] ^= s.t[1];
    v[14] ^= f0;
    v[15] ^= f1;
    auto g = [&v](int a, int b, int c, int d, Word x, Word y) {
        v[a] = v[a] + v[b] + x;
        v[d] = rotr<Word>(v[d] ^ v[a], V::kRotations[0]);
        v[c] = v[c] + v[d];
        v[b] = rotr<Word>(v[b] ^ v[c], V::kRotations[1]);
        v[a] = v[a] + v[b] + y;
        v[d] = rotr<Word>(v[d] ^ v[a], V::kRotations[2]);
        v[c] = v[c] + v[d];
        v[b] = rotr<Word>(v[b] ^ v[c], V::kRotations[3]);
    };
    for (int round = 0; round < V::kRounds; ++round) {
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

// last_node: tree modes, the last node of its level.
template <class Word>
void compress(State<Word>& s, const uint8_t* block, bool last, bool last_node = false) {
    compress_with_flags<Word>(s, block, last ? ~Word{0} : 0, last_node ? ~Word{0} : 0);
}

template <class Word>
void add_to_counter(State<Word>& s, Same<Word> bytes) {
    s.t[0] += bytes;
    if (s.t[0] < bytes) {
        ++s.t[1];
    }
}

// h0 from the parameter block (RFC 7693 section 2.5; the node offset is 8 bytes in BLAKE2b and
// 6 in BLAKE2s, salt and personalization take the second and last quarter of the block).
template <class Word>
State<Word> initial_state(const Options<Word>& o) {
    constexpr size_t kParamBytes = 8 * sizeof(Word);
    constexpr size_t kOffsetBytes = Variant<Word>::kNodeOffsetBytes;
    uint8_t block[kParamBytes] = {};
    block[0] = static_cast<uint8_t>(o.out_len);
    block[1] = static_cast<uint8_t>(o.key_len);
    block[2] = o.fanout;
    block[3] = o.depth;
    for (size_t i = 0; i < 4; ++i) {
        block[4 + i] = static_cast<uint8_t>(o.leaf_length >> (8 * i));
    }
    for (size_t i = 0; i < kOffsetBytes; ++i) {  // from byte 8
        block[8 + i] = static_cast<uint8_t>(o.node_offset >> (8 * i));
    }
    block[8 + kOffsetBytes] = o.node_depth;
    block[9 + kOffsetBytes] = o.inner_length;
    if (o.salt != nullptr) {
        std::memcpy(block + kParamBytes / 2, o.salt, kParamBytes / 4);
    }
    if (o.personal != nullptr) {
        std::memcpy(block + 3 * kParamBytes / 4, o.personal, kParamBytes / 4);
    }
    State<Word> s{};
    for (int i = 0; i < 8; ++i) {
        s.h[i] = Variant<Word>::kIv[i] ^ load<Word>(block + sizeof(Word) * i);
    }
    return s;
}

// Continues from `s` (which already counts every byte before `data`) to the digest.
template <class Word>
std::vector<uint8_t> finish_from(State<Word> s, const uint8_t* data, size_t len, size_t out_len,
                                 bool last_node = false) {
    constexpr size_t kBlock = Variant<Word>::kBlockBytes;
    uint8_t block[kBlock];
    while (len > kBlock) {
        add_to_counter<Word>(s, kBlock);
        compress<Word>(s, data, false);
        data += kBlock;
        len -= kBlock;
    }
    std::memset(block, 0, sizeof block);
    if (len > 0) {
        std::memcpy(block, data, len);
    }
    add_to_counter<Word>(s, static_cast<Word>(len));
    compress<Word>(s, block, true, last_node);
    std::vector<uint8_t> out(out_len);
    for (size_t i = 0; i < out_len; ++i) {
        out[i] = static_cast<uint8_t>(s.h[i / sizeof(Word)] >> (8 * (i % sizeof(Word))));
    }
    return out;
}

// The chaining state after the key block (a keyed hash with a non-empty message continues
// from here).
template <class Word>
State<Word> keyed_state(const Options<Word>& o) {
    State<Word> s = initial_state(o);
    uint8_t block[Variant<Word>::kBlockBytes] = {};
    std::memcpy(block, o.key, o.key_len);
    add_to_counter<Word>(s, sizeof block);
    compress<Word>(s, block, false);
    return s;
}

template <class Word>
std::vector<uint8_t> hash(const Options<Word>& o, const uint8_t* data, size_t len,
                          bool last_node = false) {
    if (o.key_len == 0) {
        return finish_from(initial_state(o), data, len, o.out_len, last_node);
    }
    if (len == 0) {  // the key block is the last block
        uint8_t block[Variant<Word>::kBlockBytes] = {};
        std::memcpy(block, o.key, o.key_len);
        return finish_from(initial_state(o), block, sizeof block, o.out_len, last_node);
    }
    return finish_from(keyed_state(o), data, len, o.out_len, last_node);
}

// The tree modes (BLAKE2 paper section 2.10): block j of the message goes to leaf j % leaves;
// each leaf (node offset 0..leaves-1, depth 0) is a keyed hash of its blocks, the last leaf the
// last node; the root (depth 1, last node, no key block) hashes the leaf digests.
template <class Word>
std::vector<uint8_t> tree(uint64_t leaves, const uint8_t* key, size_t key_len, const uint8_t* data,
                          size_t len) {
    constexpr size_t kBlock = Variant<Word>::kBlockBytes;
    constexpr size_t kOut = Variant<Word>::kOutBytes;
    Options<Word> node;
    node.key = key;
    node.key_len = key_len;
    node.fanout = static_cast<uint8_t>(leaves);
    node.depth = 2;
    node.inner_length = kOut;
    std::vector<uint8_t> leaf_digests;
    for (uint64_t leaf = 0; leaf < leaves; ++leaf) {
        std::vector<uint8_t> leaf_input;
        for (size_t offset = leaf * kBlock; offset < len; offset += leaves * kBlock) {
            const size_t n = len - offset < kBlock ? len - offset : kBlock;
            leaf_input.insert(leaf_input.end(), data + offset, data + offset + n);
        }
        node.node_offset = leaf;
        const std::vector<uint8_t> digest =
            hash(node, leaf_input.data(), leaf_input.size(), leaf == leaves - 1);
        leaf_digests.insert(leaf_digests.end(), digest.begin(), digest.end());
    }
    node.node_offset = 0;
    node.node_depth = 1;
    return finish_from(initial_state(node), leaf_digests.data(), leaf_digests.size(), kOut, true);
}

// BLAKE2X (the BLAKE2X paper): H0 is BLAKE2 of the message with the full digest length and
// xof_length in the parameter block (after the 32-bit node offset: bits 32 and up of ours);
// output block i is BLAKE2 of H0, unkeyed, with fanout 0, depth 0, leaf and inner length the
// full digest length, node offset i, the same xof_length, salt and personalization, and digest
// length min(full, bytes left). Unknown length (`unknown`): xof_length all ones (2^32-1,
// 2^16-1) and every block full. Written from the paper, not from provider/.
template <class Word>
std::vector<uint8_t> blake2x(Options<Word> o, const uint8_t* data, size_t len, size_t out_len,
                             bool unknown = false) {
    constexpr size_t kOut = Variant<Word>::kOutBytes;
    constexpr uint64_t kUnknown = sizeof(Word) == 8 ? 0xFFFFFFFFULL : 0xFFFFULL;
    const uint64_t xof_length = unknown ? kUnknown : out_len;
    o.out_len = kOut;
    o.node_offset = xof_length << 32;
    const std::vector<uint8_t> h0 = hash(o, data, len);
    Options<Word> block = o;
    block.key = nullptr;
    block.key_len = 0;
    block.fanout = 0;
    block.depth = 0;
    block.leaf_length = kOut;
    block.inner_length = kOut;
    std::vector<uint8_t> out;
    for (uint64_t i = 0; out.size() < out_len; ++i) {
        block.out_len = unknown ? kOut : std::min(kOut, out_len - out.size());
        block.node_offset = i | (xof_length << 32);
        const std::vector<uint8_t> b = hash(block, h0.data(), h0.size());
        out.insert(out.end(), b.begin(), b.end());
    }
    out.resize(out_len);
    return out;
}

}  // namespace detail

// BLAKE2b, and BLAKE2bp: four leaves.
using State = detail::State<uint64_t>;
using Options = detail::Options<uint64_t>;
using detail::add_to_counter;
using detail::blake2x;
using detail::compress;
using detail::compress_with_flags;
using detail::finish_from;
using detail::hash;
using detail::initial_state;
using detail::keyed_state;

inline std::vector<uint8_t> blake2bp(const uint8_t* key, size_t key_len, const uint8_t* data,
                                     size_t len) {
    return detail::tree<uint64_t>(4, key, key_len, data, len);
}

// BLAKE2s, and BLAKE2sp: eight leaves.
namespace blake2s {
using State = detail::State<uint32_t>;
using Options = detail::Options<uint32_t>;
using detail::add_to_counter;
using detail::blake2x;
using detail::compress;
using detail::compress_with_flags;
using detail::finish_from;
using detail::hash;
using detail::initial_state;
using detail::keyed_state;
}  // namespace blake2s

inline std::vector<uint8_t> blake2sp(const uint8_t* key, size_t key_len, const uint8_t* data,
                                     size_t len) {
    return detail::tree<uint32_t>(8, key, key_len, data, len);
}

}  // namespace rfc7693
