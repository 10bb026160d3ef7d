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

// The kernel a context of `Kernel`'s family runs on; nullptr when no kernel passed its self-test
// (the BLAKE2s choice exists whenever the BLAKE2b one does).
template <class Kernel>
const Kernel* chosen_kernel(const KernelChoice& choice) noexcept;

template <>
inline const KernelInfo* chosen_kernel<KernelInfo>(const KernelChoice& choice) noexcept {
    return choice.kernel;
}

template <>
inline const Blake2sKernelInfo* chosen_kernel<Blake2sKernelInfo>(
    const KernelChoice& choice) noexcept {
    return choice.kernel != nullptr ? choice.blake2s : nullptr;
}

// The many-lane kernel a tree-mode context of the family runs its leaves on, and its entry.
inline Lanes4Kernel chosen_lanes(const KernelChoice& choice, Blake2bFamily) noexcept {
    return choice.lanes4;
}
inline Lanes8Kernel chosen_lanes(const KernelChoice& choice, Blake2sFamily) noexcept {
    return choice.lanes8;
}
inline Compress4Fn lanes_entry(const Lanes4Kernel& lanes) noexcept {
    return lanes.compress4;
}
inline Blake2sCompress8Fn lanes_entry(const Lanes8Kernel& lanes) noexcept {
    return lanes.compress8;
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
