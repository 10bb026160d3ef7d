// What the MAC contexts of both families (BLAKE2BMAC, BLAKE2BPMAC, BLAKE2SMAC, BLAKE2SPMAC) share:
// key handling and ctx params.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/core.h>

#include <cstddef>
#include <cstdint>

#include "context_memory.hpp"
#include "errors.hpp"
#include "params.hpp"
#include "provider_context.hpp"

namespace blake2simd {

// Kept inside the (OpenSSL-allocated, cleansed on free) context until the next key replaces it.
template <class Family>
struct MacKey {
    uint8_t bytes[Family::kMaxKeyBytes];
    uint8_t length;  // 0 until a key is set
};

// The key given to init wins over a "key" param given with it; an init key of invalid length
// is refused. `selected.bytes` is nullptr when neither gives a key.
template <class Family>
bool select_key(KeyArgument init_key, const KeyArgument& param_key, KeyArgument& selected,
                Reason& failure) noexcept;

// Zero-fills the unused tail, so the stored bytes never depend on an earlier, longer key.
template <class Family>
void store_key(MacKey<Family>& key, const KeyArgument& given) noexcept;

// Init needs a key, given now or at an earlier init or set_ctx_params.
template <class Family>
bool require_key(const ProviderContext* provider, const MacKey<Family>& key) noexcept {
    if (key.length == 0) {
        B2_RAISE(provider, Reason::no_key_set);
        return false;
    }
    return true;
}

// Fills the family's block size, `output_size` and the serving kernel's name; a failure is
// raised.
template <class Family>
bool get_mac_ctx_params(const ProviderContext* provider, OSSL_PARAM params[], size_t output_size,
                        const char* kernel_name) noexcept {
    return get_common_ctx_params(provider, params, output_size, kernel_name, Family::kBlockBytes);
}

// Every MAC lists salt and custom: BLAKE2b and BLAKE2s apply them, and the tree modes' callers
// reach their refusal (with its reason) instead of a generic "unknown parameter".
extern const OSSL_PARAM kMacSettableCtxParams[];

extern const OSSL_PARAM kMacGettableCtxParams[];

// The MAC callbacks every MAC context of `Family` shares: its life cycle, the ctx param tables
// and the gettable ctx params. Each MAC's callback type derives from this with its own context
// type (so the symbols still name the algorithm) and adds init, update, final and
// set_ctx_params. `Context::served_by()` names the kernel that serves the context.
template <class Context, class Family>
struct MacCallbacks : ContextLifecycle<Context> {
    static const OSSL_PARAM* settable_ctx_params(void*, void*) noexcept {
        return kMacSettableCtxParams;
    }

    static int get_ctx_params(void* vctx, OSSL_PARAM params[]) noexcept {
        const auto* ctx = static_cast<const Context*>(vctx);
        return get_mac_ctx_params<Family>(ctx->provider, params, ctx->output_size(),
                                          ctx->served_by())
                   ? 1
                   : 0;
    }

    static const OSSL_PARAM* gettable_ctx_params(void*, void*) noexcept {
        return kMacGettableCtxParams;
    }
};

}  // namespace blake2simd
