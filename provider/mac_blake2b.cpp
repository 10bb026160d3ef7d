// OSSL_OP_MAC implementation of BLAKE2BMAC: keyed BLAKE2b on the shared streaming engine.
// SPDX-License-Identifier: Apache-2.0
#include <openssl/core_dispatch.h>

#include "algorithms.hpp"
#include "baseline_guard.hpp"
#include "blake2b_engine.hpp"
#include "context_memory.hpp"
#include "context_phase.hpp"
#include "dispatch_entry.hpp"
#include "errors.hpp"
#include "keyed_start.hpp"
#include "mac_common.hpp"
#include "params.hpp"
#include "provider_context.hpp"

namespace blake2simd {
namespace {

struct MacContext {
    ProviderContext* provider;
    const KernelInfo* kernel;

    // Configuration: applied at the next init.
    Blake2bSettings settings;
    MacKey key;
    KeyedStart keyed_start;  // derived from the configuration; key material

    Phase phase;
    Blake2bEngine engine;

    size_t output_size() const noexcept {
        return phase == Phase::absorbing ? engine.digest_length() : settings.output_size;
    }
};

void* blake2b_mac_newctx(void* provctx) noexcept {
    return new_context<MacContext>(provctx);
}

void blake2b_mac_freectx(void* vctx) noexcept {
    free_context<MacContext>(vctx);
}

void* blake2b_mac_dupctx(void* vctx) noexcept {
    return duplicate_context(static_cast<const MacContext*>(vctx));
}

Blake2bParams configured_params(const MacContext* ctx) noexcept {
    return ctx->settings.to_params(ctx->key.length);
}

// Before the final or a change of configuration of an empty message (keyed_start.hpp).
void restore_key_block(MacContext* ctx) noexcept {
    if (ctx->keyed_start.needs_key_block()) {
        ctx->keyed_start.rebuild_key_block(ctx->engine, ctx->kernel->compress,
                                           configured_params(ctx), ctx->key.bytes);
    }
}

// Applies a configuration already validated in full. `new_key.bytes` nullptr keeps the key.
// `settings` by value: it may be the context's own.
void apply_configuration(MacContext* ctx, Blake2bSettings settings, const KeyArgument& new_key,
                         KeyedStart::Stale stale) noexcept {
    restore_key_block(ctx);
    ctx->settings = settings;
    if (new_key.bytes != nullptr) {
        store_key(ctx->key, new_key);
    }
    ctx->keyed_start.forget(stale);
}

// Validates the params and the key argument (nullptr: none) completely, then applies both;
// a failing call changes nothing.
bool configure(MacContext* ctx, const OSSL_PARAM params[], KeyArgument key_argument,
               KeyedStart::Stale stale) noexcept {
    KeyArgument new_key;
    Reason failure{};
    // The per-message init passes no params: no parsed copy of the settings to build.
    if (params == nullptr) {
        if (!select_key(key_argument, KeyArgument{}, new_key, failure)) {
            B2_RAISE(ctx->provider, failure);
            return false;
        }
        if (new_key.bytes != nullptr) {
            apply_configuration(ctx, ctx->settings, new_key, stale);
        }
        return true;
    }
    ParsedParams parsed;
    if (!parse_params(params, ctx->settings, KeyPolicy::accept, parsed, failure) ||
        !select_key(key_argument, parsed.key, new_key, failure)) {
        B2_RAISE(ctx->provider, failure);
        return false;
    }
    if (parsed.settings_changed || new_key.bytes != nullptr) {
        apply_configuration(ctx, parsed.settings, new_key, stale);
    }
    return true;
}

int blake2b_mac_init(void* vctx, const unsigned char* key, size_t keylen,
                     const OSSL_PARAM params[]) noexcept {
    auto* ctx = static_cast<MacContext*>(vctx);
    if (!configure(ctx, params, KeyArgument{key, keylen}, KeyedStart::Stale::overwritten_next)) {
        return 0;
    }
    // Fails only when no key was ever set (a key cannot be removed), so no keyed state was
    // ever computed and there is nothing stale to overwrite.
    if (!require_key(ctx->provider, ctx->key)) {
        return 0;
    }
    if (!ctx->keyed_start.resume(ctx->engine, ctx->kernel->compress, ctx->settings.output_size)) {
        ctx->keyed_start.compute(ctx->engine, ctx->kernel->compress, configured_params(ctx),
                                 ctx->key.bytes);
    }
    ctx->phase = Phase::absorbing;
    return 1;
}

int blake2b_mac_update(void* vctx, const unsigned char* in, size_t inl) noexcept {
    auto* ctx = static_cast<MacContext*>(vctx);
    if (!absorb(ctx, in, inl)) {
        return 0;
    }
    ctx->keyed_start.absorbed(inl);
    return 1;
}

int blake2b_mac_final(void* vctx, unsigned char* out, size_t* outl, size_t outsize) noexcept {
    auto* ctx = static_cast<MacContext*>(vctx);
    return write_output(ctx, out, outl, outsize, [ctx](unsigned char* output) noexcept {
        restore_key_block(ctx);
        ctx->engine.finish(output);
    });
}

int blake2b_mac_set_ctx_params(void* vctx, const OSSL_PARAM params[]) noexcept {
    auto* ctx = static_cast<MacContext*>(vctx);
    return configure(ctx, params, KeyArgument{}, KeyedStart::Stale::cleanse) ? 1 : 0;
}

const OSSL_PARAM* blake2b_mac_settable_ctx_params(void*, void*) noexcept {
    return kMacSettableCtxParams;
}

int blake2b_mac_get_ctx_params(void* vctx, OSSL_PARAM params[]) noexcept {
    const auto* ctx = static_cast<const MacContext*>(vctx);
    return get_mac_ctx_params(ctx->provider, params, ctx->output_size(), ctx->kernel->name) ? 1 : 0;
}

const OSSL_PARAM* blake2b_mac_gettable_ctx_params(void*, void*) noexcept {
    return kMacGettableCtxParams;
}

}  // namespace

extern const OSSL_DISPATCH kMacBlake2bFunctions[] = {
    B2_DISPATCH(blake2b, MAC_NEWCTX, mac_newctx),
    B2_DISPATCH(blake2b, MAC_FREECTX, mac_freectx),
    B2_DISPATCH(blake2b, MAC_DUPCTX, mac_dupctx),
    B2_DISPATCH(blake2b, MAC_INIT, mac_init),
    B2_DISPATCH(blake2b, MAC_UPDATE, mac_update),
    B2_DISPATCH(blake2b, MAC_FINAL, mac_final),
    B2_DISPATCH(blake2b, MAC_SET_CTX_PARAMS, mac_set_ctx_params),
    B2_DISPATCH(blake2b, MAC_SETTABLE_CTX_PARAMS, mac_settable_ctx_params),
    B2_DISPATCH(blake2b, MAC_GET_CTX_PARAMS, mac_get_ctx_params),
    B2_DISPATCH(blake2b, MAC_GETTABLE_CTX_PARAMS, mac_gettable_ctx_params),
    {0, nullptr},
};

}  // namespace blake2simd
