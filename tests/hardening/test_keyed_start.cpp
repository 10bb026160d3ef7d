// KeyedStart (provider/keyed_start.hpp), the MAC's cache of the chaining value after the key
// block, against the independent RFC 7693 code: a first message computes it, later ones resume
// from it, an empty message gets its key block back, a forgotten cache is not used, and a copy
// (dupctx) serves on its own. On every runnable kernel, for BLAKE2BMAC's and BLAKE2SMAC's family.
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

// What differs between the families: engine, parameters, kernels, oracle.
struct Blake2b {
    using Family = blake2simd::Blake2bFamily;
    using Engine = blake2simd::Blake2bEngine;
    using Params = blake2simd::Blake2bParameterBlock;
    using Kernel = blake2simd::Blake2bFamily::Kernel;
    using Oracle = rfc7693::Options;
    static constexpr size_t kMaxKey = blake2simd::kBlake2bMaxKeyBytes;
    static constexpr size_t kSalt = blake2simd::kBlake2bSaltBytes;
    static constexpr size_t kBlock = 128;
    static std::vector<const Kernel*> kernels() { return runnable_kernels(); }
    static std::vector<uint8_t> hash(const Oracle& o, const std::vector<uint8_t>& message) {
        return rfc7693::hash(o, message.data(), message.size());
    }
};

struct Blake2s {
    using Family = blake2simd::Blake2sFamily;
    using Engine = blake2simd::Blake2sEngine;
    using Params = blake2simd::Blake2sParameterBlock;
    using Kernel = blake2simd::Blake2sFamily::Kernel;
    using Oracle = rfc7693::blake2s::Options;
    static constexpr size_t kMaxKey = blake2simd::kBlake2sMaxKeyBytes;
    static constexpr size_t kSalt = 8;
    static constexpr size_t kBlock = 64;
    static std::vector<const Kernel*> kernels() { return runnable_blake2s_kernels(); }
    static std::vector<uint8_t> hash(const Oracle& o, const std::vector<uint8_t>& message) {
        return rfc7693::blake2s::hash(o, message.data(), message.size());
    }
};

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

template <class T>
struct Setup {
    uint8_t padded_key[T::kBlock] = {};  // the key block
    uint8_t salt[T::kSalt] = {};
    typename T::Params params;
    typename T::Oracle oracle;

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
        return T::hash(oracle, message);
    }
};

template <class T>
using KeyedStart = blake2simd::KeyedStart<typename T::Family>;

// One message on an engine the cache has just started (computed or resumed).
template <class T>
std::vector<uint8_t> finish_message(KeyedStart<T>& start, typename T::Engine& engine,
                                    const typename T::Kernel& kernel, const Setup<T>& setup,
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

template <class Kernel>
std::string describe(const Kernel& kernel, const Case& c, size_t length, const char* step) {
    return std::string(kernel.name) + " key " + std::to_string(c.key_length) + " out " +
           std::to_string(c.digest_length) + (c.salted ? " salted" : "") + " message " +
           std::to_string(length) + ": " + step;
}

template <class T>
void check_case(b2test::Report& report, const typename T::Kernel& kernel, const Case& c,
                size_t length) {
    const Setup<T> setup(c);
    const std::vector<uint8_t> message = pattern(length, static_cast<uint8_t>(length));
    const std::vector<uint8_t> expected = setup.expected(message);
    KeyedStart<T> start{};
    typename T::Engine engine{};
    B2_CHECK(report, !start.resume(engine, kernel.compress, c.digest_length),
             describe(kernel, c, length, "an empty cache resumes"));
    start.compute(engine, kernel.compress, setup.params, setup.padded_key);
    B2_CHECK(report, start.needs_key_block(), describe(kernel, c, length, "fresh start"));
    B2_CHECK(report, finish_message<T>(start, engine, kernel, setup, message) == expected,
             describe(kernel, c, length, "computed"));
    for (const char* step : {"resumed once", "resumed twice"}) {
        B2_CHECK(report, start.resume(engine, kernel.compress, c.digest_length),
                 describe(kernel, c, length, step));
        B2_CHECK(report, finish_message<T>(start, engine, kernel, setup, message) == expected,
                 describe(kernel, c, length, step));
    }
    KeyedStart<T> copy = start;
    typename T::Engine copy_engine{};
    B2_CHECK(report,
             copy.resume(copy_engine, kernel.compress, c.digest_length) &&
                 finish_message<T>(copy, copy_engine, kernel, setup, message) == expected,
             describe(kernel, c, length, "copy"));
    start.forget(KeyedStart<T>::Stale::cleanse);
    B2_CHECK(report, !start.resume(engine, kernel.compress, c.digest_length),
             describe(kernel, c, length, "forgotten cache resumes"));
}

// absorbed(0) keeps the key block needed; the empty message then still equals the oracle.
template <class T>
void check_empty_updates(b2test::Report& report, const typename T::Kernel& kernel) {
    const Case c{T::kMaxKey, static_cast<uint8_t>(T::kMaxKey), false};
    const Setup<T> setup(c);
    KeyedStart<T> start{};
    typename T::Engine engine{};
    start.compute(engine, kernel.compress, setup.params, setup.padded_key);
    start.absorbed(0);
    B2_CHECK(report, start.needs_key_block(), describe(kernel, c, 0, "after absorbed(0)"));
    B2_CHECK(report, finish_message<T>(start, engine, kernel, setup, {}) == setup.expected({}),
             describe(kernel, c, 0, "empty updates"));
    start.resume(engine, kernel.compress, c.digest_length);
    start.absorbed(1);
    B2_CHECK(report, !start.needs_key_block(), describe(kernel, c, 1, "after absorbed(1)"));
}

// Keys of one byte, half, all; outputs of one byte, 20 and all (the maximum key length is also
// the maximum output length in both families).
template <class T>
void check_family(b2test::Report& report, const char* family) {
    const auto full = static_cast<uint8_t>(T::kMaxKey);
    const Case cases[] = {{1, full, false},
                          {T::kMaxKey / 2, 20, true},
                          {T::kMaxKey, full, false},
                          {T::kMaxKey, 1, true}};
    const auto kernels = T::kernels();
    for (const auto* kernel : kernels) {
        for (const Case& c : cases) {
            for (const size_t length :
                 {size_t{0}, size_t{1}, T::kBlock - 1, T::kBlock, T::kBlock + 1, size_t{300}}) {
                check_case<T>(report, *kernel, c, length);
            }
        }
        check_empty_updates<T>(report, *kernel);
    }
    std::printf("test_keyed_start: %s, %zu kernels\n", family, kernels.size());
    B2_CHECK(report, !kernels.empty(), std::string(family) + ": no runnable kernel");
}

}  // namespace

int main() {
    b2test::Report report("test_keyed_start");
    check_family<Blake2b>(report, "BLAKE2b");
    check_family<Blake2s>(report, "BLAKE2s");
    return report.finish();
}
