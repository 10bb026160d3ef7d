// Known-answer self-test a kernel must pass before it serves anyone.
// SPDX-License-Identifier: Apache-2.0
#include "self_test.hpp"
#include "baseline_guard.hpp"

#include <cstring>

#include "digest_bytes.hpp"

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

}  // namespace blake2simd
