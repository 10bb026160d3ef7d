// The start of a keyed BLAKE2 message, computed once per key and parameter set: a MAC that
// re-inits with the same key resumes from the chaining value after the key block instead of
// compressing the key block again. Only the empty message needs the key block itself as its
// final block; it is rebuilt from the key when that happens (rebuild_key_block).
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>

#include "blake2_engine.hpp"
#include "core_memory.hpp"

namespace blake2simd {

// Trivially copyable (it lives in contexts OpenSSL copies); key material, cleansed by its owner
// on free.
template <class Family>
class KeyedStart final {
  public:
    using Engine = Blake2Engine<Family>;
    using Compress = typename Family::Compress;

    // Leaves `engine` just after the key block, from the cached chaining value. False, with
    // `engine` untouched, when nothing is cached (then call compute()).
    bool resume(Engine& engine, Compress compress, uint8_t digest_length,
                bool last_node = false) noexcept {
        if (m_state == State::empty) {
            return false;
        }
        engine.resume(compress, m_after_key_block, digest_length, last_node);
        m_state = State::resumed_without_message;
        return true;
    }

    // The engine compresses the key block itself (no temporary engine or state copies, and the
    // state the next compression loads is the one the kernel just stored); the chaining value
    // after it is cached.
    void compute(Engine& engine, Compress compress, const ParameterBlock<Family>& parameter_block,
                 const typename Engine::KeyBlock& key_block, bool last_node = false) noexcept {
        engine.start_after_key_block(compress, parameter_block, key_block, last_node);
        m_after_key_block = engine.state();
        m_state = State::resumed_without_message;
    }

    // The engine has taken `length` more message bytes.
    void absorbed(size_t length) noexcept {
        if (length > 0 && m_state == State::resumed_without_message) {
            m_state = State::cached;
        }
    }

    // True while the engine sits just after the key block with no message byte seen: before
    // its final or a change of configuration, the engine must go back to "key block buffered".
    bool needs_key_block() const noexcept { return m_state == State::resumed_without_message; }

    // Moves the engine back to "key block buffered" under the configuration it started with.
    void rebuild_key_block(Engine& engine, Compress compress,
                           const ParameterBlock<Family>& parameter_block,
                           const typename Engine::KeyBlock& key_block,
                           bool last_node = false) noexcept {
        engine.start_keyed_empty(compress, parameter_block, key_block, last_node);
        m_state = State::cached;
    }

    // The key or the parameters changed: the cached value no longer applies. A caller that
    // computes the new one right away (init with a new key) overwrites all of it at once,
    // which clears it as surely as a cleanse and costs nothing extra per re-key; any other
    // caller leaves it until the next init, so it is cleansed.
    enum class Stale : uint8_t { cleanse, overwritten_next };
    void forget(Stale stale) noexcept {
        if (stale == Stale::cleanse) {
            cleanse(&m_after_key_block, sizeof m_after_key_block);
        }
        m_state = State::empty;
    }

  private:
    // resumed_without_message: cached, and the engine sits just after the key block.
    enum class State : uint8_t { empty, cached, resumed_without_message };

    typename Family::State m_after_key_block;
    State m_state;
};

}  // namespace blake2simd
