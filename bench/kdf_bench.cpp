// blake2simd_bench --kdf: what HMAC, HKDF and PBKDF2 (OpenSSL's own, in its default provider) gain
// when their digest is ours. Each runs over BLAKE2B-512 and BLAKE2S-256 fetched from this
// provider, from OpenSSL's default provider and (--compare-module) from another build of ours,
// in one process, interleaved: every repetition times each row once in turn, so load and clock
// changes hit all rows alike; medians reported. HMAC and PBKDF2 copy a digest context per
// message / per block (EVP_MD_CTX_copy_ex: OpenSSL 3.5's copyctx where the digest has one, else
// a dupctx and a free), which these rows expose.
// SPDX-License-Identifier: Apache-2.0
#include "kdf_bench.hpp"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "implementations.hpp"
#include "stopwatch.hpp"

namespace blake2simd::bench {
namespace {

using Bytes = std::vector<uint8_t>;

constexpr uint64_t kPbkdf2Iterations = 1000000;
const Bytes kKey(32, 0x4b);
const Bytes kSalt(16, 0x53);
const Bytes kInfo(10, 0x49);

// One operation (HMAC of a message, an HKDF, a PBKDF2) with the digest from one provider.
struct Row {
    std::string operation;  // "PBKDF2-HMAC-BLAKE2B-512"
    std::string provider;   // "default", "blake2simd", "compared blake2simd"
    std::function<Bytes()> run;
    std::vector<double> ns;
};

OSSL_LIB_CTX* load(const std::string& module_dir) {
    OSSL_LIB_CTX* libctx = OSSL_LIB_CTX_new();
    if (libctx == nullptr ||
        OSSL_PROVIDER_set_default_search_path(libctx, module_dir.c_str()) != 1 ||
        OSSL_PROVIDER_load(libctx, "blake2simd") == nullptr ||
        OSSL_PROVIDER_load(libctx, "default") == nullptr) {
        fail("cannot load blake2simd and default from " + module_dir);
    }
    return libctx;
}

// HMAC keyed once; each call is init (same key), update, final: the per-message path.
std::function<Bytes()> hmac(OSSL_LIB_CTX* libctx, const char* digest, const char* propq,
                            const Bytes& message) {
    EVP_MAC* mac = EVP_MAC_fetch(libctx, "HMAC", nullptr);
    EVP_MAC_CTX* ctx = mac != nullptr ? EVP_MAC_CTX_new(mac) : nullptr;
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, const_cast<char*>(digest), 0),
        OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_PROPERTIES, const_cast<char*>(propq), 0),
        OSSL_PARAM_construct_end()};
    if (ctx == nullptr || EVP_MAC_init(ctx, kKey.data(), kKey.size(), params) != 1) {
        fail(std::string("HMAC over ") + digest + " from " + propq);
    }
    return [ctx, &message]() {
        Bytes out(EVP_MAX_MD_SIZE);
        size_t outl = 0;
        if (EVP_MAC_init(ctx, nullptr, 0, nullptr) != 1 ||
            EVP_MAC_update(ctx, message.data(), message.size()) != 1 ||
            EVP_MAC_final(ctx, out.data(), &outl, out.size()) != 1) {
            fail("HMAC call");
        }
        out.resize(outl);
        return out;
    };
}

// A KDF derivation of `out_bytes` with the digest from `propq`; `iterations` 0: HKDF.
std::function<Bytes()> kdf(OSSL_LIB_CTX* libctx, const char* name, const char* digest,
                           const char* propq, size_t out_bytes, uint64_t iterations) {
    EVP_KDF* kdf = EVP_KDF_fetch(libctx, name, nullptr);
    EVP_KDF_CTX* ctx = kdf != nullptr ? EVP_KDF_CTX_new(kdf) : nullptr;
    if (ctx == nullptr) {
        fail(std::string("EVP_KDF ") + name);
    }
    const std::string digest_name = digest;
    const std::string properties = propq;
    return [ctx, digest_name, properties, out_bytes, iterations]() {
        std::vector<OSSL_PARAM> params = {
            OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST,
                                             const_cast<char*>(digest_name.c_str()), 0),
            OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_PROPERTIES,
                                             const_cast<char*>(properties.c_str()), 0),
            OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT,
                                              const_cast<uint8_t*>(kSalt.data()), kSalt.size())};
        uint64_t iter = iterations;
        if (iterations != 0) {
            params.push_back(OSSL_PARAM_construct_octet_string(
                OSSL_KDF_PARAM_PASSWORD, const_cast<uint8_t*>(kKey.data()), kKey.size()));
            params.push_back(OSSL_PARAM_construct_uint64(OSSL_KDF_PARAM_ITER, &iter));
        } else {
            params.push_back(OSSL_PARAM_construct_octet_string(
                OSSL_KDF_PARAM_KEY, const_cast<uint8_t*>(kKey.data()), kKey.size()));
            params.push_back(OSSL_PARAM_construct_octet_string(
                OSSL_KDF_PARAM_INFO, const_cast<uint8_t*>(kInfo.data()), kInfo.size()));
        }
        params.push_back(OSSL_PARAM_construct_end());
        Bytes out(out_bytes);
        if (EVP_KDF_derive(ctx, out.data(), out.size(), params.data()) != 1) {
            fail("EVP_KDF_derive");
        }
        return out;
    };
}

struct Provider {
    std::string label;
    OSSL_LIB_CTX* libctx;
    const char* propq;
};

// Grouped by operation, the default provider's row first (the others' reference and baseline).
void add_rows(std::vector<Row>& rows, const std::vector<Provider>& providers,
              const Bytes& message_64, const Bytes& message_8k) {
    for (const auto& entry :
         {std::pair{"BLAKE2B-512", size_t{64}}, std::pair{"BLAKE2S-256", size_t{32}}}) {
        const char* digest = entry.first;  // lambdas below capture it (clang 14: no bindings)
        const std::string name = digest;
        const size_t digest_size = entry.second;
        const std::pair<std::string, std::function<std::function<Bytes()>(const Provider&)>>
            operations[] = {
                {"PBKDF2-HMAC-" + name + " (1,000,000 iterations)",
                 [&](const Provider& p) {
                     return kdf(p.libctx, "PBKDF2", digest, p.propq, digest_size,
                                kPbkdf2Iterations);
                 }},
                {"HMAC-" + name + " 64 B",
                 [&](const Provider& p) { return hmac(p.libctx, digest, p.propq, message_64); }},
                {"HMAC-" + name + " 8 KiB",
                 [&](const Provider& p) { return hmac(p.libctx, digest, p.propq, message_8k); }},
                {"HKDF-" + name + " (extract and expand, " + std::to_string(digest_size) + " B)",
                 [&](const Provider& p) {
                     return kdf(p.libctx, "HKDF", digest, p.propq, digest_size, 0);
                 }},
            };
        for (const auto& [operation, make] : operations) {
            for (const Provider& p : providers) {
                rows.push_back({operation, p.label, make(p), {}});
            }
        }
    }
}

double median_of(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

}  // namespace

int run_kdf_bench(const std::string& module_dir, const std::string& compared_module_dir,
                  unsigned repetitions, double target_ms, const std::string& only) {
    OSSL_LIB_CTX* ours = load(module_dir);
    std::vector<Provider> providers = {{"default", ours, "provider=default"},
                                       {"blake2simd", ours, "provider=blake2simd"}};
    if (!compared_module_dir.empty()) {
        providers.push_back(
            {"compared blake2simd", load(compared_module_dir), "provider=blake2simd"});
    }
    const Bytes message_64(64, 0x6d);
    const Bytes message_8k(8192, 0x6d);
    std::vector<Row> rows;
    add_rows(rows, providers, message_64, message_8k);
    // --only keeps whole operations (every provider's row of them).
    std::erase_if(
        rows, [&only](const Row& row) { return row.operation.find(only) == std::string::npos; });
    // Every row must give the default provider's answer (the first row of its operation); that
    // call also sizes the row's repetitions.
    bool all_right = true;
    std::vector<Bytes> answers;
    std::vector<uint64_t> calls;
    for (size_t i = 0; i < rows.size(); ++i) {
        const double start = thread_cpu_ns();
        answers.push_back(rows[i].run());
        const double one = std::max(thread_cpu_ns() - start, 1.0);
        calls.push_back(std::max<uint64_t>(1, static_cast<uint64_t>(target_ms * 1e6 / one)));
        if (answers[i] != answers[i - i % providers.size()]) {
            std::fprintf(stderr, "WRONG: %s from %s differs from the default provider's\n",
                         rows[i].operation.c_str(), rows[i].provider.c_str());
            all_right = false;
        }
    }
    std::fprintf(stderr, "timing %zu rows, %u repetitions, interleaved...\n", rows.size(),
                 repetitions);
    for (unsigned rep = 0; rep < repetitions; ++rep) {
        for (size_t i = 0; i < rows.size(); ++i) {
            const double start = thread_cpu_ns();
            for (uint64_t c = 0; c < calls[i]; ++c) {
                rows[i].run();
            }
            rows[i].ns.push_back((thread_cpu_ns() - start) / static_cast<double>(calls[i]));
        }
    }
    std::printf(
        "OpenSSL %s; medians of %u interleaved repetitions; ratio = the default "
        "provider's time / this row's\n\n",
        OpenSSL_version(OPENSSL_VERSION_STRING), repetitions);
    std::printf("| operation | digest from | time per call | ratio |\n|---|---|---:|---:|\n");
    for (size_t i = 0; i < rows.size(); ++i) {
        const double time = median_of(rows[i].ns);
        const double baseline = median_of(rows[i - i % providers.size()].ns);
        const bool microseconds = time < 1e6;
        std::printf("| %s | %s | %.2f %s | %.2fx |\n", rows[i].operation.c_str(),
                    rows[i].provider.c_str(), microseconds ? time / 1e3 : time / 1e6,
                    microseconds ? "us" : "ms", baseline / time);
    }
    return all_right ? 0 : 1;
}

}  // namespace blake2simd::bench
