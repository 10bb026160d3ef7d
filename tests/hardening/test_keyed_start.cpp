// KeyedStart (provider/keyed_start.hpp), the MAC's cache of the chaining value after the key
// block, against the independent RFC 7693 code: a first message computes it, later ones resume
// from it, an empty message gets its key block back, a forgotten cache is not used, and a copy
// (dupctx) serves on its own. On every runnable kernel.
// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "b2test/check.hpp"
#include "blake2_engine.hpp"
#include "engine_kernels.hpp"
#include "keyed_start.hpp"
#include "rfc7693.hpp"

namespace {

using blake2simd::Blake2bEngine;
using blake2simd::Blake2bParams;
using blake2simd::KernelInfo;
using KeyedStart = blake2simd::KeyedStart<blake2simd::Blake2bFamily>;

struct Case {
    size_t key_length;
    uint8_t digest_length;
    bool salted;
};

std::vector<uint8_t> pattern(size_t length, uint8_t seed) {
    std::vector<uint8_t> bytes(length);
    for (size_t i = 0; i < length; ++i) {
        bytes[i] = static_cast<uint8_t>(seed + i * 7);
    }
    return bytes;
}

struct Setup {
    uint8_t padded_key[blake2simd::kMaxKeyBytes] = {};
    uint8_t salt[blake2simd::kSaltBytes] = {};
    Blake2bParams params;
    rfc7693::Options oracle;

    explicit Setup(const Case& c) {
        const std::vector<uint8_t> key = pattern(c.key_length, 0x41);
        std::copy(key.begin(), key.end(), padded_key);
        params.digest_length = c.digest_length;
        params.key_length = static_cast<uint8_t>(c.key_length);
        oracle.out_len = c.digest_length;
        oracle.key = padded_key;
        oracle.key_len = c.key_length;
        if (c.salted) {
            for (size_t i = 0; i < sizeof salt; ++i) {
                salt[i] = params.salt[i] = static_cast<uint8_t>(0xa0 + i);
            }
            oracle.salt = salt;
        }
    }

    std::vector<uint8_t> expected(const std::vector<uint8_t>& message) const {
        return rfc7693::hash(oracle, message.data(), message.size());
    }
};

// One message on an engine the cache has just started (computed or resumed).
std::vector<uint8_t> finish_message(KeyedStart& start, Blake2bEngine& engine,
                                    const KernelInfo& kernel, const Setup& setup,
                                    const std::vector<uint8_t>& message) {
    engine.update(message.data(), message.size());
    start.absorbed(message.size());
    if (start.needs_key_block()) {
        start.rebuild_key_block(engine, kernel.compress, setup.params, setup.padded_key);
    }
    std::vector<uint8_t> out(setup.params.digest_length);
    engine.finish(out.data());
    return out;
}

std::string describe(const KernelInfo& kernel, const Case& c, size_t length, const char* step) {
    return std::string(kernel.name) + " key " + std::to_string(c.key_length) + " out " +
           std::to_string(c.digest_length) + (c.salted ? " salted" : "") + " message " +
           std::to_string(length) + ": " + step;
}

void check_case(b2test::Report& report, const KernelInfo& kernel, const Case& c, size_t length) {
    const Setup setup(c);
    const std::vector<uint8_t> message = pattern(length, static_cast<uint8_t>(length));
    const std::vector<uint8_t> expected = setup.expected(message);
    KeyedStart start{};
    Blake2bEngine engine{};
    B2_CHECK(report, !start.resume(engine, kernel.compress, c.digest_length),
             describe(kernel, c, length, "an empty cache resumes"));
    start.compute(engine, kernel.compress, setup.params, setup.padded_key);
    B2_CHECK(report, start.needs_key_block(), describe(kernel, c, length, "fresh start"));
    B2_CHECK(report, finish_message(start, engine, kernel, setup, message) == expected,
             describe(kernel, c, length, "computed"));
    for (const char* step : {"resumed once", "resumed twice"}) {
        B2_CHECK(report, start.resume(engine, kernel.compress, c.digest_length),
                 describe(kernel, c, length, step));
        B2_CHECK(report, finish_message(start, engine, kernel, setup, message) == expected,
                 describe(kernel, c, length, step));
    }
    KeyedStart copy = start;
    Blake2bEngine copy_engine{};
    B2_CHECK(report,
             copy.resume(copy_engine, kernel.compress, c.digest_length) &&
                 finish_message(copy, copy_engine, kernel, setup, message) == expected,
             describe(kernel, c, length, "copy"));
    start.forget(KeyedStart::Stale::cleanse);
    B2_CHECK(report, !start.resume(engine, kernel.compress, c.digest_length),
             describe(kernel, c, length, "forgotten cache resumes"));
}

// absorbed(0) keeps the key block needed; the empty message then still equals the oracle.
void check_empty_updates(b2test::Report& report, const KernelInfo& kernel) {
    const Case c{64, 64, false};
    const Setup setup(c);
    KeyedStart start{};
    Blake2bEngine engine{};
    start.compute(engine, kernel.compress, setup.params, setup.padded_key);
    start.absorbed(0);
    B2_CHECK(report, start.needs_key_block(), describe(kernel, c, 0, "after absorbed(0)"));
    B2_CHECK(report, finish_message(start, engine, kernel, setup, {}) == setup.expected({}),
             describe(kernel, c, 0, "empty updates"));
    start.resume(engine, kernel.compress, c.digest_length);
    start.absorbed(1);
    B2_CHECK(report, !start.needs_key_block(), describe(kernel, c, 1, "after absorbed(1)"));
}

}  // namespace

int main() {
    b2test::Report report("test_keyed_start");
    const Case cases[] = {{1, 64, false}, {32, 20, true}, {64, 64, false}, {64, 1, true}};
    const std::vector<const KernelInfo*> kernels = runnable_kernels();
    for (const KernelInfo* kernel : kernels) {
        for (const Case& c : cases) {
            for (const size_t length : {0, 1, 127, 128, 129, 300}) {
                check_case(report, *kernel, c, length);
            }
        }
        check_empty_updates(report, *kernel);
    }
    B2_CHECK(report, !kernels.empty(), "no runnable kernel");
    return report.finish();
}
