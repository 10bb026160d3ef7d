// The BLAKE2b streaming engine under both the digest and the MAC: buffering, counter,
// parameter block, last-block handling. ISA-agnostic: compression goes through a CompressFn.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>

#include "blake2_family.hpp"
#include "kernel.hpp"

namespace blake2simd {

using Blake2bParams = Blake2Params<Blake2bFamily>;

// Trivially copyable so contexts can be duplicated with a plain copy; holds no pointers
// to itself.
class Blake2bEngine final {
  public:
    // Unkeyed start. `last_node` marks the last node of a tree level (BLAKE2bp's last leaf, root).
    void start(CompressFn compress, const Blake2bParams& params, bool last_node = false) noexcept;

    // Starts from a chaining state already advanced past some blocks (e.g. a MAC's key block).
    void resume(CompressFn compress, const Blake2bState& state, uint8_t digest_length) noexcept;

    void update(const uint8_t* data, size_t length) noexcept;

    // Writes digest_length() bytes; the engine must be started again before further use.
    void finish(uint8_t* out) noexcept;

    uint8_t digest_length() const noexcept { return m_digest_length; }
    const Blake2bState& state() const noexcept { return m_state; }

    // The keyed starts take the key zero-padded to kMaxKeyBytes (as MacKey stores it).
    //
    // Compresses the key block in place as a normal (non-final) block, leaving the engine
    // just after it; state() is then the chaining value a keyed hash continues from. In
    // place, so the engine makes no copy of the key block or of the state elsewhere (the key
    // block stays in the buffer until the message overwrites it; the owner holds the key
    // anyway and cleanses both when freed). The kernel's own copies (its stack frame, the
    // vector registers) are scrubbed right after every compression of the key block
    // (scrub.hpp), here and wherever a buffered key block is compressed later.
    void start_after_key_block(CompressFn compress, const Blake2bParams& params,
                               const uint8_t (&padded_key)[kMaxKeyBytes]) noexcept;

    // The first-block-only state of a keyed hash of the empty message.
    void start_keyed_empty(CompressFn compress, const Blake2bParams& params,
                           const uint8_t (&padded_key)[kMaxKeyBytes]) noexcept;

  private:
    void compress_buffered_block() noexcept;

    Blake2bState m_state;
    uint8_t m_buffer[kBlockBytes];
    CompressFn m_compress;
    uint32_t m_buffered;  // 0..128; a full buffer is kept until more input shows it is not last
    uint8_t m_digest_length;
    bool m_last_node;
    bool m_key_block_buffered;  // the buffer holds the key block: scrub after compressing it
};

}  // namespace blake2simd
