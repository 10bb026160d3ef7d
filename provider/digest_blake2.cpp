// OSSL_OP_DIGEST implementations of BLAKE2B-512 and BLAKE2S-256, with size/salt/custom context
// params: one template over the family, one dispatch table per algorithm.
// SPDX-License-Identifier: Apache-2.0
#include <openssl/core_dispatch.h>

#include "algorithms.hpp"
#include "baseline_guard.hpp"
#include "blake2_engine.hpp"
#include "context_memory.hpp"
#include "context_phase.hpp"
#include "digest_common.hpp"
#include "dispatch_entry.hpp"
#include "errors.hpp"
#include "params.hpp"
#include "provider_context.hpp"

namespace blake2simd {
namespace {

template <class Family>
struct DigestContext {
    ProviderContext* provider;
    const typename Family::Kernel* kernel;
    Blake2Settings<Family> settings;  // applied at the next init, kept across re-inits
    Phase phase;
    Blake2Engine<Family> engine;

    size_t output_size() const noexcept {
        return phase == Phase::absorbing ? engine.digest_length() : settings.output_size;
    }
    const char* served_by() const noexcept { return kernel->name; }
};

// The callbacks of one family's digest; their symbols name the family (Digest<Blake2sFamily>).
template <class Family>
struct Digest : DigestCallbacks<DigestContext<Family>> {
    using Context = DigestContext<Family>;

    static bool apply_params(Context* ctx, const OSSL_PARAM params[]) noexcept {
        // OpenSSL 3.0 inits a fresh context per message, mostly without params: as in the MAC's
        // init, no parsed copy of the settings for nothing to parse.
        if (params == nullptr) {
            return true;
        }
        ParsedParams<Family> parsed;
        Reason failure{};
        if (!parse_params(params, ctx->settings, KeyPolicy::reject, parsed, failure)) {
            B2_RAISE(ctx->provider, failure);
            return false;
        }
        ctx->settings = parsed.settings;
        return true;
    }

    static int init(void* vctx, const OSSL_PARAM params[]) noexcept {
        auto* ctx = static_cast<Context*>(vctx);
        if (!apply_params(ctx, params)) {
            return 0;
        }
        ctx->engine.start(ctx->kernel->compress, ctx->settings.to_params(0));
        ctx->phase = Phase::absorbing;
        return 1;
    }

    static int get_params(OSSL_PARAM params[]) noexcept {
        return get_digest_params(params, Family::kBlockBytes, Family::kMaxDigestBytes) ? 1 : 0;
    }

    static int set_ctx_params(void* vctx, const OSSL_PARAM params[]) noexcept {
        return apply_params(static_cast<Context*>(vctx), params) ? 1 : 0;
    }
};

using Blake2bDigest = Digest<Blake2bFamily>;
using Blake2sDigest = Digest<Blake2sFamily>;

}  // namespace

extern const OSSL_DISPATCH kDigestBlake2b512Functions[] = B2_DIGEST_FUNCTIONS(Blake2bDigest);
extern const OSSL_DISPATCH kDigestBlake2s256Functions[] = B2_DIGEST_FUNCTIONS(Blake2sDigest);

}  // namespace blake2simd
