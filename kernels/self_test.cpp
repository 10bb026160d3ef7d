// Known-answer self-tests a kernel (single-lane or multi-lane, BLAKE2b or BLAKE2s) must pass
// before it serves anyone.
// SPDX-License-Identifier: Apache-2.0
#include <cstring>

#include "baseline_guard.hpp"
#include "digest_bytes.hpp"
#include "forms.hpp"
#include "lanes_by_lane.hpp"

namespace blake2simd {
namespace {

constexpr size_t kMessageBytes = 300;

// The digests of bytes (i % 251) for i in 0..299, computed with Python's hashlib.blake2b
// (64 bytes) and hashlib.blake2s (32 bytes).
constexpr uint8_t kExpectedBlake2b[kBlake2bMaxDigestBytes] = {
    0x3a, 0x48, 0x2b, 0x77, 0x48, 0xb0, 0xbd, 0xc4, 0x3c, 0x3d, 0x00, 0xc0, 0x80, 0x89, 0x0c, 0x10,
    0xe5, 0x7a, 0x9a, 0xa5, 0x61, 0x8f, 0x78, 0xb8, 0x60, 0x67, 0xeb, 0x7e, 0xaa, 0xe4, 0x94, 0x2a,
    0xcd, 0x96, 0xd8, 0x27, 0xac, 0xcb, 0xc1, 0x69, 0x58, 0x36, 0x4a, 0xe5, 0xb0, 0xdf, 0x61, 0x05,
    0xbb, 0xd3, 0xb1, 0x54, 0x45, 0x09, 0x2e, 0xba, 0x11, 0x37, 0xb5, 0xf6, 0x9c, 0x10, 0x70, 0xf1,
};
constexpr uint8_t kExpectedBlake2s[kBlake2sMaxDigestBytes] = {
    0x20, 0x3d, 0x64, 0x41, 0x34, 0x92, 0x13, 0xc6, 0xb2, 0xb7, 0x27, 0xd0, 0xac, 0x6b, 0xeb, 0x36,
    0x5f, 0x32, 0x93, 0x8c, 0xef, 0x2c, 0xd0, 0x67, 0x7f, 0x2a, 0x6b, 0x7f, 0x8c, 0xb0, 0x2d, 0xd7,
};

template <class Family>
bool passes_known_answer(typename Family::Compress compress) noexcept {
    const uint8_t* expected =
        Family::kMember == Member::blake2b ? kExpectedBlake2b : kExpectedBlake2s;
    using Word = typename Family::Word;
    constexpr size_t kBlock = Family::kBlockBytes;
    uint8_t message[kMessageBytes];
    for (size_t i = 0; i < kMessageBytes; ++i) {
        message[i] = static_cast<uint8_t>(i % 251);
    }
    typename Family::State state{};
    std::memcpy(state.h, Family::kIV, sizeof state.h);
    state.h[0] ^= static_cast<Word>(0x01010000U | Family::kMaxDigestBytes);  // depth 1, fanout 1

    constexpr size_t full_blocks = (kMessageBytes - 1) / kBlock;
    compress(&state, message, full_blocks, static_cast<Word>(kBlock));

    uint8_t last_block[kBlock] = {};
    const size_t tail = kMessageBytes - full_blocks * kBlock;
    std::memcpy(last_block, message + full_blocks * kBlock, tail);
    state.f[0] = static_cast<Word>(~Word{0});
    compress(&state, last_block, 1, static_cast<Word>(tail));

    uint8_t digest[Family::kMaxDigestBytes];
    write_digest(state, digest, sizeof digest);
    return std::memcmp(digest, expected, sizeof digest) == 0;
}

// --- multi-lane self-test: `compress` against the reference kernel lane by lane

constexpr size_t kTestSteps = 3;

template <class Family, size_t kLanes>
void initial_test_states(typename Family::State* states) noexcept {
    using Word = typename Family::Word;
    constexpr Word kMax = static_cast<Word>(~Word{0});
    constexpr Word kHigh = static_cast<Word>(Word{1} << (sizeof(Word) * 8 - 24));
    // Distinct chaining values; lanes 1 and 3 (mod 4) carry out of t[0] during the test;
    // every combination of the two flags occurs.
    constexpr Word kCounters[4] = {0, kMax - 200, kHigh, kMax - 127};
    for (size_t lane = 0; lane < kLanes; ++lane) {
        for (size_t i = 0; i < 8; ++i) {
            states[lane].h[i] =
                Family::kIV[i] ^ static_cast<Word>(0x0123456789abcdefULL * (lane * 8 + i + 1));
        }
        states[lane].t[0] = static_cast<Word>(kCounters[lane % 4] - lane / 4);
        states[lane].t[1] = static_cast<Word>(lane * 0x1000000001ULL);
        states[lane].f[0] = (lane & 1) != 0 ? kMax : 0;
        states[lane].f[1] = (lane & 2) != 0 ? kMax : 0;
    }
}

template <class Family, size_t kLanes>
void run_test_calls(typename Family::CompressLanes compress, typename Family::State* states,
                    const uint8_t* area) noexcept {
    constexpr auto kBlock = static_cast<typename Family::Word>(Family::kBlockBytes);
    // The tree mode's layout from an odd address; one block shared by all lanes (a key block);
    // contiguous runs in arbitrary order.
    const uint8_t* tree[kLanes];
    const uint8_t* shared[kLanes];
    const uint8_t* runs[kLanes];
    for (size_t lane = 0; lane < kLanes; ++lane) {
        tree[lane] = area + 1 + lane * kBlock;
        shared[lane] = area + 7;
        runs[lane] = area + ((lane * 5 + 3) % kLanes) * kBlock + (lane * 7) % 11;
    }
    compress(states, tree, kTestSteps, kLanes * kBlock, kBlock);
    compress(states, shared, 1, 0, kBlock / 2 + 13);  // a partial-block increment
    compress(states, runs, 2, kBlock, kBlock);
    compress(states, runs, 0, kBlock, kBlock);  // zero blocks must change nothing
}

// Against the reference kernel (the registry's first row) lane by lane.
template <class Family, size_t kLanes>
bool lanes_pass_self_test(typename Family::CompressLanes compress) noexcept {
    constexpr auto kReference =
        &compress_by_lane<Family, registry::kKernelRows[0].entries<Family>().single, kLanes>;
    constexpr size_t kAreaBytes = 16 + kTestSteps * kLanes * Family::kBlockBytes;
    uint8_t area[kAreaBytes];
    for (size_t i = 0; i < kAreaBytes; ++i) {
        area[i] = static_cast<uint8_t>((i * 167 + 13) ^ (i >> 8));
    }
    typename Family::State expected[kLanes];
    typename Family::State actual[kLanes];
    initial_test_states<Family, kLanes>(expected);
    initial_test_states<Family, kLanes>(actual);
    run_test_calls<Family, kLanes>(kReference, expected, area);
    run_test_calls<Family, kLanes>(compress, actual, area);
    return std::memcmp(expected, actual, sizeof expected) == 0;
}

template <size_t form>
bool form_passes(const Entry& entry) noexcept {
    using Family = FamilyOf<dispatch::kForms[form].member>;
    constexpr size_t kLanes = dispatch::kForms[form].lanes;
    if constexpr (kLanes == 1) {
        return passes_known_answer<Family>(entry.*Family::kSingleEntry);
    } else {
        return lanes_pass_self_test<Family, kLanes>(entry.*Family::kLanesEntry);
    }
}

}  // namespace

bool dispatch::passes_self_test(Form form, const Entry& entry) noexcept {
    static constexpr auto kSelfTests = per_form([](auto f) { return &form_passes<f>; });
    return kSelfTests[index_of(form)](entry);
}

}  // namespace blake2simd
