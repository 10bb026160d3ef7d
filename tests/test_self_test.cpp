// OSSL_PROVIDER_self_test(): 1 from a working instance, which then serves as before; 0 when one
// kernel this CPU runs fails its known answer (the reference, or the last candidate, of each
// form in turn), and that instance then serves as documented: status 0, no algorithm offered,
// new contexts of an algorithm fetched before refused; another instance is unaffected. The
// provider's sources are linked in (registered with OSSL_PROVIDER_add_builtin, as the fuzzers
// do) so that the test can stand a broken entry in for one candidate
// (ProviderContext::self_test_substitute), as tests/test_dispatch.cpp does for the choice.
// SPDX-License-Identifier: Apache-2.0
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

#include <cstdio>
#include <string>

#include "b2test/check.hpp"
#include "cpu_features.hpp"
#include "forms.hpp"
#include "provider_context.hpp"

extern "C" int OSSL_provider_init(const OSSL_CORE_HANDLE* handle, const OSSL_DISPATCH* in,
                                  const OSSL_DISPATCH** out, void** provctx);

namespace {

namespace dispatch = blake2simd::dispatch;
using blake2simd::Entry;
using dispatch::Candidate;
using dispatch::Form;

// The reference (each form's first candidate) with one bit of its result flipped.
template <class Family, Form kSingle, Form kLanes>
struct Broken {
    using Word = typename Family::Word;
    static void single(typename Family::State* s, const uint8_t* p, size_t n, Word i) noexcept {
        (dispatch::candidates(kSingle)[0].entry.*Family::kSingleEntry)(s, p, n, i);
        s->h[3] ^= 1;
    }
    static void lanes(typename Family::State* s, const uint8_t* const* p, size_t n, size_t stride,
                      Word i) noexcept {
        (dispatch::candidates(kLanes)[0].entry.*Family::kLanesEntry)(s, p, n, stride, i);
        s[1].h[5] ^= 1;
    }
};
using BrokenB = Broken<blake2simd::Blake2bFamily, Form::blake2b, Form::blake2bp>;
using BrokenS = Broken<blake2simd::Blake2sFamily, Form::blake2s, Form::blake2sp>;

// BlaMka's reference with one bit of the new block flipped.
void broken_fill_block(uint64_t* next, const uint64_t* previous, const uint64_t* reference,
                       bool xor_into_next) noexcept {
    dispatch::candidates(Form::blamka)[0].entry.blamka(next, previous, reference, xor_into_next);
    next[7] ^= 1;
}

Entry broken_entry(Form form) {
    switch (form) {
        case Form::blake2b:
            return {.blake2b = &BrokenB::single};
        case Form::blake2bp:
            return {.blake2b_lanes = &BrokenB::lanes};
        case Form::blake2s:
            return {.blake2s = &BrokenS::single};
        case Form::blake2sp:
            return {.blake2s_lanes = &BrokenS::lanes};
        case Form::blamka:
            return {.blamka = &broken_fill_block};
    }
    return {};
}

// The candidate the substitute breaks.
Form g_broken_form;
size_t g_broken_index;

Entry substitute(Form form, const Candidate& candidate) noexcept {
    const Candidate* broken = &dispatch::candidates(g_broken_form)[g_broken_index];
    return form == g_broken_form && &candidate == broken ? broken_entry(form) : candidate.entry;
}

struct Instance {
    OSSL_LIB_CTX* libctx = OSSL_LIB_CTX_new();
    OSSL_PROVIDER* provider = nullptr;
    EVP_MD* md = nullptr;

    Instance() {
        if (libctx == nullptr ||
            OSSL_PROVIDER_add_builtin(libctx, "blake2simd", &OSSL_provider_init) != 1 ||
            (provider = OSSL_PROVIDER_load(libctx, "blake2simd")) == nullptr ||
            (md = EVP_MD_fetch(libctx, "BLAKE2B-512", "provider=blake2simd")) == nullptr) {
            b2test::fatal("cannot load the provider");
        }
    }
    ~Instance() {
        EVP_MD_free(md);
        OSSL_PROVIDER_unload(provider);
        OSSL_LIB_CTX_free(libctx);
    }
    Instance(const Instance&) = delete;
    Instance& operator=(const Instance&) = delete;

    auto* context() const {
        return static_cast<blake2simd::ProviderContext*>(OSSL_PROVIDER_get0_provider_ctx(provider));
    }
    int status() const {
        int status = -1;
        OSSL_PARAM params[] = {OSSL_PARAM_construct_int(OSSL_PROV_PARAM_STATUS, &status),
                               OSSL_PARAM_construct_end()};
        return OSSL_PROVIDER_get_params(provider, params) == 1 ? status : -1;
    }
    bool digests() const {
        EVP_MD_CTX* ctx = EVP_MD_CTX_new();
        unsigned char out[64];
        unsigned int outl = 0;
        const bool ok = EVP_DigestInit_ex2(ctx, md, nullptr) == 1 &&
                        EVP_DigestUpdate(ctx, "abc", 3) == 1 &&
                        EVP_DigestFinal_ex(ctx, out, &outl) == 1 && outl == 64;
        EVP_MD_CTX_free(ctx);
        return ok;
    }
    bool offers_digests() const {
        int no_cache = 0;
        const OSSL_ALGORITHM* algorithms =
            OSSL_PROVIDER_query_operation(provider, OSSL_OP_DIGEST, &no_cache);
        OSSL_PROVIDER_unquery_operation(provider, OSSL_OP_DIGEST, algorithms);
        return algorithms != nullptr;
    }
};

void check_failure(b2test::Report& checks, const Instance& healthy, Form form, size_t index) {
    const std::string where = std::string(dispatch::kForms[dispatch::index_of(form)].title) +
                              " candidate " + std::to_string(index);
    Instance instance;
    g_broken_form = form;
    g_broken_index = index;
    instance.context()->self_test_substitute = &substitute;
    B2_CHECK(checks, OSSL_PROVIDER_self_test(instance.provider) == 0,
             "a failed known answer fails the self-test: " + where);
    B2_CHECK(checks, instance.status() == 0, "then status 0: " + where);
    B2_CHECK(checks, !instance.offers_digests(), "then no algorithm offered: " + where);
    B2_CHECK(checks, !instance.digests(), "then no new context: " + where);
    instance.context()->self_test_substitute = nullptr;
    B2_CHECK(checks, OSSL_PROVIDER_self_test(instance.provider) == 0,
             "a failure is final for the instance: " + where);
    B2_CHECK(checks, healthy.status() == 1 && healthy.digests(),
             "another instance still serves: " + where);
}

}  // namespace

int main() {
    b2test::Report checks("test_self_test");
    const Instance healthy;
    B2_CHECK(checks, OSSL_PROVIDER_self_test(healthy.provider) == 1, "a working instance passes");
    B2_CHECK(checks, healthy.status() == 1 && healthy.offers_digests() && healthy.digests(),
             "and serves as before");
    const auto& features = blake2simd::cpu::detected_features();
    for (const dispatch::FormRow& row : dispatch::kForms) {
        const auto candidates = dispatch::candidates(row.form);
        size_t last = 0;
        for (size_t i = 0; i < candidates.size(); ++i) {
            last = dispatch::cpu_can_run(candidates[i].id, features) ? i : last;
        }
        check_failure(checks, healthy, row.form, 0);
        if (last != 0) {
            check_failure(checks, healthy, row.form, last);
        }
    }
    return checks.finish();
}
