// The kernel registry: one row per kernel, the only list of kernels in the C++ code.
// SPDX-License-Identifier: Apache-2.0
//
// Declarations and constant tables only. The forms' candidates (forms.hpp), the register scrub,
// buildinfo and the tests iterate these rows; kernels/README.md says how to add one.
#pragma once

#include <array>
#include <cstddef>

#include "compress_blake2_x64.hpp"
#include "cpu_features.hpp"
#include "kernel.hpp"

namespace blake2simd::registry {

// The request for the measured choice (`kernel = auto`; an empty request means the same).
inline constexpr const char* kAutomaticRequest = "auto";

// What a CPU must offer before any code of the kernel may run.
enum class CpuNeed : uint8_t { nothing, x86_64, ssse3, avx, avx2, avx512vl };

constexpr bool meets(CpuNeed need, const cpu::CpuFeatures& features) noexcept {
    switch (need) {
        case CpuNeed::nothing:
            return true;
        case CpuNeed::x86_64:
#if defined(__x86_64__) || defined(_M_X64)
            return true;
#else
            return false;
#endif
        case CpuNeed::ssse3:
            return features.ssse3;
        case CpuNeed::avx:
            return features.avx;
        case CpuNeed::avx2:
            return features.avx2;
        case CpuNeed::avx512vl:
            return features.avx512f && features.avx512vl;
    }
    return false;
}

// One member's entry points of a kernel, nullptr where this build lacks them. A kernel may lack
// either form (AVX2 adds nothing to one BLAKE2s state, whose rows fill 128-bit registers); `has_*`
// say which forms it has, built or not.
template <class Family>
struct MemberEntries {
    bool has_single;
    typename Family::Compress single;
    bool has_lanes;  // a native form for the member's tree mode; else it runs `single` by lane
    typename Family::CompressLanes lanes;
};

using RegisterClearFn = void (*)() noexcept;

struct KernelRow {
    KernelId id;
    const char* name;  // the spelling users write in `kernel =` and BLAKE2SIMD_KERNEL
    CpuNeed need;
    // Whether this build compiled it. A flag, not a test of the entry points for nullptr: GCC
    // does not fold a function address compared with nullptr under the sanitizers.
    bool built;
    MemberEntries<Blake2bFamily> blake2b;
    MemberEntries<Blake2sFamily> blake2s;
    MemberEntries<BlamkaFamily> blamka;  // Argon2's block compression
    RegisterClearFn scrub;  // clears every vector register of the kernel's ISA, or nullptr

    template <class Family>
    constexpr const MemberEntries<Family>& entries() const noexcept {
        if constexpr (Family::kMember == Member::blake2b) {
            return blake2b;
        } else if constexpr (Family::kMember == Member::blake2s) {
            return blake2s;
        } else {
            return blamka;
        }
    }
};

// B2_KERNEL_<NAME> is 1 for a kernel this build compiled and 0 for one it left out; the build
// (kernels/CMakeLists.txt) defines it for every kernel, so a missing definition fails here.
#define B2_REGISTRY_ENTRY_1(entry) entry
#define B2_REGISTRY_ENTRY_0(entry) nullptr
#define B2_REGISTRY_ENTRY_(built, entry) B2_REGISTRY_ENTRY_##built(entry)
#define B2_REGISTRY_ENTRY(built, entry) B2_REGISTRY_ENTRY_(built, entry)

// Every kernel this source tree knows, built or not, in order of preference on a speed tie:
// the reference first (it is the oracle and the fallback), later rows never win a tie.
inline constexpr KernelRow kKernelRows[] = {
    {KernelId::ref,
     "ref",
     CpuNeed::nothing,
     true,
     {true, &kernels::blake2b_compress_ref, false, nullptr},
     {true, &kernels::blake2s_compress_ref, false, nullptr},
     {true, &kernels::fill_block_ref, false, nullptr},
     nullptr},
    {KernelId::x64,
     "x64",
     CpuNeed::x86_64,
     B2_KERNEL_X64,
     {true, B2_REGISTRY_ENTRY(B2_KERNEL_X64, &kernels::blake2b_compress_x64), false, nullptr},
     {true, B2_REGISTRY_ENTRY(B2_KERNEL_X64, &kernels::blake2s_compress_x64), false, nullptr},
     {false, nullptr, false, nullptr},
     nullptr},
    {KernelId::ssse3,
     "ssse3",
     CpuNeed::ssse3,
     B2_KERNEL_SSSE3,
     {true, B2_REGISTRY_ENTRY(B2_KERNEL_SSSE3, &kernels::blake2b_compress_ssse3), false, nullptr},
     {true, B2_REGISTRY_ENTRY(B2_KERNEL_SSSE3, &kernels::blake2s_compress_ssse3), false, nullptr},
     {true, B2_REGISTRY_ENTRY(B2_KERNEL_SSSE3, &kernels::fill_block_ssse3), false, nullptr},
     nullptr},
    {KernelId::avx,
     "avx",
     CpuNeed::avx,
     B2_KERNEL_AVX,
     {true, B2_REGISTRY_ENTRY(B2_KERNEL_AVX, &kernels::blake2b_compress_avx), false, nullptr},
     {true, B2_REGISTRY_ENTRY(B2_KERNEL_AVX, &kernels::blake2s_compress_avx), false, nullptr},
     {false, nullptr, false, nullptr},
     B2_REGISTRY_ENTRY(B2_KERNEL_AVX, &kernels::scrub_avx)},
    {KernelId::avx2,
     "avx2",
     CpuNeed::avx2,
     B2_KERNEL_AVX2,
     {true, B2_REGISTRY_ENTRY(B2_KERNEL_AVX2, &kernels::blake2b_compress_avx2), true,
      B2_REGISTRY_ENTRY(B2_KERNEL_AVX2, &kernels::blake2b_compress4_avx2)},
     {false, nullptr, true, B2_REGISTRY_ENTRY(B2_KERNEL_AVX2, &kernels::blake2s_compress8_avx2)},
     {true, B2_REGISTRY_ENTRY(B2_KERNEL_AVX2, &kernels::fill_block_avx2), false, nullptr},
     nullptr},
    {KernelId::avx512,
     "avx512",
     CpuNeed::avx512vl,
     B2_KERNEL_AVX512,
     {true, B2_REGISTRY_ENTRY(B2_KERNEL_AVX512, &kernels::blake2b_compress_avx512), true,
      B2_REGISTRY_ENTRY(B2_KERNEL_AVX512, &kernels::blake2b_compress4_avx512)},
     {true, B2_REGISTRY_ENTRY(B2_KERNEL_AVX512, &kernels::blake2s_compress_avx512), true,
      B2_REGISTRY_ENTRY(B2_KERNEL_AVX512, &kernels::blake2s_compress8_avx512)},
     {true, B2_REGISTRY_ENTRY(B2_KERNEL_AVX512, &kernels::fill_block_avx512), false, nullptr},
     B2_REGISTRY_ENTRY(B2_KERNEL_AVX512, &kernels::scrub_avx512)},
};

#undef B2_REGISTRY_ENTRY
#undef B2_REGISTRY_ENTRY_
#undef B2_REGISTRY_ENTRY_0
#undef B2_REGISTRY_ENTRY_1

inline constexpr size_t kKnownKernelCount = sizeof kKernelRows / sizeof kKernelRows[0];

// The row of `id` (every KernelId has one).
constexpr const KernelRow& row_of(KernelId id) noexcept {
    for (const KernelRow& row : kKernelRows) {
        if (row.id == id) {
            return row;
        }
    }
    return kKernelRows[0];
}

constexpr size_t built_count() noexcept {
    size_t count = 0;
    for (const KernelRow& row : kKernelRows) {
        count += row.built ? 1 : 0;
    }
    return count;
}

static_assert(kKernelRows[0].id == KernelId::ref && built_count() >= 1,
              "the reference kernel comes first and is always built");

}  // namespace blake2simd::registry
