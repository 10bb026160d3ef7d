// OSSL_OP_DIGEST implementations of BLAKE2XB and BLAKE2XS, the BLAKE2X extendable-output
// functions: one template over the family, one dispatch table per algorithm.
// SPDX-License-Identifier: Apache-2.0
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>

#include "algorithm_params.hpp"
#include "baseline_guard.hpp"
#include "blake2_engine.hpp"
#include "blake2x.hpp"
#include "context.hpp"
#include "errors.hpp"
#include "names.hpp"
#include "provider_context.hpp"

namespace blake2simd {
namespace {

template <class Family>
struct XofDigestContext {
    static constexpr const auto& kTable = kXofDigestTable<Family>;

    ProviderContext* provider;
    const typename Family::Kernel* kernel;
    typename Family::LanesKernel lanes;  // the output blocks, a group at a time
    XofSettings<Family> settings;        // applied at the next init
    Phase phase;
    XofState<Family> xof;
    Blake2Engine<Family> engine;  // H0

    size_t output_size() const noexcept {
        return phase == Phase::absorbing ? xof.reported_size() : settings.init_length();
    }
    const char* served_by() const noexcept { return kernel->name; }
};

// The callbacks of one family's XOF; their symbols name the family (XofDigest<Blake2sFamily>).
template <class Family>
struct XofDigest : DigestCallbacks<XofDigestContext<Family>> {
    using Context = XofDigestContext<Family>;

    // At init "xoflen" or "size" (equal if both) fixes the length in H0; salt and custom.
    static int init(void* vctx, const OSSL_PARAM params[]) noexcept {
        auto* ctx = static_cast<Context*>(vctx);
        if (params != nullptr) {
            Parsed<XofSettings<Family>> parsed;
            if (!parse_ctx_params(ctx, params, parsed, true)) {
                return 0;
            }
            ctx->settings = parsed.settings;
        }
        const auto& block = ctx->settings.fields.block;
        ctx->xof.start(ctx->settings.init_length(), block.salt, block.personal);
        ctx->engine.start(ctx->kernel->compress,
                          xof_root_parameter_block<Family>(0, ctx->xof.root.xof_length, block.salt,
                                                           block.personal));
        ctx->phase = Phase::absorbing;
        return 1;
    }

    // "xoflen" says how much final writes (checked there: EVP_DigestFinalXOF sends it just
    // before final, and 3.5+ calls final even when this failed); "size", salt and custom apply
    // from the next init.
    static int set_ctx_params(void* vctx, const OSSL_PARAM params[]) noexcept {
        auto* ctx = static_cast<Context*>(vctx);
        Parsed<XofSettings<Family>> parsed;
        if (!parse_ctx_params(ctx, params, parsed)) {
            return 0;
        }
        ctx->settings = parsed.settings;
        if (parsed.request_given && ctx->phase == Phase::absorbing) {
            ctx->xof.requested = parsed.request;
            ctx->xof.has_request = true;
        }
        return 1;
    }

    static void finish_root(Context* ctx, uint8_t* h0) noexcept { ctx->engine.finish(h0); }

    static int update(void* vctx, const unsigned char* in, size_t inl) noexcept {
        return xof_absorb(static_cast<Context*>(vctx), in, inl);
    }

    static int finalize(void* vctx, unsigned char* out, size_t* outl, size_t outsize) noexcept {
        auto* ctx = static_cast<Context*>(vctx);
        return xof_finalize(ctx, out, outl, outsize,
                            [ctx](uint8_t* h0) noexcept { finish_root(ctx, h0); });
    }

    static int squeeze(void* vctx, unsigned char* out, size_t* outl, size_t outsize) noexcept {
        auto* ctx = static_cast<Context*>(vctx);
        return xof_squeeze(ctx, out, outl, outsize,
                           [ctx](uint8_t* h0) noexcept { finish_root(ctx, h0); });
    }

    static int get_params(OSSL_PARAM params[]) noexcept {
        // EVP_MD_get_size is 0: the length is the caller's.
        return get_digest_params(params, Family::kBlockBytes, 0, true) ? 1 : 0;
    }
};

using Blake2xbDigest = XofDigest<Blake2bFamily>;
using Blake2xsDigest = XofDigest<Blake2sFamily>;

}  // namespace

extern const OSSL_DISPATCH kDigestBlake2xbFunctions[] = B2_DIGEST_FUNCTIONS(
    Blake2xbDigest, B2_DISPATCH_TO(DIGEST_SQUEEZE, digest_squeeze, Blake2xbDigest::squeeze));
extern const OSSL_DISPATCH kDigestBlake2xsFunctions[] = B2_DIGEST_FUNCTIONS(
    Blake2xsDigest, B2_DISPATCH_TO(DIGEST_SQUEEZE, digest_squeeze, Blake2xsDigest::squeeze));

}  // namespace blake2simd
