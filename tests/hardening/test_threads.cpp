// Concurrency: many threads hashing with one shared fetched EVP_MD / EVP_MAC and contexts of
// their own, and concurrent provider loads into separate library contexts (each first use
// resolves a kernel choice: where a racy once-initialisation would show, under TSan); for
// every algorithm pair: BLAKE2b, BLAKE2s, BLAKE2bp, BLAKE2sp (b2test/algorithms.hpp); and
// BLAKE2XB/BLAKE2XBMAC, BLAKE2XS/BLAKE2XSMAC in both length modes against rfc7693::blake2x.
// SPDX-License-Identifier: Apache-2.0
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>

#include "b2test.hpp"
#include "b2test/algorithms.hpp"
#include "rfc7693.hpp"

namespace {

constexpr int kThreads = 8;
constexpr int kMessagesPerThread = 40;

using Bytes = std::vector<uint8_t>;

Bytes message_for(int index) {
    Bytes bytes(static_cast<size_t>(index) * 37 % 1500);
    for (size_t i = 0; i < bytes.size(); ++i) {
        bytes[i] = static_cast<uint8_t>(index * 7 + static_cast<int>(i));
    }
    return bytes;
}

const Bytes& mac_key() {
    static const Bytes key = message_for(41);  // 17 bytes: a key for every algorithm
    return key;
}

Bytes digest_once(const EVP_MD* md, const Bytes& message) {
    b2test::MdCtxPtr ctx(EVP_MD_CTX_new());
    const size_t pieces[] = {1, 127, 0, 200};
    const auto out = b2test::run_digest(ctx.get(), md, nullptr, message, pieces);
    return out ? *out : Bytes{};
}

Bytes mac_once(EVP_MAC* mac, const Bytes& message) {
    b2test::MacCtxPtr ctx(EVP_MAC_CTX_new(mac));
    const auto out = b2test::run_mac(ctx.get(), mac_key(), nullptr, message);
    return out ? *out : Bytes{};
}

using Names = b2test::Blake2Algorithm;

// Runs `same(i)` for messages i on kThreads threads at once, each walking every `step`-th message
// from its own starting point so the threads overlap; returns how many calls answered false.
template <class Same>
int concurrent_mismatches(int step, const Same& same) {
    const int total = kThreads * kMessagesPerThread;
    std::atomic<int> mismatches{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t]() {
            for (int n = 0; n < total; n += step) {
                if (!same((n + t * kMessagesPerThread) % total)) {
                    ++mismatches;
                }
            }
        });
    }
    for (std::thread& thread : threads) {
        thread.join();
    }
    return mismatches.load();
}

void check_shared_algorithms(b2test::Report& report, const Names& names) {
    b2test::ProviderSession session(b2test::ProviderSession::Default::exclude);
    b2test::MdPtr md = session.fetch_md(names.digest, b2test::kOurPropq);
    b2test::MacPtr mac = session.fetch_mac(names.mac, b2test::kOurPropq);
    B2_REQUIRE(md && mac, std::string("fetch ") + names.digest + " and " + names.mac);

    const int total = kThreads * kMessagesPerThread;
    std::vector<Bytes> expected_digest(static_cast<size_t>(total));
    std::vector<Bytes> expected_mac(static_cast<size_t>(total));
    for (int i = 0; i < total; ++i) {
        expected_digest[static_cast<size_t>(i)] = digest_once(md.get(), message_for(i));
        expected_mac[static_cast<size_t>(i)] = mac_once(mac.get(), message_for(i));
    }

    std::atomic<int> computed{0};
    const int mismatches = concurrent_mismatches(1, [&](int i) {
        const Bytes message = message_for(i);
        computed += 2;
        return digest_once(md.get(), message) == expected_digest[static_cast<size_t>(i)] &&
               mac_once(mac.get(), message) == expected_mac[static_cast<size_t>(i)];
    });
    B2_CHECK(report, mismatches == 0, std::to_string(mismatches) + " concurrent results differ");
    B2_CHECK(report, computed.load() == 2 * kThreads * total, "every thread finished");
    std::printf("shared %s/%s: %d threads, %d digests+MACs\n", names.digest, names.mac, kThreads,
                computed.load());
}

// Every thread creates its own library context, loads the module, and hashes: the first use
// resolves the kernel choice of that provider instance while the others do the same. Each also
// raises the error a digest raises without a provider context, through the registry of
// instances the others enrol in and withdraw from meanwhile (errors.cpp).
void check_concurrent_loads(b2test::Report& report, const Names& names) {
    const Bytes message = message_for(1000);
    Bytes expected;
    int expected_reason = 0;
    {
        b2test::ProviderSession session(b2test::ProviderSession::Default::exclude);
        b2test::MdPtr md = session.fetch_md(names.digest, b2test::kOurPropq);
        expected = digest_once(md.get(), message);
        expected_reason = ERR_GET_REASON(b2test::wrong_type_get_params_error(md.get()));
    }
    B2_CHECK(report, expected_reason != 0, std::string(names.digest) + ": no-context error");
    std::atomic<int> failures{0};
    std::atomic<bool> go{false};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&]() {
            while (!go.load()) {
                std::this_thread::yield();
            }
            for (int round = 0; round < 3; ++round) {
                OSSL_LIB_CTX* libctx = OSSL_LIB_CTX_new();
                const std::string dir = b2test::module_dir();
                OSSL_PROVIDER_set_default_search_path(libctx, dir.c_str());
                OSSL_PROVIDER* provider = OSSL_PROVIDER_load(libctx, b2test::kOurProvider);
                EVP_MD* md = EVP_MD_fetch(libctx, names.digest, b2test::kOurPropq);
                if (provider == nullptr || md == nullptr || digest_once(md, message) != expected ||
                    ERR_GET_REASON(b2test::wrong_type_get_params_error(md)) != expected_reason) {
                    ++failures;
                }
                EVP_MD_free(md);
                if (provider != nullptr) {
                    OSSL_PROVIDER_unload(provider);
                }
                OSSL_LIB_CTX_free(libctx);
            }
        });
    }
    go = true;
    for (std::thread& thread : threads) {
        thread.join();
    }
    B2_CHECK(report, failures.load() == 0,
             std::to_string(failures.load()) + " concurrent loads failed or hashed wrong");
    std::printf("concurrent provider loads, first use by %s: %d threads x 3 library contexts\n",
                names.digest, kThreads);
}

// --- BLAKE2X: message i gets an output of xof_length(i) bytes, known length (fixed at init)
// for even i, unknown length (a plain init, then EVP_DigestFinalXOF) for odd i; the MAC always
// known length (its size).
struct XofPair {
    const char* digest;
    const char* mac;
    bool blake2b;
};
constexpr XofPair kXofPairs[] = {{"BLAKE2XB", "BLAKE2XBMAC", true},
                                 {"BLAKE2XS", "BLAKE2XSMAC", false}};

size_t xof_length(int index) {
    return 1 + static_cast<size_t>(index) * 29 % 700;
}

Bytes xof_oracle(const XofPair& pair, const Bytes& message, size_t length, bool keyed,
                 bool unknown) {
    const Bytes& key = mac_key();
    rfc7693::Options ob;
    rfc7693::blake2s::Options os;
    ob.key = os.key = keyed ? key.data() : nullptr;
    ob.key_len = os.key_len = keyed ? key.size() : 0;
    return pair.blake2b
               ? rfc7693::blake2x(ob, message.data(), message.size(), length, unknown)
               : rfc7693::blake2s::blake2x(os, message.data(), message.size(), length, unknown);
}

Bytes xof_digest_once(const EVP_MD* md, const Bytes& message, size_t length, bool unknown) {
    OSSL_PARAM params[] = {OSSL_PARAM_construct_size_t(OSSL_DIGEST_PARAM_XOFLEN, &length),
                           OSSL_PARAM_construct_end()};
    b2test::MdCtxPtr ctx(EVP_MD_CTX_new());
    Bytes out(length);
    const bool ok = EVP_DigestInit_ex2(ctx.get(), md, unknown ? nullptr : params) == 1 &&
                    EVP_DigestUpdate(ctx.get(), message.data(), message.size()) == 1 &&
                    EVP_DigestFinalXOF(ctx.get(), out.data(), out.size()) == 1;
    return ok ? out : Bytes{};
}

Bytes xof_mac_once(EVP_MAC* mac, const Bytes& message, size_t length) {
    OSSL_PARAM params[] = {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &length),
                           OSSL_PARAM_construct_end()};
    b2test::MacCtxPtr ctx(EVP_MAC_CTX_new(mac));
    Bytes out(length);
    size_t written = 0;
    const Bytes& key = mac_key();
    const bool ok = EVP_MAC_init(ctx.get(), key.data(), key.size(), params) == 1 &&
                    EVP_MAC_update(ctx.get(), message.data(), message.size()) == 1 &&
                    EVP_MAC_final(ctx.get(), out.data(), &written, out.size()) == 1 &&
                    written == length;
    return ok ? out : Bytes{};
}

void check_shared_xof(b2test::Report& report, const XofPair& pair) {
    b2test::ProviderSession session(b2test::ProviderSession::Default::exclude);
    b2test::MdPtr md = session.fetch_md(pair.digest, b2test::kOurPropq);
    b2test::MacPtr mac = session.fetch_mac(pair.mac, b2test::kOurPropq);
    B2_REQUIRE(md && mac, std::string("fetch ") + pair.digest + " and " + pair.mac);
    // Half the messages: the oracle is slow.
    const int mismatches = concurrent_mismatches(2, [&](int i) {
        const Bytes message = message_for(i);
        const size_t length = xof_length(i);
        const bool unknown = i % 2 == 1;
        return xof_digest_once(md.get(), message, length, unknown) ==
                   xof_oracle(pair, message, length, false, unknown) &&
               xof_mac_once(mac.get(), message, length) ==
                   xof_oracle(pair, message, length, true, false);
    });
    B2_CHECK(report, mismatches == 0,
             std::string(pair.digest) + ": " + std::to_string(mismatches) +
                 " concurrent results differ from rfc7693::blake2x");
    std::printf("shared %s/%s: %d threads, both length modes\n", pair.digest, pair.mac, kThreads);
}

}  // namespace

int main() {
    b2test::Report report("test_threads");
    for (const Names* names : b2test::kAllAlgorithms) {
        check_shared_algorithms(report, *names);
        check_concurrent_loads(report, *names);
    }
    for (const XofPair& pair : kXofPairs) {
        check_shared_xof(report, pair);
    }
    return report.finish();
}
