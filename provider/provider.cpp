// Provider entry point: core upcalls, algorithm tables, provider parameters, teardown.
// SPDX-License-Identifier: Apache-2.0
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/params.h>

#include <cstdio>
#include <cstdlib>
#include <new>

#include "algorithm_params.hpp"
#include "baseline_guard.hpp"
#include "context.hpp"
#include "errors.hpp"
#include "forms.hpp"
#include "names.hpp"
#include "ossl_param.hpp"
#include "provider_context.hpp"

#ifndef B2_VERSION
#error "B2_VERSION must be defined by the build"
#endif

namespace blake2simd {

const KernelChoice& ProviderContext::kernel_choice() noexcept {
    if (const KernelChoice* choice = m_choice.get()) {
        return *choice;
    }
    return m_choice.publish(make_kernel_choice());
}

KernelChoice ProviderContext::make_kernel_choice() const noexcept {
    const dispatch::Servings servings = dispatch::serve(dispatch::parse_request(kernel_request));
    KernelChoice choice{};
    // Without every form some algorithms cannot run; like a failed reference kernel, the
    // provider then offers nothing rather than part of its algorithms.
    choice.offered = true;
    for (size_t form = 0; form < dispatch::kFormCount; ++form) {
        const dispatch::Serving& serving = servings[form];
        choice.offered = choice.offered && serving.served;
        choice.forms[form] = {serving.name(), serving.candidate.entry};
    }
    const int written = std::snprintf(choice.buildinfo, sizeof choice.buildinfo, "%s %s; ",
                                      names::kProviderName, B2_VERSION);
    const size_t used = written > 0 ? static_cast<size_t>(written) : 0;
    dispatch::describe(servings, choice.buildinfo + used, sizeof choice.buildinfo - used);
    return choice;
}

namespace {

const OSSL_ALGORITHM kDigests[] = {
    {names::kDigestBlake2b512, names::kProperties, kDigestBlake2b512Functions,
     "BLAKE2b-512 (blake2simd)"},
    {names::kDigestBlake2bp512, names::kProperties, kDigestBlake2bp512Functions,
     "BLAKE2bp-512, 4-way parallel tree mode (blake2simd)"},
    {names::kDigestBlake2s256, names::kProperties, kDigestBlake2s256Functions,
     "BLAKE2s-256 (blake2simd)"},
    {names::kDigestBlake2sp256, names::kProperties, kDigestBlake2sp256Functions,
     "BLAKE2sp-256, 8-way parallel tree mode (blake2simd)"},
    {names::kDigestBlake2b160, names::kProperties, kDigestBlake2b160Functions,
     "BLAKE2b-160 (blake2simd)"},
    {names::kDigestBlake2b256, names::kProperties, kDigestBlake2b256Functions,
     "BLAKE2b-256 (blake2simd)"},
    {names::kDigestBlake2b384, names::kProperties, kDigestBlake2b384Functions,
     "BLAKE2b-384 (blake2simd)"},
    {names::kDigestBlake2s128, names::kProperties, kDigestBlake2s128Functions,
     "BLAKE2s-128 (blake2simd)"},
    {names::kDigestBlake2s160, names::kProperties, kDigestBlake2s160Functions,
     "BLAKE2s-160 (blake2simd)"},
    {names::kDigestBlake2s224, names::kProperties, kDigestBlake2s224Functions,
     "BLAKE2s-224 (blake2simd)"},
    {names::kDigestBlake2xb, names::kProperties, kDigestBlake2xbFunctions,
     "BLAKE2Xb extendable-output function (blake2simd)"},
    {names::kDigestBlake2xs, names::kProperties, kDigestBlake2xsFunctions,
     "BLAKE2Xs extendable-output function (blake2simd)"},
    {nullptr, nullptr, nullptr, nullptr},
};

const OSSL_ALGORITHM kMacs[] = {
    {names::kMacBlake2b, names::kProperties, kMacBlake2bFunctions, "BLAKE2b MAC (blake2simd)"},
    {names::kMacBlake2bp, names::kProperties, kMacBlake2bpFunctions, "BLAKE2bp MAC (blake2simd)"},
    {names::kMacBlake2s, names::kProperties, kMacBlake2sFunctions, "BLAKE2s MAC (blake2simd)"},
    {names::kMacBlake2sp, names::kProperties, kMacBlake2spFunctions, "BLAKE2sp MAC (blake2simd)"},
    {names::kMacBlake2xb, names::kProperties, kMacBlake2xbFunctions,
     "BLAKE2Xb keyed extendable-output function (blake2simd)"},
    {names::kMacBlake2xs, names::kProperties, kMacBlake2xsFunctions,
     "BLAKE2Xs keyed extendable-output function (blake2simd)"},
    {nullptr, nullptr, nullptr, nullptr},
};

const OSSL_ALGORITHM kKdfs[] = {
    {names::kKdfArgon2i, names::kProperties, kKdfArgon2iFunctions,
     "Argon2i password hash, RFC 9106 (blake2simd)"},
    {names::kKdfArgon2d, names::kProperties, kKdfArgon2dFunctions,
     "Argon2d password hash, RFC 9106 (blake2simd)"},
    {names::kKdfArgon2id, names::kProperties, kKdfArgon2idFunctions,
     "Argon2id password hash, RFC 9106 (blake2simd)"},
    {nullptr, nullptr, nullptr, nullptr},
};

void blake2simd_provider_teardown(void* provctx) noexcept {
    auto* provider = static_cast<ProviderContext*>(provctx);
    OSSL_FUNC_CRYPTO_free_fn* release = provider->memory.release;
    withdraw_error_reporter(provider);
    provider->~ProviderContext();
    release(provider, __FILE__, __LINE__);
}

const OSSL_PARAM* blake2simd_provider_gettable_params(void*) noexcept {
    static const OSSL_PARAM kGettable[] = {
        OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_NAME, nullptr, 0),
        OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_VERSION, nullptr, 0),
        OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, nullptr, 0),
        OSSL_PARAM_int(OSSL_PROV_PARAM_STATUS, nullptr),
        OSSL_PARAM_utf8_ptr(names::kParamKernel, nullptr, 0),
        OSSL_PARAM_END,
    };
    return kGettable;
}

int blake2simd_provider_get_params(void* provctx, OSSL_PARAM params[]) noexcept {
    auto* provider = static_cast<ProviderContext*>(provctx);
    const KernelChoice& choice = provider->kernel_choice();
    const bool running = choice.offered && !provider->self_test_failed.load();
    return write_params(
               provider, params,
               {OutputParam::integer(OSSL_PROV_PARAM_STATUS, running ? 1 : 0),
                OutputParam::utf8(OSSL_PROV_PARAM_NAME, names::kProviderName),
                OutputParam::utf8(OSSL_PROV_PARAM_VERSION, B2_VERSION),
                OutputParam::utf8(OSSL_PROV_PARAM_BUILDINFO, choice.buildinfo),
                OutputParam::utf8(names::kParamKernel,
                                  running ? choice.kernel<Blake2bFamily::Kernel>().name : "none")})
               ? 1
               : 0;
}

// A provider whose reference kernel failed its self-test offers nothing, nor does an instance
// that failed an on-demand self-test (blake2simd_provider_self_test): OpenSSL would keep
// using a provider that merely reports status 0. OpenSSL asks every provider about every
// operation it fetches (a SHA-256 fetch asks us about digests too), so answering needs only
// the self-tests; the calibration waits for a context of ours (or a buildinfo/kernel query).
const OSSL_ALGORITHM* blake2simd_provider_query_operation(void* provctx, int operation_id,
                                                          int* no_cache) noexcept {
    *no_cache = 0;
    const OSSL_ALGORITHM* algorithms = nullptr;
    switch (operation_id) {
        case OSSL_OP_DIGEST:
            algorithms = kDigests;
            break;
        case OSSL_OP_MAC:
            algorithms = kMacs;
            break;
        case OSSL_OP_KDF:
            algorithms = kKdfs;
            break;
        default:
            return nullptr;
    }
    const bool failed = static_cast<ProviderContext*>(provctx)->self_test_failed.load();
    return dispatch::reference_kernel_works() && !failed ? algorithms : nullptr;
}

// What contexts of this instance run: each form's serving entry, through the form's self-test.
bool served_forms_pass(const KernelChoice& choice) noexcept {
    bool pass = choice.offered;
    for (const dispatch::FormRow& row : dispatch::kForms) {
        pass = pass && dispatch::passes_self_test(row.form,
                                                  choice.forms[dispatch::index_of(row.form)].entry);
    }
    return pass;
}

// OSSL_PROVIDER_self_test(): the known answers of every kernel this CPU can run and of every
// form this instance serves, run now. A failure is final for this instance: it then serves as
// one whose reference kernel failed (nothing), and new contexts of algorithms fetched before are
// refused (ProviderContext::self_test_failed).
int blake2simd_provider_self_test(void* provctx) noexcept {
    auto* provider = static_cast<ProviderContext*>(provctx);
    const bool passed = dispatch::runnable_candidates_pass(provider->self_test_substitute) &&
                        served_forms_pass(provider->kernel_choice());
    if (!passed) {
        provider->self_test_failed.store(true);
    }
    return passed && !provider->self_test_failed.load() ? 1 : 0;
}

const OSSL_ITEM* blake2simd_provider_get_reason_strings(void*) noexcept {
    return reason_strings();
}

const OSSL_DISPATCH kProviderFunctions[] = {
    B2_DISPATCH(blake2simd, PROVIDER_TEARDOWN, provider_teardown),
    B2_DISPATCH(blake2simd, PROVIDER_GETTABLE_PARAMS, provider_gettable_params),
    B2_DISPATCH(blake2simd, PROVIDER_GET_PARAMS, provider_get_params),
    B2_DISPATCH(blake2simd, PROVIDER_QUERY_OPERATION, provider_query_operation),
    B2_DISPATCH(blake2simd, PROVIDER_GET_REASON_STRINGS, provider_get_reason_strings),
    B2_DISPATCH(blake2simd, PROVIDER_SELF_TEST, provider_self_test),
    {0, nullptr},
};

// The allocator first: the provider context itself lives in it. A core must offer all three
// or none: memory from one allocator must not be freed by another.
CoreMemory capture_core_memory(const OSSL_DISPATCH* in) noexcept {
    OSSL_FUNC_CRYPTO_malloc_fn* allocate = nullptr;
    OSSL_FUNC_CRYPTO_zalloc_fn* allocate_zeroed = nullptr;
    OSSL_FUNC_CRYPTO_free_fn* release = nullptr;
    for (; in->function_id != 0; ++in) {
        switch (in->function_id) {
            case OSSL_FUNC_CRYPTO_MALLOC:
                allocate = OSSL_FUNC_CRYPTO_malloc(in);
                break;
            case OSSL_FUNC_CRYPTO_ZALLOC:
                allocate_zeroed = OSSL_FUNC_CRYPTO_zalloc(in);
                break;
            case OSSL_FUNC_CRYPTO_FREE:
                release = OSSL_FUNC_CRYPTO_free(in);
                break;
            default:
                break;
        }
    }
    if (allocate == nullptr || allocate_zeroed == nullptr || release == nullptr) {
        return CoreMemory{};
    }
    return CoreMemory{allocate, allocate_zeroed, release};
}

void capture_core_functions(const OSSL_DISPATCH* in, ProviderContext& provider,
                            OSSL_FUNC_core_get_params_fn*& core_get_params) noexcept {
    for (; in->function_id != 0; ++in) {
        switch (in->function_id) {
            case OSSL_FUNC_CORE_GET_PARAMS:
                core_get_params = OSSL_FUNC_core_get_params(in);
                break;
            case OSSL_FUNC_CORE_NEW_ERROR:
                provider.core_new_error = OSSL_FUNC_core_new_error(in);
                break;
            case OSSL_FUNC_CORE_SET_ERROR_DEBUG:
                provider.core_set_error_debug = OSSL_FUNC_core_set_error_debug(in);
                break;
            case OSSL_FUNC_CORE_VSET_ERROR:
                provider.core_vset_error = OSSL_FUNC_core_vset_error(in);
                break;
            default:
                break;
        }
    }
}

// The environment wins over the configuration so one run can be steered without editing
// openssl.cnf; but not in a setuid/setgid process (secure_getenv returns nullptr when
// AT_SECURE is set): its environment belongs to a less privileged caller. The request is
// never shown as given: dispatch::choose() echoes only kernel-name characters.
void read_kernel_request(const OSSL_CORE_HANDLE* handle,
                         OSSL_FUNC_core_get_params_fn* core_get_params,
                         ProviderContext& provider) noexcept {
    const char* request = secure_getenv("BLAKE2SIMD_KERNEL");
    if ((request == nullptr || *request == '\0') && core_get_params != nullptr) {
        char* configured = nullptr;
        OSSL_PARAM query[] = {
            OSSL_PARAM_utf8_ptr(names::kParamKernel, &configured, 0),
            OSSL_PARAM_END,
        };
        if (core_get_params(handle, query) && configured != nullptr) {
            request = configured;
        }
    }
    if (request != nullptr) {
        std::snprintf(provider.kernel_request, sizeof provider.kernel_request, "%s", request);
    }
}

int initialize(const OSSL_CORE_HANDLE* handle, const OSSL_DISPATCH* in, const OSSL_DISPATCH** out,
               void** provctx) noexcept {
    // The core's allocator, not operator new: the module must not need libstdc++ (once.hpp).
    const CoreMemory core_memory = capture_core_memory(in);
    void* memory = core_memory.allocate_zeroed(sizeof(ProviderContext), __FILE__, __LINE__);
    if (memory == nullptr) {
        return 0;
    }
    auto* provider = new (memory) ProviderContext;
    provider->handle = handle;
    provider->memory = core_memory;
    OSSL_FUNC_core_get_params_fn* core_get_params = nullptr;
    capture_core_functions(in, *provider, core_get_params);
    read_kernel_request(handle, core_get_params, *provider);
    enrol_error_reporter(provider);
    *out = kProviderFunctions;
    *provctx = provider;
    return 1;
}

}  // namespace
}  // namespace blake2simd

// <openssl/core.h> declares this without noexcept; initialize() is noexcept, so nothing can
// propagate out of it anyway.
extern "C" __attribute__((visibility("default"))) int OSSL_provider_init(
    const OSSL_CORE_HANDLE* handle, const OSSL_DISPATCH* in, const OSSL_DISPATCH** out,
    void** provctx) {
    return blake2simd::initialize(handle, in, out, provctx);
}
