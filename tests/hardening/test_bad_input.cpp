// Bad and borderline input through EVP, against our provider and OpenSSL's default one: every
// call returns its documented result, rejections carry a readable reason equivalent to the
// default provider's, and where the default provider misbehaves ours does not.
// usage: test_bad_input [--algorithm blake2b|blake2s|argon2]: BLAKE2B-512/BLAKE2BMAC, the tree
// mode BLAKE2BP-512/BLAKE2BPMAC and BLAKE2XB/BLAKE2XBMAC, or BLAKE2S-256/BLAKE2SMAC,
// BLAKE2SP-256/BLAKE2SPMAC and BLAKE2XS/BLAKE2XSMAC, or ARGON2ID; without it, all of them.
// SPDX-License-Identifier: Apache-2.0
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "b2test.hpp"
#include "b2test/algorithms.hpp"
#include "b2test/argon2_bad_params.hpp"
#include "b2test/rfc9106.hpp"
#include "guard_page.hpp"
#include "rfc7693.hpp"

namespace {

using b2test::Blake2Algorithm;
using b2test::Report;
using Bytes = std::vector<uint8_t>;

using b2test::contains;
using b2test::last_reason;
using b2test::mac_final;

Bytes pattern(size_t length, uint8_t seed) {
    return b2test::pattern(length, seed, 29);
}

OSSL_PARAM octets(const char* name, const Bytes& bytes) {
    return OSSL_PARAM_construct_octet_string(name, const_cast<uint8_t*>(bytes.data()),
                                             bytes.size());
}

struct Fixture {
    explicit Fixture(const Blake2Algorithm& single, const Blake2Algorithm& tree_mode)
        : algorithm(single), tree(tree_mode) {}

    const Blake2Algorithm& algorithm;  // the single-lane pair, which the default provider has
    const Blake2Algorithm& tree;       // its tree mode, ours alone
    b2test::ProviderSession session{b2test::ProviderSession::Default::include};
    b2test::MdPtr our_md = session.fetch_md(algorithm.digest, b2test::kOurPropq);
    b2test::MdPtr default_md = session.fetch_md(algorithm.digest, b2test::kDefaultPropq);
    b2test::MacPtr our_mac = session.fetch_mac(algorithm.mac, b2test::kOurPropq);
    b2test::MacPtr default_mac = session.fetch_mac(algorithm.mac, b2test::kDefaultPropq);
    Bytes key = pattern(algorithm.max_key - 24, 3);
    Bytes message = pattern(333, 7);

    b2test::MacCtxPtr new_mac(bool ours) const {
        return b2test::MacCtxPtr(EVP_MAC_CTX_new(ours ? our_mac.get() : default_mac.get()));
    }

    // The right answers, from outside our provider: rfc7693.hpp for BLAKE2b, the default
    // provider for BLAKE2s (right for a plain digest and a MAC without a size change).
    [[nodiscard]] Bytes oracle_digest(const Bytes& data) const {
        if (&algorithm == &b2test::kBlake2b) {
            return rfc7693::hash(rfc7693::Options{}, data.data(), data.size());
        }
        b2test::MdCtxPtr ctx(EVP_MD_CTX_new());
        const auto out = b2test::run_digest(ctx.get(), default_md.get(), nullptr, data);
        B2_REQUIRE(out.has_value(), std::string("default provider's ") + algorithm.digest);
        return *out;
    }
    [[nodiscard]] Bytes oracle_mac(const Bytes& data) const {
        if (&algorithm == &b2test::kBlake2b) {
            rfc7693::Options o;
            o.key = key.data();
            o.key_len = key.size();
            return rfc7693::hash(o, data.data(), data.size());
        }
        b2test::MacCtxPtr ctx = new_mac(false);
        const auto out = b2test::run_mac(ctx.get(), key, nullptr, data);
        B2_REQUIRE(out.has_value(), std::string("default provider's ") + algorithm.mac);
        return *out;
    }
};

Bytes md_final(EVP_MD_CTX* ctx) {
    Bytes out(EVP_MAX_MD_SIZE);
    unsigned int length = 0;
    if (EVP_DigestFinal_ex(ctx, out.data(), &length) != 1) {
        return {};
    }
    out.resize(length);
    return out;
}

// --- Rejected MAC configurations: ours and the default must both refuse, for the same reason.

// Plain pointers only: GCC 12 at -O3 warns falsely (-Wmaybe-uninitialized) about std::string
// members of these aggregate case tables; the case texts built at run time live in named strings.
struct Rejection {
    const char* what;
    const char* our_reason;      // substring of our reason text
    const char* default_reason;  // substring of the default provider's, nullptr: it accepts
    const char* topic;           // a word both reasons must contain
};

void compare_rejection(Report& report, const Rejection& rejection, int our_rc, int default_rc,
                       const std::string& ours, const std::string& theirs) {
    const std::string what = rejection.what;
    B2_CHECK(report, our_rc == 0, what + ": blake2simd rejects");
    B2_CHECK(report, contains(ours, rejection.our_reason),
             what + ": our reason '" + ours + "' lacks '" + rejection.our_reason + "'");
    B2_CHECK(report, contains(ours, rejection.topic),
             what + ": our reason names " + rejection.topic);
    if (rejection.default_reason == nullptr) {
        std::printf("  note: default provider %s %s (reason '%s')\n",
                    default_rc == 1 ? "ACCEPTS" : "rejects", rejection.what, theirs.c_str());
        return;
    }
    B2_CHECK(report, default_rc == 0, what + ": default rejects too");
    B2_CHECK(report,
             contains(theirs, rejection.default_reason) && contains(theirs, rejection.topic),
             what + ": default reason '" + theirs + "'");
}

// "<n>-byte <field>", "<field> of <n> bytes" and the like, for the algorithm's limits.
std::string bytes_of(size_t count, const char* what) {
    return std::to_string(count) + what;
}

void check_mac_init_rejections(Report& report, const Fixture& f) {
    const size_t too_long = f.algorithm.max_key + 1;
    const Bytes long_key = pattern(too_long, 1);
    struct KeyCase {
        Rejection rejection;
        const Bytes* key;
        size_t length;
    };
    const std::string too_long_key = bytes_of(too_long, "-byte key");
    const KeyCase cases[] = {
        {{"0-byte key", "invalid key length", "invalid key length", "key"}, &f.key, 0},
        {{too_long_key.c_str(), "invalid key length", "invalid key length", "key"},
         &long_key,
         too_long},
        {{"no key ever set", "no key set", "no key set", "key"}, nullptr, 0},
    };
    for (const KeyCase& c : cases) {
        int rc[2];
        std::string reason[2];
        for (int ours = 1; ours >= 0; --ours) {
            b2test::MacCtxPtr ctx = f.new_mac(ours == 1);
            const uint8_t* key = c.key != nullptr ? c.key->data() : nullptr;
            rc[ours] = EVP_MAC_init(ctx.get(), key, c.length, nullptr);
            reason[ours] = last_reason();
        }
        compare_rejection(report, c.rejection, rc[1], rc[0], reason[1], reason[0]);
    }
}

void check_mac_param_rejections(Report& report, const Fixture& f) {
    const Bytes long_field = pattern(f.algorithm.max_salt + 1, 5);
    const Bytes long_key = pattern(f.algorithm.max_key + 1, 1);
    const Bytes empty_key;
    size_t size_zero = 0;
    size_t size_big = f.algorithm.max_size + 1;
    struct ParamCase {
        Rejection rejection;
        OSSL_PARAM param;
    };
    const std::string long_salt = "salt of " + bytes_of(long_field.size(), " bytes");
    const std::string long_custom = "custom of " + bytes_of(long_field.size(), " bytes");
    const std::string big_size = bytes_of(size_big, " as size");
    const std::string long_key_param = "key param of " + bytes_of(long_key.size(), " bytes");
    const ParamCase cases[] = {
        {{long_salt.c_str(), "invalid salt length", "invalid salt length", "salt"},
         octets(OSSL_MAC_PARAM_SALT, long_field)},
        {{long_custom.c_str(), "invalid custom length", "invalid custom length", "custom"},
         octets(OSSL_MAC_PARAM_CUSTOM, long_field)},
        {{"size 0", "invalid output size", "length", "invalid"},
         OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size_zero)},
        {{big_size.c_str(), "invalid output size", "length", "invalid"},
         OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size_big)},
        {{long_key_param.c_str(), "invalid key length", "invalid key length", "key"},
         octets(OSSL_MAC_PARAM_KEY, long_key)},
        {{"key param of 0 bytes", "invalid key length", "invalid key length", "key"},
         octets(OSSL_MAC_PARAM_KEY, empty_key)},
        // Wrong types: OpenSSL 3.0's default provider reads salt/custom/key bytes without
        // looking at the type, so only ours is held to rejecting them.
        {{"key as a UTF-8 string", "wrong data type", nullptr, "type"},
         OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_KEY, const_cast<char*>("0123456789"), 10)},
        {{"salt as a UTF-8 string", "wrong data type", nullptr, "type"},
         OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_SALT, const_cast<char*>("salt"), 4)},
        {{"custom as an integer", "wrong data type", nullptr, "type"},
         OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_CUSTOM, &size_big)},
        {{"size as an octet string", "wrong data type", nullptr, "type"},
         octets(OSSL_MAC_PARAM_SIZE, f.key)},
    };
    for (const ParamCase& c : cases) {
        int rc[2];
        std::string reason[2];
        for (int ours = 1; ours >= 0; --ours) {
            b2test::MacCtxPtr ctx = f.new_mac(ours == 1);
            OSSL_PARAM params[] = {c.param, OSSL_PARAM_construct_end()};
            rc[ours] = EVP_MAC_CTX_set_params(ctx.get(), params);
            reason[ours] = last_reason();
        }
        compare_rejection(report, c.rejection, rc[1], rc[0], reason[1], reason[0]);
        // The same params passed to init must be rejected the same way.
        b2test::MacCtxPtr ctx = f.new_mac(true);
        OSSL_PARAM params[] = {c.param, OSSL_PARAM_construct_end()};
        B2_CHECK(report, EVP_MAC_init(ctx.get(), f.key.data(), f.key.size(), params) == 0,
                 std::string(c.rejection.what) + ": rejected by init");
        B2_CHECK(report, contains(last_reason(), c.rejection.our_reason),
                 std::string(c.rejection.what) + ": init reason");
    }
}

// Digest params: OpenSSL 3.0's default BLAKE2B-512 and BLAKE2S-256 have no settable params,
// so only ours.
void check_digest_param_rejections(Report& report, const Fixture& f) {
    const Bytes long_field = pattern(f.algorithm.max_salt + 1, 5);
    size_t size_zero = 0;
    unsigned int size_big = static_cast<unsigned int>(f.algorithm.max_size + 1);
    struct DigestCase {
        std::string what;
        OSSL_PARAM param;
        const char* reason;
    };
    const DigestCase cases[] = {
        {"digest salt of " + bytes_of(long_field.size(), " bytes"),
         octets(OSSL_MAC_PARAM_SALT, long_field), "invalid salt length"},
        {"digest custom of " + bytes_of(long_field.size(), " bytes"),
         octets(OSSL_MAC_PARAM_CUSTOM, long_field), "invalid custom length"},
        {"digest size 0", OSSL_PARAM_construct_size_t(OSSL_DIGEST_PARAM_SIZE, &size_zero),
         "invalid output size"},
        {"digest size " + std::to_string(size_big),
         OSSL_PARAM_construct_uint(OSSL_DIGEST_PARAM_SIZE, &size_big), "invalid output size"},
        {"digest size as a string",
         OSSL_PARAM_construct_utf8_string(OSSL_DIGEST_PARAM_SIZE, const_cast<char*>("32"), 2),
         "wrong data type"},
        {"digest salt as a string",
         OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_SALT, const_cast<char*>("s"), 1),
         "wrong data type"},
    };
    for (const DigestCase& c : cases) {
        OSSL_PARAM params[] = {c.param, OSSL_PARAM_construct_end()};
        b2test::MdCtxPtr ctx(EVP_MD_CTX_new());
        B2_CHECK(report, EVP_DigestInit_ex2(ctx.get(), f.our_md.get(), params) == 0,
                 c.what + ": init rejects");
        const std::string reason = last_reason();
        B2_CHECK(report, contains(reason, c.reason), c.what + ": reason " + reason);
        B2_CHECK(report, EVP_DigestInit_ex2(ctx.get(), f.our_md.get(), nullptr) == 1,
                 c.what + ": plain init still works");
        B2_CHECK(report, EVP_MD_CTX_set_params(ctx.get(), params) == 0,
                 c.what + ": set_params rejects");
        B2_CHECK(report, contains(last_reason(), c.reason), c.what + ": reason");
    }
}

// --- An integer `size` no getter can read whole (data_size 0, or over 8 bytes) is refused
// before it is read, for every algorithm and every way in. libcrypto 3.0's getter reads the
// byte before an INTEGER of data_size 0 (here a guard page: SIGSEGV), and the default provider
// with it, so only ours is asked.

void check_malformed_size_integers(Report& report, const Fixture& f) {
    BytesAfterGuardPage guarded;
    B2_REQUIRE(guarded.data() != nullptr, "mmap a guard page");
    guarded.data()[0] = 32;  // little-endian 32, zero-extended, for the over-long ones
    struct Malformed {
        const char* what;
        unsigned int type;
        size_t data_size;
    };
    const Malformed cases[] = {
        {"INTEGER size of data_size 0", OSSL_PARAM_INTEGER, 0},
        {"UNSIGNED_INTEGER size of data_size 0", OSSL_PARAM_UNSIGNED_INTEGER, 0},
        {"INTEGER size of data_size 9", OSSL_PARAM_INTEGER, 9},
        {"UNSIGNED_INTEGER size of data_size 16", OSSL_PARAM_UNSIGNED_INTEGER, 16},
    };
    for (const Blake2Algorithm* algorithm : {&f.algorithm, &f.tree}) {
        const char* digest_name = algorithm->digest;
        const b2test::MdPtr md = f.session.fetch_md(digest_name, b2test::kOurPropq);
        const b2test::MacPtr mac = f.session.fetch_mac(algorithm->mac, b2test::kOurPropq);
        B2_REQUIRE(md && mac, std::string("fetch ") + digest_name + " and its MAC");
        for (const Malformed& c : cases) {
            const std::string what = std::string(digest_name) + ": " + c.what;
            OSSL_PARAM params[] = {{OSSL_DIGEST_PARAM_SIZE, c.type, guarded.data(), c.data_size,
                                    OSSL_PARAM_UNMODIFIED},
                                   OSSL_PARAM_construct_end()};
            b2test::MdCtxPtr md_ctx(EVP_MD_CTX_new());
            B2_CHECK(report, EVP_DigestInit_ex2(md_ctx.get(), md.get(), params) == 0,
                     what + ": digest init rejects");
            B2_CHECK(report, contains(last_reason(), "wrong data type"), what + ": init reason");
            B2_CHECK(report, EVP_DigestInit_ex2(md_ctx.get(), md.get(), nullptr) == 1,
                     what + ": plain digest init");
            B2_CHECK(report, EVP_MD_CTX_set_params(md_ctx.get(), params) == 0,
                     what + ": EVP_MD_CTX_set_params rejects");
            B2_CHECK(report, contains(last_reason(), "wrong data type"),
                     what + ": set_params reason");
            b2test::MacCtxPtr mac_ctx(EVP_MAC_CTX_new(mac.get()));
            B2_CHECK(report, EVP_MAC_init(mac_ctx.get(), f.key.data(), f.key.size(), params) == 0,
                     what + ": MAC init rejects");
            B2_CHECK(report, contains(last_reason(), "wrong data type"),
                     what + ": MAC init reason");
            B2_CHECK(report, EVP_MAC_CTX_set_params(mac_ctx.get(), params) == 0,
                     what + ": EVP_MAC_CTX_set_params rejects");
            B2_CHECK(report, contains(last_reason(), "wrong data type"),
                     what + ": MAC set_params reason");
        }
    }
}

// --- Every failing get_params raises a reason: the provider's, a digest's (which OpenSSL calls
// without a provider context), and a context's, for a param of the wrong type or one too small
// for its value (the kernel's name into a buffer one byte short).

void check_provider_gets_raise_reasons(Report& report, const Fixture& f) {
    char text[64] = {};
    OSSL_PROVIDER* provider = OSSL_PROVIDER_load(f.session.libctx(), "blake2simd");
    B2_REQUIRE(provider != nullptr, "load blake2simd");
    OSSL_PARAM status_as_text[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_PROV_PARAM_STATUS, text, sizeof text),
        OSSL_PARAM_construct_end()};
    B2_CHECK(report, OSSL_PROVIDER_get_params(provider, status_as_text) == 0,
             "provider status as a string");
    B2_CHECK(report, contains(last_reason(), "wrong data type"), "provider status reason");
    OSSL_PARAM short_name[] = {OSSL_PARAM_construct_utf8_string(OSSL_PROV_PARAM_NAME, text, 4),
                               OSSL_PARAM_construct_end()};
    B2_CHECK(report, OSSL_PROVIDER_get_params(provider, short_name) == 0,
             "provider name into 4 bytes");
    B2_CHECK(report, contains(last_reason(), "buffer too small"), "provider name reason");
    OSSL_PROVIDER_unload(provider);
}

// Through the digest itself: OpenSSL calls its get_params without a provider context.
void check_md_gets_raise_reasons(Report& report, const EVP_MD* md,
                                 const Blake2Algorithm& algorithm) {
    char text[64] = {};
    const std::string name = algorithm.digest;
    OSSL_PARAM block_size_as_text[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_DIGEST_PARAM_BLOCK_SIZE, text, sizeof text),
        OSSL_PARAM_construct_end()};
    B2_CHECK(report, EVP_MD_get_params(md, block_size_as_text) == 0,
             name + ": block size as a string");
    B2_CHECK(report, contains(last_reason(), "wrong data type"), name + ": its reason");
    signed char tiny = 0;  // 128 does not fit a signed byte; 64 does
    OSSL_PARAM block_size_in_a_byte[] = {
        {OSSL_DIGEST_PARAM_BLOCK_SIZE, OSSL_PARAM_INTEGER, &tiny, 1, OSSL_PARAM_UNMODIFIED},
        OSSL_PARAM_construct_end()};
    if (algorithm.block_bytes > 127) {
        B2_CHECK(report, EVP_MD_get_params(md, block_size_in_a_byte) == 0,
                 name + ": block size into a signed byte");
        B2_CHECK(report, contains(last_reason(), "buffer too small"), name + ": its reason");
    } else {
        B2_CHECK(report,
                 EVP_MD_get_params(md, block_size_in_a_byte) == 1 &&
                     tiny == static_cast<signed char>(algorithm.block_bytes),
                 name + ": block size into a signed byte");
    }
    OSSL_PARAM xof_as_text[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_DIGEST_PARAM_XOF, text, sizeof text),
        OSSL_PARAM_construct_end()};
    B2_CHECK(report, EVP_MD_get_params(md, xof_as_text) == 0, name + ": xof as text");
    B2_CHECK(report, contains(last_reason(), "wrong data type"), name + ": its reason");
}

// Through the digest and through one context of it.
void check_digest_gets_raise_reasons(Report& report, const Fixture& f,
                                     const Blake2Algorithm& algorithm) {
    char text[64] = {};
    const std::string name = algorithm.digest;
    const b2test::MdPtr md = f.session.fetch_md(algorithm.digest, b2test::kOurPropq);
    B2_REQUIRE(md != nullptr, "fetch " + name);
    check_md_gets_raise_reasons(report, md.get(), algorithm);
    b2test::MdCtxPtr ctx(EVP_MD_CTX_new());
    B2_REQUIRE(EVP_DigestInit_ex2(ctx.get(), md.get(), nullptr) == 1, name + ": init");
    const char* kernel = nullptr;
    OSSL_PARAM kernel_ptr[] = {
        OSSL_PARAM_construct_utf8_ptr("kernel", const_cast<char**>(&kernel), 0),
        OSSL_PARAM_construct_end()};
    B2_REQUIRE(EVP_MD_CTX_get_params(ctx.get(), kernel_ptr) == 1 && kernel != nullptr,
               name + ": kernel name");
    const size_t one_short = std::strlen(kernel) - 1;
    OSSL_PARAM kernel_short[] = {OSSL_PARAM_construct_utf8_string("kernel", text, one_short),
                                 OSSL_PARAM_construct_end()};
    B2_CHECK(report, EVP_MD_CTX_get_params(ctx.get(), kernel_short) == 0,
             name + ": kernel '" + kernel + "' into " + std::to_string(one_short) + " bytes");
    B2_CHECK(report, contains(last_reason(), "buffer too small"), name + ": its reason");
    OSSL_PARAM size_as_text[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_DIGEST_PARAM_SIZE, text, sizeof text),
        OSSL_PARAM_construct_end()};
    B2_CHECK(report, EVP_MD_CTX_get_params(ctx.get(), size_as_text) == 0,
             name + ": ctx size as a string");
    B2_CHECK(report, contains(last_reason(), "wrong data type"), name + ": its reason");
}

// Through one MAC context.
void check_mac_gets_raise_reasons(Report& report, const Fixture& f,
                                  const Blake2Algorithm& algorithm) {
    char text[64] = {};
    int number = 0;
    const std::string name = algorithm.mac;
    const b2test::MacPtr mac = f.session.fetch_mac(algorithm.mac, b2test::kOurPropq);
    B2_REQUIRE(mac != nullptr, "fetch " + name);
    b2test::MacCtxPtr ctx(EVP_MAC_CTX_new(mac.get()));
    OSSL_PARAM block_size_as_int[] = {OSSL_PARAM_construct_int(OSSL_MAC_PARAM_BLOCK_SIZE, &number),
                                      OSSL_PARAM_construct_end()};
    B2_CHECK(report,
             EVP_MAC_CTX_get_params(ctx.get(), block_size_as_int) == 1 &&
                 number == static_cast<int>(algorithm.block_bytes),
             name + ": block size into an int");
    OSSL_PARAM kernel_short[] = {OSSL_PARAM_construct_utf8_string("kernel", text, 2),
                                 OSSL_PARAM_construct_end()};
    B2_CHECK(report, EVP_MAC_CTX_get_params(ctx.get(), kernel_short) == 0,
             name + ": kernel into 2 bytes");
    B2_CHECK(report, contains(last_reason(), "buffer too small"), name + ": its reason");
    OSSL_PARAM size_as_octets[] = {
        OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_SIZE, text, sizeof text),
        OSSL_PARAM_construct_end()};
    B2_CHECK(report, EVP_MAC_CTX_get_params(ctx.get(), size_as_octets) == 0,
             name + ": size as an octet string");
    B2_CHECK(report, contains(last_reason(), "wrong data type"), name + ": its reason");
}

void check_failed_gets_raise_reasons(Report& report, const Fixture& f) {
    check_provider_gets_raise_reasons(report, f);
    for (const Blake2Algorithm* algorithm : {&f.algorithm, &f.tree}) {
        check_digest_gets_raise_reasons(report, f, *algorithm);
        check_mac_gets_raise_reasons(report, f, *algorithm);
    }
}

// --- A failing set_params changes nothing (the default provider applies the valid part).

void check_failed_set_params(Report& report, const Fixture& f) {
    const Bytes salt = pattern(f.algorithm.max_salt, 4);
    const Bytes long_custom = pattern(f.algorithm.max_salt + 1, 5);
    size_t size = 20;
    OSSL_PARAM mixed[] = {
        OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size),
        octets(OSSL_MAC_PARAM_SALT, salt),
        octets(OSSL_MAC_PARAM_CUSTOM, long_custom),
        OSSL_PARAM_construct_end(),
    };
    const Bytes expected = f.oracle_mac(f.message);

    for (const bool mid_stream : {false, true}) {
        b2test::MacCtxPtr ctx = f.new_mac(true);
        if (mid_stream) {
            B2_CHECK(report, EVP_MAC_init(ctx.get(), f.key.data(), f.key.size(), nullptr) == 1,
                     "init");
        }
        B2_CHECK(report, EVP_MAC_CTX_set_params(ctx.get(), mixed) == 0, "mixed set_params fails");
        ERR_clear_error();
        B2_CHECK(report, EVP_MAC_CTX_get_mac_size(ctx.get()) == f.algorithm.max_size,
                 "size not partly applied");
        const bool ok =
            mid_stream || EVP_MAC_init(ctx.get(), f.key.data(), f.key.size(), nullptr) == 1;
        B2_CHECK(report, ok && EVP_MAC_update(ctx.get(), f.message.data(), f.message.size()) == 1,
                 "update");
        B2_CHECK(report, mac_final(ctx.get()) == expected,
                 "nothing of a failed set_params applied");
        // and a plain re-init after it is unaffected as well
        B2_CHECK(report,
                 EVP_MAC_init(ctx.get(), nullptr, 0, nullptr) == 1 &&
                     EVP_MAC_update(ctx.get(), f.message.data(), f.message.size()) == 1 &&
                     mac_final(ctx.get()) == expected,
                 "re-init after failed set_params");
    }
    b2test::MacCtxPtr theirs = f.new_mac(false);
    const int rc = EVP_MAC_CTX_set_params(theirs.get(), mixed);
    ERR_clear_error();
    std::printf("  note: default provider after failing set_params: rc %d, mac size %zu\n", rc,
                EVP_MAC_CTX_get_mac_size(theirs.get()));

    b2test::MdCtxPtr md(EVP_MD_CTX_new());
    B2_CHECK(report, EVP_DigestInit_ex2(md.get(), f.our_md.get(), nullptr) == 1, "digest init");
    B2_CHECK(report, EVP_MD_CTX_set_params(md.get(), mixed) == 0, "digest mixed set_params fails");
    ERR_clear_error();
    B2_CHECK(report, EVP_DigestUpdate(md.get(), f.message.data(), f.message.size()) == 1, "update");
    B2_CHECK(report, md_final(md.get()) == f.oracle_digest(f.message),
             "digest unchanged by failed set_params");
}

// --- MAC size changed after init: the running message keeps its size; the buffer EVP checks
// against that size, so nothing past a smaller buffer is written.

void check_size_changed_after_init(Report& report, const Fixture& f) {
    size_t new_size = 24;
    OSSL_PARAM set_size[] = {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &new_size),
                             OSSL_PARAM_construct_end()};
    for (int ours = 1; ours >= 0; --ours) {
        b2test::MacCtxPtr ctx = f.new_mac(ours == 1);
        EVP_MAC_init(ctx.get(), f.key.data(), f.key.size(), nullptr);
        EVP_MAC_update(ctx.get(), f.message.data(), f.message.size());
        EVP_MAC_CTX_set_params(ctx.get(), set_size);
        Bytes buffer(128, 0xA5);
        size_t length = 0;
        const size_t reported = EVP_MAC_CTX_get_mac_size(ctx.get());
        const int rc = EVP_MAC_final(ctx.get(), buffer.data(), &length, 24);
        const std::string reason = last_reason();
        size_t touched = 0;
        for (size_t i = 0; i < buffer.size(); ++i) {
            touched = buffer[i] != 0xA5 ? i + 1 : touched;
        }
        const size_t full = f.algorithm.max_size;
        if (ours == 1) {
            B2_CHECK(report, reported == full, "running message reports its init-time size");
            B2_CHECK(report, rc == 0 && contains(reason, "buffer too small"),
                     "final into 24 bytes refused for a longer MAC: " + reason);
            B2_CHECK(report, touched == 0, "nothing written on refusal");
            B2_CHECK(report,
                     EVP_MAC_final(ctx.get(), buffer.data(), &length, full) == 1 && length == full,
                     "final with a full-size buffer");
            B2_CHECK(report,
                     Bytes(buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(full)) ==
                         f.oracle_mac(f.message),
                     "the full-size MAC is right");
            B2_CHECK(report, EVP_MAC_CTX_get_mac_size(ctx.get()) == 24, "next init gets 24");
        } else {
            std::printf(
                "  note: default provider, size 24 set after init: reports %zu, final rc "
                "%d wrote %zu bytes into a 24-byte buffer\n",
                reported, rc, touched);
        }
    }
}

// --- Life cycle misuse.

void check_life_cycle(Report& report, const Fixture& f) {
    b2test::MacCtxPtr mac = f.new_mac(true);
    B2_CHECK(report, EVP_MAC_update(mac.get(), f.message.data(), 1) == 0, "MAC update before init");
    B2_CHECK(report, contains(last_reason(), "not initialized"), "MAC update-before-init reason");
    const size_t full = f.algorithm.max_size;
    Bytes out(full);
    size_t length = 0;
    B2_CHECK(report, EVP_MAC_final(mac.get(), out.data(), &length, full) == 0,
             "MAC final before init");
    B2_CHECK(report, contains(last_reason(), "not initialized"), "final-before-init reason");
    B2_CHECK(report, EVP_MAC_init(mac.get(), f.key.data(), f.key.size(), nullptr) == 1, "init");
    B2_CHECK(report, EVP_MAC_final(mac.get(), nullptr, &length, 0) == 1 && length == full,
             "NULL output queries the size");
    B2_CHECK(report, mac_final(mac.get()).size() == full, "final after the size query");
    B2_CHECK(report, EVP_MAC_update(mac.get(), f.message.data(), 5) == 0, "MAC update after final");
    B2_CHECK(report, contains(last_reason(), "update after final"), "reason");
    B2_CHECK(report, mac_final(mac.get()).empty(), "MAC final twice");
    B2_CHECK(report, contains(last_reason(), "final already called"), "reason");
    B2_CHECK(report, EVP_MAC_final(mac.get(), out.data(), &length, 10) == 0,
             "MAC final into a too-small buffer");
    ERR_clear_error();

    b2test::MdCtxPtr md(EVP_MD_CTX_new());
    B2_CHECK(report, EVP_DigestInit_ex2(md.get(), f.our_md.get(), nullptr) == 1, "digest init");
    B2_CHECK(report, md_final(md.get()).size() == full, "digest final");
    B2_CHECK(report, EVP_DigestUpdate(md.get(), f.message.data(), 3) == 0,
             "digest update after final");
    B2_CHECK(report, contains(last_reason(), b2test::finished_digest_update_reason()), "reason");
    B2_CHECK(report, md_final(md.get()).empty(), "digest final twice");
    B2_CHECK(report, contains(last_reason(), b2test::finished_digest_final_reason()), "reason");

    b2test::MdCtxPtr theirs(EVP_MD_CTX_new());
    EVP_DigestInit_ex2(theirs.get(), f.default_md.get(), nullptr);
    md_final(theirs.get());
    const int rc = EVP_DigestUpdate(theirs.get(), f.message.data(), 3);
    ERR_clear_error();
    std::printf("  note: default provider digest update after final returns %d\n", rc);
}

// --- Empty input and zero-length updates give the same answer as the default provider
// and the independent implementation.

void check_empty_and_zero_length(Report& report, const Fixture& f) {
    const size_t zero_pieces[] = {0, 0, 5, 0, 123, 0, 0, 128, 0};
    for (const Bytes& message : {Bytes{}, f.message}) {
        const Bytes expected = f.oracle_digest(message);
        for (const EVP_MD* md : {f.our_md.get(), f.default_md.get()}) {
            b2test::MdCtxPtr ctx(EVP_MD_CTX_new());
            const auto plain = b2test::run_digest(ctx.get(), md, nullptr, message);
            const auto zeros = b2test::run_digest(ctx.get(), md, nullptr, message, zero_pieces);
            B2_CHECK(report, plain && *plain == expected,
                     "digest of " + std::to_string(message.size()) + " bytes, " +
                         b2test::provider_name(md));
            B2_CHECK(report, zeros && *zeros == expected, "digest with zero-length updates");
        }
        const Bytes expected_mac = f.oracle_mac(message);
        for (int ours = 1; ours >= 0; --ours) {
            b2test::MacCtxPtr ctx = f.new_mac(ours == 1);
            const auto plain = b2test::run_mac(ctx.get(), f.key, nullptr, message);
            const auto zeros = b2test::run_mac(ctx.get(), f.key, nullptr, message, zero_pieces);
            B2_CHECK(report, plain && *plain == expected_mac,
                     "MAC of " + std::to_string(message.size()) +
                         " bytes, ours=" + std::to_string(ours));
            B2_CHECK(report, zeros && *zeros == expected_mac, "MAC with zero-length updates");
        }
    }
}

// --- Duplicates of a fresh, a mid-stream and a finalized context are independent copies.

void check_mac_dup(Report& report, const Fixture& f) {
    const Bytes expected = f.oracle_mac(f.message);
    const Bytes half(f.message.begin(), f.message.begin() + 100);
    const Bytes expected_half = f.oracle_mac(half);

    b2test::MacCtxPtr fresh = f.new_mac(true);
    b2test::MacCtxPtr fresh_copy(EVP_MAC_CTX_dup(fresh.get()));
    B2_CHECK(report, fresh_copy != nullptr, "dup of a fresh MAC context");
    if (fresh_copy) {
        B2_CHECK(report, EVP_MAC_init(fresh_copy.get(), nullptr, 0, nullptr) == 0,
                 "a fresh dup has no key");
        ERR_clear_error();
        B2_CHECK(report, b2test::run_mac(fresh_copy.get(), f.key, nullptr, f.message) == expected,
                 "a fresh dup works once keyed");
    }

    b2test::MacCtxPtr ctx = f.new_mac(true);
    EVP_MAC_init(ctx.get(), f.key.data(), f.key.size(), nullptr);
    EVP_MAC_update(ctx.get(), half.data(), half.size());
    b2test::MacCtxPtr mid(EVP_MAC_CTX_dup(ctx.get()));
    B2_CHECK(report, mid != nullptr, "dup mid-stream");
    if (mid) {
        B2_CHECK(report, mac_final(mid.get()) == expected_half, "the copy finishes the prefix");
    }
    EVP_MAC_update(ctx.get(), f.message.data() + 100, f.message.size() - 100);
    b2test::MacCtxPtr late(EVP_MAC_CTX_dup(ctx.get()));
    B2_CHECK(report, mac_final(ctx.get()) == expected, "original unaffected by its copy");
    B2_CHECK(report, late && mac_final(late.get()) == expected, "copy of the full message");

    b2test::MacCtxPtr done(EVP_MAC_CTX_dup(ctx.get()));
    B2_CHECK(report, done != nullptr, "dup of a finalized context");
    if (done) {
        B2_CHECK(report, EVP_MAC_update(done.get(), half.data(), 1) == 0,
                 "a finalized copy is finalized");
        B2_CHECK(report, contains(last_reason(), "update after final"), "reason");
        B2_CHECK(report,
                 EVP_MAC_init(done.get(), nullptr, 0, nullptr) == 1 &&
                     EVP_MAC_update(done.get(), half.data(), half.size()) == 1 &&
                     mac_final(done.get()) == expected_half,
                 "a finalized copy keeps its key for re-init");
    }
    // Keyed but no message yet: the copy must still produce the empty-message MAC.
    EVP_MAC_init(ctx.get(), nullptr, 0, nullptr);
    b2test::MacCtxPtr empty(EVP_MAC_CTX_dup(ctx.get()));
    B2_CHECK(report, empty && mac_final(empty.get()) == f.oracle_mac({}),
             "copy right after init gives the empty-message MAC");
}

void check_digest_dup(Report& report, const Fixture& f) {
    const Bytes expected = f.oracle_digest(f.message);
    b2test::MdCtxPtr ctx(EVP_MD_CTX_new());
    b2test::MdCtxPtr copy(EVP_MD_CTX_new());
    EVP_DigestInit_ex2(ctx.get(), f.our_md.get(), nullptr);
    B2_CHECK(report, EVP_MD_CTX_copy_ex(copy.get(), ctx.get()) == 1, "copy a fresh digest ctx");
    B2_CHECK(report,
             EVP_DigestUpdate(copy.get(), f.message.data(), f.message.size()) == 1 &&
                 md_final(copy.get()) == expected,
             "fresh copy hashes");
    EVP_DigestUpdate(ctx.get(), f.message.data(), 200);
    B2_CHECK(report, EVP_MD_CTX_copy_ex(copy.get(), ctx.get()) == 1, "copy mid-stream");
    EVP_DigestUpdate(copy.get(), f.message.data() + 200, f.message.size() - 200);
    B2_CHECK(report, md_final(copy.get()) == expected, "mid-stream copy finishes");
    EVP_DigestUpdate(ctx.get(), f.message.data() + 200, f.message.size() - 200);
    B2_CHECK(report, md_final(ctx.get()) == expected, "original finishes independently");
    B2_CHECK(report, EVP_MD_CTX_copy_ex(copy.get(), ctx.get()) == 1, "copy a finalized ctx");
    B2_CHECK(report, EVP_DigestUpdate(copy.get(), f.message.data(), 1) == 0,
             "finalized copy refuses updates");
    ERR_clear_error();
}

// --- The tree mode (BLAKE2bp or BLAKE2sp): the same bad input through its digest and MAC.
// OpenSSL's default provider has neither, so ours is held to the documented rules (one output
// size, no salt or custom), to its own one-shot answers, and to answers from outside:
// rfc7693.hpp's BLAKE2bp and BLAKE2sp, and the official known answers of both.

struct TreeFixture {
    const Blake2Algorithm& algorithm;
    b2test::MdPtr md;
    b2test::MacPtr mac;
    Bytes key = pattern(40 - 8 * (algorithm.max_key < 40), 3);
    Bytes message = pattern(1333, 7);  // more than two groups of a block per leaf

    [[nodiscard]] std::string digest(const char* what) const {
        return std::string(algorithm.digest) + " " + what;
    }
    [[nodiscard]] std::string mac_name(const char* what) const {
        return std::string(algorithm.mac) + " " + what;
    }
};

Bytes tree_mac(const TreeFixture& tree, const Bytes& message, const OSSL_PARAM* params = nullptr,
               std::span<const size_t> pieces = {}, const Bytes* key = nullptr) {
    b2test::MacCtxPtr ctx(EVP_MAC_CTX_new(tree.mac.get()));
    const auto out =
        b2test::run_mac(ctx.get(), key != nullptr ? *key : tree.key, params, message, pieces);
    return out ? *out : Bytes{};
}

Bytes tree_digest(const TreeFixture& tree, const Bytes& message,
                  std::span<const size_t> pieces = {}) {
    b2test::MdCtxPtr ctx(EVP_MD_CTX_new());
    const auto out = b2test::run_digest(ctx.get(), tree.md.get(), nullptr, message, pieces);
    return out ? *out : Bytes{};
}

// Keys of 0 and one byte too many, and none at all, refused at init.
void check_tree_key_rejections(Report& report, const TreeFixture& tree) {
    const Bytes long_key = pattern(tree.algorithm.max_key + 1, 1);
    for (const auto& [what, key, length, reason] :
         {std::tuple<std::string, const Bytes*, size_t, const char*>{
              tree.mac_name("0-byte key"), &tree.key, 0, "invalid key length"},
          {tree.mac_name("too long key"), &long_key, long_key.size(), "invalid key length"},
          {tree.mac_name("no key ever set"), nullptr, 0, "no key set"}}) {
        b2test::MacCtxPtr ctx(EVP_MAC_CTX_new(tree.mac.get()));
        B2_CHECK(
            report,
            EVP_MAC_init(ctx.get(), key != nullptr ? key->data() : nullptr, length, nullptr) == 0,
            what + ": refused");
        B2_CHECK(report, contains(last_reason(), reason), what + ": reason");
    }
}

struct TreeParamCase {
    std::string what;
    OSSL_PARAM param;
    const char* reason;
    bool digest_too;  // the digest refuses it as well (it takes no key)
};

// One param refused by set_params and init with its reason, leaving the context as it was (it
// still gives `expected`); by the digest too where it takes the param.
void check_tree_param_rejection(Report& report, const TreeFixture& tree, const TreeParamCase& c,
                                const Bytes& expected) {
    const std::string what = std::string(tree.algorithm.mac) + " " + c.what;
    OSSL_PARAM params[] = {c.param, OSSL_PARAM_construct_end()};
    b2test::MacCtxPtr ctx(EVP_MAC_CTX_new(tree.mac.get()));
    B2_CHECK(report, EVP_MAC_CTX_set_params(ctx.get(), params) == 0, what + ": set refused");
    B2_CHECK(report, contains(last_reason(), c.reason), what + ": set reason");
    B2_CHECK(report, EVP_MAC_init(ctx.get(), tree.key.data(), tree.key.size(), params) == 0,
             what + ": init refused");
    B2_CHECK(report, contains(last_reason(), c.reason), what + ": init reason");
    B2_CHECK(report,
             EVP_MAC_init(ctx.get(), tree.key.data(), tree.key.size(), nullptr) == 1 &&
                 EVP_MAC_update(ctx.get(), tree.message.data(), tree.message.size()) == 1 &&
                 mac_final(ctx.get()) == expected,
             what + ": the context still gives the right MAC");
    if (!c.digest_too) {
        return;
    }
    const std::string dwhat = std::string(tree.algorithm.digest) + " " + c.what;
    b2test::MdCtxPtr md(EVP_MD_CTX_new());
    B2_CHECK(report, EVP_DigestInit_ex2(md.get(), tree.md.get(), params) == 0,
             dwhat + ": init refused");
    B2_CHECK(report, contains(last_reason(), c.reason), dwhat + ": init reason");
    B2_CHECK(report,
             EVP_DigestInit_ex2(md.get(), tree.md.get(), nullptr) == 1 &&
                 EVP_MD_CTX_set_params(md.get(), params) == 0,
             dwhat + ": set_params refused");
    B2_CHECK(report, contains(last_reason(), c.reason), dwhat + ": set_params reason");
}

void check_tree_rejections(Report& report, const TreeFixture& tree) {
    check_tree_key_rejections(report, tree);
    const size_t full = tree.algorithm.max_size;
    const Bytes long_key = pattern(tree.algorithm.max_key + 1, 1);
    const Bytes empty;
    const Bytes salt = pattern(16, 5);
    size_t size_zero = 0;
    size_t size_big = full + 1;
    uint64_t fanout = 2;
    const char* const kSizeReason = "invalid output size";
    const TreeParamCase cases[] = {
        {"salt of 16 bytes", octets(OSSL_MAC_PARAM_SALT, salt), "salt is not supported", true},
        {"empty salt", octets(OSSL_MAC_PARAM_SALT, empty), "salt is not supported", true},
        {"custom of 16 bytes", octets(OSSL_MAC_PARAM_CUSTOM, salt), "custom", true},
        {"size 0", OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size_zero), kSizeReason, true},
        {"fanout 2 (the mode fixes the tree fields)",
         OSSL_PARAM_construct_uint64("fanout", &fanout), "parameter fixed by the algorithm", true},
        {"size " + std::to_string(size_big),
         OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size_big), kSizeReason, true},
        {"size as an octet string", octets(OSSL_MAC_PARAM_SIZE, tree.key), "wrong data type", true},
        {"key param of " + std::to_string(long_key.size()) + " bytes",
         octets(OSSL_MAC_PARAM_KEY, long_key), "invalid key length", false},
        {"key param of 0 bytes", octets(OSSL_MAC_PARAM_KEY, empty), "invalid key length", false},
        {"key as a UTF-8 string",
         OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_KEY, const_cast<char*>("0123456789"), 10),
         "wrong data type", false},
    };
    const Bytes expected = tree_mac(tree, tree.message);
    for (const TreeParamCase& c : cases) {
        check_tree_param_rejection(report, tree, c, expected);
    }
    ERR_clear_error();
}

void check_tree_life_cycle(Report& report, const TreeFixture& tree) {
    const size_t full = tree.algorithm.max_size;
    b2test::MacCtxPtr mac(EVP_MAC_CTX_new(tree.mac.get()));
    Bytes out(full);
    size_t length = 0;
    B2_CHECK(report, EVP_MAC_update(mac.get(), tree.message.data(), 1) == 0,
             tree.mac_name("update before init"));
    B2_CHECK(report, contains(last_reason(), "not initialized"), "reason");
    B2_CHECK(report, EVP_MAC_final(mac.get(), out.data(), &length, full) == 0,
             tree.mac_name("final before init"));
    B2_CHECK(report, contains(last_reason(), "not initialized"), "reason");
    B2_CHECK(report, EVP_MAC_init(mac.get(), tree.key.data(), tree.key.size(), nullptr) == 1,
             "init");
    B2_CHECK(report, EVP_MAC_final(mac.get(), nullptr, &length, 0) == 1 && length == full,
             tree.mac_name("NULL output queries the size"));
    Bytes small(128, 0xA5);
    B2_CHECK(report, EVP_MAC_final(mac.get(), small.data(), &length, full - 1) == 0,
             tree.mac_name("final into a buffer one byte short refused"));
    B2_CHECK(report, contains(last_reason(), "buffer too small"), "reason");
    B2_CHECK(report, std::all_of(small.begin(), small.end(), [](uint8_t b) { return b == 0xA5; }),
             "nothing written into the small buffer");
    B2_CHECK(report, mac_final(mac.get()) == tree_mac(tree, {}), "final after the refused ones");
    B2_CHECK(report, EVP_MAC_update(mac.get(), tree.message.data(), 5) == 0,
             tree.mac_name("update after final"));
    B2_CHECK(report, contains(last_reason(), "update after final"), "reason");
    B2_CHECK(report, mac_final(mac.get()).empty(), tree.mac_name("final twice"));
    B2_CHECK(report, contains(last_reason(), "final already called"), "reason");
    B2_CHECK(report,
             EVP_MAC_init(mac.get(), nullptr, 0, nullptr) == 1 &&
                 EVP_MAC_update(mac.get(), tree.message.data(), tree.message.size()) == 1 &&
                 mac_final(mac.get()) == tree_mac(tree, tree.message),
             tree.mac_name("re-init keeps the key"));

    b2test::MdCtxPtr md(EVP_MD_CTX_new());
    B2_CHECK(report, EVP_DigestInit_ex2(md.get(), tree.md.get(), nullptr) == 1, "digest init");
    B2_CHECK(report, md_final(md.get()) == tree_digest(tree, {}), tree.digest("digest final"));
    B2_CHECK(report, EVP_DigestUpdate(md.get(), tree.message.data(), 3) == 0,
             tree.digest("update after final"));
    B2_CHECK(report, contains(last_reason(), b2test::finished_digest_update_reason()), "reason");
    B2_CHECK(report, md_final(md.get()).empty(), tree.digest("final twice"));
    B2_CHECK(report, contains(last_reason(), b2test::finished_digest_final_reason()), "reason");
    ERR_clear_error();
}

// The official answers (vectors/<label>-kat.json: message 00 01 .., key 00 01 .. of the
// longest length) for these message lengths, unkeyed and keyed.
void check_tree_official_answers(Report& report, const TreeFixture& tree) {
    const std::string path = b2test::vectors_path(std::string(tree.algorithm.label) + "-kat.json");
    const size_t block = tree.algorithm.block_bytes;
    const size_t lengths[] = {
        0, 1, block - 1, block, block + 1, std::min<size_t>(2 * block + 1, 254), 255};
    long checked = 0;
    for (const b2test::JsonObject& object : b2test::read_json_objects(path)) {
        const Bytes message = b2test::hex_field(object, "in", path);
        if (object.string("hash") != tree.algorithm.label ||
            std::find(std::begin(lengths), std::end(lengths), message.size()) ==
                std::end(lengths)) {
            continue;
        }
        const Bytes key = b2test::hex_field(object, "key", path);
        const Bytes expected = b2test::hex_field(object, "out", path);
        const size_t one_by_one[] = {1, 1, 1, 0, 1, 1, 1, 1};
        const Bytes got = key.empty() ? tree_digest(tree, message, one_by_one)
                                      : tree_mac(tree, message, nullptr, one_by_one, &key);
        B2_CHECK(report, got == expected,
                 (key.empty() ? tree.digest("of ") : tree.mac_name("of ")) +
                     std::to_string(message.size()) + " bytes: the official answer");
        ++checked;
    }
    B2_CHECK(report, checked == 2 * static_cast<long>(std::size(lengths)),
             "official answers checked: " + std::to_string(checked));
}

// Empty input, zero-length updates, byte-by-byte updates and duplicates give the one-shot
// answer, which an independent implementation (rfc7693.hpp) confirms.
void check_tree_streams_and_dups(Report& report, const TreeFixture& tree) {
    const size_t full = tree.algorithm.max_size;
    const auto independent =
        &tree.algorithm == &b2test::kBlake2bp ? rfc7693::blake2bp : rfc7693::blake2sp;
    const size_t zero_pieces[] = {0, 0, 5, 0, 123, 0, 0, 128, 0, 512, 0};
    for (const Bytes& message : {Bytes{}, pattern(1, 2), pattern(513, 4), tree.message}) {
        const std::string size = std::to_string(message.size()) + " bytes";
        const Bytes digest = tree_digest(tree, message);
        const Bytes mac = tree_mac(tree, message);
        B2_CHECK(report, digest.size() == full && mac.size() == full, "digest and MAC of " + size);
        B2_CHECK(report,
                 digest == independent(nullptr, 0, message.data(), message.size()) &&
                     mac == independent(tree.key.data(), tree.key.size(), message.data(),
                                        message.size()),
                 std::string(tree.algorithm.label) + " digest and MAC of " + size +
                     " agree with an independent implementation");
        B2_CHECK(report, tree_digest(tree, message, zero_pieces) == digest,
                 tree.digest("with zero-length updates, ") + size);
        B2_CHECK(report, tree_mac(tree, message, nullptr, zero_pieces) == mac,
                 tree.mac_name("with zero-length updates, ") + size);
        const std::vector<size_t> bytes(message.size(), 1);
        B2_CHECK(report, tree_mac(tree, message, nullptr, bytes) == mac,
                 tree.mac_name("byte by byte, ") + size);
        size_t size_full = full;
        OSSL_PARAM explicit_size[] = {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size_full),
                                      OSSL_PARAM_construct_end()};
        B2_CHECK(report, tree_mac(tree, message, explicit_size) == mac,
                 tree.mac_name("with its size given, ") + size);
    }

    const Bytes half(tree.message.begin(), tree.message.begin() + 600);
    b2test::MacCtxPtr fresh(EVP_MAC_CTX_new(tree.mac.get()));
    b2test::MacCtxPtr fresh_copy(EVP_MAC_CTX_dup(fresh.get()));
    B2_CHECK(report, fresh_copy && EVP_MAC_init(fresh_copy.get(), nullptr, 0, nullptr) == 0,
             tree.mac_name("fresh dup has no key"));
    ERR_clear_error();
    b2test::MacCtxPtr ctx(EVP_MAC_CTX_new(tree.mac.get()));
    EVP_MAC_init(ctx.get(), tree.key.data(), tree.key.size(), nullptr);
    b2test::MacCtxPtr at_init(EVP_MAC_CTX_dup(ctx.get()));
    B2_CHECK(report, at_init && mac_final(at_init.get()) == tree_mac(tree, {}),
             tree.mac_name("dup right after init gives the empty-message MAC"));
    EVP_MAC_update(ctx.get(), half.data(), half.size());
    b2test::MacCtxPtr mid(EVP_MAC_CTX_dup(ctx.get()));
    B2_CHECK(report, mid && mac_final(mid.get()) == tree_mac(tree, half),
             tree.mac_name("dup mid-stream finishes the prefix"));
    EVP_MAC_update(ctx.get(), tree.message.data() + 600, tree.message.size() - 600);
    B2_CHECK(report, mac_final(ctx.get()) == tree_mac(tree, tree.message),
             tree.mac_name("original unaffected by its copy"));
    b2test::MacCtxPtr done(EVP_MAC_CTX_dup(ctx.get()));
    B2_CHECK(report, done && EVP_MAC_update(done.get(), half.data(), 1) == 0,
             tree.mac_name("finalized copy is finalized"));
    ERR_clear_error();

    b2test::MdCtxPtr md(EVP_MD_CTX_new());
    b2test::MdCtxPtr copy(EVP_MD_CTX_new());
    EVP_DigestInit_ex2(md.get(), tree.md.get(), nullptr);
    EVP_DigestUpdate(md.get(), half.data(), half.size());
    B2_CHECK(report, EVP_MD_CTX_copy_ex(copy.get(), md.get()) == 1, tree.digest("copy mid-stream"));
    B2_CHECK(report, md_final(copy.get()) == tree_digest(tree, half),
             "the copy finishes the prefix");
    EVP_DigestUpdate(md.get(), tree.message.data() + 600, tree.message.size() - 600);
    B2_CHECK(report, md_final(md.get()) == tree_digest(tree, tree.message),
             tree.digest("original finishes independently"));
}

void check_tree(Report& report, const Fixture& f) {
    TreeFixture tree{f.tree, f.session.fetch_md(f.tree.digest, b2test::kOurPropq),
                     f.session.fetch_mac(f.tree.mac, b2test::kOurPropq)};
    B2_REQUIRE(tree.md && tree.mac,
               std::string("fetch ") + f.tree.digest + " and " + f.tree.mac + " from blake2simd");
    check_tree_rejections(report, tree);
    check_tree_life_cycle(report, tree);
    check_tree_official_answers(report, tree);
    check_tree_streams_and_dups(report, tree);
}

// --- BLAKE2X (BLAKE2XB/XBMAC with BLAKE2b, BLAKE2XS/XSMAC with BLAKE2s): bad init parameters
// are refused with a reason naming the problem, and leave the context usable: the next good
// init hashes right (against rfc7693::blake2x). The EVP rules (FinalXOF lengths, squeeze, xof
// switching) are evp.blake2x's and blake2x.squeeze's.

struct XofNames {
    const char* digest;
    const char* mac;
    uint64_t max_length;
    uint64_t unknown;  // the unknown-length sentinel
};

struct XofRejection {
    const char* what;
    OSSL_PARAM params[3];
    const char* reason;  // substring of our reason
};

Bytes xof_expected(bool blake2b, const Bytes& key, const Bytes& message, size_t length) {
    rfc7693::Options ob;
    rfc7693::blake2s::Options os;
    ob.key = os.key = key.empty() ? nullptr : key.data();
    ob.key_len = os.key_len = key.size();
    return blake2b ? rfc7693::blake2x(ob, message.data(), message.size(), length)
                   : rfc7693::blake2s::blake2x(os, message.data(), message.size(), length);
}

// After a refused init of `ctx`, a good one (length 77) still gives the right output.
bool xof_digest_recovers(EVP_MD_CTX* ctx, const EVP_MD* md, bool blake2b, const Bytes& message) {
    size_t length = 77;
    const OSSL_PARAM good[] = {OSSL_PARAM_construct_size_t(OSSL_DIGEST_PARAM_XOFLEN, &length),
                               OSSL_PARAM_construct_end()};
    Bytes out(length);
    return EVP_DigestInit_ex2(ctx, md, good) == 1 &&
           EVP_DigestUpdate(ctx, message.data(), message.size()) == 1 &&
           EVP_DigestFinalXOF(ctx, out.data(), out.size()) == 1 &&
           out == xof_expected(blake2b, {}, message, length);
}

bool xof_mac_recovers(EVP_MAC_CTX* ctx, bool blake2b, const Bytes& key, const Bytes& message) {
    size_t length = 77;
    const OSSL_PARAM good[] = {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &length),
                               OSSL_PARAM_construct_end()};
    Bytes out(length);
    size_t written = 0;
    return EVP_MAC_init(ctx, key.data(), key.size(), good) == 1 &&
           EVP_MAC_update(ctx, message.data(), message.size()) == 1 &&
           EVP_MAC_final(ctx, out.data(), &written, out.size()) == 1 && written == length &&
           out == xof_expected(blake2b, key, message, length);
}

// Init with the case's params refused with its reason; the context then recovers.
void check_xof_digest_rejection(Report& report, const Fixture& f, EVP_MD* md, const char* name,
                                const XofRejection& c) {
    const std::string what = std::string(name) + ": " + c.what;
    b2test::MdCtxPtr ctx(EVP_MD_CTX_new());
    B2_CHECK(report, EVP_DigestInit_ex2(ctx.get(), md, c.params) == 0, what + ": init rejects");
    const std::string reason = last_reason();
    B2_CHECK(report, contains(reason, c.reason), what + ": reason '" + reason + "'");
    B2_CHECK(report,
             xof_digest_recovers(ctx.get(), md, &f.algorithm == &b2test::kBlake2b, f.message),
             what + ": the context then hashes right");
}

void check_xof_mac_rejection(Report& report, const Fixture& f, EVP_MAC* mac, const char* name,
                             const XofRejection& c) {
    const std::string what = std::string(name) + ": " + c.what;
    b2test::MacCtxPtr ctx(EVP_MAC_CTX_new(mac));
    B2_CHECK(report, EVP_MAC_init(ctx.get(), f.key.data(), f.key.size(), c.params) == 0,
             what + ": init rejects");
    const std::string reason = last_reason();
    B2_CHECK(report, contains(reason, c.reason), what + ": reason '" + reason + "'");
    B2_CHECK(report,
             xof_mac_recovers(ctx.get(), &f.algorithm == &b2test::kBlake2b, f.key, f.message),
             what + ": the context then hashes right");
}

void check_xof_rejections(Report& report, const Fixture& f) {
    const bool blake2b = &f.algorithm == &b2test::kBlake2b;
    const XofNames n = blake2b ? XofNames{"BLAKE2XB", "BLAKE2XBMAC", 0xFFFFFFFEULL, 0xFFFFFFFFULL}
                               : XofNames{"BLAKE2XS", "BLAKE2XSMAC", 0xFFFEULL, 0xFFFFULL};
    const b2test::MdPtr md = f.session.fetch_md(n.digest, b2test::kOurPropq);
    const b2test::MacPtr mac = f.session.fetch_mac(n.mac, b2test::kOurPropq);
    B2_REQUIRE(md && mac, std::string("fetch ") + n.digest + " and " + n.mac);
    uint64_t zero = 0, sentinel = n.unknown, over = n.unknown + 1, huge = ~uint64_t{0};
    uint64_t ten = 10, eleven = 11, two = 2;
    int minus_one = -1;
    char text[] = "10";
    const Bytes long_salt = pattern(f.algorithm.max_key / 4 + 1, 9);
    const Bytes long_custom = pattern(f.algorithm.max_key / 4 + 1, 10);
    const auto u64 = [](const char* key, uint64_t* v) {
        return OSSL_PARAM_construct_uint64(key, v);
    };
    const OSSL_PARAM end = OSSL_PARAM_construct_end();
    const char* kLength = "invalid XOF length";
    XofRejection digest_cases[] = {
        {"xoflen 0", {u64(OSSL_DIGEST_PARAM_XOFLEN, &zero), end}, kLength},
        {"xoflen = the unknown-length sentinel",
         {u64(OSSL_DIGEST_PARAM_XOFLEN, &sentinel), end},
         kLength},
        {"xoflen past the maximum", {u64(OSSL_DIGEST_PARAM_XOFLEN, &over), end}, kLength},
        {"xoflen 2^64-1", {u64(OSSL_DIGEST_PARAM_XOFLEN, &huge), end}, kLength},
        {"size 0", {u64(OSSL_DIGEST_PARAM_SIZE, &zero), end}, kLength},
        {"xoflen 10 with size 11",
         {u64(OSSL_DIGEST_PARAM_XOFLEN, &ten), u64(OSSL_DIGEST_PARAM_SIZE, &eleven), end},
         "XOF"},
        {"xoflen as int -1",
         {OSSL_PARAM_construct_int(OSSL_DIGEST_PARAM_XOFLEN, &minus_one), end},
         "XOF"},
        {"xoflen as a string",
         {OSSL_PARAM_construct_utf8_string(OSSL_DIGEST_PARAM_XOFLEN, text, 0), end},
         "wrong data type"},
        {"salt one byte too long", {octets("salt", long_salt), end}, "invalid salt length"},
        {"custom one byte too long", {octets("custom", long_custom), end}, "invalid custom length"},
    };
    for (const XofRejection& c : digest_cases) {
        check_xof_digest_rejection(report, f, md.get(), n.digest, c);
    }
    const Bytes too_long_key = pattern(f.algorithm.max_key + 1, 11);
    XofRejection mac_cases[] = {
        {"size 0", {u64(OSSL_MAC_PARAM_SIZE, &zero), end}, kLength},
        {"size = the unknown-length sentinel", {u64(OSSL_MAC_PARAM_SIZE, &sentinel), end}, kLength},
        {"size past the maximum", {u64(OSSL_MAC_PARAM_SIZE, &over), end}, kLength},
        // Today's reason is the generic "parameter has the wrong data type".
        {"xof 2", {u64(OSSL_MAC_PARAM_XOF, &two), end}, "parameter"},
        {"salt one byte too long", {octets("salt", long_salt), end}, "invalid salt length"},
        {"key param one byte too long", {octets("key", too_long_key), end}, "invalid key length"},
    };
    for (const XofRejection& c : mac_cases) {
        check_xof_mac_rejection(report, f, mac.get(), n.mac, c);
    }
}

// One single-lane pair and its tree mode; the checks counted into `report`.
void check_family(Report& report, const Blake2Algorithm& single, const Blake2Algorithm& tree) {
    std::printf("%s, %s, %s, %s:\n", single.digest, single.mac, tree.digest, tree.mac);
    Fixture f(single, tree);
    B2_REQUIRE(
        f.our_md && f.default_md && f.our_mac && f.default_mac,
        std::string("fetch ") + single.digest + " and " + single.mac + " from both providers");
    check_mac_init_rejections(report, f);
    check_mac_param_rejections(report, f);
    check_digest_param_rejections(report, f);
    check_malformed_size_integers(report, f);
    check_failed_gets_raise_reasons(report, f);
    check_failed_set_params(report, f);
    check_size_changed_after_init(report, f);
    check_life_cycle(report, f);
    check_empty_and_zero_length(report, f);
    check_mac_dup(report, f);
    check_digest_dup(report, f);
    check_tree(report, f);
    check_xof_rejections(report, f);
    B2_CHECK(report, ERR_peek_error() == 0, "no error left on the queue");
}

// --- ARGON2ID through EVP (--algorithm argon2): what EVP passes on unchecked, against the
// default provider's Argon2 where the core has one (3.2+; on 3.0 ours alone, against the
// documented refusals), the good answer RFC 9106's.

struct Argon2Fixture {
    b2test::ProviderSession session{b2test::ProviderSession::Default::include};
    b2test::KdfPtr ours{EVP_KDF_fetch(session.libctx(), "ARGON2ID", b2test::kOurPropq)};
    b2test::KdfPtr theirs{EVP_KDF_fetch(session.libctx(), "ARGON2ID", b2test::kDefaultPropq)};
    const char* tag = b2test::rfc9106::kVectors[2].tag;

    // Both KDFs, ours first; the default's only where the core has one.
    std::vector<EVP_KDF*> both() const {
        std::vector<EVP_KDF*> kdfs{ours.get()};
        if (theirs) {
            kdfs.push_back(theirs.get());
        }
        return kdfs;
    }
    bool is_ours(const EVP_KDF* kdf) const { return kdf == ours.get(); }
};

// The 32-byte answer, or "" when derive is refused.
std::string derive_hex(EVP_KDF_CTX* ctx, const OSSL_PARAM* params = nullptr) {
    Bytes out(b2test::rfc9106::kTagBytes);
    return EVP_KDF_derive(ctx, out.data(), out.size(), params) == 1 ? b2test::to_hex(out) : "";
}

// A refusal by `kdf`: ours must name `topic` in its reason; the default's reason is printed.
void check_kdf_refusal(Report& report, const Argon2Fixture& f, const EVP_KDF* kdf, bool refused,
                       const std::string& what, const char* topic) {
    const std::string reason = last_reason();
    const std::string who = std::string(f.is_ours(kdf) ? "ours" : "default") + ", " + what;
    B2_CHECK(report, refused, who + ": refused");
    if (f.is_ours(kdf)) {
        B2_CHECK(report, contains(reason, topic), who + ": reason '" + reason + "' names " + topic);
    } else {
        std::printf("  note: default provider, %s: '%s'\n", what.c_str(), reason.c_str());
    }
    ERR_clear_error();
}

// Before the salt, lengths 0 and 3, then RFC 9106's answer; reset forgets the inputs.
void check_argon2_life_cycle(Report& report, const Argon2Fixture& f) {
    for (EVP_KDF* kdf : f.both()) {
        b2test::KdfCtxPtr ctx(EVP_KDF_CTX_new(kdf));
        check_kdf_refusal(report, f, kdf, derive_hex(ctx.get()).empty(), "derive before any param",
                          "salt");
        b2test::rfc9106::Params params;
        B2_CHECK(report, EVP_KDF_CTX_set_params(ctx.get(), params.get()) == 1, "RFC 9106 inputs");
        for (const size_t length : {size_t{0}, size_t{3}}) {
            Bytes out(8, 0xA5);
            check_kdf_refusal(report, f, kdf,
                              EVP_KDF_derive(ctx.get(), out.data(), length, nullptr) == 0,
                              "derive of " + std::to_string(length) + " bytes", "size");
            B2_CHECK(report, out == Bytes(8, 0xA5), "a refused derive writes nothing");
        }
        B2_CHECK(report, derive_hex(ctx.get()) == f.tag, "RFC 9106's Argon2id");
        EVP_KDF_CTX_reset(ctx.get());
        check_kdf_refusal(report, f, kdf, derive_hex(ctx.get()).empty(), "derive after reset",
                          "salt");
        B2_CHECK(report, EVP_KDF_CTX_set_params(ctx.get(), params.get()) == 1, "inputs again");
        B2_CHECK(report, derive_hex(ctx.get()) == f.tag, "reset, set again: the same answer");
    }
    // Ours only: the default's Argon2 does not check it (EVP passes the pointer on).
    b2test::KdfCtxPtr ctx(EVP_KDF_CTX_new(f.ours.get()));
    b2test::rfc9106::Params params;
    check_kdf_refusal(report, f, f.ours.get(),
                      EVP_KDF_derive(ctx.get(), nullptr, 32, params.get()) == 0, "derive into NULL",
                      "output buffer");
}

// Refused params of the wrong type or out of range, at set_params and at derive: refused with a
// reason naming them, and the context then derives RFC 9106's answer unchanged. OpenSSL 4.0.2's
// own Argon2 does not: a refused UTF-8 pass changes its answer and a refused 7-byte salt loses
// its salt (printed, and its inputs set again).
void check_argon2_bad_params(Report& report, const Argon2Fixture& f) {
    const b2test::BadArgon2Params bad_params;
    for (EVP_KDF* kdf : f.both()) {
        b2test::KdfCtxPtr ctx(EVP_KDF_CTX_new(kdf));
        b2test::rfc9106::Params params;
        B2_CHECK(report, EVP_KDF_CTX_set_params(ctx.get(), params.get()) == 1, "RFC 9106 inputs");
        for (const auto& row : bad_params.rows()) {
            OSSL_PARAM bad[] = {row.param, OSSL_PARAM_construct_end()};
            const std::string what =
                std::string(row.param.key) + " of type " + std::to_string(row.param.data_type);
            check_kdf_refusal(report, f, kdf, EVP_KDF_CTX_set_params(ctx.get(), bad) == 0,
                              what + " at set_params", row.reason);
            check_kdf_refusal(report, f, kdf, derive_hex(ctx.get(), bad).empty(),
                              what + " at derive", row.reason);
            const std::string after = derive_hex(ctx.get());
            if (f.is_ours(kdf)) {
                B2_CHECK(report, after == f.tag, "refused " + what + " changed nothing");
            } else if (after != f.tag) {
                std::printf("  note: default provider, after the refused %s: derive %s ('%s')\n",
                            what.c_str(), after.empty() ? "refused" : "differs",
                            last_reason().c_str());
                ERR_clear_error();
                EVP_KDF_CTX_set_params(ctx.get(), params.get());
            }
        }
    }
}

// A dup of a fresh and of a used context (ours; OpenSSL's Argon2 has no dupctx).
void check_argon2_dup(Report& report, const Argon2Fixture& f) {
    b2test::KdfCtxPtr fresh(EVP_KDF_CTX_new(f.ours.get()));
    b2test::KdfCtxPtr fresh_copy(EVP_KDF_CTX_dup(fresh.get()));
    B2_CHECK(report, fresh_copy != nullptr, "dup of a fresh context");
    check_kdf_refusal(report, f, f.ours.get(), derive_hex(fresh_copy.get()).empty(),
                      "derive on a fresh dup", "salt");
    b2test::rfc9106::Params params;
    B2_CHECK(report, derive_hex(fresh.get(), params.get()) == f.tag, "derive with the params");
    b2test::KdfCtxPtr used_copy(EVP_KDF_CTX_dup(fresh.get()));
    fresh.reset();
    B2_CHECK(report, used_copy && derive_hex(used_copy.get()) == f.tag,
             "the dup of a used context, its original freed");
    if (f.theirs) {
        b2test::KdfCtxPtr theirs(EVP_KDF_CTX_new(f.theirs.get()));
        b2test::KdfCtxPtr copy(EVP_KDF_CTX_dup(theirs.get()));
        std::printf("  note: default provider's ARGON2ID dup: %s\n", copy ? "made" : "none");
        ERR_clear_error();
    }
}

void check_argon2(Report& report) {
    std::printf("ARGON2ID:\n");
    Argon2Fixture f;
    B2_REQUIRE(f.ours != nullptr, "fetch ARGON2ID from blake2simd");
    if (!f.theirs) {
        std::printf("  note: the default provider has no ARGON2ID (OpenSSL before 3.2)\n");
    }
    ERR_clear_error();
    check_argon2_life_cycle(report, f);
    check_argon2_bad_params(report, f);
    check_argon2_dup(report, f);
    B2_CHECK(report, ERR_peek_error() == 0, "no error left on the queue");
}

}  // namespace

// usage: test_bad_input [--algorithm blake2b|blake2s|argon2]   (without it: all, as valgrind
// runs it)
int main(int argc, char** argv) {
    const std::string only = argc == 3 && std::strcmp(argv[1], "--algorithm") == 0 ? argv[2] : "";
    if (argc != 1 && only != "blake2b" && only != "blake2s" && only != "argon2") {
        std::fprintf(stderr, "usage: %s [--algorithm blake2b|blake2s|argon2]\n", argv[0]);
        return 2;
    }
    Report report("test_bad_input" + (only.empty() ? std::string() : " --algorithm " + only));
    if (only.empty() || only == "blake2b") {
        check_family(report, b2test::kBlake2b, b2test::kBlake2bp);
    }
    if (only.empty() || only == "blake2s") {
        check_family(report, b2test::kBlake2s, b2test::kBlake2sp);
    }
    if (only.empty() || only == "argon2") {
        check_argon2(report);
    }
    std::printf("test_bad_input: %ld cases tried\n", report.passed() + report.failed());
    return report.finish();
}
