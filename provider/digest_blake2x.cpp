// OSSL_OP_DIGEST implementations of BLAKE2XB and BLAKE2XS, the BLAKE2X extendable-output
// functions: one template over the family, one dispatch table per algorithm.
// SPDX-License-Identifier: Apache-2.0
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/params.h>

#include "algorithm_params.hpp"
#include "baseline_guard.hpp"
#include "blake2_engine.hpp"
#include "blake2x.hpp"
#include "context.hpp"
#include "errors.hpp"
#include "names.hpp"
#include "ossl_param.hpp"
#include "provider_context.hpp"

namespace blake2simd {
namespace {

// What a caller can configure; it takes effect at the next init.
template <class Family>
struct XofSettings {
    uint64_t init_length = 0;       // fixed in H0; 0: the unknown-length mode
    Blake2Settings<Family> fields;  // salt and personalization (its output_size is unused)
};

template <class Family>
struct XofDigestContext {
    ProviderContext* provider;
    const typename Family::Kernel* kernel;
    typename Family::LanesKernel lanes;  // the output blocks, a group at a time
    XofSettings<Family> settings;
    Phase phase;
    XofState<Family> xof;
    Blake2Engine<Family> engine;  // H0

    size_t output_size() const noexcept {
        return phase == Phase::absorbing ? xof.reported_size() : settings.init_length;
    }
    const char* served_by() const noexcept { return kernel->name; }
};

const OSSL_PARAM kXofSettableCtxParams[] = {
    OSSL_PARAM_size_t(OSSL_DIGEST_PARAM_XOFLEN, nullptr),
    OSSL_PARAM_size_t(OSSL_DIGEST_PARAM_SIZE, nullptr),
    OSSL_PARAM_octet_string(OSSL_MAC_PARAM_SALT, nullptr, 0),
    OSSL_PARAM_octet_string(OSSL_MAC_PARAM_CUSTOM, nullptr, 0),
    OSSL_PARAM_END,
};

// The callbacks of one family's XOF; their symbols name the family (XofDigest<Blake2sFamily>).
template <class Family>
struct XofDigest : DigestCallbacks<XofDigestContext<Family>> {
    using Context = XofDigestContext<Family>;

    // At init "xoflen" or "size" (equal if both) fixes the length in H0; salt and custom.
    static bool parse_init_params(const OSSL_PARAM params[], XofSettings<Family>& settings,
                                  Reason& failure) noexcept {
        bool length_given = false;
        for (const char* name : {OSSL_DIGEST_PARAM_XOFLEN, OSSL_DIGEST_PARAM_SIZE}) {
            const OSSL_PARAM* p = param::locate(params, name);
            uint64_t length = 0;
            if (p == nullptr) {
                continue;
            }
            if (!parse_xof_length<Family>(p, length, failure)) {
                return false;
            }
            if (length_given && length != settings.init_length) {
                failure = Reason::xof_invalid_length;
                return false;
            }
            settings.init_length = length;
            length_given = true;
        }
        bool changed = false;
        return parse_salt_custom(params, settings.fields, changed, failure);
    }

    static int init(void* vctx, const OSSL_PARAM params[]) noexcept {
        auto* ctx = static_cast<Context*>(vctx);
        if (params != nullptr) {
            // Validated in full on a copy: a failing init changes nothing.
            XofSettings<Family> settings = ctx->settings;
            Reason failure{};
            if (!parse_init_params(params, settings, failure)) {
                B2_RAISE(ctx->provider, failure);
                return 0;
            }
            ctx->settings = settings;
        }
        const auto& fields = ctx->settings.fields;
        ctx->xof.start(ctx->settings.init_length, fields.salt, fields.personal);
        ctx->engine.start(ctx->kernel->compress,
                          xof_root_parameter_block<Family>(0, ctx->xof.root.xof_length, fields.salt,
                                                           fields.personal));
        ctx->phase = Phase::absorbing;
        return 1;
    }

    // "xoflen" says how much final writes (checked there: EVP_DigestFinalXOF sends it just
    // before final, and 3.5+ calls final even when this failed); "size", salt and custom apply
    // from the next init.
    static bool parse_set_params(const OSSL_PARAM params[], XofSettings<Family>& settings,
                                 const OSSL_PARAM*& xoflen, size_t& requested,
                                 Reason& failure) noexcept {
        xoflen = param::locate(params, OSSL_DIGEST_PARAM_XOFLEN);
        const param::Status status =
            xoflen != nullptr ? param::get_size_t(xoflen, requested) : param::Status::ok;
        if (status != param::Status::ok) {
            failure = status == param::Status::wrong_type ? Reason::wrong_param_type
                                                          : Reason::xof_output_too_long;
            return false;
        }
        const OSSL_PARAM* size = param::locate(params, OSSL_DIGEST_PARAM_SIZE);
        bool changed = false;
        return (size == nullptr || parse_xof_length<Family>(size, settings.init_length, failure)) &&
               parse_salt_custom(params, settings.fields, changed, failure);
    }

    static int set_ctx_params(void* vctx, const OSSL_PARAM params[]) noexcept {
        auto* ctx = static_cast<Context*>(vctx);
        XofSettings<Family> settings = ctx->settings;
        const OSSL_PARAM* xoflen = nullptr;
        size_t requested = 0;
        Reason failure{};
        if (!parse_set_params(params, settings, xoflen, requested, failure)) {
            B2_RAISE(ctx->provider, failure);
            return 0;
        }
        ctx->settings = settings;
        if (xoflen != nullptr && ctx->phase == Phase::absorbing) {
            ctx->xof.requested = requested;
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

    static const OSSL_PARAM* settable_ctx_params(void*, void*) noexcept {
        return kXofSettableCtxParams;
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
