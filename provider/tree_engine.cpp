// The tree-mode streaming engine (BLAKE2 paper section 2.10; the reference blake2bp.c and
// blake2sp.c), for both families.
// SPDX-License-Identifier: Apache-2.0
#include "baseline_guard.hpp"
#include "blake2_engine.hpp"

#include <cstring>
#include <type_traits>

#include "core_memory.hpp"
#include "digest_bytes.hpp"
#include "scrub.hpp"

namespace blake2simd {
namespace {

// Every node: the tree's digest length, fanout = the leaf count, depth 2, unlimited leaf
// length, full-size inner hashes, the key length (the root's too, although the root never
// absorbs the key).
template <class Family>
ParameterBlock<Family> node_parameter_block(size_t digest_length, size_t key_length,
                                            uint64_t node_offset, uint8_t node_depth) noexcept {
    ParameterBlock<Family> parameter_block;
    parameter_block.digest_length = static_cast<uint8_t>(digest_length);
    parameter_block.key_length = static_cast<uint8_t>(key_length);
    parameter_block.fanout = Family::kLanes;
    parameter_block.depth = 2;
    parameter_block.leaf_length = 0;
    parameter_block.node_offset = node_offset;
    parameter_block.node_depth = node_depth;
    parameter_block.inner_length = kTreeInnerBytes<Family>;
    return parameter_block;
}

template <class Family>
void reset_state(typename Family::State& state,
                 const ParameterBlock<Family>& parameter_block) noexcept {
    initial_chaining_value(parameter_block, state.h);
    state.t[0] = state.t[1] = 0;
    state.f[0] = state.f[1] = 0;
}

template <class State>
void mark_final(State& state, bool last_node) noexcept {
    using Word = std::remove_reference_t<decltype(state.f[0])>;
    state.f[0] = ~Word{0};
    state.f[1] = last_node ? ~Word{0} : 0;
}

}  // namespace

template <class Family>
void TreeEngine<Family>::start(Compress compress, CompressLanes compress_lanes, const uint8_t* key,
                               size_t key_length, size_t digest_length) noexcept {
    m_compress = compress;
    m_digest_length = static_cast<uint8_t>(digest_length);
    m_compress_lanes = compress_lanes;
    m_pending_length = 0;
    m_key_length = static_cast<uint8_t>(key_length);
    m_key_held = key_length > 0;
    m_empty_leaf_digests_ready = false;
    std::memset(m_key, 0, sizeof m_key);
    if (key_length > 0) {
        std::memcpy(m_key, key, key_length);
    }
    for (size_t leaf = 0; leaf < kLeaves; ++leaf) {
        reset_state(m_leaves[leaf],
                    node_parameter_block<Family>(m_digest_length, key_length, leaf, 0));
    }
    if (key_length > 0) {
        // Not the last block of any leaf that later gets a message byte; finish() redoes
        // the leaves that get none.
        uint8_t key_block[kBlockBytes] = {};
        std::memcpy(key_block, key, key_length);
        const uint8_t* blocks[kLeaves];
        for (const uint8_t*& block : blocks) {
            block = key_block;
        }
        m_compress_lanes(m_leaves, blocks, 1, 0, kBlockBytes);
        cleanse(key_block, sizeof key_block);
        scrub_after_key_block();
    }
}

template <class Family>
void TreeEngine<Family>::compress_groups(const uint8_t* data, size_t groups) noexcept {
    const uint8_t* blocks[kLeaves];
    for (size_t leaf = 0; leaf < kLeaves; ++leaf) {
        blocks[leaf] = data + leaf * kBlockBytes;
    }
    m_compress_lanes(m_leaves, blocks, groups, kGroupBytes, kBlockBytes);
}

template <class Family>
void TreeEngine<Family>::absorb_pending_group() noexcept {
    compress_groups(m_pending, 1);
    m_pending_length -= static_cast<uint32_t>(kGroupBytes);
    std::memmove(m_pending, m_pending + kGroupBytes, m_pending_length);
}

template <class Family>
void TreeEngine<Family>::update(const uint8_t* data, size_t length) noexcept {
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
    if (m_key_held && !leaf_is_empty(kLeaves - 1)) {
        release_key();  // every leaf has a message byte: none ends on the key block
    }
}

// Every leaf keeps its last block pending, so only a leaf that never got a message byte has
// none (and then no group was compressed yet).
template <class Family>
bool TreeEngine<Family>::leaf_is_empty(size_t leaf) const noexcept {
    return m_pending_length <= leaf * kBlockBytes;
}

template <class Family>
void TreeEngine<Family>::release_key() noexcept {
    cleanse(m_key, sizeof m_key);
    m_key_held = false;
}

template <class Family>
void TreeEngine<Family>::forget_key() noexcept {
    if (!m_key_held) {
        return;
    }
    for (size_t leaf = 0; leaf < kLeaves; ++leaf) {
        if (leaf_is_empty(leaf)) {
            finish_empty_leaf(leaf, m_empty_leaf_digests[leaf]);
        }
    }
    m_empty_leaf_digests_ready = true;
    release_key();
    scrub_after_key_block();
}

// The leaf's whole input is its key block, or nothing: that block is also its last. The leaf's
// own state is left alone (forget_key() asks while more message may come).
template <class Family>
void TreeEngine<Family>::finish_empty_leaf(size_t leaf, uint8_t digest[kDigestBytes]) noexcept {
    typename Family::State state;
    reset_state(state, node_parameter_block<Family>(m_digest_length, m_key_length, leaf, 0));
    uint8_t block[kBlockBytes] = {};
    std::memcpy(block, m_key, m_key_length);
    mark_final(state, leaf == kLeaves - 1);
    m_compress(&state, block, 1, m_key_length > 0 ? kBlockBytes : 0);
    write_digest(state, digest, kDigestBytes);
    cleanse(block, sizeof block);
    cleanse(&state, sizeof state);
}

template <class Family>
void TreeEngine<Family>::finish_leaf(size_t leaf, uint8_t digest[kDigestBytes]) noexcept {
    if (leaf_is_empty(leaf)) {
        if (m_empty_leaf_digests_ready) {
            std::memcpy(digest, m_empty_leaf_digests[leaf], kDigestBytes);
        } else {
            finish_empty_leaf(leaf, digest);
        }
        return;
    }
    auto& state = m_leaves[leaf];
    size_t offset = leaf * kBlockBytes;
    for (; offset + kGroupBytes < m_pending_length; offset += kGroupBytes) {
        m_compress(&state, m_pending + offset, 1, kBlockBytes);
    }
    const size_t tail =
        m_pending_length - offset < kBlockBytes ? m_pending_length - offset : kBlockBytes;
    uint8_t block[kBlockBytes] = {};
    std::memcpy(block, m_pending + offset, tail);
    mark_final(state, leaf == kLeaves - 1);
    m_compress(&state, block, 1, static_cast<uint32_t>(tail));
    cleanse(block, sizeof block);
    write_digest(state, digest, kDigestBytes);
}

template <class Family>
void TreeEngine<Family>::finish(uint8_t* out) noexcept {
    // Leaves without a message byte compress the key block once more (finish_empty_leaf),
    // unless forget_key() did so already; the last leaf is the first to go without.
    const bool key_block_compressed = m_key_held;
    uint8_t leaf_digests[kLeaves * kDigestBytes];
    for (size_t leaf = 0; leaf < kLeaves; ++leaf) {
        finish_leaf(leaf, leaf_digests + leaf * kDigestBytes);
    }
    // The root absorbs the leaf digests (whole blocks: two for BLAKE2bp, four for BLAKE2sp) and
    // no key block.
    constexpr size_t kRootBlocks = sizeof leaf_digests / kBlockBytes;
    static_assert(kRootBlocks >= 2 && sizeof leaf_digests % kBlockBytes == 0);
    typename Family::State root;
    reset_state(root, node_parameter_block<Family>(m_digest_length, m_key_length, 0, 1));
    m_compress(&root, leaf_digests, kRootBlocks - 1, kBlockBytes);
    mark_final(root, true);
    m_compress(&root, leaf_digests + (kRootBlocks - 1) * kBlockBytes, 1, kBlockBytes);
    write_digest(root, out, m_digest_length);

    cleanse(leaf_digests, sizeof leaf_digests);
    cleanse(&root, sizeof root);
    cleanse(m_pending, sizeof m_pending);
    if (m_key_held) {
        release_key();
    }
    if (m_empty_leaf_digests_ready) {
        cleanse(m_empty_leaf_digests, sizeof m_empty_leaf_digests);
        m_empty_leaf_digests_ready = false;
    }
    m_pending_length = 0;
    if (key_block_compressed) {
        scrub_after_key_block();
    }
}

template <class Family>
typename TreeEngine<Family>::Snapshot TreeEngine<Family>::snapshot() const noexcept {
    Snapshot snapshot;
    for (size_t leaf = 0; leaf < kLeaves; ++leaf) {
        std::memcpy(snapshot.h[leaf], m_leaves[leaf].h, sizeof snapshot.h[leaf]);
        std::memcpy(snapshot.t[leaf], m_leaves[leaf].t, sizeof snapshot.t[leaf]);
    }
    std::memcpy(snapshot.pending, m_pending, sizeof snapshot.pending);
    snapshot.pending_length = m_pending_length;
    snapshot.digest_length = m_digest_length;
    return snapshot;
}

template <class Family>
bool TreeEngine<Family>::is_consistent(const Snapshot& snapshot) noexcept {
    static_assert(sizeof snapshot.pending == kPendingBytes);
    bool consistent = snapshot.digest_length >= 1 && snapshot.digest_length <= kDigestBytes &&
                      snapshot.t[0][0] % kBlockBytes == 0 &&
                      snapshot.pending_length <= kPendingBytes;
    for (size_t leaf = 1; leaf < kLeaves; ++leaf) {
        consistent = consistent && snapshot.t[leaf][0] == snapshot.t[0][0] &&
                     snapshot.t[leaf][1] == snapshot.t[0][1];
    }
    const bool compressed = snapshot.t[0][0] != 0 || snapshot.t[0][1] != 0;
    return consistent && (!compressed || snapshot.pending_length > kPendingBytes - kGroupBytes);
}

template <class Family>
void TreeEngine<Family>::restore(Compress compress, CompressLanes compress_lanes,
                                 const Snapshot& snapshot) noexcept {
    start(compress, compress_lanes, nullptr, 0, snapshot.digest_length);
    for (size_t leaf = 0; leaf < kLeaves; ++leaf) {
        std::memcpy(m_leaves[leaf].h, snapshot.h[leaf], sizeof snapshot.h[leaf]);
        std::memcpy(m_leaves[leaf].t, snapshot.t[leaf], sizeof snapshot.t[leaf]);
    }
    std::memcpy(m_pending, snapshot.pending, sizeof m_pending);
    m_pending_length = snapshot.pending_length;
}

template class TreeEngine<Blake2bFamily>;
template class TreeEngine<Blake2sFamily>;

}  // namespace blake2simd
