// OSSL_OP_MAC implementation of BLAKE2BPMAC: keyed BLAKE2bp, 64-byte output.
// SPDX-License-Identifier: Apache-2.0
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/params.h>

#include <cstring>

#include "algorithms.hpp"
#include "baseline_guard.hpp"
#include "blake2bp_engine.hpp"
#include "blake2bp_params.hpp"
#include "context_support.hpp"
#include "errors.hpp"
#include "names.hpp"
#include "params.hpp"
#include "provider_context.hpp"

namespace blake2simd {
namespace {

// Each init restarts from the key: the four keyed leaves cost one 4-lane compression.
struct MacContext {
    ProviderContext* provider;
    const KernelInfo* kernel;
    Lanes4Kernel lanes4;
    uint8_t key[kMaxKeyBytes];
    uint8_t key_length;  // 0 until a key is set; applied at the next init
    Phase phase;
    Blake2bpEngine engine;
};

void* mac_newctx(void* provctx) noexcept {
    auto* ctx = new_context<MacContext>(provctx);
    if (ctx != nullptr) {
        ctx->lanes4 = ctx->provider->kernel_choice().lanes4;
    }
    return ctx;
}

void mac_freectx(void* vctx) noexcept {
    free_context<MacContext>(vctx);
}

void* mac_dupctx(void* vctx) noexcept {
    return duplicate_context(static_cast<const MacContext*>(vctx));
}

// Validates the params and the key argument (nullptr: none) completely, then stores the key;
// a failing call changes nothing.
bool configure(MacContext* ctx, const OSSL_PARAM params[], KeyArgument key_argument) noexcept {
    KeyArgument param_key;
    Reason failure{};
    if (!parse_blake2bp_params(params, KeyPolicy::accept, param_key, failure)) {
        B2_RAISE(ctx->provider, failure);
        return false;
    }
    if (key_argument.bytes != nullptr && !is_valid_key_length(key_argument.length)) {
        B2_RAISE(ctx->provider, Reason::invalid_key_length);
        return false;
    }
    const KeyArgument& new_key = key_argument.bytes != nullptr ? key_argument : param_key;
    if (new_key.bytes != nullptr) {
        std::memset(ctx->key, 0, sizeof ctx->key);
        std::memcpy(ctx->key, new_key.bytes, new_key.length);
        ctx->key_length = static_cast<uint8_t>(new_key.length);
    }
    return true;
}

int mac_init(void* vctx, const unsigned char* key, size_t keylen,
             const OSSL_PARAM params[]) noexcept {
    auto* ctx = static_cast<MacContext*>(vctx);
    if (!configure(ctx, params, KeyArgument{key, keylen})) {
        return 0;
    }
    if (ctx->key_length == 0) {
        B2_RAISE(ctx->provider, Reason::no_key_set);
        return 0;
    }
    ctx->engine.start(ctx->kernel->compress, ctx->lanes4.compress4, ctx->key, ctx->key_length);
    ctx->phase = Phase::absorbing;
    return 1;
}

int mac_update(void* vctx, const unsigned char* in, size_t inl) noexcept {
    auto* ctx = static_cast<MacContext*>(vctx);
    if (!require_absorbing(ctx->provider, ctx->phase, Reason::update_after_final)) {
        return 0;
    }
    ctx->engine.update(in, inl);
    return 1;
}

int mac_final(void* vctx, unsigned char* out, size_t* outl, size_t outsize) noexcept {
    auto* ctx = static_cast<MacContext*>(vctx);
    if (!require_absorbing(ctx->provider, ctx->phase, Reason::already_finalized)) {
        return 0;
    }
    if (out == nullptr) {  // a size query, not a final
        *outl = kBlake2bpDigestBytes;
        return 1;
    }
    if (outsize < kBlake2bpDigestBytes) {
        B2_RAISE(ctx->provider, Reason::output_buffer_too_small);
        return 0;
    }
    ctx->engine.finish(out);
    ctx->phase = Phase::finished;
    *outl = kBlake2bpDigestBytes;
    return 1;
}

int mac_set_ctx_params(void* vctx, const OSSL_PARAM params[]) noexcept {
    return configure(static_cast<MacContext*>(vctx), params, KeyArgument{}) ? 1 : 0;
}

// salt and custom are listed so that callers reach our refusal (with its reason) instead of a
// generic "unknown parameter".
const OSSL_PARAM* mac_settable_ctx_params(void*, void*) noexcept {
    static const OSSL_PARAM kSettable[] = {
        OSSL_PARAM_octet_string(OSSL_MAC_PARAM_CUSTOM, nullptr, 0),
        OSSL_PARAM_octet_string(OSSL_MAC_PARAM_KEY, nullptr, 0),
        OSSL_PARAM_octet_string(OSSL_MAC_PARAM_SALT, nullptr, 0),
        OSSL_PARAM_size_t(OSSL_MAC_PARAM_SIZE, nullptr),
        OSSL_PARAM_END,
    };
    return kSettable;
}

int mac_get_ctx_params(void* vctx, OSSL_PARAM params[]) noexcept {
    const auto* ctx = static_cast<const MacContext*>(vctx);
    OSSL_PARAM* p = OSSL_PARAM_locate(params, OSSL_MAC_PARAM_BLOCK_SIZE);
    if (p != nullptr && !OSSL_PARAM_set_size_t(p, kBlockBytes)) {
        return 0;
    }
    return get_common_ctx_params(params, kBlake2bpDigestBytes, ctx->lanes4.name) ? 1 : 0;
}

const OSSL_PARAM* mac_gettable_ctx_params(void*, void*) noexcept {
    static const OSSL_PARAM kGettable[] = {
        OSSL_PARAM_size_t(OSSL_MAC_PARAM_SIZE, nullptr),
        OSSL_PARAM_size_t(OSSL_MAC_PARAM_BLOCK_SIZE, nullptr),
        OSSL_PARAM_utf8_ptr(names::kParamKernel, nullptr, 0),
        OSSL_PARAM_END,
    };
    return kGettable;
}

}  // namespace

extern const OSSL_DISPATCH kMacBlake2bpFunctions[] = {
    B2_DISPATCH(MAC_NEWCTX, mac_newctx),
    B2_DISPATCH(MAC_FREECTX, mac_freectx),
    B2_DISPATCH(MAC_DUPCTX, mac_dupctx),
    B2_DISPATCH(MAC_INIT, mac_init),
    B2_DISPATCH(MAC_UPDATE, mac_update),
    B2_DISPATCH(MAC_FINAL, mac_final),
    B2_DISPATCH(MAC_SET_CTX_PARAMS, mac_set_ctx_params),
    B2_DISPATCH(MAC_SETTABLE_CTX_PARAMS, mac_settable_ctx_params),
    B2_DISPATCH(MAC_GET_CTX_PARAMS, mac_get_ctx_params),
    B2_DISPATCH(MAC_GETTABLE_CTX_PARAMS, mac_gettable_ctx_params),
    {0, nullptr},
};

}  // namespace blake2simd
