// The streaming engine under both the digest and the MAC of each family (BLAKE2b, BLAKE2s):
// buffering, counter, parameter block, last-block handling. ISA-agnostic: compression goes
// through the family's compression function (kernels/kernel.hpp).
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>

#include "blake2_family.hpp"

namespace blake2simd {

using Blake2bParams = Blake2Params<Blake2bFamily>;
using Blake2sParams = Blake2Params<Blake2sFamily>;

// Trivially copyable so contexts can be duplicated with a plain copy; holds no pointers
// to itself. Instantiated for both families in blake2_engine.cpp only.
template <class Family>
class Blake2Engine final {
  public:
    using Compress = typename Family::Compress;
    using State = typename Family::State;
    using Params = Blake2Params<Family>;
    using PaddedKey = uint8_t[Family::kMaxKeyBytes];

    // Unkeyed start. `last_node` marks the last node of a tree level (a tree's last leaf, root).
    void start(Compress compress, const Params& params, bool last_node = false) noexcept;

    // Starts from a chaining state already advanced past some blocks (e.g. a MAC's key block).
    void resume(Compress compress, const State& state, uint8_t digest_length) noexcept;

    void update(const uint8_t* data, size_t length) noexcept;

    // Writes digest_length() bytes; the engine must be started again before further use.
    void finish(uint8_t* out) noexcept;

    uint8_t digest_length() const noexcept { return m_digest_length; }
    const State& state() const noexcept { return m_state; }

    // The keyed starts take the key zero-padded to Family::kMaxKeyBytes (as MacKey stores it).
    //
    // Compresses the key block in place as a normal (non-final) block, leaving the engine
    // just after it; state() is then the chaining value a keyed hash continues from. In
    // place, so the engine makes no copy of the key block or of the state elsewhere; the buffer
    // is cleansed right after the key block is compressed (here, in finish() and wherever a
    // buffered key block is compressed later: a short message would overwrite only its head,
    // and a replaced key must leave no copy behind). The kernel's own copies (its stack frame,
    // the vector registers) are scrubbed then as well (scrub.hpp).
    void start_after_key_block(Compress compress, const Params& params,
                               const PaddedKey& padded_key) noexcept;

    // The first-block-only state of a keyed hash of the empty message.
    void start_keyed_empty(Compress compress, const Params& params,
                           const PaddedKey& padded_key) noexcept;

    // True while the buffer holds the key block and no message byte followed it.
    bool key_block_buffered() const noexcept { return m_key_block_buffered; }

    // For a key replaced while key_block_buffered(): writes the digest the empty message would
    // have (digest_length() bytes), then compresses the key block as a non-final block, so the
    // message can still go on while no copy of the key block is left.
    void settle_key_block(uint8_t* empty_message_digest) noexcept;

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

}  // namespace blake2simd
