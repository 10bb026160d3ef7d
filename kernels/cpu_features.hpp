// What the running CPU and OS let this process execute, decided from raw CPUID/XGETBV readings.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>

namespace blake2simd::cpu {

// Raw register values, so the decision can be tested against any CPU without owning one.
struct CpuidReadings {
    uint32_t max_basic_leaf;  // CPUID.0:EAX
    uint32_t leaf1_ecx;       // CPUID.1:ECX
    uint32_t leaf7_ebx;       // CPUID.(EAX=7,ECX=0):EBX; meaningless when max_basic_leaf < 7
    uint64_t xcr0;            // XGETBV(0); meaningless when CPUID.1:ECX.OSXSAVE is clear
};

// Each flag means "usable now": the CPU has the instructions, the OS saves the registers they
// use, and every feature the compiler may assume alongside it (see decide_features) is usable.
struct CpuFeatures {
    bool ssse3;
    bool avx;
    bool avx2;
    bool avx512f;
    bool avx512vl;
};

// Pure decision from readings; no CPUID is executed.
CpuFeatures decide_features(const CpuidReadings& readings) noexcept;

// The readings of the running CPU (all zero on non-x86 builds).
CpuidReadings read_cpuid() noexcept;

// decide_features(read_cpuid()), computed once per process on first use, thread-safely.
const CpuFeatures& detected_features() noexcept;

}  // namespace blake2simd::cpu
