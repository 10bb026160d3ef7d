// Provider parameters, errors and the digest/MAC life cycle, checked against OpenSSL's
// default provider wherever it behaves correctly, and against the documented rules where
// it does not (partial set_params, size changed after init, update after final).
// SPDX-License-Identifier: Apache-2.0
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include <cstring>
#include <string>
#include <vector>

#include "b2test.hpp"

namespace {

using b2test::Report;
using Bytes = std::vector<uint8_t>;

using b2test::contains;
using b2test::last_reason;
using b2test::mac_final;

Bytes pattern(size_t length, uint8_t seed) {
    return b2test::pattern(length, seed, 7);
}

struct MacPair {
    b2test::MacCtxPtr ours;
    b2test::MacCtxPtr theirs;
};

// Fetched once in main and released before the library context goes away.
struct FetchedMacs {
    b2test::MacPtr ours;
    b2test::MacPtr theirs;
};

MacPair new_mac_pair(const FetchedMacs& macs) {
    return {b2test::MacCtxPtr(EVP_MAC_CTX_new(macs.ours.get())),
            b2test::MacCtxPtr(EVP_MAC_CTX_new(macs.theirs.get()))};
}

Bytes mac_message(EVP_MAC_CTX* ctx, const uint8_t* key, size_t key_length, const OSSL_PARAM* params,
                  const Bytes& message) {
    if (EVP_MAC_init(ctx, key, key_length, params) != 1 ||
        EVP_MAC_update(ctx, message.data(), message.size()) != 1) {
        return {};
    }
    return mac_final(ctx);
}

void check_provider_params(Report& report, const b2test::ProviderSession& session) {
    OSSL_PROVIDER* provider = OSSL_PROVIDER_load(session.libctx(), "blake2simd");
    const char* name = nullptr;
    const char* version = nullptr;
    const char* buildinfo = nullptr;
    const char* kernel = nullptr;
    int status = -1;
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_NAME, const_cast<char**>(&name), 0),
        OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_VERSION, const_cast<char**>(&version), 0),
        OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, const_cast<char**>(&buildinfo), 0),
        OSSL_PARAM_construct_utf8_ptr("kernel", const_cast<char**>(&kernel), 0),
        OSSL_PARAM_construct_int(OSSL_PROV_PARAM_STATUS, &status),
        OSSL_PARAM_construct_end(),
    };
    B2_CHECK(report, OSSL_PROVIDER_get_params(provider, params) == 1, "get_params");
    B2_CHECK(report, name != nullptr && std::string(name) == "blake2simd", "name");
    B2_CHECK(report, version != nullptr && std::string(version) == B2_EXPECTED_VERSION, "version");
    B2_CHECK(report, status == 1, "status");
    B2_CHECK(report, OSSL_PROVIDER_self_test(provider) == 1, "self_test");
    B2_CHECK(report, kernel != nullptr && *kernel != '\0', "kernel param");
    B2_CHECK(report,
             buildinfo != nullptr && kernel != nullptr &&
                 contains(buildinfo, (std::string("kernel ") + kernel).c_str()),
             std::string("buildinfo names the kernel: ") + (buildinfo ? buildinfo : "(null)"));
    B2_CHECK(report, ERR_peek_error() == 0, "no error left on the queue after load and query");
    OSSL_PROVIDER_unload(provider);
}

void check_mac_errors(Report& report, const FetchedMacs& macs) {
    MacPair pair = new_mac_pair(macs);
    EVP_MAC_CTX* ctx = pair.ours.get();
    const Bytes key = pattern(64, 1);
    const Bytes long_key = pattern(65, 1);
    const Bytes long_field = pattern(17, 3);

    B2_CHECK(report, EVP_MAC_init(ctx, nullptr, 0, nullptr) == 0, "init with no key ever set");
    B2_CHECK(report, contains(last_reason(), "no key set"), "no-key reason");
    B2_CHECK(report, EVP_MAC_update(ctx, key.data(), 1) == 0, "update before init");
    B2_CHECK(report, contains(last_reason(), "not initialized"), "uninitialized reason");
    B2_CHECK(report, EVP_MAC_init(ctx, long_key.data(), 65, nullptr) == 0, "65-byte key");
    B2_CHECK(report, contains(last_reason(), "invalid key length"), "key reason");
    B2_CHECK(report, EVP_MAC_init(ctx, key.data(), 0, nullptr) == 0, "0-byte key");
    B2_CHECK(report, contains(last_reason(), "invalid key length"), "empty key reason");

    struct BadParam {
        OSSL_PARAM param;
        const char* reason;
    };
    size_t size_zero = 0;
    size_t size_big = 65;
    const BadParam bad_params[] = {
        {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size_zero), "invalid output size"},
        {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size_big), "invalid output size"},
        {OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_SALT,
                                           const_cast<uint8_t*>(long_field.data()), 17),
         "invalid salt length"},
        {OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_CUSTOM,
                                           const_cast<uint8_t*>(long_field.data()), 17),
         "invalid custom length"},
        {OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_KEY,
                                           const_cast<uint8_t*>(long_key.data()), 65),
         "invalid key length"},
        {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_KEY, const_cast<char*>("abc"), 3),
         "wrong data type"},
        {OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_SIZE, const_cast<uint8_t*>(key.data()),
                                           8),
         "wrong data type"},
    };
    for (const BadParam& bad : bad_params) {
        OSSL_PARAM params[] = {bad.param, OSSL_PARAM_construct_end()};
        B2_CHECK(report, EVP_MAC_CTX_set_params(ctx, params) == 0, bad.reason);
        B2_CHECK(report, contains(last_reason(), bad.reason), bad.reason);
    }
}

// A set_params call that fails must change nothing, unlike the default provider's.
void check_failed_set_params_changes_nothing(Report& report, const FetchedMacs& macs) {
    MacPair pair = new_mac_pair(macs);
    const Bytes key = pattern(32, 9);
    const Bytes message = pattern(200, 2);
    const Bytes salt = pattern(16, 4);
    const Bytes long_custom = pattern(17, 5);
    size_t size = 20;
    OSSL_PARAM mixed[] = {
        OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size),
        OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_SALT, const_cast<uint8_t*>(salt.data()),
                                          16),
        OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_CUSTOM,
                                          const_cast<uint8_t*>(long_custom.data()), 17),
        OSSL_PARAM_construct_end(),
    };
    B2_CHECK(report, EVP_MAC_CTX_set_params(pair.ours.get(), mixed) == 0, "mixed set_params fails");
    ERR_clear_error();
    B2_CHECK(report, EVP_MAC_CTX_get_mac_size(pair.ours.get()) == 64, "size not partly applied");
    const Bytes ours = mac_message(pair.ours.get(), key.data(), key.size(), nullptr, message);
    const Bytes theirs = mac_message(pair.theirs.get(), key.data(), key.size(), nullptr, message);
    B2_CHECK(report, !ours.empty() && ours == theirs, "salt not partly applied");
}

// `size` set after init applies from the next init; final writes what get_mac_size reports.
void check_size_after_init(Report& report, const FetchedMacs& macs) {
    MacPair pair = new_mac_pair(macs);
    EVP_MAC_CTX* ctx = pair.ours.get();
    const Bytes key = pattern(48, 11);
    const Bytes message = pattern(77, 6);
    size_t new_size = 24;
    OSSL_PARAM set_size[] = {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &new_size),
                             OSSL_PARAM_construct_end()};

    B2_CHECK(report, EVP_MAC_init(ctx, key.data(), key.size(), nullptr) == 1, "init");
    B2_CHECK(report, EVP_MAC_CTX_set_params(ctx, set_size) == 1, "set size after init");
    B2_CHECK(report, EVP_MAC_CTX_get_mac_size(ctx) == 64, "current message keeps its size");
    B2_CHECK(report, EVP_MAC_update(ctx, message.data(), message.size()) == 1, "update");
    const Bytes first = mac_final(ctx);
    const Bytes expected64 =
        mac_message(pair.theirs.get(), key.data(), key.size(), nullptr, message);
    B2_CHECK(report, first.size() == 64 && first == expected64, "final writes the init-time size");

    B2_CHECK(report, EVP_MAC_CTX_get_mac_size(ctx) == 24, "next init's size reported");
    const Bytes second = mac_message(ctx, nullptr, 0, nullptr, message);
    const Bytes expected24 =
        mac_message(pair.theirs.get(), key.data(), key.size(), set_size, message);
    B2_CHECK(report, second.size() == 24 && second == expected24, "size applies from next init");
}

// Re-init with a NULL key resumes from the cached keyed state; every path must still equal
// a fresh keyed computation, including the empty message and a param change before final.
void check_key_reuse(Report& report, const FetchedMacs& macs) {
    MacPair pair = new_mac_pair(macs);
    EVP_MAC_CTX* ours = pair.ours.get();
    EVP_MAC_CTX* theirs = pair.theirs.get();
    const Bytes key = pattern(40, 21);
    const Bytes other_key = pattern(40, 22);
    const Bytes empty;
    const Bytes salt = pattern(16, 8);
    OSSL_PARAM with_salt[] = {OSSL_PARAM_construct_octet_string(
                                  OSSL_MAC_PARAM_SALT, const_cast<uint8_t*>(salt.data()), 16),
                              OSSL_PARAM_construct_end()};

    for (size_t length : {0, 1, 64, 127, 128, 129, 256, 1000}) {
        const Bytes message = pattern(length, static_cast<uint8_t>(length));
        mac_message(ours, key.data(), key.size(), nullptr, pattern(3, 3));
        const Bytes reused = mac_message(ours, nullptr, 0, nullptr, message);
        const Bytes fresh = mac_message(theirs, key.data(), key.size(), nullptr, message);
        B2_CHECK(report, !reused.empty() && reused == fresh,
                 "reused key, length " + std::to_string(length));
    }
    // A param change while the message is still empty must not leak into the current one.
    B2_CHECK(report, EVP_MAC_init(ours, key.data(), key.size(), nullptr) == 1, "init");
    B2_CHECK(report, EVP_MAC_CTX_set_params(ours, with_salt) == 1, "salt after init");
    const Bytes before_change = mac_final(ours);
    B2_CHECK(report, before_change == mac_message(theirs, key.data(), key.size(), nullptr, empty),
             "empty message keeps init-time params");
    const Bytes salted = mac_message(ours, nullptr, 0, nullptr, empty);
    B2_CHECK(report, salted == mac_message(theirs, key.data(), key.size(), with_salt, empty),
             "salt applies from the next init");
    // A new key, even through params, replaces the cached state.
    OSSL_PARAM new_key[] = {
        OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_KEY,
                                          const_cast<uint8_t*>(other_key.data()), other_key.size()),
        OSSL_PARAM_construct_end()};
    const Bytes message = pattern(90, 1);
    const Bytes rekeyed = mac_message(ours, nullptr, 0, new_key, message);
    B2_CHECK(report,
             rekeyed == mac_message(theirs, other_key.data(), other_key.size(), with_salt, message),
             "key param replaces the key");
    // Params are applied before the key argument, so the init key wins over a key param.
    const Bytes init_wins = mac_message(ours, key.data(), key.size(), new_key, message);
    B2_CHECK(report,
             init_wins == mac_message(theirs, key.data(), key.size(), with_salt, message) &&
                 init_wins == mac_message(theirs, key.data(), key.size(), new_key, message),
             "the init key wins over a key param given with it");
}

void check_life_cycle(Report& report, const b2test::ProviderSession& session,
                      const FetchedMacs& macs) {
    MacPair pair = new_mac_pair(macs);
    EVP_MAC_CTX* ctx = pair.ours.get();
    const Bytes key = pattern(16, 1);
    B2_CHECK(report, !mac_message(ctx, key.data(), key.size(), nullptr, key).empty(), "mac");
    B2_CHECK(report, EVP_MAC_update(ctx, key.data(), key.size()) == 0, "MAC update after final");
    B2_CHECK(report, contains(last_reason(), "update after final"),
             "MAC update-after-final reason");
    B2_CHECK(report, mac_final(ctx).empty(), "MAC second final");
    B2_CHECK(report, contains(last_reason(), "final already called"), "MAC second-final reason");

    b2test::MdPtr md = session.fetch_md(b2test::kDigestName, b2test::kOurPropq);
    b2test::MdCtxPtr md_ctx(EVP_MD_CTX_new());
    unsigned char out[64];
    unsigned int out_length = 0;
    B2_CHECK(report, EVP_DigestInit_ex2(md_ctx.get(), md.get(), nullptr) == 1, "digest init");
    B2_CHECK(report, EVP_DigestFinal_ex(md_ctx.get(), out, &out_length) == 1, "digest final");
    B2_CHECK(report, EVP_DigestUpdate(md_ctx.get(), out, 1) == 0, "digest update after final");
    B2_CHECK(report, contains(last_reason(), b2test::finished_digest_update_reason()),
             "digest update reason");
    B2_CHECK(report, EVP_DigestFinal_ex(md_ctx.get(), out, &out_length) == 0,
             "digest second final");
    B2_CHECK(report, contains(last_reason(), b2test::finished_digest_final_reason()),
             "digest second-final reason");
}

// From 3.4, EVP asks the context for its output size (EVP_MD_CTX_get_size is then
// EVP_MD_CTX_get_size_ex) and passes it to final as the buffer size; before, it takes the
// digest's fixed 64. Our final needs only the context's size either way.
void check_final_asks_context_size(Report& report, const EVP_MD* md, const OSSL_PARAM* set_size) {
    b2test::MdCtxPtr ctx(EVP_MD_CTX_new());
    B2_REQUIRE(EVP_DigestInit_ex2(ctx.get(), md, set_size) == 1, "init with size 32");
#if OPENSSL_VERSION_NUMBER >= 0x30400000L
    const bool asks_context = b2test::running_openssl_at_least(0x30400000L);
#else
    const bool asks_context = false;
#endif
    const int expected = asks_context ? 32 : 64;
    B2_CHECK(report, EVP_MD_CTX_get_size(ctx.get()) == expected,
             "EVP_MD_CTX_get_size is " + std::to_string(expected) + " on this core");
    unsigned char out[64];
    unsigned int length = 0;
    B2_CHECK(report, EVP_DigestFinal_ex(ctx.get(), out, &length) == 1 && length == 32,
             "final gives the context's 32 bytes");
}

// The digest's `size` is a real BLAKE2b output length (not a truncation) and survives re-init.
void check_digest_size(Report& report, const b2test::ProviderSession& session) {
    b2test::MdPtr md = session.fetch_md(b2test::kDigestName, b2test::kOurPropq);
    b2test::MdCtxPtr ctx(EVP_MD_CTX_new());
    const Bytes message = pattern(300, 5);
    size_t size = 32;
    OSSL_PARAM set_size[] = {OSSL_PARAM_construct_size_t(OSSL_DIGEST_PARAM_SIZE, &size),
                             OSSL_PARAM_construct_end()};
    const auto sized = b2test::run_digest(ctx.get(), md.get(), set_size, message);
    B2_CHECK(report, sized && sized->size() == 32, "size 32 gives 32 bytes");
    size_t reported = 0;
    OSSL_PARAM get_size[] = {OSSL_PARAM_construct_size_t(OSSL_DIGEST_PARAM_SIZE, &reported),
                             OSSL_PARAM_construct_end()};
    B2_CHECK(report, EVP_MD_CTX_get_params(ctx.get(), get_size) == 1 && reported == 32,
             "gettable size reports the configured 32");
    // libcrypto before 3.2 frees the provider context at every EVP_DigestInit_ex2, so
    // nothing can survive there; the dispatch-level tests cover our side on every version.
    if (b2test::running_openssl_at_least(0x30200000L)) {
        const auto again = b2test::run_digest(ctx.get(), md.get(), nullptr, message);
        B2_CHECK(report, again && *again == *sized, "size survives re-init");
    }
    check_final_asks_context_size(report, md.get(), set_size);
    b2test::MdCtxPtr fresh(EVP_MD_CTX_new());
    const auto full = b2test::run_digest(fresh.get(), md.get(), nullptr, message);
    B2_CHECK(report,
             full && full->size() == 64 && !std::equal(sized->begin(), sized->end(), full->begin()),
             "a 32-byte BLAKE2b is not a truncated 64-byte one");
    const auto kernel = b2test::served_kernel(ctx.get());
    B2_CHECK(report, kernel && !kernel->empty(), "digest ctx reports its kernel");
}

}  // namespace

int main() {
    Report report("test_semantics");
    b2test::ProviderSession session(b2test::ProviderSession::Default::include);
    check_provider_params(report, session);
    {
        const FetchedMacs macs{session.fetch_mac(b2test::kMacName, b2test::kOurPropq),
                               session.fetch_mac(b2test::kMacName, b2test::kDefaultPropq)};
        B2_REQUIRE(macs.ours && macs.theirs, "fetch BLAKE2BMAC from both providers");
        check_mac_errors(report, macs);
        check_failed_set_params_changes_nothing(report, macs);
        check_size_after_init(report, macs);
        check_key_reuse(report, macs);
        check_life_cycle(report, session, macs);
    }
    check_digest_size(report, session);
    return report.finish();
}
