// Every runnable compiled kernel, `ref` included, against the plain test oracle
// (support/reference_compress.hpp), on random and edge-case inputs.
// SPDX-License-Identifier: Apache-2.0
//
// Usage: test_kernels [random_cases]   (default 3000; emulators pass fewer)
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "dispatch.hpp"
#include "kernels_check.hpp"
#include "support/reference_compress.hpp"

namespace {

using blake2simd::Blake2bState;
using blake2simd::CompressFn;
using blake2simd::kBlockBytes;
using blake2simd::KernelInfo;

constexpr size_t kMaxBlocks = 20;
constexpr size_t kMaxMisalignment = 15;

using b2kernels_test::Random;

struct Case {
    Blake2bState state;
    size_t block_count;
    uint64_t counter_increment;
    size_t misalignment;  // input starts this many bytes past a 64-byte boundary
};

// The buffers a case runs in: input at an odd offset, state surrounded by guard words and only
// 8-byte aligned (never 16 or 32), as a malloc'd OpenSSL context may place it.
struct Arena {
    alignas(64) uint8_t input[kMaxMisalignment + kMaxBlocks * kBlockBytes + 64];
    alignas(64) uint64_t state_words[1 + sizeof(Blake2bState) / 8 + 1];
};

constexpr uint64_t kGuard = 0xA5A5A5A5A5A5A5A5ULL;

struct Outcome {
    Blake2bState state;
    bool guards_intact;
    bool input_intact;
};

Outcome run(CompressFn compress, const Case& c, const uint8_t* message, Arena& arena) {
    uint8_t* input = arena.input + c.misalignment;
    std::memcpy(input, message, c.block_count * kBlockBytes);
    arena.state_words[0] = kGuard;
    arena.state_words[1 + sizeof(Blake2bState) / 8] = kGuard;
    auto* state = reinterpret_cast<Blake2bState*>(&arena.state_words[1]);
    std::memcpy(state, &c.state, sizeof c.state);

    compress(state, input, c.block_count, c.counter_increment);

    Outcome outcome{};
    std::memcpy(&outcome.state, state, sizeof outcome.state);
    outcome.guards_intact =
        arena.state_words[0] == kGuard && arena.state_words[1 + sizeof(Blake2bState) / 8] == kGuard;
    outcome.input_intact = std::memcmp(input, message, c.block_count * kBlockBytes) == 0;
    return outcome;
}

std::string describe(const char* kernel, const char* kind, const Case& c) {
    char text[256];
    std::snprintf(text, sizeof text,
                  "%s differs from the oracle (%s): blocks=%zu increment=%" PRIu64
                  " misalignment=%zu "
                  "t=%016" PRIx64 ":%016" PRIx64 " f=%016" PRIx64 ":%016" PRIx64,
                  kernel, kind, c.block_count, c.counter_increment, c.misalignment, c.state.t[1],
                  c.state.t[0], c.state.f[1], c.state.f[0]);
    return text;
}

class KernelTester final {
  public:
    KernelTester(const KernelInfo& kernel, b2kernels_test::Checks& checks)
        : m_kernel(kernel), m_checks(checks) {}

    void compare(const char* kind, const Case& c, const uint8_t* message) {
        const Outcome expected = run(&b2kernels_test::reference_compress, c, message, m_arena);
        const Outcome actual = run(m_kernel.compress, c, message, m_arena);
        const bool same = std::memcmp(&expected.state, &actual.state, sizeof expected.state) == 0;
        ++m_cases;
        if (!same || !actual.guards_intact || !actual.input_intact) {
            const std::string what = describe(m_kernel.name, kind, c);
            m_checks.check(same, what.c_str());
            m_checks.check(actual.guards_intact, (what + ": wrote outside the state").c_str());
            m_checks.check(actual.input_intact, (what + ": modified its input").c_str());
        } else {
            m_checks.check(true, "");
        }
    }

    [[nodiscard]] long cases() const noexcept { return m_cases; }

  private:
    const KernelInfo& m_kernel;
    b2kernels_test::Checks& m_checks;
    Arena m_arena{};
    long m_cases = 0;
};

Case random_case(Random& random) {
    Case c{};
    for (auto& word : c.state.h) {
        word = random.next();
    }
    c.state.t[0] = random.next();
    c.state.t[1] = random.next();
    // Real flags are all-zero or all-one, but the kernels must just XOR whatever is there.
    c.state.f[0] = random.below(3) == 0 ? random.next() : (random.below(2) ? ~0ULL : 0);
    c.state.f[1] = random.below(3) == 0 ? random.next() : (random.below(4) == 0 ? ~0ULL : 0);
    c.block_count = 1 + random.below(4);
    c.counter_increment = random.below(2) ? kBlockBytes : random.below(kBlockBytes + 1);
    c.misalignment = random.below(kMaxMisalignment + 1);
    return c;
}

void fill(uint8_t* message, size_t bytes, Random& random) {
    for (size_t i = 0; i < bytes; ++i) {
        message[i] = static_cast<uint8_t>(random.next());
    }
}

void test_kernel(const KernelInfo& kernel, long random_cases, b2kernels_test::Checks& checks) {
    KernelTester tester(kernel, checks);
    Random random(0x5eed0000ULL + static_cast<uint64_t>(kernel.id));
    static uint8_t message[kMaxBlocks * kBlockBytes];

    for (long i = 0; i < random_cases; ++i) {
        Case c = random_case(random);
        fill(message, c.block_count * kBlockBytes, random);
        tester.compare("random", c, message);
    }

    // The 128-bit counter carries from t[0] into t[1] inside a multi-block call, including
    // t[1] itself wrapping around.
    for (uint64_t below_wrap = 0; below_wrap < 3 * kBlockBytes; below_wrap += 61) {
        for (const uint64_t high : {uint64_t{0}, uint64_t{41}, ~uint64_t{0}}) {
            Case c = random_case(random);
            c.state.t[0] = ~uint64_t{0} - below_wrap;
            c.state.t[1] = high;
            c.block_count = 6;
            c.counter_increment = kBlockBytes;
            fill(message, c.block_count * kBlockBytes, random);
            tester.compare("counter carry", c, message);
        }
    }

    // Every flag combination a caller can set: last block, last node, both, neither.
    for (const uint64_t last_block : {uint64_t{0}, ~uint64_t{0}}) {
        for (const uint64_t last_node : {uint64_t{0}, ~uint64_t{0}}) {
            Case c = random_case(random);
            c.state.f[0] = last_block;
            c.state.f[1] = last_node;
            c.block_count = 1;
            fill(message, kBlockBytes, random);
            tester.compare("flags", c, message);
        }
    }

    // Every final-block length, with an empty block count too.
    for (uint64_t increment = 0; increment <= kBlockBytes; ++increment) {
        Case c = random_case(random);
        c.counter_increment = increment;
        c.block_count = 1;
        fill(message, kBlockBytes, random);
        tester.compare("increment", c, message);
    }
    {
        Case c = random_case(random);
        c.block_count = 0;
        tester.compare("zero blocks", c, message);
    }

    // Long multi-block calls, at every input misalignment.
    for (size_t blocks = 1; blocks <= kMaxBlocks; ++blocks) {
        for (size_t misalignment = 0; misalignment <= kMaxMisalignment; misalignment += 5) {
            Case c = random_case(random);
            c.block_count = blocks;
            c.counter_increment = kBlockBytes;
            c.misalignment = misalignment;
            fill(message, blocks * kBlockBytes, random);
            tester.compare("multi-block", c, message);
        }
    }
    std::printf("  %-7s %ld cases compared with the oracle\n", kernel.name, tester.cases());
}

}  // namespace

int main(int argc, char** argv) {
    long random_cases = 3000;
    if (argc > 1) {
        random_cases = std::strtol(argv[1], nullptr, 10);
    }
    b2kernels_test::Checks checks("test_kernels");
    namespace dispatch = blake2simd::dispatch;

    const auto kernels = dispatch::compiled_kernels();
    checks.check(!kernels.empty() && kernels[0].id == blake2simd::KernelId::ref,
                 "the reference kernel comes first in the catalogue");
    checks.check(dispatch::is_runnable(kernels[0]), "the reference kernel passes its self-test");

    const auto& features = blake2simd::cpu::detected_features();
    for (const KernelInfo& kernel : kernels) {
        const bool supported = dispatch::cpu_can_run(kernel.id, features);
        // A kernel the CPU supports but the dispatcher refuses means a failed self-test.
        checks.check(
            dispatch::is_runnable(kernel) == supported,
            (std::string(kernel.name) + ": runnable exactly when the CPU supports it").c_str());
        if (!dispatch::is_runnable(kernel)) {
            std::printf("  %-7s SKIPPED (%s)\n", kernel.name,
                        supported ? "failed its self-test" : "not supported by this CPU");
            continue;
        }
        test_kernel(kernel, random_cases, checks);
    }
    return checks.finish();
}
