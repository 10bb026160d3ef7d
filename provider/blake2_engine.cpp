// The streaming engine under both the digest and the MAC, for both families.
// SPDX-License-Identifier: Apache-2.0
#include "blake2_engine.hpp"
#include "baseline_guard.hpp"

#include <cstring>

#include "core_memory.hpp"
#include "digest_bytes.hpp"
#include "scrub.hpp"

namespace blake2simd {

template <class Family>
void Blake2Engine<Family>::start(Compress compress, const ParameterBlock<Family>& parameter_block,
                                 bool last_node) noexcept {
    initial_chaining_value(parameter_block, m_state.h);
    m_state.t[0] = m_state.t[1] = 0;
    m_state.f[0] = m_state.f[1] = 0;
    m_compress = compress;
    m_buffered = 0;
    m_digest_length = parameter_block.digest_length;
    m_last_node = last_node;
    m_key_block_buffered = false;
}

template <class Family>
void Blake2Engine<Family>::resume(Compress compress, const State& state, uint8_t digest_length,
                                  bool last_node) noexcept {
    m_state = state;
    m_compress = compress;
    m_buffered = 0;
    m_digest_length = digest_length;
    m_last_node = last_node;
    m_key_block_buffered = false;
}

// A fixed-size copy of the key block compiles to a few vector moves; a block-sized memset and
// a key-length memcpy were a call each (rep stos / rep movs with g++'s default tuning), a good
// part of the cost of a re-key.
template <class Family>
void Blake2Engine<Family>::start_keyed_empty(Compress compress,
                                             const ParameterBlock<Family>& parameter_block,
                                             const KeyBlock& key_block, bool last_node) noexcept {
    start(compress, parameter_block, last_node);
    std::memcpy(m_buffer, key_block, kBlockBytes);
    m_buffered = kBlockBytes;
    m_key_block_buffered = true;
}

// Straight from the caller's key block: no copy in the buffer to cleanse afterwards.
template <class Family>
void Blake2Engine<Family>::start_after_key_block(Compress compress,
                                                 const ParameterBlock<Family>& parameter_block,
                                                 const KeyBlock& key_block,
                                                 bool last_node) noexcept {
    start(compress, parameter_block, last_node);
    m_compress(&m_state, key_block, 1, kBlockBytes);
    scrub_after_key_block(reinterpret_cast<SingleLaneKernel>(m_compress));
}

template <class Family>
void Blake2Engine<Family>::compress_buffered_block() noexcept {
    m_compress(&m_state, m_buffer, 1, kBlockBytes);
    m_buffered = 0;
    if (m_key_block_buffered) {
        forget_key_block();
    }
}

template <class Family>
void Blake2Engine<Family>::forget_key_block() noexcept {
    m_key_block_buffered = false;
    cleanse(m_buffer, sizeof m_buffer);
    scrub_after_key_block(reinterpret_cast<SingleLaneKernel>(m_compress));
}

template <class Family>
void Blake2Engine<Family>::settle_key_block(uint8_t* empty_message_digest) noexcept {
    Blake2Engine empty_message = *this;
    empty_message.finish(empty_message_digest);
    cleanse(&empty_message, sizeof empty_message);
    compress_buffered_block();
}

template <class Family>
void Blake2Engine<Family>::update(const uint8_t* data, size_t length) noexcept {
    if (length == 0) {
        return;
    }
    if (m_buffered > 0) {
        const size_t room = kBlockBytes - m_buffered;
        if (length <= room) {
            std::memcpy(m_buffer + m_buffered, data, length);
            m_buffered += static_cast<uint32_t>(length);
            return;
        }
        std::memcpy(m_buffer + m_buffered, data, room);
        data += room;
        length -= room;
        compress_buffered_block();
    }
    // Input that ends exactly on a block boundary keeps its last block buffered: only
    // finish() knows whether it is the final block.
    if (length > kBlockBytes) {
        const size_t blocks = (length - 1) / kBlockBytes;
        m_compress(&m_state, data, blocks, kBlockBytes);
        data += blocks * kBlockBytes;
        length -= blocks * kBlockBytes;
    }
    std::memcpy(m_buffer, data, length);
    m_buffered = static_cast<uint32_t>(length);
}

// Leaves the last message block in the buffer: contexts are cleansed when freed, and cleansing
// here would cost every message (the key block, which only the empty message ends with, goes).
template <class Family>
void Blake2Engine<Family>::finish(uint8_t* out) noexcept {
    using Word = typename Family::Word;
    std::memset(m_buffer + m_buffered, 0, kBlockBytes - m_buffered);
    m_state.f[0] = ~Word{0};
    m_state.f[1] = m_last_node ? ~Word{0} : 0;
    m_compress(&m_state, m_buffer, 1, m_buffered);
    m_buffered = 0;
    if (m_key_block_buffered) {
        // The empty message of a keyed hash: its only block was the key block.
        forget_key_block();
    }
    write_digest(m_state, out, m_digest_length);
}

template <class Family>
typename Blake2Engine<Family>::Snapshot Blake2Engine<Family>::snapshot() const noexcept {
    Snapshot snapshot;
    std::memcpy(snapshot.h, m_state.h, sizeof snapshot.h);
    std::memcpy(snapshot.t, m_state.t, sizeof snapshot.t);
    std::memcpy(snapshot.buffer, m_buffer, sizeof snapshot.buffer);
    snapshot.buffered = m_buffered;
    snapshot.digest_length = m_digest_length;
    snapshot.last_node = m_last_node;
    return snapshot;
}

template <class Family>
bool Blake2Engine<Family>::is_consistent(const Snapshot& snapshot) noexcept {
    const bool compressed = snapshot.t[0] != 0 || snapshot.t[1] != 0;
    return snapshot.digest_length >= 1 && snapshot.digest_length <= Family::kMaxDigestBytes &&
           snapshot.t[0] % kBlockBytes == 0 && snapshot.buffered <= kBlockBytes &&
           (!compressed || snapshot.buffered >= 1);
}

template <class Family>
void Blake2Engine<Family>::restore(Compress compress, const Snapshot& snapshot) noexcept {
    std::memcpy(m_state.h, snapshot.h, sizeof snapshot.h);
    std::memcpy(m_state.t, snapshot.t, sizeof snapshot.t);
    m_state.f[0] = m_state.f[1] = 0;
    std::memcpy(m_buffer, snapshot.buffer, sizeof m_buffer);
    m_compress = compress;
    m_buffered = snapshot.buffered;
    m_digest_length = snapshot.digest_length;
    m_last_node = snapshot.last_node;
    m_key_block_buffered = false;
}

template class Blake2Engine<Blake2bFamily>;
template class Blake2Engine<Blake2sFamily>;

}  // namespace blake2simd
