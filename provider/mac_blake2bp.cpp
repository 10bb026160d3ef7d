// OSSL_OP_MAC implementation of BLAKE2BPMAC: keyed BLAKE2bp, 64-byte output.
// SPDX-License-Identifier: Apache-2.0
#include <openssl/core_dispatch.h>

#include "algorithms.hpp"
#include "baseline_guard.hpp"
#include "blake2bp_engine.hpp"
#include "blake2bp_params.hpp"
#include "context_memory.hpp"
#include "context_phase.hpp"
#include "dispatch_entry.hpp"
#include "errors.hpp"
#include "mac_common.hpp"
#include "params.hpp"
#include "provider_context.hpp"

namespace blake2simd {
namespace {

// Each init restarts from the key: the four keyed leaves cost one 4-lane compression.
struct MacContext {
    ProviderContext* provider;
    const KernelInfo* kernel;
    Lanes4Kernel lanes4;
    MacKey key;  // applied at the next init
    Phase phase;
    Blake2bpEngine engine;

    size_t output_size() const noexcept { return kBlake2bpDigestBytes; }
};

void* blake2bp_mac_newctx(void* provctx) noexcept {
    auto* ctx = new_context<MacContext>(provctx);
    if (ctx != nullptr) {
        ctx->lanes4 = ctx->provider->kernel_choice().lanes4;
    }
    return ctx;
}

void blake2bp_mac_freectx(void* vctx) noexcept {
    free_context<MacContext>(vctx);
}

void* blake2bp_mac_dupctx(void* vctx) noexcept {
    return duplicate_context(static_cast<const MacContext*>(vctx));
}

// Validates the params and the key argument (nullptr: none) completely, then stores the key;
// a failing call changes nothing.
bool configure(MacContext* ctx, const OSSL_PARAM params[], KeyArgument key_argument) noexcept {
    KeyArgument param_key;
    KeyArgument new_key;
    Reason failure{};
    if (!parse_blake2bp_params(params, KeyPolicy::accept, param_key, failure) ||
        !select_key(key_argument, param_key, new_key, failure)) {
        B2_RAISE(ctx->provider, failure);
        return false;
    }
    if (new_key.bytes != nullptr) {
        store_key(ctx->key, new_key);
    }
    return true;
}

int blake2bp_mac_init(void* vctx, const unsigned char* key, size_t keylen,
                      const OSSL_PARAM params[]) noexcept {
    auto* ctx = static_cast<MacContext*>(vctx);
    if (!configure(ctx, params, KeyArgument{key, keylen})) {
        return 0;
    }
    if (!require_key(ctx->provider, ctx->key)) {
        return 0;
    }
    ctx->engine.start(ctx->kernel->compress, ctx->lanes4.compress4, ctx->key.bytes,
                      ctx->key.length);
    ctx->phase = Phase::absorbing;
    return 1;
}

int blake2bp_mac_update(void* vctx, const unsigned char* in, size_t inl) noexcept {
    return absorb(static_cast<MacContext*>(vctx), in, inl);
}

int blake2bp_mac_final(void* vctx, unsigned char* out, size_t* outl, size_t outsize) noexcept {
    return write_output(static_cast<MacContext*>(vctx), out, outl, outsize);
}

int blake2bp_mac_set_ctx_params(void* vctx, const OSSL_PARAM params[]) noexcept {
    return configure(static_cast<MacContext*>(vctx), params, KeyArgument{}) ? 1 : 0;
}

const OSSL_PARAM* blake2bp_mac_settable_ctx_params(void*, void*) noexcept {
    return kMacSettableCtxParams;
}

int blake2bp_mac_get_ctx_params(void* vctx, OSSL_PARAM params[]) noexcept {
    const auto* ctx = static_cast<const MacContext*>(vctx);
    return get_mac_ctx_params(ctx->provider, params, ctx->output_size(), ctx->lanes4.name) ? 1 : 0;
}

const OSSL_PARAM* blake2bp_mac_gettable_ctx_params(void*, void*) noexcept {
    return kMacGettableCtxParams;
}

}  // namespace

extern const OSSL_DISPATCH kMacBlake2bpFunctions[] = {
    B2_DISPATCH(blake2bp, MAC_NEWCTX, mac_newctx),
    B2_DISPATCH(blake2bp, MAC_FREECTX, mac_freectx),
    B2_DISPATCH(blake2bp, MAC_DUPCTX, mac_dupctx),
    B2_DISPATCH(blake2bp, MAC_INIT, mac_init),
    B2_DISPATCH(blake2bp, MAC_UPDATE, mac_update),
    B2_DISPATCH(blake2bp, MAC_FINAL, mac_final),
    B2_DISPATCH(blake2bp, MAC_SET_CTX_PARAMS, mac_set_ctx_params),
    B2_DISPATCH(blake2bp, MAC_SETTABLE_CTX_PARAMS, mac_settable_ctx_params),
    B2_DISPATCH(blake2bp, MAC_GET_CTX_PARAMS, mac_get_ctx_params),
    B2_DISPATCH(blake2bp, MAC_GETTABLE_CTX_PARAMS, mac_gettable_ctx_params),
    {0, nullptr},
};

}  // namespace blake2simd
