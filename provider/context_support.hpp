// Pieces every algorithm context shares: its life cycle, OpenSSL-owned memory, dispatch entries.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/core.h>
#include <openssl/crypto.h>

#include <cstddef>
#include <cstring>
#include <new>
#include <type_traits>

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

// Contexts live in OpenSSL's allocator (so CRYPTO_set_mem_functions sees them) and are
// cleansed when freed: they hold keys and chaining values.
template <class Context>
Context* new_context(void* provctx) noexcept {
    static_assert(std::is_trivially_copyable_v<Context> && alignof(Context) <= 16);
    auto* provider = static_cast<ProviderContext*>(provctx);
    const KernelInfo* kernel = provider->kernel_choice().kernel;
    if (kernel == nullptr) {
        return nullptr;
    }
    void* memory = OPENSSL_malloc(sizeof(Context));
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
    void* memory = OPENSSL_malloc(sizeof(Context));
    if (memory == nullptr) {
        B2_RAISE(ctx->provider, Reason::allocation_failed);
        return nullptr;
    }
    return new (memory) Context(*ctx);
}

// Clears key material with a store the compiler may not drop. Contexts are freed at every
// EVP_DigestInit_ex2 on OpenSSL 3.0 and MACs re-key per message: glibc's explicit_bzero is a
// vectorized memset, where OPENSSL_cleanse clears 8 bytes a step.
inline void cleanse(void* memory, size_t size) noexcept {
#if defined(__GLIBC__)
    explicit_bzero(memory, size);
#else
    OPENSSL_cleanse(memory, size);
#endif
}

template <class Context>
void free_context(void* ctx) noexcept {
    if (ctx == nullptr) {
        return;
    }
    cleanse(ctx, sizeof(Context));
    OPENSSL_free(ctx);
}

}  // namespace blake2simd

// A dispatch entry whose function is checked against OpenSSL's typedef for that slot
// (our callbacks are noexcept; the typedefs are not, and the conversion is implicit).
#define B2_DISPATCH(ID, name) \
    { OSSL_FUNC_##ID, reinterpret_cast<void (*)(void)>(static_cast<OSSL_FUNC_##name##_fn*>(&name)) }
