// Provider parameters, errors and the digest/MAC life cycle, checked against OpenSSL's
// default provider wherever it behaves correctly, and against the documented rules where
// it does not (partial set_params, size changed after init, update after final): for
// BLAKE2B-512/BLAKE2BMAC and BLAKE2S-256/BLAKE2SMAC alike; the tree modes (BLAKE2BP-512,
// BLAKE2BPMAC, BLAKE2SP-256, BLAKE2SPMAC), which the default provider lacks, against their
// rules (one size, no salt/custom) and the official known answers.
// SPDX-License-Identifier: Apache-2.0
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "b2test.hpp"
#include "b2test/algorithms.hpp"

namespace {

using b2test::Blake2Algorithm;
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
    const Blake2Algorithm& algorithm;
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

// The kernel buildinfo names for an algorithm: "...; kernel <b>; blake2bp <bp>; blake2s <s>;
// blake2sp <sp> ..." (each followed by its reason in parentheses).
std::string buildinfo_kernel(const b2test::ProviderSession& session,
                             const Blake2Algorithm& algorithm) {
    OSSL_PROVIDER* provider = OSSL_PROVIDER_load(session.libctx(), "blake2simd");
    const char* buildinfo = nullptr;
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, const_cast<char**>(&buildinfo), 0),
        OSSL_PARAM_construct_end()};
    const std::string text =
        OSSL_PROVIDER_get_params(provider, params) == 1 && buildinfo != nullptr ? buildinfo : "";
    OSSL_PROVIDER_unload(provider);
    const std::string tag =
        std::string("; ") + (&algorithm == &b2test::kBlake2b ? "kernel" : algorithm.label) + " ";
    const size_t at = text.find(tag);
    if (at == std::string::npos) {
        return "(no '" + tag + "' in buildinfo '" + text + "')";
    }
    const size_t start = at + tag.size();
    return text.substr(start, text.find(' ', start) - start);
}

// A context's `kernel` param names the kernel buildinfo reports for its algorithm.
template <class Ctx>
void check_served_kernel(Report& report, const b2test::ProviderSession& session,
                         const Blake2Algorithm& algorithm, Ctx* ctx, const char* face) {
    const auto kernel = b2test::served_kernel(ctx);
    const std::string expected = buildinfo_kernel(session, algorithm);
    B2_CHECK(report, kernel && *kernel == expected,
             std::string(face) + " ctx reports kernel '" + kernel.value_or("(none)") +
                 "', buildinfo '" + expected + "'");
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
    const Blake2Algorithm& algorithm = macs.algorithm;
    const Bytes key = pattern(algorithm.max_key, 1);
    const Bytes long_key = pattern(algorithm.max_key + 1, 1);
    const Bytes long_field = pattern(algorithm.max_salt + 1, 3);

    B2_CHECK(report, EVP_MAC_init(ctx, nullptr, 0, nullptr) == 0, "init with no key ever set");
    B2_CHECK(report, contains(last_reason(), "no key set"), "no-key reason");
    B2_CHECK(report, EVP_MAC_update(ctx, key.data(), 1) == 0, "update before init");
    B2_CHECK(report, contains(last_reason(), "not initialized"), "uninitialized reason");
    B2_CHECK(report, EVP_MAC_init(ctx, long_key.data(), long_key.size(), nullptr) == 0,
             "too long key");
    B2_CHECK(report, contains(last_reason(), "invalid key length"), "key reason");
    B2_CHECK(report, EVP_MAC_init(ctx, key.data(), 0, nullptr) == 0, "0-byte key");
    B2_CHECK(report, contains(last_reason(), "invalid key length"), "empty key reason");

    struct BadParam {
        OSSL_PARAM param;
        const char* reason;
    };
    size_t size_zero = 0;
    size_t size_big = algorithm.max_size + 1;
    const BadParam bad_params[] = {
        {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size_zero), "invalid output size"},
        {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size_big), "invalid output size"},
        {OSSL_PARAM_construct_octet_string(
             OSSL_MAC_PARAM_SALT, const_cast<uint8_t*>(long_field.data()), long_field.size()),
         "invalid salt length"},
        {OSSL_PARAM_construct_octet_string(
             OSSL_MAC_PARAM_CUSTOM, const_cast<uint8_t*>(long_field.data()), long_field.size()),
         "invalid custom length"},
        {OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_KEY,
                                           const_cast<uint8_t*>(long_key.data()), long_key.size()),
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
        // The default provider refuses the same (the wrong-type rows: it converts or refuses).
        if (std::strcmp(bad.reason, "wrong data type") != 0) {
            B2_CHECK(report, EVP_MAC_CTX_set_params(pair.theirs.get(), params) == 0,
                     std::string("default also refuses: ") + bad.reason);
            ERR_clear_error();
        }
    }
}

// A set_params call that fails must change nothing, unlike the default provider's.
void check_failed_set_params_changes_nothing(Report& report, const FetchedMacs& macs) {
    MacPair pair = new_mac_pair(macs);
    const Bytes key = pattern(32, 9);
    const Bytes message = pattern(200, 2);
    const size_t max_salt = macs.algorithm.max_salt;
    const Bytes salt = pattern(max_salt, 4);
    const Bytes long_custom = pattern(max_salt + 1, 5);
    size_t size = 20;
    OSSL_PARAM mixed[] = {
        OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size),
        OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_SALT, const_cast<uint8_t*>(salt.data()),
                                          salt.size()),
        OSSL_PARAM_construct_octet_string(
            OSSL_MAC_PARAM_CUSTOM, const_cast<uint8_t*>(long_custom.data()), long_custom.size()),
        OSSL_PARAM_construct_end(),
    };
    B2_CHECK(report, EVP_MAC_CTX_set_params(pair.ours.get(), mixed) == 0, "mixed set_params fails");
    ERR_clear_error();
    B2_CHECK(report, EVP_MAC_CTX_get_mac_size(pair.ours.get()) == macs.algorithm.max_size,
             "size not partly applied");
    const Bytes ours = mac_message(pair.ours.get(), key.data(), key.size(), nullptr, message);
    const Bytes theirs = mac_message(pair.theirs.get(), key.data(), key.size(), nullptr, message);
    B2_CHECK(report, !ours.empty() && ours == theirs, "salt not partly applied");
}

// `size` set after init applies from the next init; final writes what EVP_MAC_CTX_get_mac_size
// reports.
void check_size_after_init(Report& report, const FetchedMacs& macs) {
    MacPair pair = new_mac_pair(macs);
    EVP_MAC_CTX* ctx = pair.ours.get();
    const size_t full = macs.algorithm.max_size;
    const Bytes key = pattern(macs.algorithm.max_key - 16, 11);
    const Bytes message = pattern(77, 6);
    size_t new_size = 24;
    OSSL_PARAM set_size[] = {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &new_size),
                             OSSL_PARAM_construct_end()};

    B2_CHECK(report, EVP_MAC_init(ctx, key.data(), key.size(), nullptr) == 1, "init");
    B2_CHECK(report, EVP_MAC_CTX_set_params(ctx, set_size) == 1, "set size after init");
    B2_CHECK(report, EVP_MAC_CTX_get_mac_size(ctx) == full, "current message keeps its size");
    B2_CHECK(report, EVP_MAC_update(ctx, message.data(), message.size()) == 1, "update");
    const Bytes first = mac_final(ctx);
    const Bytes expected_full =
        mac_message(pair.theirs.get(), key.data(), key.size(), nullptr, message);
    B2_CHECK(report, first.size() == full && first == expected_full,
             "final writes the init-time size");

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
    const Blake2Algorithm& algorithm = macs.algorithm;
    const Bytes key = pattern(algorithm.max_key - 24, 21);
    const Bytes other_key = pattern(algorithm.max_key - 24, 22);
    const Bytes empty;
    const Bytes salt = pattern(algorithm.max_salt, 8);
    OSSL_PARAM with_salt[] = {
        OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_SALT, const_cast<uint8_t*>(salt.data()),
                                          salt.size()),
        OSSL_PARAM_construct_end()};

    const size_t block = algorithm.block_bytes;
    for (size_t length :
         {size_t{0}, size_t{1}, block / 2, block - 1, block, block + 1, 2 * block, size_t{1000}}) {
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

    b2test::MdPtr md = session.fetch_md(macs.algorithm.digest, b2test::kOurPropq);
    B2_REQUIRE(md != nullptr, std::string("fetch ") + macs.algorithm.digest);
    b2test::MdCtxPtr md_ctx(EVP_MD_CTX_new());
    unsigned char out[EVP_MAX_MD_SIZE];
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
// digest's fixed size. Our final needs only the context's size either way.
void check_final_asks_context_size(Report& report, const Blake2Algorithm& algorithm,
                                   const EVP_MD* md, const OSSL_PARAM* set_size, size_t half) {
    b2test::MdCtxPtr ctx(EVP_MD_CTX_new());
    B2_REQUIRE(EVP_DigestInit_ex2(ctx.get(), md, set_size) == 1, "init with half the size");
#if OPENSSL_VERSION_NUMBER >= 0x30400000L
    const bool asks_context = b2test::running_openssl_at_least(0x30400000L);
#else
    const bool asks_context = false;
#endif
    const size_t expected = asks_context ? half : algorithm.max_size;
    B2_CHECK(report, EVP_MD_CTX_get_size(ctx.get()) == static_cast<int>(expected),
             "EVP_MD_CTX_get_size is " + std::to_string(expected) + " on this core");
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    B2_CHECK(report, EVP_DigestFinal_ex(ctx.get(), out, &length) == 1 && length == half,
             "final gives the context's " + std::to_string(half) + " bytes");
}

// The digest's `size` is a real BLAKE2 output length (not a truncation) and survives re-init.
void check_digest_size(Report& report, const b2test::ProviderSession& session,
                       const Blake2Algorithm& algorithm) {
    b2test::MdPtr md = session.fetch_md(algorithm.digest, b2test::kOurPropq);
    B2_REQUIRE(md != nullptr, std::string("fetch ") + algorithm.digest);
    b2test::MdCtxPtr ctx(EVP_MD_CTX_new());
    const Bytes message = pattern(300, 5);
    const size_t half = algorithm.max_size / 2;
    size_t size = half;
    OSSL_PARAM set_size[] = {OSSL_PARAM_construct_size_t(OSSL_DIGEST_PARAM_SIZE, &size),
                             OSSL_PARAM_construct_end()};
    const auto sized = b2test::run_digest(ctx.get(), md.get(), set_size, message);
    B2_CHECK(report, sized && sized->size() == half, "size " + std::to_string(half) + " honoured");
    size_t reported = 0;
    OSSL_PARAM get_size[] = {OSSL_PARAM_construct_size_t(OSSL_DIGEST_PARAM_SIZE, &reported),
                             OSSL_PARAM_construct_end()};
    B2_CHECK(report, EVP_MD_CTX_get_params(ctx.get(), get_size) == 1 && reported == half,
             "gettable size reports the configured size");
    // libcrypto before 3.2 frees the provider context at every EVP_DigestInit_ex2, so
    // nothing can survive there; the dispatch-level tests cover our side on every version.
    if (b2test::running_openssl_at_least(0x30200000L)) {
        const auto again = b2test::run_digest(ctx.get(), md.get(), nullptr, message);
        B2_CHECK(report, again && sized && *again == *sized, "size survives re-init");
    }
    check_final_asks_context_size(report, algorithm, md.get(), set_size, half);
    b2test::MdCtxPtr fresh(EVP_MD_CTX_new());
    const auto full = b2test::run_digest(fresh.get(), md.get(), nullptr, message);
    B2_CHECK(report,
             full && sized && full->size() == algorithm.max_size &&
                 !std::equal(sized->begin(), sized->end(), full->begin()),
             "a shorter BLAKE2 output is not a truncated full one");
    check_served_kernel(report, session, algorithm, ctx.get(), algorithm.digest);
    b2test::MacPtr mac = session.fetch_mac(algorithm.mac, b2test::kOurPropq);
    b2test::MacCtxPtr mac_ctx(EVP_MAC_CTX_new(mac.get()));
    check_served_kernel(report, session, algorithm, mac_ctx.get(), algorithm.mac);
}

// The names of a param list (nullptr: none).
std::vector<std::string> param_names(const OSSL_PARAM* list) {
    std::vector<std::string> names;
    for (; list != nullptr && list->key != nullptr; ++list) {
        names.emplace_back(list->key);
    }
    return names;
}

bool has_name(const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

// Ours lists every settable and gettable param the default provider lists (an application
// built on its lists works with ours), and the digest's settable size/salt/custom.
void check_param_lists(Report& report, const b2test::ProviderSession& session,
                       const Blake2Algorithm& algorithm, const FetchedMacs& macs) {
    const auto compare = [&report](const OSSL_PARAM* ours, const OSSL_PARAM* theirs,
                                   const std::string& what) {
        const std::vector<std::string> our_names = param_names(ours);
        for (const std::string& name : param_names(theirs)) {
            B2_CHECK(report, has_name(our_names, name), what + " lacks the default's " + name);
        }
    };
    compare(EVP_MAC_settable_ctx_params(macs.ours.get()),
            EVP_MAC_settable_ctx_params(macs.theirs.get()), "MAC settable ctx params");
    compare(EVP_MAC_gettable_ctx_params(macs.ours.get()),
            EVP_MAC_gettable_ctx_params(macs.theirs.get()), "MAC gettable ctx params");
    const b2test::MdPtr ours = session.fetch_md(algorithm.digest, b2test::kOurPropq);
    const b2test::MdPtr theirs = session.fetch_md(algorithm.digest, b2test::kDefaultPropq);
    B2_REQUIRE(ours && theirs, std::string("fetch ") + algorithm.digest + " from both");
    compare(EVP_MD_settable_ctx_params(ours.get()), EVP_MD_settable_ctx_params(theirs.get()),
            "digest settable ctx params");
    compare(EVP_MD_gettable_ctx_params(ours.get()), EVP_MD_gettable_ctx_params(theirs.get()),
            "digest gettable ctx params");
    const std::vector<std::string> settable = param_names(EVP_MD_settable_ctx_params(ours.get()));
    for (const char* name : {OSSL_DIGEST_PARAM_SIZE, "salt", "custom"}) {
        B2_CHECK(report, has_name(settable, name),
                 std::string("digest settable ctx params list ") + name);
    }
    B2_CHECK(report,
             EVP_MD_get_size(ours.get()) == EVP_MD_get_size(theirs.get()) &&
                 EVP_MD_get_block_size(ours.get()) == EVP_MD_get_block_size(theirs.get()),
             "digest size and block size as the default's");
}

// Failure expected, with a reason text containing `reason`.
void expect_refusal(Report& report, bool succeeded, const std::string& what,
                    const std::string& reason) {
    const std::string errors = b2test::drain_openssl_errors();
    B2_CHECK(report, !succeeded, what + " was accepted");
    B2_CHECK(report, succeeded || contains(errors, reason),
             what + ": expected a reason containing '" + reason + "', got: " + errors);
}

// The official keyed known answer of a tree mode for the message 00 01 .. (length-1) under the
// key 00 01 .. (max_key-1) (vectors/<label>-kat.json, lengths 0..255; never computed by us).
struct KeyedAnswer {
    Bytes key;
    Bytes message;
    Bytes expected;
};

KeyedAnswer official_keyed_answer(const Blake2Algorithm& algorithm, size_t length) {
    const std::string path = b2test::vectors_path(std::string(algorithm.label) + "-kat.json");
    for (const b2test::JsonObject& object : b2test::read_json_objects(path)) {
        if (object.string("hash") != algorithm.label) {
            continue;
        }
        KeyedAnswer answer{b2test::hex_field(object, "key", path),
                           b2test::hex_field(object, "in", path),
                           b2test::hex_field(object, "out", path)};
        if (!answer.key.empty() && answer.message.size() == length) {
            return answer;
        }
    }
    b2test::fatal("no keyed entry of " + std::to_string(length) + " bytes in " + path);
}

// BLAKE2BP-512/BLAKE2BPMAC and BLAKE2SP-256/BLAKE2SPMAC: sizes 1..max_size, no salt/custom or
// tree field, keys 1..max_key, the same life cycle and key reuse as the single-lane MAC.
void check_tree_digest(Report& report, const b2test::ProviderSession& session,
                       const Blake2Algorithm& algorithm) {
    const b2test::MdPtr md = session.fetch_md(algorithm.digest, b2test::kOurPropq);
    B2_REQUIRE(md != nullptr, std::string("fetch ") + algorithm.digest);
    B2_CHECK(report,
             EVP_MD_get_size(md.get()) == static_cast<int>(algorithm.max_size) &&
                 EVP_MD_get_block_size(md.get()) == static_cast<int>(algorithm.block_bytes),
             "digest size and block size");
    b2test::MdCtxPtr ctx(EVP_MD_CTX_new());
    const size_t full = algorithm.max_size;
    for (const size_t size : {size_t{0}, full + 1}) {
        b2test::Blake2bParams params;
        params.set_size(size);
        expect_refusal(report,
                       EVP_DigestInit_ex2(ctx.get(), md.get(),
                                          params.build(b2test::Blake2bParams::Face::digest)) == 1,
                       "digest size " + std::to_string(size), "invalid output size");
    }
    // Any size 1..full (the values: test_tree_sizes against libb2).
    for (const size_t size : {size_t{1}, full / 2, full - 1, full}) {
        b2test::Blake2bParams params;
        params.set_size(size);
        const auto out = b2test::run_digest(ctx.get(), md.get(),
                                            params.build(b2test::Blake2bParams::Face::digest), {});
        B2_CHECK(report, out && out->size() == size, "digest size " + std::to_string(size));
    }
    // The tree fields: the mode defines them.
    for (const char* name :
         {"fanout", "depth", "leaf-size", "node-offset", "node-depth", "inner-size", "last-node"}) {
        uint64_t value = 1;
        OSSL_PARAM params[] = {OSSL_PARAM_construct_uint64(name, &value),
                               OSSL_PARAM_construct_end()};
        expect_refusal(report, EVP_DigestInit_ex2(ctx.get(), md.get(), params) == 1,
                       std::string("digest ") + name, "parameter fixed by the algorithm");
    }
    const Bytes field = pattern(8, 3);
    for (const size_t length : {size_t{0}, size_t{8}}) {
        b2test::Blake2bParams salted;
        salted.set_salt(std::span<const uint8_t>(field.data(), length));
        expect_refusal(report,
                       EVP_DigestInit_ex2(ctx.get(), md.get(),
                                          salted.build(b2test::Blake2bParams::Face::digest)) == 1,
                       "digest salt of " + std::to_string(length), "salt is not supported");
        b2test::Blake2bParams custom;
        custom.set_custom(std::span<const uint8_t>(field.data(), length));
        expect_refusal(report,
                       EVP_DigestInit_ex2(ctx.get(), md.get(),
                                          custom.build(b2test::Blake2bParams::Face::digest)) == 1,
                       "digest custom of " + std::to_string(length),
                       "custom (personalization) is not supported");
    }
    B2_REQUIRE(EVP_DigestInit_ex2(ctx.get(), md.get(), nullptr) == 1, "digest init");
    check_served_kernel(report, session, algorithm, ctx.get(), algorithm.digest);
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    B2_REQUIRE(EVP_DigestFinal_ex(ctx.get(), out, &length) == 1 && length == full, "final");
    expect_refusal(report, EVP_DigestUpdate(ctx.get(), out, 1) == 1, "digest update after final",
                   b2test::finished_digest_update_reason());
    expect_refusal(report, EVP_DigestFinal_ex(ctx.get(), out, &length) == 1, "second digest final",
                   b2test::finished_digest_final_reason());
}

// A tree MAC's refusals on a context never keyed: keys of 0 and one byte too many, sizes 0 and
// one byte too many, salt and custom.
void check_tree_mac_refusals(Report& report, EVP_MAC_CTX* ctx, const Blake2Algorithm& algorithm) {
    const size_t full = algorithm.max_size;
    const Bytes long_key = pattern(algorithm.max_key + 1, 0x11);
    expect_refusal(report, EVP_MAC_init(ctx, long_key.data(), 0, nullptr) == 1, "MAC key of 0",
                   "invalid key length");
    expect_refusal(report, EVP_MAC_init(ctx, long_key.data(), long_key.size(), nullptr) == 1,
                   "MAC key of " + std::to_string(long_key.size()), "invalid key length");
    {
        OSSL_PARAM params[] = {
            OSSL_PARAM_construct_octet_string(
                OSSL_MAC_PARAM_KEY, const_cast<uint8_t*>(long_key.data()), long_key.size()),
            OSSL_PARAM_construct_end()};
        expect_refusal(report, EVP_MAC_CTX_set_params(ctx, params) == 1, "MAC key param too long",
                       "invalid key length");
    }
    for (const size_t size : {size_t{0}, full + 1}) {
        b2test::Blake2bParams params;
        params.set_size(size);
        expect_refusal(
            report,
            EVP_MAC_CTX_set_params(ctx, params.build(b2test::Blake2bParams::Face::mac)) == 1,
            "MAC size " + std::to_string(size), "invalid output size");
    }
    const Bytes field = pattern(8, 9);
    {
        b2test::Blake2bParams salted;
        salted.set_salt(field);
        expect_refusal(
            report,
            EVP_MAC_CTX_set_params(ctx, salted.build(b2test::Blake2bParams::Face::mac)) == 1,
            "MAC salt", "salt is not supported");
        b2test::Blake2bParams custom;
        custom.set_custom(field);
        expect_refusal(
            report,
            EVP_MAC_CTX_set_params(ctx, custom.build(b2test::Blake2bParams::Face::mac)) == 1,
            "MAC custom", "custom (personalization) is not supported");
    }
}

// The reference key, then a failed change (validate-then-apply), then NULL-key re-inits; the
// phases after final.
void check_tree_mac_keyed(Report& report, const b2test::ProviderSession& session, EVP_MAC* mac,
                          EVP_MAC_CTX* ctx, const Blake2Algorithm& algorithm) {
    const size_t full = algorithm.max_size;
    const Bytes field = pattern(8, 9);
    const KeyedAnswer answer =
        official_keyed_answer(algorithm, std::min<size_t>(255, 2 * algorithm.block_bytes + 3));
    B2_REQUIRE(EVP_MAC_init(ctx, answer.key.data(), answer.key.size(), nullptr) == 1,
               "MAC init with the official key");
    {
        const Bytes other_key = pattern(algorithm.max_key / 2, 0x5c);
        OSSL_PARAM params[] = {
            OSSL_PARAM_construct_octet_string(
                OSSL_MAC_PARAM_KEY, const_cast<uint8_t*>(other_key.data()), other_key.size()),
            OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_SALT,
                                              const_cast<uint8_t*>(field.data()), 4),
            OSSL_PARAM_construct_end()};
        expect_refusal(report, EVP_MAC_CTX_set_params(ctx, params) == 1,
                       "key + salt in one set_params", "salt is not supported");
        expect_refusal(report, EVP_MAC_init(ctx, other_key.data(), other_key.size(), params) == 1,
                       "init with key + salt", "salt is not supported");
    }
    for (int round = 0; round < 2; ++round) {
        const Bytes got = mac_message(ctx, nullptr, 0, nullptr, answer.message);
        B2_CHECK(report, got == answer.expected,
                 "NULL-key re-init #" + std::to_string(round) +
                     " reuses the key (official answer): got " + b2test::to_hex(got));
    }
    check_served_kernel(report, session, algorithm, ctx, algorithm.mac);
    B2_CHECK(report, has_name(param_names(EVP_MAC_settable_ctx_params(mac)), "key"),
             "MAC settable ctx params list key");
    B2_REQUIRE(EVP_MAC_init(ctx, nullptr, 0, nullptr) == 1, "re-init");
    B2_CHECK(report, EVP_MAC_CTX_get_mac_size(ctx) == full, "MAC size");
    Bytes out(full);
    size_t length = 0;
    expect_refusal(report, EVP_MAC_final(ctx, out.data(), &length, full - 1) == 1,
                   "MAC final into " + std::to_string(full - 1) + " bytes", "buffer too small");
    B2_REQUIRE(EVP_MAC_final(ctx, out.data(), &length, out.size()) == 1, "final");
    expect_refusal(report, EVP_MAC_update(ctx, out.data(), 1) == 1, "MAC update after final",
                   "update after final");
    expect_refusal(report, EVP_MAC_final(ctx, out.data(), &length, out.size()) == 1,
                   "second MAC final", "final already called");
}

void check_tree_mac(Report& report, const b2test::ProviderSession& session,
                    const Blake2Algorithm& algorithm) {
    const b2test::MacPtr mac = session.fetch_mac(algorithm.mac, b2test::kOurPropq);
    B2_REQUIRE(mac != nullptr, std::string("fetch ") + algorithm.mac);
    {
        b2test::MacCtxPtr fresh(EVP_MAC_CTX_new(mac.get()));
        expect_refusal(report, EVP_MAC_init(fresh.get(), nullptr, 0, nullptr) == 1,
                       "MAC init without key", "no key set");
    }
    b2test::MacCtxPtr ctx(EVP_MAC_CTX_new(mac.get()));
    check_tree_mac_refusals(report, ctx.get(), algorithm);
    check_tree_mac_keyed(report, session, mac.get(), ctx.get(), algorithm);
}

// The rows of one algorithm pair, counted into `report`.
void check_algorithm(Report& report, const b2test::ProviderSession& session,
                     const Blake2Algorithm& algorithm) {
    std::printf("%s, %s:\n", algorithm.digest, algorithm.mac);
    if (algorithm.tree) {
        check_tree_digest(report, session, algorithm);
        check_tree_mac(report, session, algorithm);
        return;
    }
    {
        const FetchedMacs macs{algorithm, session.fetch_mac(algorithm.mac, b2test::kOurPropq),
                               session.fetch_mac(algorithm.mac, b2test::kDefaultPropq)};
        B2_REQUIRE(macs.ours && macs.theirs,
                   std::string("fetch ") + algorithm.mac + " from both providers");
        check_mac_errors(report, macs);
        check_failed_set_params_changes_nothing(report, macs);
        check_size_after_init(report, macs);
        check_key_reuse(report, macs);
        check_life_cycle(report, session, macs);
        check_param_lists(report, session, algorithm, macs);
    }
    check_digest_size(report, session, algorithm);
}

}  // namespace

// usage: test_semantics [--algorithm blake2b|blake2s|blake2bp|blake2sp]
// (without it: all four, as the valgrind job runs it)
int main(int argc, char** argv) {
    const Blake2Algorithm* only = nullptr;
    if (argc == 3 && std::strcmp(argv[1], "--algorithm") == 0) {
        only = b2test::find_algorithm(argv[2]);
    }
    if (argc != 1 && only == nullptr) {
        std::fprintf(stderr, "usage: %s [--algorithm blake2b|blake2s|blake2bp|blake2sp]\n",
                     argv[0]);
        return 2;
    }
    Report report(std::string("test_semantics") +
                  (only != nullptr ? std::string(" --algorithm ") + only->label : ""));
    b2test::ProviderSession session(b2test::ProviderSession::Default::include);
    check_provider_params(report, session);
    for (const Blake2Algorithm* algorithm : b2test::kAllAlgorithms) {
        if (only == nullptr || only == algorithm) {
            check_algorithm(report, session, *algorithm);
        }
    }
    return report.finish();
}
