// Repeated library-context life cycles: new context, load blake2simd, fetch, one digest or MAC
// of every algorithm (BLAKE2B-512, BLAKE2BP-512, BLAKE2BPMAC, BLAKE2S-256, BLAKE2SMAC,
// BLAKE2SP-256, BLAKE2SPMAC, the sizes BLAKE2B-256 and BLAKE2S-128, BLAKE2XB, BLAKE2XBMAC,
// BLAKE2XS, BLAKE2XSMAC) and one derive of each Argon2 KDF (RFC 9106's vectors: 32 KiB, four
// lanes on two threads), unload, free. Leaks show under valgrind or LeakSanitizer; crashes
// and wrong answers here. First, rfc7693.hpp's BLAKE2X (the oracle here and in test_threads,
// test_fork and fuzz_differential) must reproduce all 1024 official BLAKE2X entries.
// SPDX-License-Identifier: Apache-2.0
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <string>
#include <vector>

#include "b2test.hpp"
#include "b2test/rfc9106.hpp"
#include "rfc7693.hpp"

namespace {

using Bytes = std::vector<uint8_t>;
namespace rfc9106 = b2test::rfc9106;

// One computation per cycle; the answer comes from outside our provider.
struct Case {
    const char* name;
    bool mac;
    Bytes key;
    Bytes message;
    Bytes expected;
    size_t xof_length = 0;  // BLAKE2X: the length fixed at init (xoflen, or the MAC's size)
};

// rfc7693::blake2x against every entry of the committed official-layout BLAKE2X files (from
// vectors/gen_blake2x.py, which vectors.blake2x_official_json checks against the official JSON).
void check_blake2x_oracle(b2test::Report& report) {
    for (const char* hash : {"blake2xb", "blake2xs"}) {
        const std::string path = b2test::vectors_path(std::string(hash) + "-kat.json");
        size_t agreed = 0;
        size_t entries = 0;
        for (const b2test::Blake2bVector& v : b2test::load_official_kat(path, hash)) {
            ++entries;
            const bool b = hash[7] == 'b';
            rfc7693::Options ob;
            rfc7693::blake2s::Options os;
            ob.key = os.key = v.key.data();
            ob.key_len = os.key_len = v.key.size();
            const Bytes got =
                b ? rfc7693::blake2x(ob, v.message.data(), v.message.size(), v.expected.size())
                  : rfc7693::blake2s::blake2x(os, v.message.data(), v.message.size(),
                                              v.expected.size());
            agreed += got == v.expected ? 1 : 0;
        }
        B2_CHECK(report, entries == 512 && agreed == entries,
                 std::string("rfc7693::blake2x reproduces ") + std::to_string(agreed) + " of " +
                     std::to_string(entries) + " " + hash + " entries");
    }
}

Case blake2x_case(const char* name, bool mac, const Bytes& key, const Bytes& message,
                  size_t length) {
    const bool b = name[7] == 'B';  // BLAKE2XB...
    rfc7693::Options ob;
    rfc7693::blake2s::Options os;
    ob.key = os.key = mac ? key.data() : nullptr;
    ob.key_len = os.key_len = mac ? key.size() : 0;
    Bytes expected = b ? rfc7693::blake2x(ob, message.data(), message.size(), length)
                       : rfc7693::blake2s::blake2x(os, message.data(), message.size(), length);
    return {name, mac, mac ? key : Bytes{}, message, std::move(expected), length};
}

// The official keyed answer of `hash` for 0..length-1 under the key 0..max-1 (the tree modes,
// which OpenSSL lacks).
Case official_case(const char* name, const char* hash, size_t length, bool keyed) {
    const std::string path = b2test::vectors_path(std::string(hash) + "-kat.json");
    for (const b2test::JsonObject& object : b2test::read_json_objects(path)) {
        Case c{name, keyed, b2test::hex_field(object, "key", path),
               b2test::hex_field(object, "in", path), b2test::hex_field(object, "out", path)};
        if (object.string("hash") == hash && c.message.size() == length && c.key.empty() != keyed) {
            return c;
        }
    }
    b2test::fatal(std::string("no entry for ") + name + " in " + path);
}

// BLAKE2S-256 and BLAKE2SMAC from OpenSSL's default provider, in a library context of its own.
Case default_case(const char* name, bool mac, const Bytes& key, const Bytes& message) {
    Bytes out(EVP_MAX_MD_SIZE);
    size_t length = 0;
    bool ok = false;
    OSSL_LIB_CTX* libctx = OSSL_LIB_CTX_new();
    if (mac) {
        ok =
            EVP_Q_mac(libctx, name, b2test::kDefaultPropq, nullptr, nullptr, key.data(), key.size(),
                      message.data(), message.size(), out.data(), out.size(), &length) != nullptr;
    } else {
        ok = EVP_Q_digest(libctx, name, b2test::kDefaultPropq, message.data(), message.size(),
                          out.data(), &length) == 1;
    }
    OSSL_LIB_CTX_free(libctx);
    B2_REQUIRE(ok, std::string("default provider's ") + name);
    out.resize(length);
    return {name, mac, key, message, out};
}

// A BLAKE2XB/XS digest of the length fixed at init.
bool compute_xof(OSSL_LIB_CTX* libctx, const Case& c) {
    size_t length = c.xof_length;
    OSSL_PARAM params[] = {OSSL_PARAM_construct_size_t(OSSL_DIGEST_PARAM_XOFLEN, &length),
                           OSSL_PARAM_construct_end()};
    EVP_MD* md = EVP_MD_fetch(libctx, c.name, b2test::kOurPropq);
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    Bytes out(length);
    const bool ok = md != nullptr && ctx != nullptr && EVP_DigestInit_ex2(ctx, md, params) == 1 &&
                    EVP_DigestUpdate(ctx, c.message.data(), c.message.size()) == 1 &&
                    EVP_DigestFinalXOF(ctx, out.data(), out.size()) == 1;
    EVP_MD_CTX_free(ctx);
    EVP_MD_free(md);
    return ok && out == c.expected;
}

bool compute(OSSL_LIB_CTX* libctx, const Case& c) {
    if (c.xof_length != 0 && !c.mac) {
        return compute_xof(libctx, c);
    }
    Bytes out(std::max<size_t>(EVP_MAX_MD_SIZE, c.xof_length));
    size_t length = 0;
    size_t size = c.xof_length;
    OSSL_PARAM sized[] = {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size),
                          OSSL_PARAM_construct_end()};
    if (c.mac) {
        EVP_MAC* mac = EVP_MAC_fetch(libctx, c.name, b2test::kOurPropq);
        const bool ok =
            mac != nullptr && EVP_Q_mac(libctx, c.name, b2test::kOurPropq, nullptr,
                                        c.xof_length != 0 ? sized : nullptr, c.key.data(),
                                        c.key.size(), c.message.data(), c.message.size(),
                                        out.data(), out.size(), &length) != nullptr;
        EVP_MAC_free(mac);
        out.resize(ok ? length : 0);
        return ok && out == c.expected;
    }
    EVP_MD* md = EVP_MD_fetch(libctx, c.name, b2test::kOurPropq);
    unsigned int md_length = 0;
    const bool ok = md != nullptr && EVP_Digest(c.message.data(), c.message.size(), out.data(),
                                                &md_length, md, nullptr) == 1;
    EVP_MD_free(md);
    out.resize(ok ? md_length : 0);
    return ok && out == c.expected;
}

Bytes sized_blake2b(const Bytes& message, size_t size) {
    rfc7693::Options o;
    o.out_len = size;
    return rfc7693::hash(o, message.data(), message.size());
}

Bytes sized_blake2s(const Bytes& message, size_t size) {
    rfc7693::blake2s::Options o;
    o.out_len = size;
    return rfc7693::blake2s::hash(o, message.data(), message.size());
}

// One derive of an RFC 9106 vector on two threads: the threads start and end inside the
// cycle's derive.
bool derive_rfc9106(OSSL_LIB_CTX* libctx, const rfc9106::Vector& vector) {
    rfc9106::Params params(2);
    EVP_KDF* kdf = EVP_KDF_fetch(libctx, vector.kdf, b2test::kOurPropq);
    EVP_KDF_CTX* ctx = kdf != nullptr ? EVP_KDF_CTX_new(kdf) : nullptr;
    Bytes out(rfc9106::kTagBytes);
    const bool ok =
        ctx != nullptr && EVP_KDF_derive(ctx, out.data(), out.size(), params.get()) == 1;
    EVP_KDF_CTX_free(ctx);
    EVP_KDF_free(kdf);
    return ok && b2test::to_hex(out) == vector.tag;
}

// Every algorithm's case, each answer from outside the module.
std::vector<Case> all_cases() {
    static const uint8_t text[] = "load, fetch, hash, unload, free";
    const Bytes message(text, text + sizeof text);
    static const uint8_t key_text[] = "a BLAKE2bp key";
    const Bytes key(key_text, key_text + sizeof key_text);
    return {
        {"BLAKE2B-512",
         false,
         {},
         message,
         rfc7693::hash(rfc7693::Options{}, message.data(), message.size())},
        {"BLAKE2BP-512",
         false,
         {},
         message,
         rfc7693::blake2bp(nullptr, 0, message.data(), message.size())},
        {"BLAKE2BPMAC", true, key, message,
         rfc7693::blake2bp(key.data(), key.size(), message.data(), message.size())},
        default_case("BLAKE2S-256", false, {}, message),
        default_case("BLAKE2SMAC", true, key, message),
        official_case("BLAKE2SP-256", "blake2sp", 200, false),
        official_case("BLAKE2SPMAC", "blake2sp", 77, true),
        {"BLAKE2B-256", false, {}, message, sized_blake2b(message, 32)},
        {"BLAKE2S-128", false, {}, message, sized_blake2s(message, 16)},
        blake2x_case("BLAKE2XB", false, {}, message, 200),
        blake2x_case("BLAKE2XBMAC", true, key, message, 65),
        blake2x_case("BLAKE2XS", false, {}, message, 100),
        blake2x_case("BLAKE2XSMAC", true, key, message, 33),
    };
}

}  // namespace

int main(int argc, char** argv) {
    b2test::Report report("test_load_unload");
    check_blake2x_oracle(report);
    const long cycles = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 1000;
    const std::vector<Case> cases = all_cases();
    const std::string dir = b2test::module_dir();
    long good = 0;
    std::vector<long> wrong(cases.size(), 0);
    long kdf_wrong[std::size(rfc9106::kVectors)] = {};
    for (long cycle = 0; cycle < cycles; ++cycle) {
        OSSL_LIB_CTX* libctx = OSSL_LIB_CTX_new();
        OSSL_PROVIDER_set_default_search_path(libctx, dir.c_str());
        OSSL_PROVIDER* provider = OSSL_PROVIDER_load(libctx, b2test::kOurProvider);
        bool all = provider != nullptr;
        for (size_t i = 0; i < cases.size() && provider != nullptr; ++i) {
            if (!compute(libctx, cases[i])) {
                ++wrong[i];
                all = false;
            }
        }
        for (size_t i = 0; i < std::size(rfc9106::kVectors) && provider != nullptr; ++i) {
            if (!derive_rfc9106(libctx, rfc9106::kVectors[i])) {
                ++kdf_wrong[i];
                all = false;
            }
        }
        good += all ? 1 : 0;
        if (provider != nullptr) {
            OSSL_PROVIDER_unload(provider);
        }
        OSSL_LIB_CTX_free(libctx);
    }
    for (size_t i = 0; i < cases.size(); ++i) {
        B2_CHECK(report, wrong[i] == 0,
                 std::string(cases[i].name) + " wrong or failed in " + std::to_string(wrong[i]) +
                     " cycles");
    }
    for (size_t i = 0; i < std::size(rfc9106::kVectors); ++i) {
        B2_CHECK(report, kdf_wrong[i] == 0,
                 std::string(rfc9106::kVectors[i].kdf) + " wrong or failed in " +
                     std::to_string(kdf_wrong[i]) + " cycles");
    }
    B2_CHECK(report, good == cycles && cycles > 0,
             std::to_string(good) + " of " + std::to_string(cycles) + " cycles hashed correctly");
    std::printf("test_load_unload: %ld cycles, %zu algorithms and %zu KDFs each\n", cycles,
                cases.size(), std::size(rfc9106::kVectors));
    return report.finish();
}
