// decide_features() against CPUID/XGETBV readings of real CPUs and of odd VM/OS configurations.
// SPDX-License-Identifier: Apache-2.0
#include <cstdio>
#include <string>

#include "cpu_features.hpp"
#include "forms.hpp"
#include "kernels_check.hpp"

namespace {

using blake2simd::cpu::CpuFeatures;
using blake2simd::cpu::CpuidReadings;

// XCR0 values: x87+SSE, +AVX, +AVX-512 (opmask, ZMM_Hi256, Hi16_ZMM), +PKRU as Linux sets it.
constexpr uint64_t kXcr0Sse = 0x3;
constexpr uint64_t kXcr0Avx = 0x7;
constexpr uint64_t kXcr0Avx512 = 0x2E7;

// Register values as those CPUs report them (leaf 1 ECX, leaf 7 EBX).
constexpr uint32_t kCore2Ecx = 0x0000E3BD;        // Core 2 Duo E6600: SSSE3, no SSE4.1
constexpr uint32_t kNehalemEcx = 0x0098E3BD;      // Core i7-920: SSE4.2, no AVX/XSAVE
constexpr uint32_t kSandyBridgeEcx = 0x1FBAE3FF;  // Core i7-2600: AVX, XSAVE, OSXSAVE
constexpr uint32_t kHaswellEcx = 0x7FFAFBFF;      // Core i7-4770
constexpr uint32_t kHaswellLeaf7Ebx = 0x000027AB;
constexpr uint32_t kSkylakeXEcx = 0x7FFEFBFF;  // Core i9-7900X
constexpr uint32_t kSkylakeXLeaf7Ebx = 0xD39FFFFB;
constexpr uint32_t kZen4Ecx = 0x7ED8320B;  // Ryzen 9 7950X
constexpr uint32_t kZen4Leaf7Ebx = 0xF1BF97A9;
constexpr uint32_t kKnightsLandingLeaf7Ebx = 0x1C0D23AB;  // AVX512F/CD/ER/PF, no VL

constexpr uint32_t kOsxsave = 1u << 27;
constexpr uint32_t kAvx = 1u << 28;
constexpr uint32_t kSsse3 = 1u << 9;
constexpr uint32_t kAvx2 = 1u << 5;

struct Row {
    const char* name;
    CpuidReadings readings;
    CpuFeatures expected;
};

// CpuFeatures fields: ssse3, avx, avx2, avx512f, avx512vl.
constexpr Row kTable[] = {
    {"Core 2 (SSSE3 only)", {0xA, kCore2Ecx, 0, 0}, {true, false, false, false, false}},
    {"Nehalem (SSE4.2, no AVX)", {0xB, kNehalemEcx, 0, 0}, {true, false, false, false, false}},
    {"Sandy Bridge (AVX, no AVX2)",
     {0xD, kSandyBridgeEcx, 0, kXcr0Avx},
     {true, true, false, false, false}},
    {"Haswell", {0xD, kHaswellEcx, kHaswellLeaf7Ebx, kXcr0Avx}, {true, true, true, false, false}},
    {"Skylake-X",
     {0x16, kSkylakeXEcx, kSkylakeXLeaf7Ebx, kXcr0Avx512},
     {true, true, true, true, true}},
    {"Zen 4", {0x10, kZen4Ecx, kZen4Leaf7Ebx, kXcr0Avx512}, {true, true, true, true, true}},
    {"Skylake-X, Linux with XCR0 0xFF (MPX on)",
     {0x16, kSkylakeXEcx, kSkylakeXLeaf7Ebx, 0xFF},
     {true, true, true, true, true}},
    // The CPU has AVX but the OS never enabled XSAVE (noxsave, old Xen PV): XCR0 must not be
    // trusted, whatever value the readings carry.
    {"AVX bits without OSXSAVE",
     {0xD, kSandyBridgeEcx & ~kOsxsave, 0, kXcr0Avx},
     {true, false, false, false, false}},
    {"Haswell without OSXSAVE",
     {0xD, kHaswellEcx & ~kOsxsave, kHaswellLeaf7Ebx, kXcr0Avx},
     {true, false, false, false, false}},
    // aklomp/base64#121: OSXSAVE set but the OS enabled only SSE state.
    {"OSXSAVE, XCR0 lacks YMM",
     {0xD, kHaswellEcx, kHaswellLeaf7Ebx, kXcr0Sse},
     {true, false, false, false, false}},
    {"OSXSAVE, XCR0 has YMM but not XMM",
     {0xD, kHaswellEcx, kHaswellLeaf7Ebx, 0x5},
     {true, false, false, false, false}},
    // AVX-512 CPU whose OS (or VM) keeps ZMM/opmask state off: AVX2 still fine.
    {"Skylake-X with ZMM state disabled",
     {0x16, kSkylakeXEcx, kSkylakeXLeaf7Ebx, kXcr0Avx},
     {true, true, true, false, false}},
    {"Skylake-X without Hi16_ZMM state",
     {0x16, kSkylakeXEcx, kSkylakeXLeaf7Ebx, 0x67},
     {true, true, true, false, false}},
    {"Skylake-X without opmask state",
     {0x16, kSkylakeXEcx, kSkylakeXLeaf7Ebx, 0xC7},
     {true, true, true, false, false}},
    // Leaf 7 is above the maximum leaf: its registers are garbage and must be ignored.
    {"max leaf 6, garbage in leaf 7",
     {0x6, kSandyBridgeEcx, 0xFFFFFFFF, kXcr0Avx512},
     {true, true, false, false, false}},
    {"max leaf 5, garbage in leaf 7, Core 2",
     {0x5, kCore2Ecx, 0xFFFFFFFF, 0},
     {true, false, false, false, false}},
    {"Knights Landing (AVX512F, no VL)",
     {0xD, kHaswellEcx, kKnightsLandingLeaf7Ebx, kXcr0Avx512},
     {true, true, true, true, false}},
    // A hypervisor masking AVX but leaving AVX2 (or AVX2 but leaving AVX-512) advertised.
    {"AVX2 bit without AVX bit",
     {0xD, kHaswellEcx & ~kAvx, kHaswellLeaf7Ebx, kXcr0Avx},
     {true, false, false, false, false}},
    {"AVX-512 bits without AVX2 bit",
     {0x16, kSkylakeXEcx, kSkylakeXLeaf7Ebx & ~kAvx2, kXcr0Avx512},
     {true, true, false, false, false}},
    // Compilers assume SSSE3 under -mavx; a CPU claiming AVX without SSSE3 gets neither.
    {"AVX without SSSE3",
     {0xD, kSandyBridgeEcx & ~kSsse3, 0, kXcr0Avx},
     {false, false, false, false, false}},
    {"qemu64-like (SSE3 only)", {0xD, 0x80002001, 0, 0}, {false, false, false, false, false}},
    {"all zero", {0, 0, 0, 0}, {false, false, false, false, false}},
};

std::string show(const CpuFeatures& f) {
    char text[96];
    std::snprintf(text, sizeof text, "ssse3=%d avx=%d avx2=%d avx512f=%d avx512vl=%d", f.ssse3,
                  f.avx, f.avx2, f.avx512f, f.avx512vl);
    return text;
}

bool same(const CpuFeatures& a, const CpuFeatures& b) {
    return a.ssse3 == b.ssse3 && a.avx == b.avx && a.avx2 == b.avx2 && a.avx512f == b.avx512f &&
           a.avx512vl == b.avx512vl;
}

}  // namespace

int main() {
    b2test::Report checks("test_cpu_features");
    for (const Row& row : kTable) {
        const CpuFeatures actual = blake2simd::cpu::decide_features(row.readings);
        const std::string what =
            std::string(row.name) + ": got " + show(actual) + ", expected " + show(row.expected);
        checks.check(same(actual, row.expected), what.c_str());
    }

    // Which kernels each of those CPUs may run.
    using blake2simd::KernelId;
    using blake2simd::dispatch::cpu_can_run;
    const CpuFeatures core2 = blake2simd::cpu::decide_features(kTable[0].readings);
    const CpuFeatures sandy = blake2simd::cpu::decide_features(kTable[2].readings);
    const CpuFeatures knl = blake2simd::cpu::decide_features(kTable[16].readings);
    const CpuFeatures skx = blake2simd::cpu::decide_features(kTable[4].readings);
    checks.check(cpu_can_run(KernelId::ssse3, core2) && !cpu_can_run(KernelId::avx, core2),
                 "Core 2 runs ssse3, not avx");
    checks.check(cpu_can_run(KernelId::avx, sandy) && !cpu_can_run(KernelId::avx2, sandy),
                 "Sandy Bridge runs avx, not avx2");
    checks.check(cpu_can_run(KernelId::avx2, knl) && !cpu_can_run(KernelId::avx512, knl),
                 "Knights Landing runs avx2, not the AVX-512VL kernel");
    checks.check(cpu_can_run(KernelId::avx512, skx), "Skylake-X runs avx512");
    const CpuFeatures none{};
    checks.check(cpu_can_run(KernelId::ref, none), "ref needs nothing");

    // The live detection is consistent with its own readings and stable across calls.
    const CpuFeatures& live = blake2simd::cpu::detected_features();
    checks.check(same(live, blake2simd::cpu::decide_features(blake2simd::cpu::read_cpuid())),
                 "detected_features() == decide_features(read_cpuid())");
    checks.check(&live == &blake2simd::cpu::detected_features(), "detection is computed once");
    std::printf("this CPU: %s\n", show(live).c_str());
    return checks.finish();
}
