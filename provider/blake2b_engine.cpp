// The BLAKE2b streaming engine under both the digest and the MAC.
// SPDX-License-Identifier: Apache-2.0
#include "blake2b_engine.hpp"

#include <openssl/crypto.h>

#include <cstring>

namespace blake2simd {
namespace {

uint64_t load64_le(const uint8_t* p) noexcept {
    uint64_t w = 0;
    for (int i = 7; i >= 0; --i) {
        w = (w << 8) | p[i];
    }
    return w;
}

void store64_le(uint8_t* p, uint64_t w) noexcept {
    for (int i = 0; i < 8; ++i) {
        p[i] = static_cast<uint8_t>(w >> (8 * i));
    }
}

void serialize(const Blake2bParams& params, uint8_t block[64]) noexcept {
    std::memset(block, 0, 64);
    block[0] = params.digest_length;
    block[1] = params.key_length;
    block[2] = params.fanout;
    block[3] = params.depth;
    for (int i = 0; i < 4; ++i) {
        block[4 + i] = static_cast<uint8_t>(params.leaf_length >> (8 * i));
    }
    store64_le(block + 8, params.node_offset);
    block[16] = params.node_depth;
    block[17] = params.inner_length;
    std::memcpy(block + 32, params.salt, kSaltBytes);
    std::memcpy(block + 48, params.personal, kPersonalBytes);
}

}  // namespace

void initial_chaining_value(const Blake2bParams& params, uint64_t h[8]) noexcept {
    uint8_t block[64];
    serialize(params, block);
    for (int i = 0; i < 8; ++i) {
        h[i] = kIV[i] ^ load64_le(block + 8 * i);
    }
}

void Blake2bEngine::start(CompressFn compress, const Blake2bParams& params,
                          bool last_node) noexcept {
    initial_chaining_value(params, m_state.h);
    m_state.t[0] = m_state.t[1] = 0;
    m_state.f[0] = m_state.f[1] = 0;
    m_compress = compress;
    m_buffered = 0;
    m_digest_length = params.digest_length;
    m_last_node = last_node;
}

void Blake2bEngine::resume(CompressFn compress, const Blake2bState& state,
                           uint8_t digest_length) noexcept {
    m_state = state;
    m_compress = compress;
    m_buffered = 0;
    m_digest_length = digest_length;
    m_last_node = false;
}

void Blake2bEngine::start_keyed_empty(CompressFn compress, const Blake2bParams& params,
                                      const uint8_t* key) noexcept {
    start(compress, params);
    std::memset(m_buffer, 0, kBlockBytes);
    std::memcpy(m_buffer, key, params.key_length);
    m_buffered = kBlockBytes;
}

Blake2bState Blake2bEngine::state_after_key_block(CompressFn compress, const Blake2bParams& params,
                                                  const uint8_t* key) noexcept {
    Blake2bEngine engine;
    engine.start_keyed_empty(compress, params, key);
    engine.compress_buffered_block();
    OPENSSL_cleanse(engine.m_buffer, sizeof engine.m_buffer);
    return engine.m_state;
}

void Blake2bEngine::compress_buffered_block() noexcept {
    m_compress(&m_state, m_buffer, 1, kBlockBytes);
    m_buffered = 0;
}

void Blake2bEngine::update(const uint8_t* data, size_t length) noexcept {
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

void Blake2bEngine::finish(uint8_t* out) noexcept {
    std::memset(m_buffer + m_buffered, 0, kBlockBytes - m_buffered);
    m_state.f[0] = ~0ULL;
    m_state.f[1] = m_last_node ? ~0ULL : 0;
    m_compress(&m_state, m_buffer, 1, m_buffered);
    uint8_t digest[kMaxDigestBytes];
    for (int i = 0; i < 8; ++i) {
        store64_le(digest + 8 * i, m_state.h[i]);
    }
    std::memcpy(out, digest, m_digest_length);
    OPENSSL_cleanse(digest, sizeof digest);
    OPENSSL_cleanse(m_buffer, sizeof m_buffer);
    m_buffered = 0;
}

}  // namespace blake2simd
