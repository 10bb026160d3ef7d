// Repeated library-context life cycles: new context, load blake2simd, fetch, one digest or MAC
// of every algorithm (BLAKE2B-512, BLAKE2BP-512, BLAKE2BPMAC, BLAKE2S-256, BLAKE2SMAC,
// BLAKE2SP-256, BLAKE2SPMAC), unload, free. Leaks show under valgrind or LeakSanitizer; crashes
// and wrong digests here.
// SPDX-License-Identifier: Apache-2.0
#include <openssl/evp.h>
#include <openssl/provider.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "b2test.hpp"
#include "rfc7693.hpp"

namespace {

using Bytes = std::vector<uint8_t>;

// One computation per cycle; the answer comes from outside our provider.
struct Case {
    const char* name;
    bool mac;
    Bytes key;
    Bytes message;
    Bytes expected;
};

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

bool compute(OSSL_LIB_CTX* libctx, const Case& c) {
    Bytes out(EVP_MAX_MD_SIZE);
    size_t length = 0;
    if (c.mac) {
        EVP_MAC* mac = EVP_MAC_fetch(libctx, c.name, b2test::kOurPropq);
        const bool ok = mac != nullptr &&
                        EVP_Q_mac(libctx, c.name, b2test::kOurPropq, nullptr, nullptr, c.key.data(),
                                  c.key.size(), c.message.data(), c.message.size(), out.data(),
                                  out.size(), &length) != nullptr;
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

}  // namespace

int main(int argc, char** argv) {
    b2test::Report report("test_load_unload");
    const long cycles = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 1000;
    static const uint8_t text[] = "load, fetch, hash, unload, free";
    const Bytes message(text, text + sizeof text);
    static const uint8_t key_text[] = "a BLAKE2bp key";
    const Bytes key(key_text, key_text + sizeof key_text);
    const std::vector<Case> cases = {
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
    };
    const std::string dir = b2test::module_dir();
    long good = 0;
    std::vector<long> wrong(cases.size(), 0);
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
    B2_CHECK(report, good == cycles && cycles > 0,
             std::to_string(good) + " of " + std::to_string(cycles) + " cycles hashed correctly");
    std::printf("test_load_unload: %ld cycles, %zu algorithms each\n", cycles, cases.size());
    return report.finish();
}
