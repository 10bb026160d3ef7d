// What an algorithm context is (the AlgorithmContext concept) and what every one shares: where
// it lives, its life cycle (init, then updates, then one final), the update and final callbacks,
// the digests' and MACs' shared callbacks and params, and the OSSL_DISPATCH tables built from
// them. A digest or MAC .cpp defines its context and its init; the rest is here.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/core.h>
#include <openssl/core_dispatch.h>

#include <openssl/core_names.h>

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>

#include "algorithm_params.hpp"
#include "blake2_engine.hpp"
#include "core_memory.hpp"
#include "digest_ids.hpp"
#include "errors.hpp"
#include "names.hpp"
#include "param_table.hpp"
#include "provider_context.hpp"

namespace blake2simd {

enum class Phase : uint8_t { idle, absorbing, finished };

// What every algorithm context provides, and all that the code here reads of it: the provider
// instance it reports errors through, the kernel serving it (chosen at newctx), its phase, an
// engine taking the message, the size its final writes (or would write) and the kernel's name
// for the "kernel" param (the callbacks of TableCallbacks also read its param table, kTable,
// and the settings that table's setters write). Trivially copyable, as dupctx is a copy, and
// aligned to no more than 16, as OpenSSL's allocator promises no more.
template <class Context>
concept AlgorithmContext = std::is_trivially_copyable_v<Context> && alignof(Context) <= 16 &&
                           requires(Context& ctx, const Context& view, const unsigned char* in,
                                    size_t inl) {
    { ctx.provider } -> std::convertible_to<ProviderContext*>;
    { ctx.kernel.name } -> std::convertible_to<const char*>;
    { ctx.phase } -> std::same_as<Phase&>;
    ctx.engine.update(in, inl);
    { view.output_size() } -> std::same_as<size_t>;
    { view.served_by() } -> std::same_as<const char*>;
    requires noexcept(view.output_size());
    requires noexcept(view.served_by());
};

// A tree mode's context (BLAKE2bp, BLAKE2sp) also runs its leaves on a many-lane kernel, chosen
// at newctx like `kernel`; so does a BLAKE2X context its output blocks (blake2x.hpp).
template <class Context>
concept TreeContext = AlgorithmContext<Context> && requires(Context& ctx) {
    { ctx.lanes.name } -> std::convertible_to<const char*>;
};

// Update and final are only valid between init and final.
inline bool require_absorbing(const ProviderContext* provider, Phase phase,
                              Reason when_finished) noexcept {
    if (phase == Phase::absorbing) {
        return true;
    }
    B2_RAISE(provider, phase == Phase::idle ? Reason::not_initialized : when_finished);
    return false;
}

// The update digests and MACs share: the whole input goes to the context's engine.
template <AlgorithmContext Context>
int absorb(Context* ctx, const unsigned char* in, size_t inl) noexcept {
    if (!require_absorbing(ctx->provider, ctx->phase, Reason::update_after_final)) {
        return 0;
    }
    ctx->engine.update(in, inl);
    return 1;
}

// The final digests and MACs share. A NULL `out` is a size query and leaves the message open;
// otherwise `finish(out)` writes ctx->output_size() bytes and the context is finished.
template <AlgorithmContext Context, class Finish>
int write_output(Context* ctx, unsigned char* out, size_t* outl, size_t outsize,
                 Finish finish) noexcept {
    if (!require_absorbing(ctx->provider, ctx->phase, Reason::already_finalized)) {
        return 0;
    }
    const size_t size = ctx->output_size();
    if (out == nullptr) {
        *outl = size;
        return 1;
    }
    if (outsize < size) {
        B2_RAISE(ctx->provider, Reason::output_buffer_too_small);
        return 0;
    }
    finish(out);
    ctx->phase = Phase::finished;
    *outl = size;
    return 1;
}

// For contexts whose final is nothing but the engine's.
template <AlgorithmContext Context>
int write_output(Context* ctx, unsigned char* out, size_t* outl, size_t outsize) noexcept {
    return write_output(ctx, out, outl, outsize,
                        [ctx](unsigned char* output) noexcept { ctx->engine.finish(output); });
}

// Where algorithm contexts live: OpenSSL-owned memory, cleansed when freed.

// Contexts live in the core's allocator (so CRYPTO_set_mem_functions sees them) and are
// cleansed when freed: they hold keys and chaining values.
template <AlgorithmContext Context>
Context* new_context(void* provctx) noexcept {
    auto* provider = static_cast<ProviderContext*>(provctx);
    if (provider->self_test_failed.load(std::memory_order_relaxed)) {
        B2_RAISE(provider, Reason::self_test_failed);
        return nullptr;
    }
    const KernelChoice& choice = provider->kernel_choice();
    if (!choice.offered) {
        B2_RAISE(provider, Reason::no_kernel_available);
        return nullptr;
    }
    void* memory = provider->memory.allocate(sizeof(Context), __FILE__, __LINE__);
    if (memory == nullptr) {
        B2_RAISE(provider, Reason::allocation_failed);
        return nullptr;
    }
    // Value-initialized: zeroed wherever no member initializer says otherwise.
    auto* ctx = new (memory) Context{};
    ctx->provider = provider;
    ctx->kernel = choice.kernel<decltype(Context::kernel)>();
    if constexpr (TreeContext<Context>) {
        ctx->lanes = choice.kernel<decltype(Context::lanes)>();
    }
    return ctx;
}

template <AlgorithmContext Context>
Context* duplicate_context(const Context* ctx) noexcept {
    void* memory = ctx->provider->memory.allocate(sizeof(Context), __FILE__, __LINE__);
    if (memory == nullptr) {
        B2_RAISE(ctx->provider, Reason::allocation_failed);
        return nullptr;
    }
    return new (memory) Context(*ctx);
}

template <AlgorithmContext Context>
void free_context(void* vctx) noexcept {
    if (vctx == nullptr) {
        return;
    }
    OSSL_FUNC_CRYPTO_free_fn* release = static_cast<Context*>(vctx)->provider->memory.release;
    cleanse(vctx, sizeof(Context));
    release(vctx, __FILE__, __LINE__);
}

// The life-cycle callbacks every algorithm shares. Each algorithm's callback type derives from
// this with its own context type, so the symbols still name the algorithm.
template <AlgorithmContext Context>
struct ContextLifecycle {
    static void* newctx(void* provctx) noexcept { return new_context<Context>(provctx); }

    static void freectx(void* vctx) noexcept { free_context<Context>(vctx); }

    static void* dupctx(void* vctx) noexcept {
        return duplicate_context(static_cast<const Context*>(vctx));
    }
};

}  // namespace blake2simd

// Building OSSL_DISPATCH tables from our noexcept callbacks.
//
// The entry for slot OSSL_FUNC_<ID>, served by `function`, checked against OpenSSL's typedef
// for that slot (our callbacks are noexcept; the typedefs are not, and the conversion is
// implicit).
#define B2_DISPATCH_TO(ID, slot, function)                                                   \
    {                                                                                        \
        OSSL_FUNC_##ID,                                                                      \
            reinterpret_cast<void (*)(void)>(static_cast<OSSL_FUNC_##slot##_fn*>(&function)) \
    }

// The entry for slot OSSL_FUNC_<ID>, served by `<prefix>_<slot>` (the provider's own table:
// blake2simd_provider_teardown, ...). The algorithms' callbacks are static members of their
// family templates instead (B2_DIGEST_FUNCTIONS below), told apart in a profile or a backtrace by
// the template argument.
#define B2_DISPATCH(prefix, ID, slot) B2_DISPATCH_TO(ID, slot, prefix##_##slot)

// The dispatch tables of a digest and a MAC whose callbacks are the static members of
// `Algorithm` (newctx, freectx, dupctx, copyctx, init, update, finalize, serialize, ...); a
// digest's further entries (an XOF's squeeze) follow `Algorithm`. Every digest serializes
// (state_blob.hpp: the digests' callbacks derive from SerializableDigest).
#define B2_DIGEST_FUNCTIONS(Algorithm, ...)                                                 \
    {                                                                                       \
        B2_DISPATCH_TO(DIGEST_NEWCTX, digest_newctx, Algorithm::newctx),                    \
            B2_DISPATCH_TO(DIGEST_FREECTX, digest_freectx, Algorithm::freectx),             \
            B2_DISPATCH_TO(DIGEST_DUPCTX, digest_dupctx, Algorithm::dupctx),                \
            B2_DISPATCH_TO(DIGEST_COPYCTX, digest_copyctx, Algorithm::copyctx),             \
            B2_DISPATCH_TO(DIGEST_SERIALIZE, digest_serialize, Algorithm::serialize),       \
            B2_DISPATCH_TO(DIGEST_DESERIALIZE, digest_deserialize, Algorithm::deserialize), \
            B2_DISPATCH_TO(DIGEST_INIT, digest_init, Algorithm::init),                      \
            B2_DISPATCH_TO(DIGEST_UPDATE, digest_update, Algorithm::update),                \
            B2_DISPATCH_TO(DIGEST_FINAL, digest_final, Algorithm::finalize),                \
            B2_DISPATCH_TO(DIGEST_GET_PARAMS, digest_get_params, Algorithm::get_params),    \
            B2_DISPATCH_TO(DIGEST_GETTABLE_PARAMS, digest_gettable_params,                  \
                           Algorithm::gettable_params),                                     \
            B2_DISPATCH_TO(DIGEST_SET_CTX_PARAMS, digest_set_ctx_params,                    \
                           Algorithm::set_ctx_params),                                      \
            B2_DISPATCH_TO(DIGEST_SETTABLE_CTX_PARAMS, digest_settable_ctx_params,          \
                           Algorithm::settable_ctx_params),                                 \
            B2_DISPATCH_TO(DIGEST_GET_CTX_PARAMS, digest_get_ctx_params,                    \
                           Algorithm::get_ctx_params),                                      \
            B2_DISPATCH_TO(DIGEST_GETTABLE_CTX_PARAMS, digest_gettable_ctx_params,          \
                           Algorithm::gettable_ctx_params),                                 \
            __VA_OPT__(__VA_ARGS__, ) {                                                     \
            0, nullptr                                                                      \
        }                                                                                   \
    }

#define B2_MAC_FUNCTIONS(Algorithm)                                                            \
    {                                                                                          \
        B2_DISPATCH_TO(MAC_NEWCTX, mac_newctx, Algorithm::newctx),                             \
            B2_DISPATCH_TO(MAC_FREECTX, mac_freectx, Algorithm::freectx),                      \
            B2_DISPATCH_TO(MAC_DUPCTX, mac_dupctx, Algorithm::dupctx),                         \
            B2_DISPATCH_TO(MAC_INIT, mac_init, Algorithm::init),                               \
            B2_DISPATCH_TO(MAC_UPDATE, mac_update, Algorithm::update),                         \
            B2_DISPATCH_TO(MAC_FINAL, mac_final, Algorithm::finalize),                         \
            B2_DISPATCH_TO(MAC_SET_CTX_PARAMS, mac_set_ctx_params, Algorithm::set_ctx_params), \
            B2_DISPATCH_TO(MAC_SETTABLE_CTX_PARAMS, mac_settable_ctx_params,                   \
                           Algorithm::settable_ctx_params),                                    \
            B2_DISPATCH_TO(MAC_GET_CTX_PARAMS, mac_get_ctx_params, Algorithm::get_ctx_params), \
            B2_DISPATCH_TO(MAC_GETTABLE_CTX_PARAMS, mac_gettable_ctx_params,                   \
                           Algorithm::gettable_ctx_params),                                    \
        {                                                                                      \
            0, nullptr                                                                         \
        }                                                                                      \
    }

// What the digests and MACs share: their fixed params, and their ctx params derived from the
// context's param table (`Context::kTable`, algorithm_params.hpp).
namespace blake2simd {

// Parses `params` against the context's table into `parsed`, a copy of the context's settings
// with every given param applied; a refusal is raised and nothing is applied (the caller applies
// `parsed` only on success). A NULL array parses to the settings unchanged.
template <class Context>
bool parse_ctx_params(Context* ctx, const OSSL_PARAM params[],
                      Parsed<decltype(Context::settings)>& parsed, bool at_init = false) noexcept {
    parsed.settings = ctx->settings;
    parsed.at_init = at_init;
    Refusal failure;
    if (!params::parse(params, Context::kTable, parsed, failure)) {
        B2_RAISE(ctx->provider, failure);
        return false;
    }
    return true;
}

// Fills `block_size`, `digest_size`, and the XOF and algorithm-id flags every digest shares; a
// param that cannot take its value fails the call, with a reason raised.
bool get_digest_params(OSSL_PARAM params[], size_t block_size, size_t digest_size,
                       bool xof = false) noexcept;

extern const OSSL_PARAM kDigestGettableParams[];

// What every digest context answers before its table's gettable rows.
inline constexpr std::array<OSSL_PARAM, 2> kDigestCommonGettable = {
    params::describe(OSSL_DIGEST_PARAM_SIZE, params::Type::size),
    params::describe(names::kParamKernel, params::Type::utf8)};

// What every MAC context answers before its table's gettable rows.
inline constexpr std::array<OSSL_PARAM, 3> kMacCommonGettable = {
    params::describe(OSSL_MAC_PARAM_SIZE, params::Type::size),
    params::describe(OSSL_MAC_PARAM_BLOCK_SIZE, params::Type::size),
    params::describe(names::kParamKernel, params::Type::utf8)};

// The callbacks every context shares that its table decides: the settable and gettable lists and
// the gettable ctx params. `kBlockSize` is reported among the ctx params when not 0 (MACs).
template <AlgorithmContext Context, const auto& kCommonGettable, size_t kBlockSize>
struct TableCallbacks : ContextLifecycle<Context> {
    static const OSSL_PARAM* settable_ctx_params(void*, void*) noexcept {
        return params::kSettable<Context::kTable>.data();
    }

    static const OSSL_PARAM* gettable_ctx_params(void*, void*) noexcept {
        return params::kGettable<Context::kTable, kCommonGettable>.data();
    }

    static int get_ctx_params(void* vctx, OSSL_PARAM params[]) noexcept {
        const auto* ctx = static_cast<const Context*>(vctx);
        return write_ctx_params<Context::kTable>(ctx->provider, params, ctx->output_size(),
                                                 ctx->served_by(), kBlockSize, ctx->settings)
                   ? 1
                   : 0;
    }
};

// The digest callbacks every digest context shares: its life cycle, streaming, finishing, the
// param lists and the gettable ctx params. Each digest's callback type derives from this with
// its own context type (so the symbols still name the algorithm) and adds init, get_params and
// set_ctx_params. `Context::served_by()` names the kernel that serves the context.
template <AlgorithmContext Context>
struct DigestCallbacks : TableCallbacks<Context, kDigestCommonGettable, 0> {
    // EVP_MD_CTX_copy_ex into a context of the same fetched digest (3.5+; EVP checks that, so
    // both are a Context of one provider instance): what dupctx would give, in place. It cannot
    // fail and allocates nothing; every byte of `vout` is overwritten (a key-derived or longer
    // state of its own leaves nothing behind) and nothing is shared.
    static void copyctx(void* vout, void* vin) noexcept {
        if (vout != vin) {
            std::memcpy(vout, vin, sizeof(Context));
        }
    }

    static int update(void* vctx, const unsigned char* in, size_t inl) noexcept {
        return absorb(static_cast<Context*>(vctx), in, inl);
    }

    static int finalize(void* vctx, unsigned char* out, size_t* outl, size_t outsz) noexcept {
        return write_output(static_cast<Context*>(vctx), out, outl, outsz);
    }

    static const OSSL_PARAM* gettable_params(void*) noexcept { return kDigestGettableParams; }
};

// What the MAC contexts of both families (BLAKE2BMAC, BLAKE2BPMAC, BLAKE2SMAC, BLAKE2SPMAC) share:
// key handling and ctx params.

// Kept inside the (OpenSSL-allocated, cleansed on free) context until the next key replaces it,
// zero-padded to a whole block: the key block a keyed hash starts with, compressed from here.
template <class Family>
struct MacKey {
    uint8_t bytes[Family::kBlockBytes];
    uint8_t length;  // 0 until a key is set
};

// The key given to init wins over a "key" param given with it; an init key of invalid length
// is refused. `selected.bytes` is nullptr when neither gives a key.
template <class Family>
bool select_key(KeyArgument init_key, const KeyArgument& param_key, KeyArgument& selected,
                Refusal& failure) noexcept {
    if (init_key.bytes != nullptr && !is_valid_key_length<Family>(init_key.length)) {
        failure = ParamReasons<Family>::key_length;
        return false;
    }
    selected = init_key.bytes != nullptr ? init_key : param_key;
    return true;
}

// Zero-fills the unused tail, so the stored bytes never depend on an earlier, longer key. Each
// 8-byte word is written once, with one store: a block-sized memset compiled to `rep stos`, whose
// start-up cost was a good part of a re-key (bench: new key per message), and the kernel's wide
// loads of the block then waited for those stores and the key's on top of them to retire.
template <class Family>
void store_key(MacKey<Family>& key, const KeyArgument& given) noexcept {
    const size_t whole_words_end = given.length & ~size_t{7};
    for (size_t offset = 0; offset < sizeof key.bytes; offset += 8) {
        uint64_t word = 0;
        if (offset < whole_words_end) {
            std::memcpy(&word, given.bytes + offset, 8);
        }
        std::memcpy(key.bytes + offset, &word, 8);
    }
    for (size_t i = whole_words_end; i < given.length; ++i) {
        key.bytes[i] = given.bytes[i];
    }
    key.length = static_cast<uint8_t>(given.length);
}

// Init needs a key, given now or at an earlier init or set_ctx_params.
template <class Family>
bool require_key(const ProviderContext* provider, const MacKey<Family>& key) noexcept {
    if (key.length == 0) {
        B2_RAISE(provider, Reason::no_key_set);
        return false;
    }
    return true;
}

// The MAC callbacks every MAC context of `Family` shares: its life cycle, the param lists and
// the gettable ctx params (with the family's block size). Each MAC's callback type derives from
// this with its own context type (so the symbols still name the algorithm) and adds init,
// update, final and set_ctx_params. `Context::served_by()` names the kernel that serves the
// context.
template <AlgorithmContext Context, class Family>
struct MacCallbacks : TableCallbacks<Context, kMacCommonGettable, Family::kBlockBytes> {};

}  // namespace blake2simd
