// OSSL_OP_DIGEST implementation of BLAKE2B-512, with size/salt/custom context params.
// SPDX-License-Identifier: Apache-2.0
#include <openssl/core_dispatch.h>

#include "algorithms.hpp"
#include "baseline_guard.hpp"
#include "blake2b_engine.hpp"
#include "context_memory.hpp"
#include "context_phase.hpp"
#include "digest_common.hpp"
#include "dispatch_entry.hpp"
#include "errors.hpp"
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

void* blake2b_digest_newctx(void* provctx) noexcept {
    return new_context<DigestContext>(provctx);
}

void blake2b_digest_freectx(void* vctx) noexcept {
    free_context<DigestContext>(vctx);
}

void* blake2b_digest_dupctx(void* vctx) noexcept {
    return duplicate_context(static_cast<const DigestContext*>(vctx));
}

bool apply_params(DigestContext* ctx, const OSSL_PARAM params[]) noexcept {
    // OpenSSL 3.0 inits a fresh context per message, mostly without params: as in blake2b_mac_init,
    // no parsed copy of the settings for nothing to parse.
    if (params == nullptr) {
        return true;
    }
    ParsedParams parsed;
    Reason failure{};
    if (!parse_params(params, ctx->settings, KeyPolicy::reject, parsed, failure)) {
        B2_RAISE(ctx->provider, failure);
        return false;
    }
    ctx->settings = parsed.settings;
    return true;
}

int blake2b_digest_init(void* vctx, const OSSL_PARAM params[]) noexcept {
    auto* ctx = static_cast<DigestContext*>(vctx);
    if (!apply_params(ctx, params)) {
        return 0;
    }
    ctx->engine.start(ctx->kernel->compress, ctx->settings.to_params(0));
    ctx->phase = Phase::absorbing;
    return 1;
}

int blake2b_digest_update(void* vctx, const unsigned char* in, size_t inl) noexcept {
    return absorb(static_cast<DigestContext*>(vctx), in, inl);
}

int blake2b_digest_final(void* vctx, unsigned char* out, size_t* outl, size_t outsz) noexcept {
    return write_output(static_cast<DigestContext*>(vctx), out, outl, outsz);
}

int blake2b_digest_get_params(OSSL_PARAM params[]) noexcept {
    return get_digest_params(params, kMaxDigestBytes) ? 1 : 0;
}

const OSSL_PARAM* blake2b_digest_gettable_params(void*) noexcept {
    return kDigestGettableParams;
}

int blake2b_digest_set_ctx_params(void* vctx, const OSSL_PARAM params[]) noexcept {
    return apply_params(static_cast<DigestContext*>(vctx), params) ? 1 : 0;
}

const OSSL_PARAM* blake2b_digest_settable_ctx_params(void*, void*) noexcept {
    return kDigestSettableCtxParams;
}

int blake2b_digest_get_ctx_params(void* vctx, OSSL_PARAM params[]) noexcept {
    const auto* ctx = static_cast<const DigestContext*>(vctx);
    return get_common_ctx_params(ctx->provider, params, ctx->output_size(), ctx->kernel->name) ? 1
                                                                                               : 0;
}

const OSSL_PARAM* blake2b_digest_gettable_ctx_params(void*, void*) noexcept {
    return kDigestGettableCtxParams;
}

}  // namespace

extern const OSSL_DISPATCH kDigestBlake2b512Functions[] = {
    B2_DISPATCH(blake2b, DIGEST_NEWCTX, digest_newctx),
    B2_DISPATCH(blake2b, DIGEST_FREECTX, digest_freectx),
    B2_DISPATCH(blake2b, DIGEST_DUPCTX, digest_dupctx),
    B2_DISPATCH(blake2b, DIGEST_INIT, digest_init),
    B2_DISPATCH(blake2b, DIGEST_UPDATE, digest_update),
    B2_DISPATCH(blake2b, DIGEST_FINAL, digest_final),
    B2_DISPATCH(blake2b, DIGEST_GET_PARAMS, digest_get_params),
    B2_DISPATCH(blake2b, DIGEST_GETTABLE_PARAMS, digest_gettable_params),
    B2_DISPATCH(blake2b, DIGEST_SET_CTX_PARAMS, digest_set_ctx_params),
    B2_DISPATCH(blake2b, DIGEST_SETTABLE_CTX_PARAMS, digest_settable_ctx_params),
    B2_DISPATCH(blake2b, DIGEST_GET_CTX_PARAMS, digest_get_ctx_params),
    B2_DISPATCH(blake2b, DIGEST_GETTABLE_CTX_PARAMS, digest_gettable_ctx_params),
    {0, nullptr},
};

}  // namespace blake2simd
