// OSSL_OP_MAC implementations of BLAKE2XBMAC and BLAKE2XSMAC: keyed BLAKE2X, one template over
// the family, one dispatch table per algorithm.
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
struct XofMacContext {
    static constexpr const auto& kTable = kXofMacTable<Family>;

    ProviderContext* provider;
    typename Family::Kernel kernel;
    typename Family::LanesKernel lanes;  // the output blocks, a group at a time
    // Applied at the next init (xof also on the message that has absorbed nothing yet); the
    // length fixed in H0 unless unknown_length.
    XofSettings<Family> settings = {Family::kMaxDigestBytes, false, {}};
    MacKey<Family> key;
    Phase phase;
    bool absorbed;  // the message has taken input: H0's parameters can no longer change
    XofState<Family> xof;
    Blake2Engine<Family> engine;  // H0, from the key block on

    size_t output_size() const noexcept {
        return phase == Phase::absorbing ? xof.reported_size() : settings.init_length();
    }
    const char* served_by() const noexcept { return kernel.name; }
};

// The callbacks of one family's keyed XOF; their symbols name the family (XofMac<Blake2sFamily>).
template <class Family>
struct XofMac : MacCallbacks<XofMacContext<Family>, Family> {
    using Context = XofMacContext<Family>;

    // A message starts at the key block (buffered, so an empty message ends on it).
    static void start_message(Context* ctx, uint64_t init_length, const uint8_t* salt,
                              const uint8_t* personal) noexcept {
        ctx->xof.start(init_length, salt, personal);
        ctx->engine.start_keyed_empty(
            ctx->kernel.compress,
            xof_root_parameter_block<Family>(ctx->key.length, ctx->xof.root.xof_length, salt,
                                             personal),
            ctx->key.bytes);
        ctx->absorbed = false;
    }

    // xof on an open message changes its H0: allowed only before its first input.
    static bool switches_mode(const Context* ctx, const XofSettings<Family>& settings) noexcept {
        return ctx->phase == Phase::absorbing && settings.unknown_length == ctx->xof.known_length();
    }

    // Validates params and the key argument (nullptr: none) in full, then applies both.
    static bool configure(Context* ctx, const OSSL_PARAM params[], KeyArgument init_key,
                          bool at_init) noexcept {
        Parsed<XofSettings<Family>> parsed;
        KeyArgument new_key;
        Refusal failure;
        if (!parse_ctx_params(ctx, params, parsed)) {
            return false;
        }
        if (!select_key<Family>(init_key, parsed.key, new_key, failure)) {
            B2_RAISE(ctx->provider, failure);
            return false;
        }
        const XofSettings<Family>& settings = parsed.settings;
        if (!at_init && switches_mode(ctx, settings)) {
            if (ctx->absorbed) {
                B2_RAISE(ctx->provider, Reason::xof_switch_after_update);
                return false;
            }
            // The message starts over in the other mode with its own key, salt and
            // personalization; new ones given here wait for the next init, as everywhere.
            const XofRoot<Family> message = ctx->xof.root;
            start_message(ctx, settings.init_length(), message.salt, message.personal);
        }
        ctx->settings = settings;
        if (new_key.bytes != nullptr) {
            store_key(ctx->key, new_key);
        }
        return true;
    }

    static int init(void* vctx, const unsigned char* key, size_t keylen,
                    const OSSL_PARAM params[]) noexcept {
        auto* ctx = static_cast<Context*>(vctx);
        if (!configure(ctx, params, KeyArgument{key, keylen}, true) ||
            !require_key(ctx->provider, ctx->key)) {
            return 0;
        }
        const auto& block = ctx->settings.fields.block;
        start_message(ctx, ctx->settings.init_length(), block.salt, block.personal);
        ctx->phase = Phase::absorbing;
        return 1;
    }

    static int update(void* vctx, const unsigned char* in, size_t inl) noexcept {
        auto* ctx = static_cast<Context*>(vctx);
        if (!xof_absorb(ctx, in, inl)) {
            return 0;
        }
        ctx->absorbed = ctx->absorbed || inl > 0;
        return 1;
    }

    // Known length: the length H0 fixes. Unknown length (xof 1): `outsize` bytes, what
    // EVP_MAC_finalXOF asks for.
    static int finalize(void* vctx, unsigned char* out, size_t* outl, size_t outsize) noexcept {
        auto* ctx = static_cast<Context*>(vctx);
        if (ctx->phase == Phase::absorbing && !ctx->xof.known_length()) {
            ctx->xof.requested = outsize;
            ctx->xof.has_request = true;
        }
        return xof_finalize(ctx, out, outl, outsize,
                            [ctx](uint8_t* h0) noexcept { ctx->engine.finish(h0); });
    }

    static int set_ctx_params(void* vctx, const OSSL_PARAM params[]) noexcept {
        return configure(static_cast<Context*>(vctx), params, KeyArgument{}, false) ? 1 : 0;
    }
};

using Blake2xbMac = XofMac<Blake2bFamily>;
using Blake2xsMac = XofMac<Blake2sFamily>;

}  // namespace

extern const OSSL_DISPATCH kMacBlake2xbFunctions[] = B2_MAC_FUNCTIONS(Blake2xbMac);
extern const OSSL_DISPATCH kMacBlake2xsFunctions[] = B2_MAC_FUNCTIONS(Blake2xsMac);

}  // namespace blake2simd
