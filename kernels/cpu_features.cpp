// CPU feature detection: CPUID leaves 1 and 7 plus the OS-enabled register state from XGETBV.
// SPDX-License-Identifier: Apache-2.0
#include "cpu_features.hpp"

#include "baseline_guard.hpp"
#include "once.hpp"

#if defined(__x86_64__) || defined(_M_X64)
#include <cpuid.h>
#endif

namespace blake2simd::cpu {
namespace {

constexpr uint32_t kLeaf1EcxSsse3 = 1u << 9;
constexpr uint32_t kLeaf1EcxOsxsave = 1u << 27;  // the OS enabled XSAVE, so XGETBV is allowed
constexpr uint32_t kLeaf1EcxAvx = 1u << 28;
constexpr uint32_t kLeaf7EbxAvx2 = 1u << 5;
constexpr uint32_t kLeaf7EbxAvx512f = 1u << 16;
constexpr uint32_t kLeaf7EbxAvx512vl = 1u << 31;

// XCR0 bits: SSE (XMM) state, AVX (upper YMM) state, and the three AVX-512 components
// (opmask registers, upper halves of ZMM0-15, ZMM16-31).
constexpr uint64_t kXcr0XmmYmm = 0x6;
constexpr uint64_t kXcr0Avx512 = 0xE0;

bool all_set(uint64_t value, uint64_t bits) {
    return (value & bits) == bits;
}

}  // namespace

CpuFeatures decide_features(const CpuidReadings& readings) noexcept {
    CpuFeatures features{};
    features.ssse3 = all_set(readings.leaf1_ecx, kLeaf1EcxSsse3);

    // XCR0 may only be read (and trusted) when the OS advertises OSXSAVE. Both XMM and YMM
    // state must be enabled: YMM alone is not enough and XMM alone (aklomp/base64#121) is not
    // either. Compilers treat -mavx as implying SSSE3, so a CPU claiming AVX without SSSE3 gets
    // neither AVX kernel.
    const bool os_saves_ymm =
        all_set(readings.leaf1_ecx, kLeaf1EcxOsxsave) && all_set(readings.xcr0, kXcr0XmmYmm);
    features.avx = os_saves_ymm && features.ssse3 && all_set(readings.leaf1_ecx, kLeaf1EcxAvx);

    // Leaf 7 registers hold whatever the CPU returns for an unsupported leaf (often the
    // highest leaf's data) when the maximum leaf is below 7.
    const uint32_t leaf7_ebx = readings.max_basic_leaf >= 7 ? readings.leaf7_ebx : 0;
    features.avx2 = features.avx && all_set(leaf7_ebx, kLeaf7EbxAvx2);

    // -mavx512f implies -mavx2 in GCC and clang, so the AVX-512 kernel also needs usable AVX2.
    const bool os_saves_zmm = os_saves_ymm && all_set(readings.xcr0, kXcr0Avx512);
    features.avx512f = os_saves_zmm && features.avx2 && all_set(leaf7_ebx, kLeaf7EbxAvx512f);
    features.avx512vl = features.avx512f && all_set(leaf7_ebx, kLeaf7EbxAvx512vl);
    return features;
}

CpuidReadings read_cpuid() noexcept {
    CpuidReadings readings{};
#if defined(__x86_64__) || defined(_M_X64)
    unsigned eax = 0;
    unsigned ebx = 0;
    unsigned ecx = 0;
    unsigned edx = 0;
    __cpuid(0, eax, ebx, ecx, edx);
    readings.max_basic_leaf = eax;
    if (readings.max_basic_leaf >= 1) {
        __cpuid(1, eax, ebx, ecx, edx);
        readings.leaf1_ecx = ecx;
    }
    if (readings.max_basic_leaf >= 7) {
        __cpuid_count(7, 0, eax, ebx, ecx, edx);
        readings.leaf7_ebx = ebx;
    }
    if (all_set(readings.leaf1_ecx, kLeaf1EcxOsxsave)) {
        // Spelled as asm: the _xgetbv intrinsic needs -mxsave, which this file must not use.
        uint32_t xcr0_low = 0;
        uint32_t xcr0_high = 0;
        __asm__ volatile("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
        readings.xcr0 = (static_cast<uint64_t>(xcr0_high) << 32) | xcr0_low;
    }
#endif
    return readings;
}

namespace {

CpuFeatures detect_features() noexcept {
    return decide_features(read_cpuid());
}

}  // namespace

const CpuFeatures& detected_features() noexcept {
    return ComputedOnce<CpuFeatures, &detect_features>::get();
}

}  // namespace blake2simd::cpu
