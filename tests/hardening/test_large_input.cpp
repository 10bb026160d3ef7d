// A streamed input past 4 GiB (the 32-bit boundary of the byte counter) through our provider
// and through OpenSSL's default provider must give the same digest and MAC. For BLAKE2s the
// counter is two 32-bit words, so this is where its low word carries into the high one.
// usage: test_large_input [--mac] [--algorithm blake2b|blake2s]   (default blake2b)
// SPDX-License-Identifier: Apache-2.0
#include <openssl/evp.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "b2test.hpp"
#include "b2test/algorithms.hpp"

namespace {

// 4 GiB + 1 MiB + 3 bytes: past 2^32 and not a multiple of the block size.
constexpr size_t kChunk = size_t{1} << 20;
constexpr uint64_t kTotal = (uint64_t{1} << 32) + kChunk + 3;

std::vector<uint8_t> chunk_pattern() {
    std::vector<uint8_t> chunk(kChunk);
    for (size_t i = 0; i < chunk.size(); ++i) {
        chunk[i] = static_cast<uint8_t>((i * 2654435761u) >> 13);
    }
    return chunk;
}

// Each chunk differs from the last (its index in the first bytes) so a skipped or repeated
// chunk changes the digest.
template <class Update>
bool stream(std::vector<uint8_t>& chunk, Update update) {
    uint64_t left = kTotal;
    uint64_t index = 0;
    while (left > 0) {
        for (int i = 0; i < 8; ++i) {
            chunk[static_cast<size_t>(i)] = static_cast<uint8_t>(index >> (8 * i));
        }
        const size_t length = left < kChunk ? static_cast<size_t>(left) : kChunk;
        if (!update(chunk.data(), length)) {
            return false;
        }
        left -= length;
        ++index;
    }
    return true;
}

std::vector<uint8_t> digest(const EVP_MD* md, std::vector<uint8_t>& chunk) {
    b2test::MdCtxPtr ctx(EVP_MD_CTX_new());
    std::vector<uint8_t> out(EVP_MAX_MD_SIZE);
    unsigned int length = 0;
    if (EVP_DigestInit_ex2(ctx.get(), md, nullptr) != 1 ||
        !stream(chunk, [&ctx](const uint8_t* data,
                              size_t n) { return EVP_DigestUpdate(ctx.get(), data, n) == 1; }) ||
        EVP_DigestFinal_ex(ctx.get(), out.data(), &length) != 1) {
        return {};
    }
    out.resize(length);
    return out;
}

std::vector<uint8_t> mac(EVP_MAC* algorithm, std::vector<uint8_t>& chunk) {
    b2test::MacCtxPtr ctx(EVP_MAC_CTX_new(algorithm));
    static const uint8_t key[29] = {1, 2, 3, 4, 5, 6, 7, 8, 9};  // a key for either family
    std::vector<uint8_t> out(EVP_MAX_MD_SIZE);
    size_t length = 0;
    if (EVP_MAC_init(ctx.get(), key, sizeof key, nullptr) != 1 ||
        !stream(chunk, [&ctx](const uint8_t* data,
                              size_t n) { return EVP_MAC_update(ctx.get(), data, n) == 1; }) ||
        EVP_MAC_final(ctx.get(), out.data(), &length, out.size()) != 1) {
        return {};
    }
    out.resize(length);
    return out;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
    bool with_mac = false;
    const b2test::Blake2Algorithm* algorithm = &b2test::kBlake2b;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--mac") {
            with_mac = true;
        } else if (arg == "--algorithm" && i + 1 < argc) {
            algorithm = b2test::find_algorithm(argv[++i]);
        } else {
            algorithm = nullptr;
        }
        if (algorithm == nullptr || algorithm->tree) {
            std::fprintf(stderr, "usage: %s [--mac] [--algorithm blake2b|blake2s]\n", argv[0]);
            return 2;
        }
    }
    b2test::Report report(std::string("test_large_input ") + algorithm->label);
    b2test::ProviderSession session(b2test::ProviderSession::Default::include);
    std::vector<uint8_t> chunk = chunk_pattern();

    auto start = std::chrono::steady_clock::now();
    b2test::MdPtr ours = session.fetch_md(algorithm->digest, b2test::kOurPropq);
    b2test::MdPtr theirs = session.fetch_md(algorithm->digest, b2test::kDefaultPropq);
    B2_REQUIRE(ours && theirs, std::string("fetch ") + algorithm->digest + " from both providers");
    const std::vector<uint8_t> our_digest = digest(ours.get(), chunk);
    std::printf("blake2simd digest of %llu bytes: %.1f s\n",
                static_cast<unsigned long long>(kTotal), seconds_since(start));
    start = std::chrono::steady_clock::now();
    const std::vector<uint8_t> their_digest = digest(theirs.get(), chunk);
    std::printf("default digest of %llu bytes: %.1f s\n", static_cast<unsigned long long>(kTotal),
                seconds_since(start));
    B2_CHECK(
        report, our_digest.size() == algorithm->max_size && our_digest == their_digest,
        "digest past 4 GiB: " + b2test::to_hex(our_digest) + " vs " + b2test::to_hex(their_digest));

    if (with_mac) {
        b2test::MacPtr our_mac = session.fetch_mac(algorithm->mac, b2test::kOurPropq);
        b2test::MacPtr their_mac = session.fetch_mac(algorithm->mac, b2test::kDefaultPropq);
        B2_REQUIRE(our_mac && their_mac,
                   std::string("fetch ") + algorithm->mac + " from both providers");
        start = std::chrono::steady_clock::now();
        const std::vector<uint8_t> a = mac(our_mac.get(), chunk);
        const std::vector<uint8_t> b = mac(their_mac.get(), chunk);
        std::printf("both MACs of %llu bytes: %.1f s\n", static_cast<unsigned long long>(kTotal),
                    seconds_since(start));
        B2_CHECK(report, a.size() == algorithm->max_size && a == b, "MAC past 4 GiB");
    }
    return report.finish();
}
