// Pieces every algorithm context shares: its life cycle, OpenSSL-owned memory, dispatch entries.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/core.h>
#include <openssl/crypto.h>

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

template <class Context>
void free_context(void* ctx) noexcept {
    OPENSSL_clear_free(ctx, sizeof(Context));
}

}  // namespace blake2simd

// A dispatch entry whose function is checked against OpenSSL's typedef for that slot
// (our callbacks are noexcept; the typedefs are not, and the conversion is implicit).
#define B2_DISPATCH(ID, name) \
    { OSSL_FUNC_##ID, reinterpret_cast<void (*)(void)>(static_cast<OSSL_FUNC_##name##_fn*>(&name)) }
