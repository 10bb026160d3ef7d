// The tree-mode streaming engine of both families: BLAKE2bp (four BLAKE2b leaves) and BLAKE2sp
// (eight BLAKE2s leaves), fed round-robin one block at a time, and their root. ISA-agnostic:
// leaves advance through the family's many-lane compression, the rest through its single-lane
// one.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>

#include "blake2_family.hpp"

namespace blake2simd {

// Every node's output, the leaves' and the root's: the family's full digest.
template <class Family>
inline constexpr size_t kTreeDigestBytes = Family::kMaxDigestBytes;

inline constexpr size_t kBlake2bpDigestBytes = kTreeDigestBytes<Blake2bFamily>;
inline constexpr size_t kBlake2spDigestBytes = kTreeDigestBytes<Blake2sFamily>;

// Trivially copyable, holds no pointers to itself: contexts duplicate it with a plain copy.
// It holds the key and chaining values; owners cleanse it. Instantiated for both families in
// tree_engine.cpp only.
template <class Family>
class TreeEngine final {
  public:
    using Compress = typename Family::Compress;
    using CompressLanes = typename Family::CompressLanes;
    static constexpr size_t kLeaves = Family::kLanes;
    static constexpr size_t kDigestBytes = kTreeDigestBytes<Family>;

    // key_length 0: unkeyed. Otherwise each leaf absorbs the zero-padded key as its first block.
    void start(Compress compress, CompressLanes compress_lanes, const uint8_t* key,
               size_t key_length) noexcept;

    void update(const uint8_t* data, size_t length) noexcept;

    // Writes kDigestBytes bytes; the engine must be started again before further use.
    void finish(uint8_t* out) noexcept;

    // For a key replaced while a message is in progress: that message keeps its key, but the
    // copy the engine holds goes. The leaves that have no message byte yet (they may end with
    // the key block alone) get their final digests computed now. The engine holds the key only
    // while some leaf has no message byte, so this costs nothing once the message reached them all.
    void forget_key() noexcept;

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
    bool m_key_held;                  // m_key holds the key: some leaf may end on it
    bool m_empty_leaf_digests_ready;  // forget_key() computed them for this message
};

extern template class TreeEngine<Blake2bFamily>;
extern template class TreeEngine<Blake2sFamily>;

using Blake2bpEngine = TreeEngine<Blake2bFamily>;
using Blake2spEngine = TreeEngine<Blake2sFamily>;

}  // namespace blake2simd
