// Where algorithm contexts live: OpenSSL-owned memory, cleansed when freed.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/core.h>

#include <cstddef>
#include <new>
#include <type_traits>

#include "cleanse.hpp"
#include "errors.hpp"
#include "provider_context.hpp"

namespace blake2simd {

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
