// OSSL_OP_MAC implementations of BLAKE2BMAC and BLAKE2SMAC: keyed BLAKE2b / BLAKE2s on the shared
// streaming engine, one template over the family, one dispatch table per algorithm.
// SPDX-License-Identifier: Apache-2.0
#include <openssl/core_dispatch.h>

#include <cstring>

#include "algorithm_params.hpp"
#include "baseline_guard.hpp"
#include "blake2_engine.hpp"
#include "context.hpp"
#include "errors.hpp"
#include "keyed_start.hpp"
#include "names.hpp"
#include "provider_context.hpp"

namespace blake2simd {
namespace {

template <class Family>
struct MacContext {
    static constexpr const auto& kTable = kMacTable<Family>;

    ProviderContext* provider;
    typename Family::Kernel kernel;

    // Configuration: applied at the next init. settings.block.key_length is the stored key's
    // length (apply_configuration keeps it so): every init uses the parameter block in place.
    Blake2Settings<Family> settings;
    MacKey<Family> key;
    KeyedStart<Family> keyed_start;  // derived from the configuration; key material

    Phase phase;
    Blake2Engine<Family> engine;
    // The tag of the message in progress if it stays empty, computed when its key was replaced
    // before any message byte (Blake2Engine::settle_key_block); valid while the flag is set.
    uint8_t empty_message_tag[Family::kMaxDigestBytes];
    bool empty_message_tag_set;

    size_t output_size() const noexcept {
        return phase == Phase::absorbing ? engine.digest_length() : settings.block.digest_length;
    }
    const char* served_by() const noexcept { return kernel.name; }
};

// The callbacks of one family's MAC; their symbols name the family (Mac<Blake2sFamily>).
template <class Family>
struct Mac : MacCallbacks<MacContext<Family>, Family> {
    using Context = MacContext<Family>;
    using Stale = typename KeyedStart<Family>::Stale;

    // In place, not a copy with the key length patched in: the engine's word loads of a fresh
    // copy waited for its stores to retire, at every re-key.
    static const ParameterBlock<Family>& configured_parameter_block(const Context* ctx) noexcept {
        return ctx->settings.block;
    }

    // Before the final or a change of configuration of an empty message (keyed_start.hpp).
    static void restore_key_block(Context* ctx) noexcept {
        if (ctx->keyed_start.needs_key_block()) {
            ctx->keyed_start.rebuild_key_block(ctx->engine, ctx->kernel.compress,
                                               configured_parameter_block(ctx), ctx->key.bytes,
                                               ctx->settings.last_node);
        }
    }

    // A key replaced by set_ctx_params while the message in progress has seen no byte: that
    // message keeps the old key, but its key block must not stay behind (init overwrites it
    // with the new one anyway).
    static void settle_old_key_block(Context* ctx) noexcept {
        if (ctx->phase == Phase::absorbing && ctx->engine.key_block_buffered()) {
            ctx->engine.settle_key_block(ctx->empty_message_tag);
            ctx->empty_message_tag_set = true;
        }
    }

    // Applies a configuration already validated in full. `new_key.bytes` nullptr keeps the key;
    // `settings` nullptr keeps the settings.
    static void apply_configuration(Context* ctx, const Blake2Settings<Family>* settings,
                                    const KeyArgument& new_key, Stale stale) noexcept {
        restore_key_block(ctx);
        if (new_key.bytes != nullptr && stale == Stale::cleanse) {
            settle_old_key_block(ctx);
        }
        if (settings != nullptr) {
            ctx->settings = *settings;
        }
        if (new_key.bytes != nullptr) {
            store_key(ctx->key, new_key);
        }
        // Stored only when it changes: a byte store right before the engine's 8-byte loads of
        // the block cannot be forwarded to them, and stalled every re-key (12 ns a 64-byte MAC).
        if (ctx->settings.block.key_length != ctx->key.length) {
            ctx->settings.block.key_length = ctx->key.length;
        }
        ctx->keyed_start.forget(stale);
    }

    // Validates the params and the key argument (nullptr: none) completely, then applies both;
    // a failing call changes nothing.
    static bool configure(Context* ctx, const OSSL_PARAM params[], KeyArgument key_argument,
                          Stale stale) noexcept {
        KeyArgument new_key;
        Refusal failure;
        // The per-message init passes no params: no parsed copy of the settings to build.
        if (params == nullptr) {
            if (!select_key<Family>(key_argument, KeyArgument{}, new_key, failure)) {
                B2_RAISE(ctx->provider, failure);
                return false;
            }
            if (new_key.bytes != nullptr) {
                apply_configuration(ctx, nullptr, new_key, stale);
            }
            return true;
        }
        Parsed<Blake2Settings<Family>> parsed;
        if (!parse_ctx_params(ctx, params, parsed)) {
            return false;
        }
        if (!select_key<Family>(key_argument, parsed.key, new_key, failure)) {
            B2_RAISE(ctx->provider, failure);
            return false;
        }
        if (parsed.changed || new_key.bytes != nullptr) {
            apply_configuration(ctx, &parsed.settings, new_key, stale);
        }
        return true;
    }

    static int init(void* vctx, const unsigned char* key, size_t keylen,
                    const OSSL_PARAM params[]) noexcept {
        auto* ctx = static_cast<Context*>(vctx);
        if (!configure(ctx, params, KeyArgument{key, keylen}, Stale::overwritten_next)) {
            return 0;
        }
        // Fails only when no key was ever set (a key cannot be removed), so no keyed state was
        // ever computed and there is nothing stale to overwrite.
        if (!require_key(ctx->provider, ctx->key)) {
            return 0;
        }
        const Blake2Settings<Family>& settings = ctx->settings;
        if (!ctx->keyed_start.resume(ctx->engine, ctx->kernel.compress,
                                     settings.block.digest_length, settings.last_node)) {
            ctx->keyed_start.compute(ctx->engine, ctx->kernel.compress,
                                     configured_parameter_block(ctx), ctx->key.bytes,
                                     settings.last_node);
        }
        ctx->empty_message_tag_set = false;
        ctx->phase = Phase::absorbing;
        return 1;
    }

    static int update(void* vctx, const unsigned char* in, size_t inl) noexcept {
        auto* ctx = static_cast<Context*>(vctx);
        if (!absorb(ctx, in, inl)) {
            return 0;
        }
        ctx->keyed_start.absorbed(inl);
        ctx->empty_message_tag_set = ctx->empty_message_tag_set && inl == 0;
        return 1;
    }

    static void finish(Context* ctx, unsigned char* output) noexcept {
        if (ctx->empty_message_tag_set) {
            std::memcpy(output, ctx->empty_message_tag, ctx->engine.digest_length());
            ctx->empty_message_tag_set = false;
            return;
        }
        restore_key_block(ctx);
        ctx->engine.finish(output);
    }

    static int finalize(void* vctx, unsigned char* out, size_t* outl, size_t outsize) noexcept {
        auto* ctx = static_cast<Context*>(vctx);
        return write_output(ctx, out, outl, outsize,
                            [ctx](unsigned char* output) noexcept { finish(ctx, output); });
    }

    static int set_ctx_params(void* vctx, const OSSL_PARAM params[]) noexcept {
        auto* ctx = static_cast<Context*>(vctx);
        return configure(ctx, params, KeyArgument{}, Stale::cleanse) ? 1 : 0;
    }
};

using Blake2bMac = Mac<Blake2bFamily>;
using Blake2sMac = Mac<Blake2sFamily>;

}  // namespace

extern const OSSL_DISPATCH kMacBlake2bFunctions[] = B2_MAC_FUNCTIONS(Blake2bMac);
extern const OSSL_DISPATCH kMacBlake2sFunctions[] = B2_MAC_FUNCTIONS(Blake2sMac);

}  // namespace blake2simd
