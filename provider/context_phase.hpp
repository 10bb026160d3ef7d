// The life cycle every algorithm context shares: init, then updates, then one final.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>

#include "errors.hpp"
#include "provider_context.hpp"

namespace blake2simd {

enum class Phase : uint8_t { idle, absorbing, finished };

// Update and final are only valid between init and final.
inline bool require_absorbing(const ProviderContext* provider, Phase phase,
                              Reason when_finished) noexcept {
    if (phase == Phase::absorbing) {
        return true;
    }
    B2_RAISE(provider, phase == Phase::idle ? Reason::not_initialized : when_finished);
    return false;
}

// The update digests and MACs share: the whole input goes to the context's engine.
template <class Context>
int absorb(Context* ctx, const unsigned char* in, size_t inl) noexcept {
    if (!require_absorbing(ctx->provider, ctx->phase, Reason::update_after_final)) {
        return 0;
    }
    ctx->engine.update(in, inl);
    return 1;
}

// The final digests and MACs share. A NULL `out` is a size query and leaves the message open;
// otherwise `finish(out)` writes ctx->output_size() bytes and the context is finished.
template <class Context, class Finish>
int write_output(Context* ctx, unsigned char* out, size_t* outl, size_t outsize,
                 Finish finish) noexcept {
    if (!require_absorbing(ctx->provider, ctx->phase, Reason::already_finalized)) {
        return 0;
    }
    const size_t size = ctx->output_size();
    if (out == nullptr) {
        *outl = size;
        return 1;
    }
    if (outsize < size) {
        B2_RAISE(ctx->provider, Reason::output_buffer_too_small);
        return 0;
    }
    finish(out);
    ctx->phase = Phase::finished;
    *outl = size;
    return 1;
}

// For contexts whose final is nothing but the engine's.
template <class Context>
int write_output(Context* ctx, unsigned char* out, size_t* outl, size_t outsize) noexcept {
    return write_output(ctx, out, outl, outsize,
                        [ctx](unsigned char* output) noexcept { ctx->engine.finish(output); });
}

}  // namespace blake2simd
