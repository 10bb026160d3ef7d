// ARGON2I, ARGON2D and ARGON2ID as EVP_KDFs, drop-ins for OpenSSL 3.2+'s: the context, its
// params (argon2_params.hpp) and the callbacks; the algorithm is argon2.cpp's.
// SPDX-License-Identifier: Apache-2.0
#include "baseline_guard.hpp"

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/params.h>

#include <cstring>
#include <new>

#include "algorithm_params.hpp"
#include "argon2.hpp"
#include "argon2_params.hpp"
#include "context.hpp"
#include "names.hpp"
#include "provider_context.hpp"

namespace blake2simd {
namespace {

using argon2::Input;
using argon2::kInputCount;

// A copy of one byte string the caller set, in the core's memory, wiped before it is freed.
struct OwnedBytes {
    uint8_t* data = nullptr;
    size_t size = 0;
    bool set = false;
};

struct Argon2Context {
    ProviderContext* provider;
    const KernelChoice* kernels;
    argon2::Type type;
    argon2::Settings settings;
    OwnedBytes inputs[kInputCount];
};

void release(const ProviderContext* provider, OwnedBytes& bytes) noexcept {
    if (bytes.data != nullptr) {
        cleanse(bytes.data, bytes.size);
        provider->memory.release(bytes.data, __FILE__, __LINE__);
    }
    bytes = OwnedBytes{};
}

// A copy of `size` bytes (an empty string is a set value with no memory).
bool copy_bytes(const ProviderContext* provider, const uint8_t* data, size_t size,
                OwnedBytes& copy) noexcept {
    copy = OwnedBytes{nullptr, size, true};
    if (size == 0) {
        return true;
    }
    copy.data = static_cast<uint8_t*>(provider->memory.allocate(size, __FILE__, __LINE__));
    if (copy.data == nullptr) {
        copy = OwnedBytes{};
        return false;
    }
    std::memcpy(copy.data, data, size);
    return true;
}

void release_inputs(Argon2Context* ctx) noexcept {
    for (OwnedBytes& input : ctx->inputs) {
        release(ctx->provider, input);
    }
}

// Every param checked, then every copy made, then applied: a failing call changes nothing.
// `target` (a fresh one) tells the caller what the call set: derive reads its size_given.
bool set_params(Argon2Context* ctx, const OSSL_PARAM params[],
                argon2::ParamTarget& target) noexcept {
    target.settings = ctx->settings;
    Refusal failure;
    if (!params::parse(params, argon2::kParams, target, failure, params::Precedence::table_order)) {
        B2_RAISE(ctx->provider, failure);
        return false;
    }
    OwnedBytes copies[kInputCount];
    for (size_t k = 0; k < kInputCount; ++k) {
        if (!target.given[k]) {
            continue;
        }
        if (!copy_bytes(ctx->provider, target.inputs[k].data, target.inputs[k].size, copies[k])) {
            for (OwnedBytes& made : copies) {
                release(ctx->provider, made);
            }
            B2_RAISE(ctx->provider, Reason::allocation_failed);
            return false;
        }
    }
    for (size_t k = 0; k < kInputCount; ++k) {
        if (copies[k].set) {
            release(ctx->provider, ctx->inputs[k]);
            ctx->inputs[k] = copies[k];
        }
    }
    ctx->settings = target.settings;
    return true;
}

argon2::Bytes view(const OwnedBytes& bytes) noexcept {
    return {bytes.data, bytes.size};
}

// early_clean: the password and secret go as soon as H0 holds them, as in OpenSSL (a later
// derive on this context then runs with both empty).
void drop_pass_and_secret(void* vctx) noexcept {
    auto* ctx = static_cast<Argon2Context*>(vctx);
    release(ctx->provider, ctx->inputs[static_cast<size_t>(Input::pass)]);
    release(ctx->provider, ctx->inputs[static_cast<size_t>(Input::secret)]);
}

// The refusals OpenSSL makes at derive, in its order; on success `job` is ready.
bool prepare_job(Argon2Context* ctx, size_t keylen, bool size_in_call, argon2::Job& job) noexcept {
    argon2::Settings& settings = ctx->settings;
    Reason failure{};
    if (!ctx->inputs[static_cast<size_t>(Input::salt)].set) {
        failure = Reason::argon2_missing_salt;
    } else if (keylen != settings.out_size && size_in_call) {
        failure = Reason::argon2_size_mismatch;
    } else if (keylen < 4 || keylen > UINT32_MAX) {
        failure = Reason::argon2_output_size;
    } else if (settings.threads > 1 && settings.threads > settings.lanes) {
        failure = Reason::argon2_threads_above_lanes;
    } else if (settings.memcost < uint64_t{8} * settings.lanes) {
        failure = Reason::argon2_memcost_below_lanes;
    }
    if (failure != Reason{}) {
        B2_RAISE(ctx->provider, failure);
        return false;
    }
    settings.out_size = static_cast<uint32_t>(keylen);  // derive's length replaces size
    job = {ctx->type,
           settings.version,
           settings.lanes,
           settings.threads,
           settings.memcost,
           settings.passes,
           view(ctx->inputs[static_cast<size_t>(Input::pass)]),
           view(ctx->inputs[static_cast<size_t>(Input::salt)]),
           view(ctx->inputs[static_cast<size_t>(Input::secret)]),
           view(ctx->inputs[static_cast<size_t>(Input::ad)])};
    return true;
}

constexpr const auto& kSettable = params::kSettable<argon2::kParams>;

const OSSL_PARAM kGettable[] = {
    OSSL_PARAM_size_t(OSSL_KDF_PARAM_SIZE, nullptr),
    OSSL_PARAM_utf8_ptr(names::kParamKernel, nullptr, 0),
    OSSL_PARAM_END,
};

template <argon2::Type kType>
struct Argon2 {
    static void* newctx(void* provctx) noexcept {
        auto* provider = static_cast<ProviderContext*>(provctx);
        const KernelChoice& choice = provider->kernel_choice();
        if (!choice.offered) {
            B2_RAISE(provider, Reason::no_kernel_available);
            return nullptr;
        }
        void* memory = provider->memory.allocate_zeroed(sizeof(Argon2Context), __FILE__, __LINE__);
        if (memory == nullptr) {
            B2_RAISE(provider, Reason::allocation_failed);
            return nullptr;
        }
        return new (memory) Argon2Context{provider, &choice, kType, {}, {}};
    }

    static void freectx(void* vctx) noexcept {
        auto* ctx = static_cast<Argon2Context*>(vctx);
        if (ctx == nullptr) {
            return;
        }
        const ProviderContext* provider = ctx->provider;
        release_inputs(ctx);
        cleanse(ctx, sizeof *ctx);
        provider->memory.release(ctx, __FILE__, __LINE__);
    }

    // OpenSSL's Argon2 has none; ours is a copy with copies of the byte strings.
    static void* dupctx(void* vctx) noexcept {
        const auto* source = static_cast<const Argon2Context*>(vctx);
        auto* copy = static_cast<Argon2Context*>(newctx(source->provider));
        if (copy == nullptr) {
            return nullptr;
        }
        copy->settings = source->settings;
        for (size_t k = 0; k < kInputCount; ++k) {
            const OwnedBytes& input = source->inputs[k];
            if (input.set &&
                !copy_bytes(source->provider, input.data, input.size, copy->inputs[k])) {
                freectx(copy);
                B2_RAISE(source->provider, Reason::allocation_failed);
                return nullptr;
            }
        }
        return copy;
    }

    static void reset(void* vctx) noexcept {
        auto* ctx = static_cast<Argon2Context*>(vctx);
        release_inputs(ctx);
        ctx->settings = argon2::Settings{};
    }

    static int derive(void* vctx, unsigned char* key, size_t keylen,
                      const OSSL_PARAM params[]) noexcept {
        auto* ctx = static_cast<Argon2Context*>(vctx);
        if (key == nullptr) {  // EVP passes the caller's buffer unchecked
            B2_RAISE(ctx->provider, Reason::output_buffer_too_small);
            return 0;
        }
        argon2::ParamTarget target;
        argon2::Job job{};
        if (!set_params(ctx, params, target) || !prepare_job(ctx, keylen, target.size_given, job)) {
            return 0;
        }
        const argon2::Engines engines{ctx->kernels->kernel<Blake2bFamily::Kernel>().compress,
                                      ctx->kernels->kernel<BlamkaKernel>().compress};
        Reason failure{};
        if (!argon2::derive(job, engines, key, keylen,
                            ctx->settings.early_clean != 0 ? &drop_pass_and_secret : nullptr, ctx,
                            failure)) {
            B2_RAISE(ctx->provider, failure);
            return 0;
        }
        return 1;
    }

    static int set_ctx_params(void* vctx, const OSSL_PARAM params[]) noexcept {
        argon2::ParamTarget target;
        return set_params(static_cast<Argon2Context*>(vctx), params, target) ? 1 : 0;
    }

    static const OSSL_PARAM* settable_ctx_params(void*, void*) noexcept { return kSettable.data(); }

    static int get_ctx_params(void* vctx, OSSL_PARAM params[]) noexcept {
        const auto* ctx = static_cast<const Argon2Context*>(vctx);
        return write_params(ctx->provider, params,
                            {OutputParam::size(OSSL_KDF_PARAM_SIZE, SIZE_MAX),
                             OutputParam::utf8(names::kParamKernel,
                                               ctx->kernels->kernel<BlamkaKernel>().name)})
                   ? 1
                   : 0;
    }

    static const OSSL_PARAM* gettable_ctx_params(void*, void*) noexcept { return kGettable; }
};

#define B2_KDF_FUNCTIONS(Algorithm)                                                              \
    {                                                                                            \
        B2_DISPATCH_TO(KDF_NEWCTX, kdf_newctx, Algorithm::newctx),                               \
            B2_DISPATCH_TO(KDF_DUPCTX, kdf_dupctx, Algorithm::dupctx),                           \
            B2_DISPATCH_TO(KDF_FREECTX, kdf_freectx, Algorithm::freectx),                        \
            B2_DISPATCH_TO(KDF_RESET, kdf_reset, Algorithm::reset),                              \
            B2_DISPATCH_TO(KDF_DERIVE, kdf_derive, Algorithm::derive),                           \
            B2_DISPATCH_TO(KDF_SETTABLE_CTX_PARAMS, kdf_settable_ctx_params,                     \
                           Algorithm::settable_ctx_params),                                      \
            B2_DISPATCH_TO(KDF_SET_CTX_PARAMS, kdf_set_ctx_params, Algorithm::set_ctx_params),   \
            B2_DISPATCH_TO(KDF_GETTABLE_CTX_PARAMS, kdf_gettable_ctx_params,                     \
                           Algorithm::gettable_ctx_params),                                      \
            B2_DISPATCH_TO(KDF_GET_CTX_PARAMS, kdf_get_ctx_params, Algorithm::get_ctx_params), { \
            0, nullptr                                                                           \
        }                                                                                        \
    }

}  // namespace

const OSSL_DISPATCH kKdfArgon2iFunctions[] = B2_KDF_FUNCTIONS(Argon2<argon2::Type::i>);
const OSSL_DISPATCH kKdfArgon2dFunctions[] = B2_KDF_FUNCTIONS(Argon2<argon2::Type::d>);
const OSSL_DISPATCH kKdfArgon2idFunctions[] = B2_KDF_FUNCTIONS(Argon2<argon2::Type::id>);

}  // namespace blake2simd
