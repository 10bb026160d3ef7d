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
#include <random>
#include <string>

#include "forms.hpp"
#include "kernels_check.hpp"
#include "registry.hpp"
#include "support/reference_compress.hpp"

namespace {

using b2kernels_test::Random;
namespace registry = blake2simd::registry;

using blake2simd::Blake2bFamily;
using blake2simd::Blake2sFamily;

// The test's oracle of each member (support/reference_compress.hpp).
template <typename Family>
constexpr typename Family::Compress oracle() noexcept {
    if constexpr (Family::kMember == blake2simd::Member::blake2b) {
        return &b2kernels_test::reference_compress;
    } else {
        return &b2kernels_test::reference_blake2s_compress;
    }
}

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
    KernelTester(const char* name, typename Family::Compress compress, b2test::Report& checks)
        : m_name(name), m_compress(compress), m_checks(checks) {}

    void compare(const char* kind, const Case<Family>& c, const uint8_t* message) {
        const Outcome<Family> expected = run<Family>(oracle<Family>(), c, message, m_arena);
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
    b2test::Report& m_checks;
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
                 long random_cases, b2test::Report& checks) {
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

// A BlaMka kernel against the reference on random blocks, each way of writing the result (into a
// fresh block, XORed into the old one), `cases` times.
void test_blamka_kernel(const char* name, uint64_t seed, blake2simd::FillBlockFn fill_block,
                        long cases, b2test::Report& checks) {
    using blake2simd::kArgon2BlockWords;
    std::mt19937_64 rng(seed);
    long failures = 0;
    for (long c = 0; c < cases; ++c) {
        uint64_t previous[kArgon2BlockWords];
        uint64_t reference[kArgon2BlockWords];
        uint64_t expected[kArgon2BlockWords];
        for (size_t i = 0; i < kArgon2BlockWords; ++i) {
            previous[i] = rng();
            reference[i] = c % 7 == 0 ? previous[i] : rng();  // R = 0 included
            expected[i] = rng();
        }
        uint64_t actual[kArgon2BlockWords];
        std::memcpy(actual, expected, sizeof actual);
        const bool xor_into_next = (c & 1) != 0;
        blake2simd::kernels::fill_block_ref(expected, previous, reference, xor_into_next);
        fill_block(actual, previous, reference, xor_into_next);
        failures += std::memcmp(expected, actual, sizeof actual) != 0 ? 1 : 0;
    }
    checks.check(failures == 0, (std::string(name) + " BlaMka: " + std::to_string(failures) +
                                 " of " + std::to_string(cases) + " blocks differ from ref")
                                    .c_str());
    std::printf("  %-7s BlaMka: %ld blocks against ref\n", name, cases);
}

// A single-lane form's kernels, through the selection's candidates: each must also be usable
// (passed its self-test) exactly when the CPU supports it. Returns how many ran.
template <class Family>
int test_single_lane_form(blake2simd::dispatch::Form form, uint64_t seed, const char* only,
                          long random_cases, b2test::Report& checks) {
    namespace dispatch = blake2simd::dispatch;
    const auto& features = blake2simd::cpu::detected_features();
    const auto candidates = dispatch::candidates(form);
    int tested = 0;
    for (size_t i = 0; i < candidates.size(); ++i) {
        const char* name = registry::row_of(candidates[i].id).name;
        if (only != nullptr && std::strcmp(name, only) != 0) {
            continue;
        }
        const bool supported = dispatch::cpu_can_run(candidates[i].id, features);
        const bool usable = dispatch::facts(form)[i].usable;
        // A kernel the CPU supports but the selection refuses means a failed self-test.
        checks.check(usable == supported,
                     (std::string(name) + ": usable exactly when the CPU supports it").c_str());
        if (!usable) {
            std::printf("  %-7s %s: SKIPPED (%s)\n", name, Family::kName,
                        supported ? "failed its self-test" : "not supported by this CPU");
            continue;
        }
        if constexpr (Family::kMember == blake2simd::Member::blamka) {
            test_blamka_kernel(name, seed + static_cast<uint64_t>(candidates[i].id),
                               candidates[i].entry.blamka, random_cases, checks);
        } else {
            test_kernel<Family>(name, seed + static_cast<uint64_t>(candidates[i].id),
                                candidates[i].entry.*Family::kSingleEntry, random_cases, checks);
        }
        ++tested;
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
    b2test::Report checks("test_kernels");
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
        for (const blake2simd::dispatch::FormRow& form : blake2simd::dispatch::kForms) {
            const auto candidates = blake2simd::dispatch::candidates(form.form);
            checks.check(!candidates.empty() && candidates[0].id == blake2simd::KernelId::ref,
                         "the reference kernel comes first in every form");
            checks.check(blake2simd::dispatch::facts(form.form)[0].usable,
                         "the reference kernel passes every form's self-test");
        }
    }

    using blake2simd::dispatch::Form;
    const int blake2b_forms = test_single_lane_form<Blake2bFamily>(Form::blake2b, 0x5eed0000ULL,
                                                                   only, random_cases, checks);
    const int blake2s_forms = test_single_lane_form<Blake2sFamily>(Form::blake2s, 0x5eed2500ULL,
                                                                   only, random_cases, checks);
    const int blamka_forms = test_single_lane_form<blake2simd::BlamkaFamily>(
        Form::blamka, 0x5eed4a00ULL, only, random_cases, checks);
    std::printf("test_kernels: %d BLAKE2b, %d BLAKE2s and %d BlaMka kernel forms tested\n",
                blake2b_forms, blake2s_forms, blamka_forms);
    return checks.finish();
}
