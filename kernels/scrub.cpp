// Stack and register scrubbing after key blocks (scrub.hpp). Baseline code: the AVX and
// AVX-512 register clears live in their ISA files (registry.hpp), chosen by the detected CPU.
// On x86-64 the entry point itself is assembly (no frame of its own above the wipe).
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

// How deep an optimised kernel's frame reaches depends on the compiler and its flags: with
// g++ 12 -O3 the deepest single-lane one is 616 bytes, with clang 14 -Os the AVX2 BLAKE2b
// kernel leaves key words 1392 bytes below the engine (tests/hardening/test_key_scrub.cpp scans
// well below and fails if anything of the key survives; a 1 KiB wipe after single-lane kernels
// failed it there). So one depth with a margin for every kernel, not one per form.
// AddressSanitizer makes every frame much larger (redzones, spills), and an unoptimised build
// gives every intrinsic temporary of the SIMD kernels its own stack slot (-fstack-usage with
// g++ 12 -O0: 45-52 KiB per single-lane frame, 137 KiB for the AVX2 4-lane one), so those
// builds wipe more. A macro, not a constant: the x86-64 wipe spells it in its assembly, which
// clears 64 bytes a step.
#if !defined(__OPTIMIZE__)
#define B2_STACK_WIPE_BYTES 196608
#elif defined(__SANITIZE_ADDRESS__)
#define B2_STACK_WIPE_BYTES 16384
#else
#define B2_STACK_WIPE_BYTES 2048
#endif
static_assert(B2_STACK_WIPE_BYTES % 64 == 0);

// The System V x86-64 ABI (ELF): the assembly wipe below relies on its calling convention.
#if defined(__x86_64__) && defined(__ELF__)
#define B2_SCRUB_ASSEMBLY 1
#else
#define B2_SCRUB_ASSEMBLY 0
#endif

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

// Called by its symbol from scrub_after_key_block's assembly.
__attribute__((used)) void clear_vector_registers() noexcept
    __asm__("blake2simd_clear_vector_registers");
void clear_vector_registers() noexcept {
    ComputedOnce<RegisterClear, &choose_register_clear>::get()();
}

#if !B2_SCRUB_ASSEMBLY
// Clears an array of its own frame only: the slots this frame and its caller's keep for
// alignment, right below the engine's frame, stay as the kernel left them.
__attribute__((noinline, no_sanitize("address"))) void wipe_stack_below_caller() noexcept {
    uint8_t area[B2_STACK_WIPE_BYTES];
    std::memset(area, 0, sizeof area);
    // The memset must happen although `area` is dead afterwards.
    __asm__ volatile("" : : "r"(area) : "memory");
}
#endif

}  // namespace

#if B2_SCRUB_ASSEMBLY
#define B2_STRINGIFY_VALUE(x) #x
#define B2_STRINGIFY(x) B2_STRINGIFY_VALUE(x)
// Assembly, so that no compiler-made frame lies between the engine's stack pointer and the
// wipe. A C++ wipe clears an array in its own frame, and the 8-byte slots that frame and its
// caller's keep for alignment, right below the engine's frame, stayed as the kernel left them:
// g++ -O3 puts a message word of the key block there in the AVX-512 kernels. Here the slot
// below the return address takes the caller's frame pointer and the B2_STACK_WIPE_BYTES below
// it are zeroed. Registers first: a first use that spills them (lazy binding saves every
// vector register) spills into what is wiped next. Downwards, the stack pointer moving along
// as stack probes do: each page is touched after the one above it, and a signal lands below
// what is already clear. The frame pointer keeps the unwind information exact meanwhile.
__attribute__((naked)) void scrub_after_key_block() noexcept {
    __asm__(
        "push %rbp\n\t"
        ".cfi_adjust_cfa_offset 8\n\t"
        ".cfi_rel_offset %rbp, 0\n\t"
        "mov %rsp, %rbp\n\t"
        ".cfi_def_cfa_register %rbp\n\t"
        "call blake2simd_clear_vector_registers\n\t"
        "pxor %xmm0, %xmm0\n\t"
        "mov $" B2_STRINGIFY(B2_STACK_WIPE_BYTES) " / 64, %ecx\n"
        "1:\n\t"
        "sub $64, %rsp\n\t"
        "movups %xmm0, (%rsp)\n\t"
        "movups %xmm0, 16(%rsp)\n\t"
        "movups %xmm0, 32(%rsp)\n\t"
        "movups %xmm0, 48(%rsp)\n\t"
        "dec %ecx\n\t"
        "jnz 1b\n\t"
        "mov %rbp, %rsp\n\t"
        "pop %rbp\n\t"
        ".cfi_restore %rbp\n\t"
        ".cfi_def_cfa %rsp, 8\n\t"
        "ret");
}
#else
void scrub_after_key_block() noexcept {
    clear_vector_registers();
    wipe_stack_below_caller();
}
#endif

}  // namespace blake2simd
