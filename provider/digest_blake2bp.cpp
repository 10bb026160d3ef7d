// OSSL_OP_DIGEST implementation of BLAKE2BP-512 (BLAKE2bp, 4 leaves, 64-byte output).
// SPDX-License-Identifier: Apache-2.0
#include <openssl/core_dispatch.h>

#include "algorithms.hpp"
#include "baseline_guard.hpp"
#include "blake2bp_engine.hpp"
#include "blake2bp_params.hpp"
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
    Lanes4Kernel lanes4;
    Phase phase;
    Blake2bpEngine engine;

    size_t output_size() const noexcept { return kBlake2bpDigestBytes; }
};

void* blake2bp_digest_newctx(void* provctx) noexcept {
    auto* ctx = new_context<DigestContext>(provctx);
    if (ctx != nullptr) {
        ctx->lanes4 = ctx->provider->kernel_choice().lanes4;
    }
    return ctx;
}

void blake2bp_digest_freectx(void* vctx) noexcept {
    free_context<DigestContext>(vctx);
}

void* blake2bp_digest_dupctx(void* vctx) noexcept {
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

int blake2bp_digest_init(void* vctx, const OSSL_PARAM params[]) noexcept {
    auto* ctx = static_cast<DigestContext*>(vctx);
    if (!check_params(ctx, params)) {
        return 0;
    }
    ctx->engine.start(ctx->kernel->compress, ctx->lanes4.compress4, nullptr, 0);
    ctx->phase = Phase::absorbing;
    return 1;
}

int blake2bp_digest_update(void* vctx, const unsigned char* in, size_t inl) noexcept {
    return absorb(static_cast<DigestContext*>(vctx), in, inl);
}

int blake2bp_digest_final(void* vctx, unsigned char* out, size_t* outl, size_t outsz) noexcept {
    return write_output(static_cast<DigestContext*>(vctx), out, outl, outsz);
}

int blake2bp_digest_get_params(OSSL_PARAM params[]) noexcept {
    return get_digest_params(params, kBlake2bpDigestBytes) ? 1 : 0;
}

const OSSL_PARAM* blake2bp_digest_gettable_params(void*) noexcept {
    return kDigestGettableParams;
}

int blake2bp_digest_set_ctx_params(void* vctx, const OSSL_PARAM params[]) noexcept {
    return check_params(static_cast<DigestContext*>(vctx), params) ? 1 : 0;
}

const OSSL_PARAM* blake2bp_digest_settable_ctx_params(void*, void*) noexcept {
    return kDigestSettableCtxParams;
}

int blake2bp_digest_get_ctx_params(void* vctx, OSSL_PARAM params[]) noexcept {
    const auto* ctx = static_cast<const DigestContext*>(vctx);
    return get_common_ctx_params(ctx->provider, params, ctx->output_size(), ctx->lanes4.name) ? 1
                                                                                              : 0;
}

const OSSL_PARAM* blake2bp_digest_gettable_ctx_params(void*, void*) noexcept {
    return kDigestGettableCtxParams;
}

}  // namespace

extern const OSSL_DISPATCH kDigestBlake2bp512Functions[] = {
    B2_DISPATCH(blake2bp, DIGEST_NEWCTX, digest_newctx),
    B2_DISPATCH(blake2bp, DIGEST_FREECTX, digest_freectx),
    B2_DISPATCH(blake2bp, DIGEST_DUPCTX, digest_dupctx),
    B2_DISPATCH(blake2bp, DIGEST_INIT, digest_init),
    B2_DISPATCH(blake2bp, DIGEST_UPDATE, digest_update),
    B2_DISPATCH(blake2bp, DIGEST_FINAL, digest_final),
    B2_DISPATCH(blake2bp, DIGEST_GET_PARAMS, digest_get_params),
    B2_DISPATCH(blake2bp, DIGEST_GETTABLE_PARAMS, digest_gettable_params),
    B2_DISPATCH(blake2bp, DIGEST_SET_CTX_PARAMS, digest_set_ctx_params),
    B2_DISPATCH(blake2bp, DIGEST_SETTABLE_CTX_PARAMS, digest_settable_ctx_params),
    B2_DISPATCH(blake2bp, DIGEST_GET_CTX_PARAMS, digest_get_ctx_params),
    B2_DISPATCH(blake2bp, DIGEST_GETTABLE_CTX_PARAMS, digest_gettable_ctx_params),
    {0, nullptr},
};

}  // namespace blake2simd
