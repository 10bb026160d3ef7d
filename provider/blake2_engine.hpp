// The streaming engines: Blake2Engine under the digest and the MAC of each family (BLAKE2b,
// BLAKE2s: buffering, counter, parameter block, last-block handling) and TreeEngine under the
// tree modes (BLAKE2bp, BLAKE2sp), and the parameter block they start from. Templated on the
// family members' traits (kernels/kernel.hpp: Blake2bFamily, Blake2sFamily), so BLAKE2s and
// BLAKE2sp reuse BLAKE2b's code rather than copy it. ISA-agnostic: compression goes through the
// member's compression function.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernel.hpp"

namespace blake2simd {

// The parameter block (RFC 7693 section 2.8 and the BLAKE2 paper's tree fields); node_offset
// is 48 bits in BLAKE2s.
template <class Family>
struct ParameterBlock {
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
inline void initial_chaining_value(const ParameterBlock<Blake2bFamily>& parameter_block,
                                   uint64_t h[8]) noexcept {
    using family_detail::load_le;
    const uint64_t first_word =
        uint64_t{parameter_block.digest_length} | uint64_t{parameter_block.key_length} << 8 |
        uint64_t{parameter_block.fanout} << 16 | uint64_t{parameter_block.depth} << 24 |
        uint64_t{parameter_block.leaf_length} << 32;
    const uint64_t third_word =
        uint64_t{parameter_block.node_depth} | uint64_t{parameter_block.inner_length} << 8;
    h[0] = kBlake2bIV[0] ^ first_word;
    h[1] = kBlake2bIV[1] ^ parameter_block.node_offset;
    h[2] = kBlake2bIV[2] ^ third_word;
    h[3] = kBlake2bIV[3];
    h[4] = kBlake2bIV[4] ^ load_le<uint64_t>(parameter_block.salt);
    h[5] = kBlake2bIV[5] ^ load_le<uint64_t>(parameter_block.salt + 8);
    h[6] = kBlake2bIV[6] ^ load_le<uint64_t>(parameter_block.personal);
    h[7] = kBlake2bIV[7] ^ load_le<uint64_t>(parameter_block.personal + 8);
}

inline void initial_chaining_value(const ParameterBlock<Blake2sFamily>& parameter_block,
                                   uint32_t h[8]) noexcept {
    using family_detail::load_le;
    const uint32_t first_word =
        uint32_t{parameter_block.digest_length} | uint32_t{parameter_block.key_length} << 8 |
        uint32_t{parameter_block.fanout} << 16 | uint32_t{parameter_block.depth} << 24;
    const uint32_t fourth_word = static_cast<uint32_t>(parameter_block.node_offset >> 32 & 0xffff) |
                                 uint32_t{parameter_block.node_depth} << 16 |
                                 uint32_t{parameter_block.inner_length} << 24;
    h[0] = kBlake2sIV[0] ^ first_word;
    h[1] = kBlake2sIV[1] ^ parameter_block.leaf_length;
    h[2] = kBlake2sIV[2] ^ static_cast<uint32_t>(parameter_block.node_offset);
    h[3] = kBlake2sIV[3] ^ fourth_word;
    h[4] = kBlake2sIV[4] ^ load_le<uint32_t>(parameter_block.salt);
    h[5] = kBlake2sIV[5] ^ load_le<uint32_t>(parameter_block.salt + 4);
    h[6] = kBlake2sIV[6] ^ load_le<uint32_t>(parameter_block.personal);
    h[7] = kBlake2sIV[7] ^ load_le<uint32_t>(parameter_block.personal + 4);
}

using Blake2bParameterBlock = ParameterBlock<Blake2bFamily>;
using Blake2sParameterBlock = ParameterBlock<Blake2sFamily>;

// Trivially copyable so contexts can be duplicated with a plain copy; holds no pointers
// to itself. Instantiated for both families in blake2_engine.cpp only.
template <class Family>
class Blake2Engine final {
  public:
    using Compress = typename Family::Compress;
    using State = typename Family::State;
    // The key block: the key zero-padded to a whole block (as MacKey stores it).
    using KeyBlock = uint8_t[Family::kBlockBytes];

    // Unkeyed start. `last_node` marks the last node of a tree level (a tree's last leaf, root).
    void start(Compress compress, const ParameterBlock<Family>& parameter_block,
               bool last_node = false) noexcept;

    // Starts from a chaining state already advanced past some blocks (e.g. a MAC's key block).
    void resume(Compress compress, const State& state, uint8_t digest_length,
                bool last_node = false) noexcept;

    void update(const uint8_t* data, size_t length) noexcept;

    // Writes digest_length() bytes; the engine must be started again before further use.
    void finish(uint8_t* out) noexcept;

    uint8_t digest_length() const noexcept { return m_digest_length; }
    const State& state() const noexcept { return m_state; }

    // Compresses the caller's key block as a normal (non-final) block, leaving the engine just
    // after it; state() is then the chaining value a keyed hash continues from. The engine
    // makes no copy of the key block; the kernel's own copies (its stack frame, the vector
    // registers) are scrubbed right after (scrub.hpp).
    void start_after_key_block(Compress compress, const ParameterBlock<Family>& parameter_block,
                               const KeyBlock& key_block, bool last_node = false) noexcept;

    // The first-block-only state of a keyed hash of the empty message: the key block buffered.
    // The buffer is cleansed wherever a buffered key block is compressed (a short message would
    // overwrite only its head, and a replaced key must leave no copy behind).
    void start_keyed_empty(Compress compress, const ParameterBlock<Family>& parameter_block,
                           const KeyBlock& key_block, bool last_node = false) noexcept;

    // True while the buffer holds the key block and no message byte followed it.
    bool key_block_buffered() const noexcept { return m_key_block_buffered; }

    // For a key replaced while key_block_buffered(): writes the digest the empty message would
    // have (digest_length() bytes), then compresses the key block as a non-final block, so the
    // message can still go on while no copy of the key block is left.
    void settle_key_block(uint8_t* empty_message_digest) noexcept;

    // What a serialized state (state_blob.hpp) holds of an unkeyed engine between start and
    // finish: chaining value, counter, buffered bytes, digest length. Not the compression
    // function: a state saved on one kernel resumes on another.
    struct Snapshot {
        typename Family::Word h[8];
        typename Family::Word t[2];
        uint8_t buffer[Family::kBlockBytes];
        uint32_t buffered;
        uint8_t digest_length;
        bool last_node;  // the message ends a tree's last node (f1 at finish)
    };
    Snapshot snapshot() const noexcept;

    // Whether an unkeyed engine can be in `snapshot`: a digest length of the family, a counter
    // of whole blocks, at most a block buffered and, once a block was compressed, at least a
    // byte (the last block always waits for finish()).
    static bool is_consistent(const Snapshot& snapshot) noexcept;

    // The engine `snapshot` was taken of (is_consistent), now compressing with `compress`.
    void restore(Compress compress, const Snapshot& snapshot) noexcept;

  private:
    static constexpr size_t kBlockBytes = Family::kBlockBytes;

    void compress_buffered_block() noexcept;
    void forget_key_block() noexcept;

    State m_state;
    uint8_t m_buffer[kBlockBytes];
    Compress m_compress;
    uint32_t m_buffered;  // 0..block; a full buffer is kept until more input shows it is not last
    uint8_t m_digest_length;
    bool m_last_node;
    bool m_key_block_buffered;  // the buffer holds the key block: scrub after compressing it
};

extern template class Blake2Engine<Blake2bFamily>;
extern template class Blake2Engine<Blake2sFamily>;

using Blake2bEngine = Blake2Engine<Blake2bFamily>;
using Blake2sEngine = Blake2Engine<Blake2sFamily>;

// The tree-mode streaming engine of both families: BLAKE2bp (four BLAKE2b leaves) and BLAKE2sp
// (eight BLAKE2s leaves), fed round-robin one block at a time, and their root. ISA-agnostic:
// leaves advance through the family's many-lane compression, the rest through its single-lane
// one.

// The leaves' output (the inner hash length): the family's full digest, whatever the tree's
// digest length (every node's parameter block names the latter, as the reference blake2bp.c and
// blake2sp.c define it).
template <class Family>
inline constexpr size_t kTreeInnerBytes = Family::kMaxDigestBytes;

// Trivially copyable, holds no pointers to itself: contexts duplicate it with a plain copy.
// It holds the key and chaining values; owners cleanse it. Instantiated for both families in
// tree_engine.cpp only.
template <class Family>
class TreeEngine final {
  public:
    using Compress = typename Family::Compress;
    using CompressLanes = typename Family::CompressLanes;
    static constexpr size_t kLeaves = Family::kLanes;
    static constexpr size_t kDigestBytes = kTreeInnerBytes<Family>;  // a leaf's

    // key_length 0: unkeyed. Otherwise each leaf absorbs the zero-padded key as its first block.
    // digest_length: the tree's, 1..kDigestBytes.
    void start(Compress compress, CompressLanes compress_lanes, const uint8_t* key,
               size_t key_length, size_t digest_length = kDigestBytes) noexcept;

    void update(const uint8_t* data, size_t length) noexcept;

    uint8_t digest_length() const noexcept { return m_digest_length; }

    // Writes digest_length() bytes; the engine must be started again before further use.
    void finish(uint8_t* out) noexcept;

    // For a key replaced while a message is in progress: that message keeps its key, but the
    // copy the engine holds goes. The leaves that have no message byte yet (they may end with
    // the key block alone) get their final digests computed now. The engine holds the key only
    // while some leaf has no message byte, so this costs nothing once the message reached them all.
    void forget_key() noexcept;

    // What a serialized state (state_blob.hpp) holds of an unkeyed engine between start and
    // finish: each leaf's chaining value and counter, the pending bytes. Not the compression
    // functions: a state saved on one kernel resumes on another.
    struct Snapshot {
        typename Family::Word h[kLeaves][8];
        typename Family::Word t[kLeaves][2];
        uint8_t pending[(2 * kLeaves - 1) * Family::kBlockBytes];
        uint32_t pending_length;
        uint8_t digest_length;  // the tree's (its `size`), 1..kDigestBytes
    };
    Snapshot snapshot() const noexcept;

    // Whether an unkeyed engine can be in `snapshot`: every leaf at the same whole-block count,
    // at most the pending area's bytes waiting and, once a group was compressed, more than all
    // but one group (a leaf's last block waits for finish()).
    static bool is_consistent(const Snapshot& snapshot) noexcept;

    // The engine `snapshot` was taken of (is_consistent), now compressing with these.
    void restore(Compress compress, CompressLanes compress_lanes,
                 const Snapshot& snapshot) noexcept;

  private:
    static constexpr size_t kBlockBytes = Family::kBlockBytes;
    // Block j goes to leaf j % kLeaves, so a group of kLeaves consecutive blocks advances every
    // leaf by one block. A leaf's last block must wait for finish() (it carries the final flag);
    // the last leaf's block of a group is known not to be its last only once the byte
    // (2 * kLeaves - 1) blocks past the group's start has arrived. So up to 2 * kLeaves - 1
    // blocks wait here.
    static constexpr size_t kGroupBytes = kLeaves * kBlockBytes;
    static constexpr size_t kPendingBytes = kGroupBytes + (kLeaves - 1) * kBlockBytes;

    void compress_groups(const uint8_t* data, size_t groups) noexcept;
    void absorb_pending_group() noexcept;
    void finish_leaf(size_t leaf, uint8_t digest[kDigestBytes]) noexcept;
    void finish_empty_leaf(size_t leaf, uint8_t digest[kDigestBytes]) noexcept;
    bool leaf_is_empty(size_t leaf) const noexcept;
    void release_key() noexcept;

    typename Family::State m_leaves[kLeaves];
    uint8_t m_pending[kPendingBytes];     // starts at a group boundary of the message
    uint8_t m_key[Family::kMaxKeyBytes];  // while m_key_held
    // After forget_key(): the final digests of the leaves that had no message byte then.
    uint8_t m_empty_leaf_digests[kLeaves][kDigestBytes];
    Compress m_compress;
    CompressLanes m_compress_lanes;
    uint32_t m_pending_length;
    uint8_t m_key_length;
    uint8_t m_digest_length;
    bool m_key_held;                  // m_key holds the key: some leaf may end on it
    bool m_empty_leaf_digests_ready;  // forget_key() computed them for this message
};

extern template class TreeEngine<Blake2bFamily>;
extern template class TreeEngine<Blake2sFamily>;

using Blake2bpEngine = TreeEngine<Blake2bFamily>;
using Blake2spEngine = TreeEngine<Blake2sFamily>;

}  // namespace blake2simd
