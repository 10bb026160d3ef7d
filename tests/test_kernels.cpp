// Every runnable compiled kernel, `ref` included, against the plain test oracles
// (support/reference_compress.hpp), on random and edge-case inputs: the BLAKE2b form of every
// registry row and the BLAKE2s form of every row that has one.
// SPDX-License-Identifier: Apache-2.0
//
// Usage: test_kernels [random_cases] [kernel]
//   random_cases defaults to 3000 (emulators pass fewer). With a kernel (a registry row's name,
//   as the build's kernel list spells it) only that row's forms run, and the program exits 77
//   when this CPU cannot run them.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "dispatch.hpp"
#include "kernels_check.hpp"
#include "registry.hpp"
#include "support/reference_compress.hpp"

namespace {

using b2kernels_test::Random;
namespace registry = blake2simd::registry;

// What the generic tester needs to know of an algorithm.
struct Blake2b {
    using State = blake2simd::Blake2bState;
    using Word = uint64_t;
    using Compress = blake2simd::CompressFn;
    static constexpr size_t kBlockBytes = blake2simd::kBlockBytes;
    static constexpr const char* kName = "BLAKE2b";
    static constexpr Compress kOracle = &b2kernels_test::reference_compress;
};

struct Blake2s {
    using State = blake2simd::Blake2sState;
    using Word = uint32_t;
    using Compress = blake2simd::Blake2sCompressFn;
    static constexpr size_t kBlockBytes = blake2simd::kBlake2sBlockBytes;
    static constexpr const char* kName = "BLAKE2s";
    static constexpr Compress kOracle = &b2kernels_test::reference_blake2s_compress;
};

constexpr size_t kMaxBlocks = 20;
constexpr size_t kMaxMisalignment = 15;
constexpr size_t kMaxBlockBytes = 128;

template <typename Family>
struct Case {
    typename Family::State state;
    size_t block_count;
    typename Family::Word counter_increment;
    size_t misalignment;  // input starts this many bytes past a 64-byte boundary
};

// The buffers a case runs in: input at an odd offset, state surrounded by guard words and only
// 8-byte aligned (never 16 or 32), as a malloc'd OpenSSL context may place it.
struct Arena {
    alignas(64) uint8_t input[kMaxMisalignment + kMaxBlocks * kMaxBlockBytes + 64];
    alignas(64) uint64_t state_words[1 + sizeof(blake2simd::Blake2bState) / 8 + 1];
};

constexpr uint64_t kGuard = 0xA5A5A5A5A5A5A5A5ULL;

template <typename Family>
struct Outcome {
    typename Family::State state;
    bool guards_intact;
    bool input_intact;
};

template <typename Family>
Outcome<Family> run(typename Family::Compress compress, const Case<Family>& c,
                    const uint8_t* message, Arena& arena) {
    using State = typename Family::State;
    static_assert(sizeof(State) % 8 == 0);
    constexpr size_t kStateWords = sizeof(State) / 8;
    const size_t bytes = c.block_count * Family::kBlockBytes;
    uint8_t* input = arena.input + c.misalignment;
    std::memcpy(input, message, bytes);
    arena.state_words[0] = kGuard;
    arena.state_words[1 + kStateWords] = kGuard;
    auto* state = reinterpret_cast<State*>(&arena.state_words[1]);
    std::memcpy(state, &c.state, sizeof c.state);

    compress(state, input, c.block_count, c.counter_increment);

    Outcome<Family> outcome{};
    std::memcpy(&outcome.state, state, sizeof outcome.state);
    outcome.guards_intact =
        arena.state_words[0] == kGuard && arena.state_words[1 + kStateWords] == kGuard;
    outcome.input_intact = std::memcmp(input, message, bytes) == 0;
    return outcome;
}

template <typename Family>
std::string describe(const char* kernel, const char* kind, const Case<Family>& c) {
    char text[256];
    std::snprintf(text, sizeof text,
                  "%s %s differs from the oracle (%s): blocks=%zu increment=%" PRIu64
                  " misalignment=%zu t=%" PRIx64 ":%" PRIx64 " f=%" PRIx64 ":%" PRIx64,
                  kernel, Family::kName, kind, c.block_count, uint64_t{c.counter_increment},
                  c.misalignment, uint64_t{c.state.t[1]}, uint64_t{c.state.t[0]},
                  uint64_t{c.state.f[1]}, uint64_t{c.state.f[0]});
    return text;
}

template <typename Family>
class KernelTester final {
  public:
    KernelTester(const char* name, typename Family::Compress compress,
                 b2kernels_test::Checks& checks)
        : m_name(name), m_compress(compress), m_checks(checks) {}

    void compare(const char* kind, const Case<Family>& c, const uint8_t* message) {
        const Outcome<Family> expected = run<Family>(Family::kOracle, c, message, m_arena);
        const Outcome<Family> actual = run<Family>(m_compress, c, message, m_arena);
        const bool same = std::memcmp(&expected.state, &actual.state, sizeof expected.state) == 0;
        ++m_cases;
        if (!same || !actual.guards_intact || !actual.input_intact) {
            const std::string what = describe(m_name, kind, c);
            m_checks.check(same, what.c_str());
            m_checks.check(actual.guards_intact, (what + ": wrote outside the state").c_str());
            m_checks.check(actual.input_intact, (what + ": modified its input").c_str());
        } else {
            m_checks.check(true, "");
        }
    }

    [[nodiscard]] long cases() const noexcept { return m_cases; }

  private:
    const char* m_name;
    typename Family::Compress m_compress;
    b2kernels_test::Checks& m_checks;
    Arena m_arena{};
    long m_cases = 0;
};

template <typename Family>
Case<Family> random_case(Random& random) {
    using Word = typename Family::Word;
    constexpr Word kOnes = ~Word{0};
    Case<Family> c{};
    for (auto& word : c.state.h) {
        word = static_cast<Word>(random.next());
    }
    c.state.t[0] = static_cast<Word>(random.next());
    c.state.t[1] = static_cast<Word>(random.next());
    // Real flags are all-zero or all-one, but the kernels must just XOR whatever is there.
    c.state.f[0] =
        random.below(3) == 0 ? static_cast<Word>(random.next()) : (random.below(2) ? kOnes : 0);
    c.state.f[1] = random.below(3) == 0 ? static_cast<Word>(random.next())
                                        : (random.below(4) == 0 ? kOnes : 0);
    c.block_count = 1 + random.below(4);
    c.counter_increment = static_cast<Word>(
        random.below(2) ? Family::kBlockBytes : random.below(Family::kBlockBytes + 1));
    c.misalignment = random.below(kMaxMisalignment + 1);
    return c;
}

void fill(uint8_t* message, size_t bytes, Random& random) {
    for (size_t i = 0; i < bytes; ++i) {
        message[i] = static_cast<uint8_t>(random.next());
    }
}

template <typename Family>
void test_kernel(const char* name, uint64_t seed, typename Family::Compress compress,
                 long random_cases, b2kernels_test::Checks& checks) {
    using Word = typename Family::Word;
    constexpr size_t kBlock = Family::kBlockBytes;
    KernelTester<Family> tester(name, compress, checks);
    Random random(seed);
    static uint8_t message[kMaxBlocks * kMaxBlockBytes];

    for (long i = 0; i < random_cases; ++i) {
        Case<Family> c = random_case<Family>(random);
        fill(message, c.block_count * kBlock, random);
        tester.compare("random", c, message);
    }

    // The double-word counter carries from t[0] into t[1] inside a multi-block call (at 2^64
    // for BLAKE2b, 2^32 for BLAKE2s), including t[1] itself wrapping around.
    for (Word below_wrap = 0; below_wrap < 3 * kBlock; below_wrap += 61) {
        for (const Word high : {Word{0}, Word{41}, ~Word{0}}) {
            Case<Family> c = random_case<Family>(random);
            c.state.t[0] = static_cast<Word>(~Word{0} - below_wrap);
            c.state.t[1] = high;
            c.block_count = 6;
            c.counter_increment = kBlock;
            fill(message, c.block_count * kBlock, random);
            tester.compare("counter carry", c, message);
        }
    }

    // Every flag combination a caller can set: last block, last node, both, neither.
    for (const Word last_block : {Word{0}, ~Word{0}}) {
        for (const Word last_node : {Word{0}, ~Word{0}}) {
            Case<Family> c = random_case<Family>(random);
            c.state.f[0] = last_block;
            c.state.f[1] = last_node;
            c.block_count = 1 + random.below(3);
            fill(message, c.block_count * kBlock, random);
            tester.compare("flags", c, message);
        }
    }

    // Every final-block length, with an empty block count too.
    for (Word increment = 0; increment <= kBlock; ++increment) {
        Case<Family> c = random_case<Family>(random);
        c.counter_increment = increment;
        c.block_count = 1;
        fill(message, kBlock, random);
        tester.compare("increment", c, message);
    }
    {
        Case<Family> c = random_case<Family>(random);
        c.block_count = 0;
        tester.compare("zero blocks", c, message);
    }

    // Long multi-block calls, at every input misalignment.
    for (size_t blocks = 1; blocks <= kMaxBlocks; ++blocks) {
        for (size_t misalignment = 0; misalignment <= kMaxMisalignment; misalignment += 5) {
            Case<Family> c = random_case<Family>(random);
            c.block_count = blocks;
            c.counter_increment = kBlock;
            c.misalignment = misalignment;
            fill(message, blocks * kBlock, random);
            tester.compare("multi-block", c, message);
        }
    }
    std::printf("  %-7s %s: %ld cases compared with the oracle\n", name, Family::kName,
                tester.cases());
}

// The BLAKE2b forms, through the dispatcher's catalogue: each must also be runnable (passed
// its self-test) exactly when the CPU supports it. Returns how many ran.
int test_blake2b_forms(const char* only, long random_cases, b2kernels_test::Checks& checks) {
    namespace dispatch = blake2simd::dispatch;
    const auto& features = blake2simd::cpu::detected_features();
    int tested = 0;
    for (const blake2simd::KernelInfo& kernel : dispatch::compiled_kernels()) {
        if (only != nullptr && std::strcmp(kernel.name, only) != 0) {
            continue;
        }
        const bool supported = dispatch::cpu_can_run(kernel.id, features);
        // A kernel the CPU supports but the dispatcher refuses means a failed self-test.
        checks.check(
            dispatch::is_runnable(kernel) == supported,
            (std::string(kernel.name) + ": runnable exactly when the CPU supports it").c_str());
        if (!dispatch::is_runnable(kernel)) {
            std::printf("  %-7s BLAKE2b: SKIPPED (%s)\n", kernel.name,
                        supported ? "failed its self-test" : "not supported by this CPU");
            continue;
        }
        test_kernel<Blake2b>(kernel.name, 0x5eed0000ULL + static_cast<uint64_t>(kernel.id),
                             kernel.compress, random_cases, checks);
        ++tested;
    }
    return tested;
}

// The BLAKE2s forms: the BLAKE2s column of every built registry row that has one.
int test_blake2s_forms(const char* only, long random_cases, b2kernels_test::Checks& checks) {
    const auto& features = blake2simd::cpu::detected_features();
    int tested = 0;
    for (const registry::KernelRow& row : registry::kKernelRows) {
        if (!row.built || !row.blake2s.has_single ||
            (only != nullptr && std::strcmp(row.name, only) != 0)) {
            continue;
        }
        checks.check(row.blake2s.compress != nullptr,
                     (std::string(row.name) + ": a built BLAKE2s form has an entry").c_str());
        if (!registry::meets(row.need, features)) {
            std::printf("  %-7s BLAKE2s: SKIPPED (not supported by this CPU)\n", row.name);
            continue;
        }
        if (row.blake2s.compress != nullptr) {
            test_kernel<Blake2s>(row.name, 0x5eed2500ULL + static_cast<uint64_t>(row.id),
                                 row.blake2s.compress, random_cases, checks);
            ++tested;
        }
    }
    return tested;
}

// The BLAKE2s oracle (rfc7693.hpp) must reproduce RFC 7693 appendix B's BLAKE2s-256("abc")
// before it may judge any kernel.
bool blake2s_oracle_reproduces_rfc7693() {
    static constexpr uint8_t kExpected[32] = {0x50, 0x8C, 0x5E, 0x8C, 0x32, 0x7C, 0x14, 0xE2,
                                              0xE1, 0xA7, 0x2B, 0xA3, 0x4E, 0xEB, 0x45, 0x2F,
                                              0x37, 0x45, 0x8B, 0x20, 0x9E, 0xD6, 0x3A, 0x29,
                                              0x4D, 0x99, 0x9B, 0x4C, 0x86, 0x67, 0x59, 0x82};
    blake2simd::Blake2sState state{};
    for (size_t i = 0; i < 8; ++i) {
        state.h[i] = rfc7693::detail::Variant<uint32_t>::kIv[i];
    }
    state.h[0] ^= 0x01010020U;  // digest length 32, no key, fanout 1, depth 1
    state.f[0] = ~uint32_t{0};
    uint8_t block[blake2simd::kBlake2sBlockBytes] = {'a', 'b', 'c'};
    b2kernels_test::reference_blake2s_compress(&state, block, 1, 3);
    uint8_t digest[32];
    for (size_t i = 0; i < 32; ++i) {
        digest[i] = static_cast<uint8_t>(state.h[i / 4] >> (8 * (i % 4)));
    }
    return std::memcmp(digest, kExpected, sizeof digest) == 0;
}

const registry::KernelRow* find_row(const char* name) {
    for (const registry::KernelRow& row : registry::kKernelRows) {
        if (std::strcmp(row.name, name) == 0) {
            return &row;
        }
    }
    return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
    long random_cases = 3000;
    if (argc > 1) {
        random_cases = std::strtol(argv[1], nullptr, 10);
    }
    const char* only = argc > 2 ? argv[2] : nullptr;
    b2kernels_test::Checks checks("test_kernels");
    checks.check(blake2s_oracle_reproduces_rfc7693(),
                 "the BLAKE2s oracle reproduces RFC 7693's BLAKE2s-256(\"abc\")");

    if (only != nullptr) {
        const registry::KernelRow* row = find_row(only);
        if (row == nullptr || !row->built) {
            std::fprintf(stderr, "test_kernels: '%s' is no kernel of this build\n", only);
            return 1;
        }
        if (!registry::meets(row->need, blake2simd::cpu::detected_features())) {
            std::printf("test_kernels: SKIPPED: this CPU cannot run the %s kernel\n", only);
            return b2kernels_test::kSkipExitCode;
        }
    } else {
        const auto kernels = blake2simd::dispatch::compiled_kernels();
        checks.check(!kernels.empty() && kernels[0].id == blake2simd::KernelId::ref,
                     "the reference kernel comes first in the catalogue");
        checks.check(blake2simd::dispatch::is_runnable(kernels[0]),
                     "the reference kernel passes its self-test");
        checks.check(registry::kKernelRows[0].blake2s.has_single,
                     "the reference kernel has a BLAKE2s form");
    }

    const int blake2b_forms = test_blake2b_forms(only, random_cases, checks);
    const int blake2s_forms = test_blake2s_forms(only, random_cases, checks);
    std::printf("test_kernels: %d BLAKE2b and %d BLAKE2s kernel forms tested\n", blake2b_forms,
                blake2s_forms);
    return checks.finish();
}
