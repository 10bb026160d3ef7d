// OSSL_OP_DIGEST implementation of BLAKE2BP-512 (BLAKE2bp, 4 leaves, 64-byte output).
// SPDX-License-Identifier: Apache-2.0
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/params.h>

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

struct DigestContext {
    ProviderContext* provider;
    const KernelInfo* kernel;
    Lanes4Kernel lanes4;
    Phase phase;
    Blake2bpEngine engine;
};

void* digest_newctx(void* provctx) noexcept {
    auto* ctx = new_context<DigestContext>(provctx);
    if (ctx != nullptr) {
        ctx->lanes4 = ctx->provider->kernel_choice().lanes4;
    }
    return ctx;
}

void digest_freectx(void* vctx) noexcept {
    free_context<DigestContext>(vctx);
}

void* digest_dupctx(void* vctx) noexcept {
    return duplicate_context(static_cast<const DigestContext*>(vctx));
}

bool check_params(const DigestContext* ctx, const OSSL_PARAM params[]) noexcept {
    KeyArgument no_key;
    Reason failure{};
    if (!parse_blake2bp_params(params, KeyPolicy::reject, no_key, failure)) {
        B2_RAISE(ctx->provider, failure);
        return false;
    }
    return true;
}

int digest_init(void* vctx, const OSSL_PARAM params[]) noexcept {
    auto* ctx = static_cast<DigestContext*>(vctx);
    if (!check_params(ctx, params)) {
        return 0;
    }
    ctx->engine.start(ctx->kernel->compress, ctx->lanes4.compress4, nullptr, 0);
    ctx->phase = Phase::absorbing;
    return 1;
}

int digest_update(void* vctx, const unsigned char* in, size_t inl) noexcept {
    auto* ctx = static_cast<DigestContext*>(vctx);
    if (!require_absorbing(ctx->provider, ctx->phase, Reason::update_after_final)) {
        return 0;
    }
    ctx->engine.update(in, inl);
    return 1;
}

int digest_final(void* vctx, unsigned char* out, size_t* outl, size_t outsz) noexcept {
    auto* ctx = static_cast<DigestContext*>(vctx);
    if (!require_absorbing(ctx->provider, ctx->phase, Reason::already_finalized)) {
        return 0;
    }
    if (out == nullptr) {  // a size query, not a final
        *outl = kBlake2bpDigestBytes;
        return 1;
    }
    if (outsz < kBlake2bpDigestBytes) {
        B2_RAISE(ctx->provider, Reason::output_buffer_too_small);
        return 0;
    }
    ctx->engine.finish(out);
    ctx->phase = Phase::finished;
    *outl = kBlake2bpDigestBytes;
    return 1;
}

int digest_get_params(OSSL_PARAM params[]) noexcept {
    OSSL_PARAM* p = nullptr;
    if ((p = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_BLOCK_SIZE)) != nullptr &&
        !OSSL_PARAM_set_size_t(p, kBlockBytes)) {
        return 0;
    }
    if ((p = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_SIZE)) != nullptr &&
        !OSSL_PARAM_set_size_t(p, kBlake2bpDigestBytes)) {
        return 0;
    }
    if ((p = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_XOF)) != nullptr &&
        !OSSL_PARAM_set_int(p, 0)) {
        return 0;
    }
    if ((p = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_ALGID_ABSENT)) != nullptr &&
        !OSSL_PARAM_set_int(p, 0)) {
        return 0;
    }
    return 1;
}

const OSSL_PARAM* digest_gettable_params(void*) noexcept {
    static const OSSL_PARAM kGettable[] = {
        OSSL_PARAM_size_t(OSSL_DIGEST_PARAM_BLOCK_SIZE, nullptr),
        OSSL_PARAM_size_t(OSSL_DIGEST_PARAM_SIZE, nullptr),
        OSSL_PARAM_int(OSSL_DIGEST_PARAM_XOF, nullptr),
        OSSL_PARAM_int(OSSL_DIGEST_PARAM_ALGID_ABSENT, nullptr),
        OSSL_PARAM_END,
    };
    return kGettable;
}

int digest_set_ctx_params(void* vctx, const OSSL_PARAM params[]) noexcept {
    return check_params(static_cast<DigestContext*>(vctx), params) ? 1 : 0;
}

// salt and custom are listed so that callers reach our refusal (with its reason) instead of a
// generic "unknown parameter".
const OSSL_PARAM* digest_settable_ctx_params(void*, void*) noexcept {
    static const OSSL_PARAM kSettable[] = {
        OSSL_PARAM_size_t(OSSL_DIGEST_PARAM_SIZE, nullptr),
        OSSL_PARAM_octet_string(OSSL_MAC_PARAM_SALT, nullptr, 0),
        OSSL_PARAM_octet_string(OSSL_MAC_PARAM_CUSTOM, nullptr, 0),
        OSSL_PARAM_END,
    };
    return kSettable;
}

int digest_get_ctx_params(void* vctx, OSSL_PARAM params[]) noexcept {
    const auto* ctx = static_cast<const DigestContext*>(vctx);
    return get_common_ctx_params(params, kBlake2bpDigestBytes, ctx->lanes4.name) ? 1 : 0;
}

const OSSL_PARAM* digest_gettable_ctx_params(void*, void*) noexcept {
    static const OSSL_PARAM kGettable[] = {
        OSSL_PARAM_size_t(OSSL_DIGEST_PARAM_SIZE, nullptr),
        OSSL_PARAM_utf8_ptr(names::kParamKernel, nullptr, 0),
        OSSL_PARAM_END,
    };
    return kGettable;
}

}  // namespace

extern const OSSL_DISPATCH kDigestBlake2bp512Functions[] = {
    B2_DISPATCH(DIGEST_NEWCTX, digest_newctx),
    B2_DISPATCH(DIGEST_FREECTX, digest_freectx),
    B2_DISPATCH(DIGEST_DUPCTX, digest_dupctx),
    B2_DISPATCH(DIGEST_INIT, digest_init),
    B2_DISPATCH(DIGEST_UPDATE, digest_update),
    B2_DISPATCH(DIGEST_FINAL, digest_final),
    B2_DISPATCH(DIGEST_GET_PARAMS, digest_get_params),
    B2_DISPATCH(DIGEST_GETTABLE_PARAMS, digest_gettable_params),
    B2_DISPATCH(DIGEST_SET_CTX_PARAMS, digest_set_ctx_params),
    B2_DISPATCH(DIGEST_SETTABLE_CTX_PARAMS, digest_settable_ctx_params),
    B2_DISPATCH(DIGEST_GET_CTX_PARAMS, digest_get_ctx_params),
    B2_DISPATCH(DIGEST_GETTABLE_CTX_PARAMS, digest_gettable_ctx_params),
    {0, nullptr},
};

}  // namespace blake2simd
