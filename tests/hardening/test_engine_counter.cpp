// The streaming engine on every runnable kernel with the byte counter carried across 2^64
// (and across 2^128), checked against the independent RFC 7693 implementation.
// SPDX-License-Identifier: Apache-2.0
#include <cstdint>
#include <cstdio>
#include <vector>

#include "b2test/check.hpp"
#include "blake2_engine.hpp"
#include "dispatch.hpp"
#include "engine_kernels.hpp"
#include "rfc7693.hpp"

namespace {

using blake2simd::Blake2bEngine;
using blake2simd::Blake2bState;
using blake2simd::KernelInfo;

std::vector<uint8_t> pattern(size_t length, uint8_t seed) {
    std::vector<uint8_t> bytes(length);
    for (size_t i = 0; i < length; ++i) {
        bytes[i] = static_cast<uint8_t>(seed + 13 * i + (i >> 8));
    }
    return bytes;
}

std::vector<uint8_t> engine_digest(const KernelInfo& kernel, const Blake2bState& start,
                                   const std::vector<uint8_t>& message, size_t piece) {
    Blake2bEngine engine;
    engine.resume(kernel.compress, start, 64);
    for (size_t offset = 0; offset < message.size(); offset += piece) {
        const size_t length = message.size() - offset < piece ? message.size() - offset : piece;
        engine.update(message.data() + offset, length);
    }
    std::vector<uint8_t> out(64);
    engine.finish(out.data());
    return out;
}

void check_case(b2test::Report& report, const KernelInfo& kernel, uint64_t t0, uint64_t t1,
                size_t message_length) {
    Blake2bState start{};
    rfc7693::State oracle_start{};
    for (int i = 0; i < 8; ++i) {
        start.h[i] = oracle_start.h[i] = 0x0123456789abcdefULL * static_cast<uint64_t>(i + 3);
    }
    start.t[0] = oracle_start.t[0] = t0;
    start.t[1] = oracle_start.t[1] = t1;
    const std::vector<uint8_t> message = pattern(message_length, static_cast<uint8_t>(t0));
    const std::vector<uint8_t> expected =
        rfc7693::finish_from(oracle_start, message.data(), message.size(), 64);
    for (const size_t piece : {size_t{1}, size_t{127}, size_t{128}, size_t{129}, size_t{4096}}) {
        char what[128];
        std::snprintf(what, sizeof what, "kernel %s t=%016llx:%016llx len %zu piece %zu",
                      kernel.name, static_cast<unsigned long long>(t1),
                      static_cast<unsigned long long>(t0), message_length, piece);
        report.expect(engine_digest(kernel, start, message, piece) == expected, what);
    }
}

// The independent implementation must itself distinguish a carried counter from a
// wrapped one, or the comparisons above would prove nothing about the carry.
bool oracle_sees_the_carry() {
    rfc7693::State a{};
    rfc7693::State b{};
    a.t[0] = b.t[0] = ~0ULL - 10;
    b.t[1] = 1;  // what a lost carry would look like after the first block
    const std::vector<uint8_t> message = pattern(300, 1);
    return rfc7693::finish_from(a, message.data(), message.size(), 64) !=
           rfc7693::finish_from(b, message.data(), message.size(), 64);
}

}  // namespace

int main() {
    b2test::Report report("test_engine_counter");
    if (!oracle_sees_the_carry()) {
        std::fprintf(stderr, "FAIL: oracle cannot tell counters apart\n");
        return 1;
    }
    const uint64_t near_top[] = {~0ULL - 1000, ~0ULL - 128, ~0ULL - 127, ~0ULL, ~0ULL - 255};
    const size_t lengths[] = {0, 1, 127, 128, 129, 1000, 2048};
    const std::vector<const KernelInfo*> kernels = runnable_kernels();
    for (const KernelInfo* kernel : kernels) {
        for (const uint64_t t0 : near_top) {
            for (const size_t length : lengths) {
                check_case(report, *kernel, t0, 0, length);      // carry into t[1]
                check_case(report, *kernel, t0, 5, length);      // carry with t[1] != 0
                check_case(report, *kernel, t0, ~0ULL, length);  // 128-bit wrap
            }
        }
    }
    std::printf("test_engine_counter: %zu kernels\n", kernels.size());
    report.expect(!kernels.empty(), "no runnable kernel");
    return report.finish();
}
