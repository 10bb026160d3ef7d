// The streaming engine on every runnable kernel with the byte counter carried across 2^64
// (and across 2^128), checked against the independent RFC 7693 implementation.
// SPDX-License-Identifier: Apache-2.0
#include <cstdint>
#include <cstdio>
#include <vector>

#include "blake2b_engine.hpp"
#include "dispatch.hpp"
#include "rfc7693.hpp"

namespace {

using blake2simd::Blake2bEngine;
using blake2simd::Blake2bState;
using blake2simd::KernelInfo;

struct Counters {
    long passed = 0;
    long failed = 0;
};

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

void check_case(Counters& counters, const KernelInfo& kernel, uint64_t t0, uint64_t t1,
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
        if (engine_digest(kernel, start, message, piece) == expected) {
            ++counters.passed;
        } else {
            ++counters.failed;
            std::fprintf(stderr, "FAIL kernel %s t=%016llx:%016llx len %zu piece %zu\n",
                         kernel.name, static_cast<unsigned long long>(t1),
                         static_cast<unsigned long long>(t0), message_length, piece);
        }
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
    Counters counters;
    if (!oracle_sees_the_carry()) {
        std::fprintf(stderr, "FAIL: oracle cannot tell counters apart\n");
        return 1;
    }
    const uint64_t near_top[] = {~0ULL - 1000, ~0ULL - 128, ~0ULL - 127, ~0ULL, ~0ULL - 255};
    const size_t lengths[] = {0, 1, 127, 128, 129, 1000, 2048};
    int kernels_run = 0;
    for (const KernelInfo& kernel : blake2simd::dispatch::compiled_kernels()) {
        if (!blake2simd::dispatch::is_runnable(kernel)) {
            std::printf("kernel %s: not runnable on this host, skipped\n", kernel.name);
            continue;
        }
        ++kernels_run;
        for (const uint64_t t0 : near_top) {
            for (const size_t length : lengths) {
                check_case(counters, kernel, t0, 0, length);      // carry into t[1]
                check_case(counters, kernel, t0, 5, length);      // carry with t[1] != 0
                check_case(counters, kernel, t0, ~0ULL, length);  // 128-bit wrap
            }
        }
    }
    std::printf("test_engine_counter: %d kernels, %ld passed, %ld failed\n", kernels_run,
                counters.passed, counters.failed);
    return kernels_run > 0 && counters.failed == 0 && counters.passed > 0 ? 0 : 1;
}
