// Pieces every algorithm context shares: its life cycle, OpenSSL-owned memory, dispatch entries.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/core.h>

#include <cstddef>
#include <cstring>
#include <new>
#include <type_traits>

#include "cleanse.hpp"
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

// Contexts live in the core's allocator (so CRYPTO_set_mem_functions sees them) and are
// cleansed when freed: they hold keys and chaining values.
template <class Context>
Context* new_context(void* provctx) noexcept {
    static_assert(std::is_trivially_copyable_v<Context> && alignof(Context) <= 16);
    auto* provider = static_cast<ProviderContext*>(provctx);
    const KernelInfo* kernel = provider->kernel_choice().kernel;
    if (kernel == nullptr) {
        B2_RAISE(provider, Reason::no_kernel_available);
        return nullptr;
    }
    void* memory = provider->memory.allocate(sizeof(Context), __FILE__, __LINE__);
    if (memory == nullptr) {
        B2_RAISE(provider, Reason::allocation_failed);
        return nullptr;
    }
    // Value-initialized: zeroed wherever no member initializer says otherwise.
    auto* ctx = new (memory) Context{};
    ctx->provider = provider;
    ctx->kernel = kernel;
    return ctx;
}

template <class Context>
Context* duplicate_context(const Context* ctx) noexcept {
    void* memory = ctx->provider->memory.allocate(sizeof(Context), __FILE__, __LINE__);
    if (memory == nullptr) {
        B2_RAISE(ctx->provider, Reason::allocation_failed);
        return nullptr;
    }
    return new (memory) Context(*ctx);
}

template <class Context>
void free_context(void* vctx) noexcept {
    if (vctx == nullptr) {
        return;
    }
    OSSL_FUNC_CRYPTO_free_fn* release = static_cast<Context*>(vctx)->provider->memory.release;
    cleanse(vctx, sizeof(Context));
    release(vctx, __FILE__, __LINE__);
}

}  // namespace blake2simd

// A dispatch entry whose function is checked against OpenSSL's typedef for that slot
// (our callbacks are noexcept; the typedefs are not, and the conversion is implicit).
#define B2_DISPATCH(ID, name) \
    { OSSL_FUNC_##ID, reinterpret_cast<void (*)(void)>(static_cast<OSSL_FUNC_##name##_fn*>(&name)) }
