// Repeated library-context life cycles: new context, load blake2simd, fetch, one BLAKE2B-512
// and one BLAKE2BP-512 digest and one BLAKE2BPMAC, unload, free. Leaks show under valgrind or
// LeakSanitizer; crashes and wrong digests here.
// SPDX-License-Identifier: Apache-2.0
#include <openssl/evp.h>
#include <openssl/provider.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "b2test.hpp"
#include "rfc7693.hpp"

int main(int argc, char** argv) {
    b2test::Report report("test_load_unload");
    const long cycles = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 1000;
    static const uint8_t message[] = "load, fetch, hash, unload, free";
    const std::vector<uint8_t> expected = rfc7693::hash({}, message, sizeof message);
    const std::vector<uint8_t> expected_bp = rfc7693::blake2bp(nullptr, 0, message, sizeof message);
    static const uint8_t key[] = "a BLAKE2bp key";
    const std::vector<uint8_t> expected_bp_mac =
        rfc7693::blake2bp(key, sizeof key, message, sizeof message);
    const std::string dir = b2test::module_dir();
    long good = 0;
    for (long cycle = 0; cycle < cycles; ++cycle) {
        OSSL_LIB_CTX* libctx = OSSL_LIB_CTX_new();
        OSSL_PROVIDER_set_default_search_path(libctx, dir.c_str());
        OSSL_PROVIDER* provider = OSSL_PROVIDER_load(libctx, b2test::kOurProvider);
        EVP_MD* md = EVP_MD_fetch(libctx, b2test::kDigestName, b2test::kOurPropq);
        EVP_MD* bp = EVP_MD_fetch(libctx, "BLAKE2BP-512", b2test::kOurPropq);
        EVP_MAC* bp_mac = EVP_MAC_fetch(libctx, "BLAKE2BPMAC", b2test::kOurPropq);
        std::vector<uint8_t> out(64);
        std::vector<uint8_t> out_bp(64);
        std::vector<uint8_t> out_mac(64);
        unsigned int length = 0;
        unsigned int length_bp = 0;
        size_t length_mac = 0;
        if (provider != nullptr && md != nullptr && bp != nullptr && bp_mac != nullptr &&
            EVP_Digest(message, sizeof message, out.data(), &length, md, nullptr) == 1 &&
            EVP_Digest(message, sizeof message, out_bp.data(), &length_bp, bp, nullptr) == 1 &&
            EVP_Q_mac(libctx, "BLAKE2BPMAC", b2test::kOurPropq, nullptr, nullptr, key, sizeof key,
                      message, sizeof message, out_mac.data(), out_mac.size(),
                      &length_mac) != nullptr &&
            out == expected && out_bp == expected_bp && out_mac == expected_bp_mac) {
            ++good;
        }
        EVP_MAC_free(bp_mac);
        EVP_MD_free(bp);
        EVP_MD_free(md);
        if (provider != nullptr) {
            OSSL_PROVIDER_unload(provider);
        }
        OSSL_LIB_CTX_free(libctx);
    }
    B2_CHECK(report, good == cycles && cycles > 0,
             std::to_string(good) + " of " + std::to_string(cycles) + " cycles hashed correctly");
    std::printf("test_load_unload: %ld cycles\n", cycles);
    return report.finish();
}
