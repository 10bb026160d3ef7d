// The BLAKE2bp streaming engine: four BLAKE2b leaves fed round-robin in 128-byte blocks, and
// their root. ISA-agnostic: leaves advance through a Compress4Fn, the rest through a CompressFn.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernel.hpp"
#include "lanes4.hpp"

namespace blake2simd {

inline constexpr size_t kBlake2bpDigestBytes = 64;

// Trivially copyable, holds no pointers to itself: contexts duplicate it with a plain copy.
// It holds the key and chaining values; owners cleanse it.
class Blake2bpEngine final {
  public:
    // key_length 0: unkeyed. Otherwise each leaf absorbs the zero-padded key as its first block.
    void start(CompressFn compress, Compress4Fn compress4, const uint8_t* key,
               size_t key_length) noexcept;

    void update(const uint8_t* data, size_t length) noexcept;

    // Writes kBlake2bpDigestBytes bytes; the engine must be started again before further use.
    void finish(uint8_t* out) noexcept;

  private:
    // 128-byte block j goes to leaf j % 4, so a group of four consecutive blocks advances every
    // leaf by one block. A leaf's last block must wait for finish() (it carries the final flag);
    // leaf 3's block of a group is known not to be its last only once the byte 896 bytes past
    // the group's start has arrived. So up to 7 blocks wait here.
    static constexpr size_t kGroupBytes = kLanes * kBlockBytes;
    static constexpr size_t kPendingBytes = kGroupBytes + (kLanes - 1) * kBlockBytes;

    void compress_groups(const uint8_t* data, size_t groups) noexcept;
    void absorb_pending_group() noexcept;
    void finish_leaf(size_t leaf, uint8_t digest[kBlake2bpDigestBytes]) noexcept;
    void finish_empty_leaf(size_t leaf) noexcept;

    Blake2bState m_leaves[kLanes];
    uint8_t m_pending[kPendingBytes];  // starts at a group boundary of the message
    uint8_t m_key[kMaxKeyBytes];
    CompressFn m_compress;
    Compress4Fn m_compress4;
    uint32_t m_pending_length;
    uint8_t m_key_length;
};

}  // namespace blake2simd
