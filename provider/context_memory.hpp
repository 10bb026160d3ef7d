// Where algorithm contexts live: OpenSSL-owned memory, cleansed when freed.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/core.h>

#include <cstddef>
#include <new>
#include <type_traits>

#include "blake2_family.hpp"
#include "cleanse.hpp"
#include "errors.hpp"
#include "provider_context.hpp"

namespace blake2simd {

// The kernel a context of `Kernel`'s family runs on; nullptr when nothing is offered.
template <class Kernel>
const Kernel* chosen_kernel(const KernelChoice& choice) noexcept {
    if (!choice.offered) {
        return nullptr;
    }
    if constexpr (std::is_same_v<Kernel, Blake2bKernels::Kernel>) {
        return &choice.blake2b;
    } else {
        return &choice.blake2s;
    }
}

// The many-lane kernel a tree-mode context of that lane type runs its leaves on.
template <class LanesKernel>
LanesKernel chosen_lanes(const KernelChoice& choice) noexcept {
    if constexpr (std::is_same_v<LanesKernel, Blake2bKernels::LanesKernel>) {
        return choice.blake2bp;
    } else {
        return choice.blake2sp;
    }
}

// Contexts live in the core's allocator (so CRYPTO_set_mem_functions sees them) and are
// cleansed when freed: they hold keys and chaining values.
template <class Context>
Context* new_context(void* provctx) noexcept {
    static_assert(std::is_trivially_copyable_v<Context> && alignof(Context) <= 16);
    using Kernel = std::remove_cv_t<std::remove_pointer_t<decltype(Context::kernel)>>;
    auto* provider = static_cast<ProviderContext*>(provctx);
    const Kernel* kernel = chosen_kernel<Kernel>(provider->kernel_choice());
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
    if constexpr (requires { ctx->lanes; }) {
        ctx->lanes = chosen_lanes<decltype(Context::lanes)>(provider->kernel_choice());
    }
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

// The life-cycle callbacks every algorithm shares. Each algorithm's callback type derives from
// this with its own context type, so the symbols still name the algorithm.
template <class Context>
struct ContextLifecycle {
    static void* newctx(void* provctx) noexcept { return new_context<Context>(provctx); }

    static void freectx(void* vctx) noexcept { free_context<Context>(vctx); }

    static void* dupctx(void* vctx) noexcept {
        return duplicate_context(static_cast<const Context*>(vctx));
    }
};

}  // namespace blake2simd
