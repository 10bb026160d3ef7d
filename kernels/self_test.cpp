// Known-answer self-tests a kernel (single-lane or 4-lane) must pass before it serves anyone.
// SPDX-License-Identifier: Apache-2.0
#include "self_test.hpp"

#include <cstring>

#include "baseline_guard.hpp"
#include "digest_bytes.hpp"
#include "dispatch_lanes4.hpp"
#include "lanes4_by_lane.hpp"

namespace blake2simd {
namespace {

constexpr size_t kMessageBytes = 300;

// BLAKE2b-512 of bytes (i % 251) for i in 0..299, computed with Python's hashlib.blake2b.
constexpr uint8_t kExpectedDigest[kMaxDigestBytes] = {
    0x3a, 0x48, 0x2b, 0x77, 0x48, 0xb0, 0xbd, 0xc4, 0x3c, 0x3d, 0x00, 0xc0, 0x80, 0x89, 0x0c, 0x10,
    0xe5, 0x7a, 0x9a, 0xa5, 0x61, 0x8f, 0x78, 0xb8, 0x60, 0x67, 0xeb, 0x7e, 0xaa, 0xe4, 0x94, 0x2a,
    0xcd, 0x96, 0xd8, 0x27, 0xac, 0xcb, 0xc1, 0x69, 0x58, 0x36, 0x4a, 0xe5, 0xb0, 0xdf, 0x61, 0x05,
    0xbb, 0xd3, 0xb1, 0x54, 0x45, 0x09, 0x2e, 0xba, 0x11, 0x37, 0xb5, 0xf6, 0x9c, 0x10, 0x70, 0xf1,
};

// --- 4-lane self-test

constexpr size_t kTestSteps = 3;
constexpr size_t kInterleavedStride = kLanes * kBlockBytes;
constexpr size_t kAreaBytes = 8 + kTestSteps * kInterleavedStride;

void reference_lanes(Blake2bState* states, const uint8_t* const* blocks, size_t block_count,
                     size_t block_stride, uint64_t counter_increment) noexcept {
    compress4_by_lane<&kernels::compress_ref>(states, blocks, block_count, block_stride,
                                              counter_increment);
}

void initial_test_states(Blake2bState states[kLanes]) noexcept {
    // Distinct chaining values; lanes 1 and 3 carry out of t[0] during the test; every
    // combination of the two flags occurs once.
    constexpr uint64_t kCounters[kLanes] = {0, ~0ULL - 200, 1ULL << 40, ~0ULL - 127};
    for (size_t lane = 0; lane < kLanes; ++lane) {
        for (size_t i = 0; i < 8; ++i) {
            states[lane].h[i] = kIV[i] ^ (0x0123456789abcdefULL * (lane * 8 + i + 1));
        }
        states[lane].t[0] = kCounters[lane];
        states[lane].t[1] = lane * 0x1000000001ULL;
        states[lane].f[0] = (lane & 1) != 0 ? ~0ULL : 0;
        states[lane].f[1] = (lane & 2) != 0 ? ~0ULL : 0;
    }
}

void run_test_calls(Compress4Fn compress4, Blake2bState states[kLanes],
                    const uint8_t* area) noexcept {
    // BLAKE2bp's layout, from an odd address.
    const uint8_t* interleaved[kLanes];
    for (size_t lane = 0; lane < kLanes; ++lane) {
        interleaved[lane] = area + 1 + lane * kBlockBytes;
    }
    compress4(states, interleaved, kTestSteps, kInterleavedStride, kBlockBytes);
    // One block shared by all lanes (a key block), partial-block increment.
    const uint8_t* shared[kLanes] = {area + 7, area + 7, area + 7, area + 7};
    compress4(states, shared, 1, 0, 77);
    // Contiguous runs in arbitrary order; zero blocks must change nothing.
    const uint8_t* runs[kLanes] = {area + 3 * kBlockBytes, area + 2, area + 5 * kBlockBytes + 4,
                                   area + 9};
    compress4(states, runs, 2, kBlockBytes, kBlockBytes);
    compress4(states, runs, 0, kBlockBytes, kBlockBytes);
}

}  // namespace

bool passes_self_test(CompressFn compress) noexcept {
    uint8_t message[kMessageBytes];
    for (size_t i = 0; i < kMessageBytes; ++i) {
        message[i] = static_cast<uint8_t>(i % 251);
    }
    Blake2bState state{};
    for (int i = 0; i < 8; ++i) {
        state.h[i] = kIV[i];
    }
    state.h[0] ^= 0x01010000ULL | kMaxDigestBytes;  // depth 1, fanout 1, no key

    constexpr size_t full_blocks = (kMessageBytes - 1) / kBlockBytes;
    compress(&state, message, full_blocks, kBlockBytes);

    uint8_t last_block[kBlockBytes] = {};
    const size_t tail = kMessageBytes - full_blocks * kBlockBytes;
    std::memcpy(last_block, message + full_blocks * kBlockBytes, tail);
    state.f[0] = ~0ULL;
    compress(&state, last_block, 1, tail);

    uint8_t digest[kMaxDigestBytes];
    write_digest(state, digest, sizeof digest);
    return std::memcmp(digest, kExpectedDigest, sizeof digest) == 0;
}

namespace dispatch {

bool lanes4_passes_self_test(Compress4Fn compress4) noexcept {
    uint8_t area[kAreaBytes];
    for (size_t i = 0; i < kAreaBytes; ++i) {
        area[i] = static_cast<uint8_t>((i * 167 + 13) ^ (i >> 8));
    }
    Blake2bState expected[kLanes];
    Blake2bState actual[kLanes];
    initial_test_states(expected);
    initial_test_states(actual);
    run_test_calls(&reference_lanes, expected, area);
    run_test_calls(compress4, actual, area);
    return std::memcmp(expected, actual, sizeof expected) == 0;
}

}  // namespace dispatch
}  // namespace blake2simd
