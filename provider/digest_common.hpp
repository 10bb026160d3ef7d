// What the digests of both families share: their fixed params and ctx param tables.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/core.h>

#include <cstddef>

#include "context_memory.hpp"
#include "context_phase.hpp"
#include "params.hpp"

namespace blake2simd {

// Fills `block_size`, `digest_size`, and the XOF and algorithm-id flags every digest shares; a
// param that cannot take its value fails the call, with a reason raised.
bool get_digest_params(OSSL_PARAM params[], size_t block_size, size_t digest_size,
                       bool xof = false) noexcept;

extern const OSSL_PARAM kDigestGettableParams[];

// Every digest lists salt and custom: BLAKE2b and BLAKE2s apply them, and the tree modes'
// callers reach their refusal (with its reason) instead of a generic "unknown parameter".
extern const OSSL_PARAM kDigestSettableCtxParams[];

extern const OSSL_PARAM kDigestGettableCtxParams[];

// The digest callbacks every digest context shares: its life cycle, streaming, finishing, the
// param tables and the gettable ctx params. Each digest's callback type derives from this with
// its own context type (so the symbols still name the algorithm) and adds init, get_params and
// set_ctx_params. `Context::served_by()` names the kernel that serves the context.
template <class Context>
struct DigestCallbacks : ContextLifecycle<Context> {
    static int update(void* vctx, const unsigned char* in, size_t inl) noexcept {
        return absorb(static_cast<Context*>(vctx), in, inl);
    }

    static int finalize(void* vctx, unsigned char* out, size_t* outl, size_t outsz) noexcept {
        return write_output(static_cast<Context*>(vctx), out, outl, outsz);
    }

    static const OSSL_PARAM* gettable_params(void*) noexcept { return kDigestGettableParams; }

    static const OSSL_PARAM* settable_ctx_params(void*, void*) noexcept {
        return kDigestSettableCtxParams;
    }

    static int get_ctx_params(void* vctx, OSSL_PARAM params[]) noexcept {
        const auto* ctx = static_cast<const Context*>(vctx);
        return get_common_ctx_params(ctx->provider, params, ctx->output_size(), ctx->served_by())
                   ? 1
                   : 0;
    }

    static const OSSL_PARAM* gettable_ctx_params(void*, void*) noexcept {
        return kDigestGettableCtxParams;
    }
};

}  // namespace blake2simd
