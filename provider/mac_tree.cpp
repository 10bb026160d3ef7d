// OSSL_OP_MAC implementations of BLAKE2BPMAC (keyed BLAKE2bp, output 1..64 bytes, default 64) and
// BLAKE2SPMAC (keyed BLAKE2sp, 1..32, default 32): one template over the family, one table per
// algorithm.
// SPDX-License-Identifier: Apache-2.0
#include <openssl/core_dispatch.h>

#include "algorithm_params.hpp"
#include "baseline_guard.hpp"
#include "blake2_engine.hpp"
#include "context.hpp"
#include "errors.hpp"
#include "names.hpp"
#include "provider_context.hpp"

namespace blake2simd {
namespace {

// Each init restarts from the key: the keyed leaves cost one many-lane compression.
template <class Family>
struct TreeMacContext {
    static constexpr const auto& kTable = kTreeMacTable<Family>;

    ProviderContext* provider;
    typename Family::Kernel kernel;
    typename Family::LanesKernel lanes;
    Blake2Settings<Family> settings;  // the digest length; with the key, applied at the next init
    MacKey<Family> key;
    Phase phase;
    TreeEngine<Family> engine;

    size_t output_size() const noexcept {
        return phase == Phase::absorbing ? engine.digest_length() : settings.block.digest_length;
    }
    const char* served_by() const noexcept { return lanes.name; }
};

// The callbacks of one family's tree MAC; their symbols name the family.
template <class Family>
struct TreeMac : MacCallbacks<TreeMacContext<Family>, Family> {
    using Context = TreeMacContext<Family>;

    // Validates the params and the key argument (nullptr: none) completely, then stores the
    // key (and says so in `key_stored`); a failing call changes nothing.
    static bool configure(Context* ctx, const OSSL_PARAM params[], KeyArgument key_argument,
                          bool& key_stored) noexcept {
        Parsed<Blake2Settings<Family>> parsed;
        KeyArgument new_key;
        Refusal failure;
        if (!parse_ctx_params(ctx, params, parsed)) {
            return false;
        }
        if (!select_key<Family>(key_argument, parsed.key, new_key, failure)) {
            B2_RAISE(ctx->provider, failure);
            return false;
        }
        ctx->settings = parsed.settings;
        key_stored = new_key.bytes != nullptr;
        if (key_stored) {
            store_key(ctx->key, new_key);
        }
        return true;
    }

    static int init(void* vctx, const unsigned char* key, size_t keylen,
                    const OSSL_PARAM params[]) noexcept {
        auto* ctx = static_cast<Context*>(vctx);
        bool key_stored = false;
        if (!configure(ctx, params, KeyArgument{key, keylen}, key_stored)) {
            return 0;
        }
        if (!require_key(ctx->provider, ctx->key)) {
            return 0;
        }
        ctx->engine.start(ctx->kernel.compress, ctx->lanes.compress, ctx->key.bytes,
                          ctx->key.length, ctx->settings.block.digest_length);
        ctx->phase = Phase::absorbing;
        return 1;
    }

    static int update(void* vctx, const unsigned char* in, size_t inl) noexcept {
        return absorb(static_cast<Context*>(vctx), in, inl);
    }

    static int finalize(void* vctx, unsigned char* out, size_t* outl, size_t outsize) noexcept {
        return write_output(static_cast<Context*>(vctx), out, outl, outsize);
    }

    // A new key applies from the next init; the message in progress keeps its own, but the
    // engine's copy of that key goes now (init would overwrite it).
    static int set_ctx_params(void* vctx, const OSSL_PARAM params[]) noexcept {
        auto* ctx = static_cast<Context*>(vctx);
        bool key_stored = false;
        if (!configure(ctx, params, KeyArgument{}, key_stored)) {
            return 0;
        }
        if (key_stored && ctx->phase == Phase::absorbing) {
            ctx->engine.forget_key();
        }
        return 1;
    }
};

using Blake2bpMac = TreeMac<Blake2bFamily>;
using Blake2spMac = TreeMac<Blake2sFamily>;

}  // namespace

extern const OSSL_DISPATCH kMacBlake2bpFunctions[] = B2_MAC_FUNCTIONS(Blake2bpMac);
extern const OSSL_DISPATCH kMacBlake2spFunctions[] = B2_MAC_FUNCTIONS(Blake2spMac);

}  // namespace blake2simd
