// OSSL_OP_DIGEST implementation of BLAKE2B-512, with size/salt/custom context params.
// SPDX-License-Identifier: Apache-2.0
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include <cstring>

#include "baseline_guard.hpp"
#include "algorithms.hpp"
#include "blake2b_engine.hpp"
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
    Blake2bSettings settings;  // applied at the next init, kept across re-inits
    Phase phase;
    Blake2bEngine engine;

    size_t output_size() const noexcept {
        return phase == Phase::absorbing ? engine.digest_length() : settings.output_size;
    }
};

void* digest_newctx(void* provctx) noexcept {
    return new_context<DigestContext>(provctx);
}

void digest_freectx(void* vctx) noexcept {
    free_context<DigestContext>(vctx);
}

void* digest_dupctx(void* vctx) noexcept {
    return duplicate_context(static_cast<const DigestContext*>(vctx));
}

bool apply_params(DigestContext* ctx, const OSSL_PARAM params[]) noexcept {
    ParsedParams parsed;
    Reason failure{};
    if (!parse_params(params, ctx->settings, KeyPolicy::reject, parsed, failure)) {
        B2_RAISE(ctx->provider, failure);
        return false;
    }
    ctx->settings = parsed.settings;
    return true;
}

int digest_init(void* vctx, const OSSL_PARAM params[]) noexcept {
    auto* ctx = static_cast<DigestContext*>(vctx);
    if (!apply_params(ctx, params)) {
        return 0;
    }
    ctx->engine.start(ctx->kernel->compress, ctx->settings.to_params(0));
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
    const size_t size = ctx->output_size();
    if (out == nullptr) {  // a size query, not a final
        *outl = size;
        return 1;
    }
    if (outsz < size) {
        B2_RAISE(ctx->provider, Reason::output_buffer_too_small);
        return 0;
    }
    ctx->engine.finish(out);
    ctx->phase = Phase::finished;
    *outl = size;
    return 1;
}

int digest_get_params(OSSL_PARAM params[]) noexcept {
    OSSL_PARAM* p = nullptr;
    if ((p = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_BLOCK_SIZE)) != nullptr &&
        !OSSL_PARAM_set_size_t(p, kBlockBytes)) {
        return 0;
    }
    if ((p = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_SIZE)) != nullptr &&
        !OSSL_PARAM_set_size_t(p, kMaxDigestBytes)) {
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
    return apply_params(static_cast<DigestContext*>(vctx), params) ? 1 : 0;
}

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
    return get_common_ctx_params(params, ctx->output_size(), ctx->kernel->name) ? 1 : 0;
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

extern const OSSL_DISPATCH kDigestBlake2b512Functions[] = {
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
