// Stack and register scrubbing after key blocks (scrub.hpp). Baseline code: the AVX and
// AVX-512 register clears live in their ISA files (registry.hpp), chosen by the detected CPU.
// SPDX-License-Identifier: Apache-2.0
#include "scrub.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "baseline_guard.hpp"
#include "cpu_features.hpp"
#include "once.hpp"
#include "registry.hpp"

namespace blake2simd {
namespace {

// The deepest kernel frame measured below the engine is under 1 KiB (tests/hardening/
// test_key_scrub.cpp scans well below it and fails if anything of the key survives).
// AddressSanitizer makes every frame much larger (redzones, spills), and an unoptimised build
// gives every intrinsic temporary of the SIMD kernels its own stack slot (-fstack-usage with
// g++ 12 -O0: 45-52 KiB per single-lane frame, 137 KiB for the AVX2 4-lane one), so those
// builds wipe more.
#if !defined(__OPTIMIZE__)
constexpr size_t kStackWipeBytes = 192 * 1024;
#elif defined(__SANITIZE_ADDRESS__)
constexpr size_t kStackWipeBytes = 16384;
#else
constexpr size_t kStackWipeBytes = 2048;
#endif

// Not instrumented: under ASan an instrumented array would live on its fake stack instead of
// the real one below the caller.
__attribute__((noinline, no_sanitize("address"))) void wipe_stack_below_caller() noexcept {
    uint8_t area[kStackWipeBytes];
    std::memset(area, 0, sizeof area);
    // The memset must happen although `area` is dead afterwards.
    __asm__ volatile("" : : "r"(area) : "memory");
}

using RegisterClear = registry::RegisterClearFn;

// SSE2 is part of x86-64 itself, so this needs no ISA file; without AVX there are no upper
// halves to clear.
void clear_xmm_registers() noexcept {
#if defined(__x86_64__)
    __asm__ volatile(
        "pxor %%xmm0, %%xmm0\n\tpxor %%xmm1, %%xmm1\n\tpxor %%xmm2, %%xmm2\n\t"
        "pxor %%xmm3, %%xmm3\n\tpxor %%xmm4, %%xmm4\n\tpxor %%xmm5, %%xmm5\n\t"
        "pxor %%xmm6, %%xmm6\n\tpxor %%xmm7, %%xmm7\n\tpxor %%xmm8, %%xmm8\n\t"
        "pxor %%xmm9, %%xmm9\n\tpxor %%xmm10, %%xmm10\n\tpxor %%xmm11, %%xmm11\n\t"
        "pxor %%xmm12, %%xmm12\n\tpxor %%xmm13, %%xmm13\n\tpxor %%xmm14, %%xmm14\n\t"
        "pxor %%xmm15, %%xmm15" ::
            : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9",
              "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
#endif
}

// The widest register clear the CPU can run: registry rows go from narrow to wide ISAs.
RegisterClear choose_register_clear() noexcept {
    const cpu::CpuFeatures& features = cpu::detected_features();
    RegisterClear widest = &clear_xmm_registers;
    for (const registry::KernelRow& row : registry::kKernelRows) {
        if (row.scrub != nullptr && registry::meets(row.need, features)) {
            widest = row.scrub;
        }
    }
    return widest;
}

}  // namespace

void scrub_after_key_block() noexcept {
    wipe_stack_below_caller();
    ComputedOnce<RegisterClear, &choose_register_clear>::get()();
}

}  // namespace blake2simd
