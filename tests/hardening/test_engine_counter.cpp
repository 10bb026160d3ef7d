// The streaming engines on every runnable kernel with the byte counter carried across its
// word boundary and across its top, checked against the independent RFC 7693 implementation:
// BLAKE2b (64-bit words: carries at 2^64, wraps at 2^128) and BLAKE2s (32-bit words: carries
// at 2^32, wraps at 2^64).
// SPDX-License-Identifier: Apache-2.0
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "b2test/check.hpp"
#include "blake2_engine.hpp"
#include "engine_kernels.hpp"
#include "forms.hpp"
#include "rfc7693.hpp"

namespace {

std::vector<uint8_t> pattern(size_t length, uint8_t seed) {
    std::vector<uint8_t> bytes(length);
    for (size_t i = 0; i < length; ++i) {
        bytes[i] = static_cast<uint8_t>(seed + 13 * i + (i >> 8));
    }
    return bytes;
}

// What differs between the families: the engine, its kernels, the oracle.
struct Blake2b {
    using Engine = blake2simd::Blake2bEngine;
    using State = blake2simd::Blake2bState;
    using Word = uint64_t;
    using Oracle = rfc7693::State;
    static constexpr size_t kBlock = 128;
    static constexpr size_t kDigest = 64;
    static constexpr const char* kName = "BLAKE2b";
    static std::vector<const blake2simd::Blake2bFamily::Kernel*> kernels() {
        return runnable_kernels();
    }
    static std::vector<uint8_t> oracle(const Oracle& start, const std::vector<uint8_t>& message) {
        return rfc7693::finish_from(start, message.data(), message.size(), kDigest);
    }
};

struct Blake2s {
    using Engine = blake2simd::Blake2sEngine;
    using State = blake2simd::Blake2sState;
    using Word = uint32_t;
    using Oracle = rfc7693::blake2s::State;
    static constexpr size_t kBlock = 64;
    static constexpr size_t kDigest = 32;
    static constexpr const char* kName = "BLAKE2s";
    static std::vector<const blake2simd::Blake2sFamily::Kernel*> kernels() {
        return runnable_blake2s_kernels();
    }
    static std::vector<uint8_t> oracle(const Oracle& start, const std::vector<uint8_t>& message) {
        return rfc7693::blake2s::finish_from(start, message.data(), message.size(), kDigest);
    }
};

template <class Family, class Kernel>
std::vector<uint8_t> engine_digest(const Kernel& kernel, const typename Family::State& start,
                                   const std::vector<uint8_t>& message, size_t piece) {
    typename Family::Engine engine;
    engine.resume(kernel.compress, start, static_cast<uint8_t>(Family::kDigest));
    for (size_t offset = 0; offset < message.size(); offset += piece) {
        const size_t length = message.size() - offset < piece ? message.size() - offset : piece;
        engine.update(message.data() + offset, length);
    }
    std::vector<uint8_t> out(Family::kDigest);
    engine.finish(out.data());
    return out;
}

template <class Family, class Kernel>
void check_case(b2test::Report& report, const Kernel& kernel, typename Family::Word t0,
                typename Family::Word t1, size_t message_length) {
    using Word = typename Family::Word;
    typename Family::State start{};
    typename Family::Oracle oracle_start{};
    for (int i = 0; i < 8; ++i) {
        start.h[i] = oracle_start.h[i] =
            static_cast<Word>(0x0123456789abcdefULL * static_cast<uint64_t>(i + 3));
    }
    start.t[0] = oracle_start.t[0] = t0;
    start.t[1] = oracle_start.t[1] = t1;
    const std::vector<uint8_t> message = pattern(message_length, static_cast<uint8_t>(t0));
    const std::vector<uint8_t> expected = Family::oracle(oracle_start, message);
    for (const size_t piece :
         {size_t{1}, Family::kBlock - 1, Family::kBlock, Family::kBlock + 1, size_t{4096}}) {
        char what[160];
        std::snprintf(what, sizeof what, "%s kernel %s t=%016llx:%016llx len %zu piece %zu",
                      Family::kName, kernel.name, static_cast<unsigned long long>(t1),
                      static_cast<unsigned long long>(t0), message_length, piece);
        report.check(engine_digest<Family>(kernel, start, message, piece) == expected, what);
    }
}

// The independent implementation must itself distinguish a carried counter from a
// wrapped one, or the comparisons would prove nothing about the carry.
template <class Family>
bool oracle_sees_the_carry() {
    typename Family::Oracle a{};
    typename Family::Oracle b{};
    a.t[0] = b.t[0] = static_cast<typename Family::Word>(~0ULL - 10);
    b.t[1] = 1;  // what a lost carry would look like after the first block
    const std::vector<uint8_t> message = pattern(300, 1);
    return Family::oracle(a, message) != Family::oracle(b, message);
}

template <class Family>
size_t check_family(b2test::Report& report) {
    using Word = typename Family::Word;
    constexpr Word kTop = static_cast<Word>(~0ULL);
    constexpr Word kBlock = static_cast<Word>(Family::kBlock);
    report.check(oracle_sees_the_carry<Family>(),
                 std::string(Family::kName) + ": the oracle tells counters apart");
    const Word near_top[] = {kTop - 1000, kTop - kBlock, kTop - kBlock + 1, kTop,
                             kTop - 2 * kBlock + 1};
    const size_t lengths[] = {
        0, 1, Family::kBlock - 1, Family::kBlock, Family::kBlock + 1, 1000, 16 * Family::kBlock};
    const auto kernels = Family::kernels();
    for (const auto* kernel : kernels) {
        for (const Word t0 : near_top) {
            for (const size_t length : lengths) {
                check_case<Family>(report, *kernel, t0, 0, length);     // carry into t[1]
                check_case<Family>(report, *kernel, t0, 5, length);     // carry with t[1] != 0
                check_case<Family>(report, *kernel, t0, kTop, length);  // wrap of the whole
            }
        }
    }
    std::printf("test_engine_counter: %s, %zu kernels\n", Family::kName, kernels.size());
    report.check(!kernels.empty(), std::string(Family::kName) + ": no runnable kernel");
    return kernels.size();
}

}  // namespace

int main() {
    b2test::Report report("test_engine_counter");
    check_family<Blake2b>(report);
    check_family<Blake2s>(report);
    return report.finish();
}
