// OSSL_OP_MAC implementation of BLAKE2BMAC: keyed BLAKE2b on the shared streaming engine.
// SPDX-License-Identifier: Apache-2.0
#include <openssl/core_dispatch.h>

#include "algorithms.hpp"
#include "baseline_guard.hpp"
#include "blake2b_engine.hpp"
#include "context_support.hpp"
#include "errors.hpp"
#include "mac_common.hpp"
#include "params.hpp"
#include "provider_context.hpp"

namespace blake2simd {
namespace {

// The key block is compressed once per key and parameter set, not once per message: re-init
// with a NULL key resumes from the cached chaining value. Only the empty message needs the
// key block itself as its final block, and it is rebuilt from the key when that happens.
struct MacContext {
    ProviderContext* provider;
    const KernelInfo* kernel;

    // Configuration: applied at the next init.
    Blake2bSettings settings;
    MacKey key;

    // Derived from the configuration; key material.
    bool keyed_state_valid;
    Blake2bState keyed_state;

    // The current message. `resumed_without_message`: the engine sits just after the key
    // block with no message byte seen, so an empty message must be recomputed at final.
    Phase phase;
    bool resumed_without_message;
    Blake2bEngine engine;

    size_t output_size() const noexcept {
        return phase == Phase::absorbing ? engine.digest_length() : settings.output_size;
    }
};

void* mac_newctx(void* provctx) noexcept {
    return new_context<MacContext>(provctx);
}

void mac_freectx(void* vctx) noexcept {
    free_context<MacContext>(vctx);
}

void* mac_dupctx(void* vctx) noexcept {
    return duplicate_context(static_cast<const MacContext*>(vctx));
}

// What becomes of the keyed state of the configuration being replaced: init overwrites all
// of it at once with the new one, which clears it as surely as a cleanse and costs nothing
// extra per re-key; set_ctx_params leaves it until the next init, so it is cleansed.
enum class StaleKeyedState { cleanse, overwritten_by_caller };

void invalidate_keyed_state(MacContext* ctx, StaleKeyedState stale) noexcept {
    if (stale == StaleKeyedState::cleanse) {
        cleanse(&ctx->keyed_state, sizeof ctx->keyed_state);
    }
    ctx->keyed_state_valid = false;
}

Blake2bParams configured_params(const MacContext* ctx) noexcept {
    return ctx->settings.to_params(ctx->key.length);
}

// The message so far is empty and the configuration is about to change: move the engine
// back to "key block buffered" under the configuration it was started with.
void detach_from_keyed_state(MacContext* ctx) noexcept {
    if (ctx->phase == Phase::absorbing && ctx->resumed_without_message) {
        ctx->engine.start_keyed_empty(ctx->kernel->compress, configured_params(ctx),
                                      ctx->key.bytes);
        ctx->resumed_without_message = false;
    }
}

// Applies a configuration already validated in full. `new_key.bytes` nullptr keeps the key.
// `settings` by value: it may be the context's own.
void apply_configuration(MacContext* ctx, Blake2bSettings settings, const KeyArgument& new_key,
                         StaleKeyedState stale) noexcept {
    detach_from_keyed_state(ctx);
    ctx->settings = settings;
    if (new_key.bytes != nullptr) {
        store_key(ctx->key, new_key);
    }
    invalidate_keyed_state(ctx, stale);
}

// Validates the params and the key argument (nullptr: none) completely, then applies both;
// a failing call changes nothing.
bool configure(MacContext* ctx, const OSSL_PARAM params[], KeyArgument key_argument,
               StaleKeyedState stale) noexcept {
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

int mac_init(void* vctx, const unsigned char* key, size_t keylen,
             const OSSL_PARAM params[]) noexcept {
    auto* ctx = static_cast<MacContext*>(vctx);
    if (!configure(ctx, params, KeyArgument{key, keylen}, StaleKeyedState::overwritten_by_caller)) {
        return 0;
    }
    // Fails only when no key was ever set (a key cannot be removed), so no keyed state was
    // ever computed and there is nothing stale to overwrite.
    if (!require_key(ctx->provider, ctx->key)) {
        return 0;
    }
    if (ctx->keyed_state_valid) {
        ctx->engine.resume(ctx->kernel->compress, ctx->keyed_state, ctx->settings.output_size);
    } else {
        // The engine compresses the key block itself: no temporary engine or state copies,
        // and the state the next compression loads is the one the kernel just stored.
        ctx->engine.start_after_key_block(ctx->kernel->compress, configured_params(ctx),
                                          ctx->key.bytes);
        ctx->keyed_state = ctx->engine.state();
        ctx->keyed_state_valid = true;
    }
    ctx->resumed_without_message = true;
    ctx->phase = Phase::absorbing;
    return 1;
}

int mac_update(void* vctx, const unsigned char* in, size_t inl) noexcept {
    auto* ctx = static_cast<MacContext*>(vctx);
    if (!require_absorbing(ctx->provider, ctx->phase, Reason::update_after_final)) {
        return 0;
    }
    if (inl > 0) {
        ctx->resumed_without_message = false;
        ctx->engine.update(in, inl);
    }
    return 1;
}

int mac_final(void* vctx, unsigned char* out, size_t* outl, size_t outsize) noexcept {
    auto* ctx = static_cast<MacContext*>(vctx);
    return write_output(ctx, out, outl, outsize, [ctx](unsigned char* output) noexcept {
        detach_from_keyed_state(ctx);
        ctx->engine.finish(output);
    });
}

int mac_set_ctx_params(void* vctx, const OSSL_PARAM params[]) noexcept {
    auto* ctx = static_cast<MacContext*>(vctx);
    return configure(ctx, params, KeyArgument{}, StaleKeyedState::cleanse) ? 1 : 0;
}

const OSSL_PARAM* mac_settable_ctx_params(void*, void*) noexcept {
    return kMacSettableCtxParams;
}

int mac_get_ctx_params(void* vctx, OSSL_PARAM params[]) noexcept {
    const auto* ctx = static_cast<const MacContext*>(vctx);
    return get_mac_ctx_params(ctx->provider, params, ctx->output_size(), ctx->kernel->name) ? 1 : 0;
}

const OSSL_PARAM* mac_gettable_ctx_params(void*, void*) noexcept {
    return kMacGettableCtxParams;
}

}  // namespace

extern const OSSL_DISPATCH kMacBlake2bFunctions[] = {
    B2_DISPATCH(MAC_NEWCTX, mac_newctx),
    B2_DISPATCH(MAC_FREECTX, mac_freectx),
    B2_DISPATCH(MAC_DUPCTX, mac_dupctx),
    B2_DISPATCH(MAC_INIT, mac_init),
    B2_DISPATCH(MAC_UPDATE, mac_update),
    B2_DISPATCH(MAC_FINAL, mac_final),
    B2_DISPATCH(MAC_SET_CTX_PARAMS, mac_set_ctx_params),
    B2_DISPATCH(MAC_SETTABLE_CTX_PARAMS, mac_settable_ctx_params),
    B2_DISPATCH(MAC_GET_CTX_PARAMS, mac_get_ctx_params),
    B2_DISPATCH(MAC_GETTABLE_CTX_PARAMS, mac_gettable_ctx_params),
    {0, nullptr},
};

}  // namespace blake2simd
