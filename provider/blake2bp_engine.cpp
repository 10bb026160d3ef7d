// The BLAKE2bp streaming engine (BLAKE2 paper section 2.10; the reference blake2bp.c).
// SPDX-License-Identifier: Apache-2.0
#include "blake2bp_engine.hpp"
#include "baseline_guard.hpp"

#include <cstring>

#include "blake2b_engine.hpp"
#include "cleanse.hpp"
#include "digest_bytes.hpp"
#include "scrub.hpp"

namespace blake2simd {
namespace {

constexpr size_t kLastLeaf = kLanes - 1;

// Every node: fanout 4, depth 2, unlimited leaf length, 64-byte inner hashes and output, the
// key length (the root's too, although the root never absorbs the key).
Blake2bParams node_params(size_t key_length, uint64_t node_offset, uint8_t node_depth) noexcept {
    Blake2bParams params;
    params.digest_length = kBlake2bpDigestBytes;
    params.key_length = static_cast<uint8_t>(key_length);
    params.fanout = kLanes;
    params.depth = 2;
    params.leaf_length = 0;
    params.node_offset = node_offset;
    params.node_depth = node_depth;
    params.inner_length = kBlake2bpDigestBytes;
    return params;
}

void reset_state(Blake2bState& state, const Blake2bParams& params) noexcept {
    initial_chaining_value(params, state.h);
    state.t[0] = state.t[1] = 0;
    state.f[0] = state.f[1] = 0;
}

void mark_final(Blake2bState& state, bool last_node) noexcept {
    state.f[0] = ~0ULL;
    state.f[1] = last_node ? ~0ULL : 0;
}

}  // namespace

void Blake2bpEngine::start(CompressFn compress, Compress4Fn compress4, const uint8_t* key,
                           size_t key_length) noexcept {
    m_compress = compress;
    m_compress4 = compress4;
    m_pending_length = 0;
    m_key_length = static_cast<uint8_t>(key_length);
    std::memset(m_key, 0, sizeof m_key);
    if (key_length > 0) {
        std::memcpy(m_key, key, key_length);
    }
    for (size_t leaf = 0; leaf < kLanes; ++leaf) {
        reset_state(m_leaves[leaf], node_params(key_length, leaf, 0));
    }
    if (key_length > 0) {
        // Not the last block of any leaf that later gets a message byte; finish() redoes
        // the leaves that get none.
        uint8_t key_block[kBlockBytes] = {};
        std::memcpy(key_block, key, key_length);
        const uint8_t* const blocks[kLanes] = {key_block, key_block, key_block, key_block};
        m_compress4(m_leaves, blocks, 1, 0, kBlockBytes);
        cleanse(key_block, sizeof key_block);
        scrub_after_key_block();
    }
}

void Blake2bpEngine::compress_groups(const uint8_t* data, size_t groups) noexcept {
    const uint8_t* const blocks[kLanes] = {data, data + kBlockBytes, data + 2 * kBlockBytes,
                                           data + 3 * kBlockBytes};
    m_compress4(m_leaves, blocks, groups, kGroupBytes, kBlockBytes);
}

void Blake2bpEngine::absorb_pending_group() noexcept {
    compress_groups(m_pending, 1);
    m_pending_length -= static_cast<uint32_t>(kGroupBytes);
    std::memmove(m_pending, m_pending + kGroupBytes, m_pending_length);
}

void Blake2bpEngine::update(const uint8_t* data, size_t length) noexcept {
    if (length == 0) {
        return;
    }
    // A group may be compressed once more than kPendingBytes follow its start. Bounds are
    // written as `length > limit - used`: `used + length` wraps for a length near SIZE_MAX and
    // would turn the caller's over-read into a write past m_pending.
    while (m_pending_length > 0 && length > kPendingBytes - m_pending_length) {
        if (m_pending_length < kGroupBytes) {
            const size_t fill = kGroupBytes - m_pending_length;
            std::memcpy(m_pending + m_pending_length, data, fill);
            data += fill;
            length -= fill;
            m_pending_length = static_cast<uint32_t>(kGroupBytes);
        }
        absorb_pending_group();
    }
    if (m_pending_length == 0 && length > kPendingBytes) {
        const size_t groups = (length - kPendingBytes + kGroupBytes - 1) / kGroupBytes;
        compress_groups(data, groups);
        data += groups * kGroupBytes;
        length -= groups * kGroupBytes;
    }
    std::memcpy(m_pending + m_pending_length, data, length);
    m_pending_length += static_cast<uint32_t>(length);
}

void Blake2bpEngine::finish_empty_leaf(size_t leaf) noexcept {
    // The leaf's whole input is its key block, or nothing: that block is also its last.
    Blake2bState& state = m_leaves[leaf];
    reset_state(state, node_params(m_key_length, leaf, 0));
    uint8_t block[kBlockBytes] = {};
    std::memcpy(block, m_key, m_key_length);
    mark_final(state, leaf == kLastLeaf);
    m_compress(&state, block, 1, m_key_length > 0 ? kBlockBytes : 0);
    cleanse(block, sizeof block);
}

void Blake2bpEngine::finish_leaf(size_t leaf, uint8_t digest[kBlake2bpDigestBytes]) noexcept {
    Blake2bState& state = m_leaves[leaf];
    size_t offset = leaf * kBlockBytes;
    if (m_pending_length <= offset) {
        // Every leaf keeps its last block pending, so only a leaf that never got a message
        // byte has none (and then no group was compressed yet).
        finish_empty_leaf(leaf);
    } else {
        for (; offset + kGroupBytes < m_pending_length; offset += kGroupBytes) {
            m_compress(&state, m_pending + offset, 1, kBlockBytes);
        }
        const size_t tail =
            m_pending_length - offset < kBlockBytes ? m_pending_length - offset : kBlockBytes;
        uint8_t block[kBlockBytes] = {};
        std::memcpy(block, m_pending + offset, tail);
        mark_final(state, leaf == kLastLeaf);
        m_compress(&state, block, 1, tail);
        cleanse(block, sizeof block);
    }
    write_digest(state, digest, kBlake2bpDigestBytes);
}

void Blake2bpEngine::finish(uint8_t* out) noexcept {
    // Leaves without a message byte compress the key block once more (finish_empty_leaf);
    // the last leaf is the first to go without.
    const bool key_block_compressed =
        m_key_length > 0 && m_pending_length <= kLastLeaf * kBlockBytes;
    uint8_t leaf_digests[kLanes * kBlake2bpDigestBytes];
    for (size_t leaf = 0; leaf < kLanes; ++leaf) {
        finish_leaf(leaf, leaf_digests + leaf * kBlake2bpDigestBytes);
    }
    // The root absorbs the four leaf digests (two full blocks) and no key block.
    static_assert(sizeof leaf_digests == 2 * kBlockBytes);
    Blake2bState root;
    reset_state(root, node_params(m_key_length, 0, 1));
    m_compress(&root, leaf_digests, 1, kBlockBytes);
    mark_final(root, true);
    m_compress(&root, leaf_digests + kBlockBytes, 1, kBlockBytes);
    write_digest(root, out, kBlake2bpDigestBytes);

    cleanse(leaf_digests, sizeof leaf_digests);
    cleanse(&root, sizeof root);
    cleanse(m_pending, sizeof m_pending);
    m_pending_length = 0;
    if (key_block_compressed) {
        scrub_after_key_block();
    }
}

}  // namespace blake2simd
