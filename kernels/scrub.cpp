// Stack and register scrubbing after key blocks (scrub.hpp). Baseline code: the AVX and
// AVX-512 register clears live in their ISA files (registry.hpp), chosen by the detected CPU.
// On x86-64 the entry point itself is assembly (no frame of its own above the wipe).
// SPDX-License-Identifier: Apache-2.0
#include "scrub.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define B2_HAVE_VALGRIND_HEADERS 1
#endif
#endif
#if !defined(B2_HAVE_VALGRIND_HEADERS)
#define B2_HAVE_VALGRIND_HEADERS 0
#endif

#include <array>
#include <iterator>

#include "baseline_guard.hpp"
#include "cpu_features.hpp"
#include "once.hpp"
#include "registry.hpp"

namespace blake2simd {
namespace {

// clang names AddressSanitizer by a feature, g++ by a macro.
#if defined(__SANITIZE_ADDRESS__)
#define B2_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define B2_ADDRESS_SANITIZER 1
#endif
#endif
#if !defined(B2_ADDRESS_SANITIZER)
#define B2_ADDRESS_SANITIZER 0
#endif

// The fixed depth: after the lanes and BlaMka kernels, and after every kernel where the reach is
// not measured (below). How deep an optimised kernel's frame reaches depends on the compiler and
// its flags: with g++ 12 -O3 the deepest single-lane one reaches 704 bytes, with clang 14 -Os
// the AVX2 BLAKE2b kernel left key words 1392 bytes below the engine
// (tests/hardening/test_key_scrub.cpp scans well below and fails if anything of the key
// survives). AddressSanitizer makes every frame much larger (redzones, spills), and an
// unoptimised build gives every intrinsic temporary of the SIMD kernels its own stack slot
// (-fstack-usage with g++ 12 -O0: 45-52 KiB per single-lane frame, 137 KiB for the AVX2 4-lane
// one), so those builds wipe more. A macro, not a constant: the x86-64 wipe spells it in its
// assembly, which clears 64 bytes a step.
#if !defined(__OPTIMIZE__)
#define B2_STACK_WIPE_BYTES 196608
#elif B2_ADDRESS_SANITIZER
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

// After a single-lane BLAKE2 kernel an optimised x86-64 build wipes as deep as that kernel was
// measured to reach (g++ 12 -O3: 64 bytes for AVX-512's BLAKE2s to 704 for AVX2's BLAKE2b), where
// the fixed depth took 8% of a re-keyed 64-byte BLAKE2BMAC's time. The measurement reads the
// stack below its own stack pointer, which valgrind reports unless told through its client
// requests: so only where the build finds valgrind's header (the test setup installs valgrind;
// a build without it wipes the fixed depth). Not under AddressSanitizer, whose fake stack holds
// the frames with arrays.
#if B2_SCRUB_ASSEMBLY && defined(__OPTIMIZE__) && !B2_ADDRESS_SANITIZER && B2_HAVE_VALGRIND_HEADERS
#define B2_MEASURED_WIPE 1
#else
#define B2_MEASURED_WIPE 0
#endif

constexpr uint32_t kFixedWipeSteps = B2_STACK_WIPE_BYTES / 64;
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

#if B2_MEASURED_WIPE
namespace {
__attribute__((naked)) size_t measure_stack_reach(SingleLaneKernel kernel, void* state,
                                                  const void* block, uint64_t block_bytes,
                                                  size_t limit) noexcept;
}  // namespace
#endif

size_t stack_reach(SingleLaneKernel kernel, void* state, const void* block, uint64_t block_bytes,
                   size_t limit) noexcept {
    limit = (limit + 63) & ~size_t{63};
#if B2_MEASURED_WIPE
    if (limit > 0) {
        return measure_stack_reach(kernel, state, block, block_bytes, limit);
    }
#else
    (void)kernel, (void)state, (void)block, (void)block_bytes;
#endif
    return limit;
}

bool stack_reach_is_measured() noexcept {
    return B2_MEASURED_WIPE != 0;
}

namespace {

struct WipeDepth {
    SingleLaneKernel kernel;
    uint32_t steps;  // 64 bytes each
};

// Every single-lane BLAKE2 kernel this CPU runs, with its wipe's depth.
struct WipeDepths {
    std::array<WipeDepth, 2 * std::size(registry::kKernelRows)> rows;
    size_t count;
};

#if B2_MEASURED_WIPE
// How far below a kernel's caller a measurement looks: far beyond any optimised frame. A kernel
// that reaches it is wiped that deep.
constexpr size_t kReachLimit = 8192;
// Frames between the kernel's caller and the wipe's (the engine calls the wipe from one frame
// deeper after a buffered key block), and the slots of the pattern a kernel wrote unchanged.
constexpr size_t kReachMargin = 256;

template <class Family>
void add_wipe_depth(WipeDepths& depths, const registry::MemberEntries<Family>& entries) noexcept {
    if (!entries.has_single || entries.single == nullptr) {
        return;
    }
    const auto kernel = reinterpret_cast<SingleLaneKernel>(entries.single);
    typename Family::State state{};
    uint8_t block[Family::kBlockBytes] = {};
    const size_t reach = stack_reach(kernel, &state, block, Family::kBlockBytes, kReachLimit);
    const size_t bytes = (reach + kReachMargin + 63) & ~size_t{63};
    depths.rows[depths.count++] = {kernel, static_cast<uint32_t>(bytes / 64)};
}
#endif

WipeDepths measure_wipe_depths() noexcept {
    WipeDepths depths{};
#if B2_MEASURED_WIPE
    const cpu::CpuFeatures& features = cpu::detected_features();
    for (const registry::KernelRow& row : registry::kKernelRows) {
        if (row.built && registry::meets(row.need, features)) {
            add_wipe_depth(depths, row.blake2b);
            add_wipe_depth(depths, row.blake2s);
        }
    }
#endif
    return depths;
}

}  // namespace

// Called by its symbol from the assembly of scrub_after_key_block(kernel).
__attribute__((used)) uint32_t wipe_steps_after(SingleLaneKernel kernel) noexcept
    __asm__("blake2simd_wipe_steps_after");
uint32_t wipe_steps_after(SingleLaneKernel kernel) noexcept {
    const WipeDepths& depths = ComputedOnce<WipeDepths, &measure_wipe_depths>::get();
    for (size_t i = 0; i < depths.count; ++i) {
        if (depths.rows[i].kernel == kernel) {
            return depths.rows[i].steps;
        }
    }
    return kFixedWipeSteps;
}

#if B2_MEASURED_WIPE
// Called by its symbol from measure_stack_reach's assembly, with the stack pointer below the
// area: valgrind counts memory below the stack pointer as dead once the pointer moves up past
// it, and would report the reads that follow.
__attribute__((used)) void stack_area_readable(const void* area, size_t bytes) noexcept
    __asm__("blake2simd_stack_area_readable");
void stack_area_readable(const void* area, size_t bytes) noexcept {
    VALGRIND_MAKE_MEM_DEFINED(area, bytes);
}
#endif

#if B2_SCRUB_ASSEMBLY
#define B2_STRINGIFY_VALUE(x) #x
#define B2_STRINGIFY(x) B2_STRINGIFY_VALUE(x)
// Assembly, so that no compiler-made frame lies between the engine's stack pointer and the
// wipe. A C++ wipe clears an array in its own frame, and the 8-byte slots that frame and its
// caller's keep for alignment, right below the engine's frame, stayed as the kernel left them:
// g++ -O3 puts a message word of the key block there in the AVX-512 kernels. Here the slot
// below the return address takes the caller's frame pointer and the %ecx * 64 bytes below it
// are zeroed. Registers first: a first use that spills them (lazy binding saves every vector
// register) spills into what is wiped next. Downwards, the stack pointer moving along as stack
// probes do: each page is touched after the one above it, and a signal lands below what is
// already clear. The frame pointer keeps the unwind information exact meanwhile.
#define B2_SCRUB_PROLOGUE          \
    "push %rbp\n\t"                \
    ".cfi_adjust_cfa_offset 8\n\t" \
    ".cfi_rel_offset %rbp, 0\n\t"  \
    "mov %rsp, %rbp\n\t"           \
    ".cfi_def_cfa_register %rbp\n\t"
// Stores %xmm0 into the `counter` 64-byte steps below the stack pointer, moving it along.
#define B2_STORE_XMM0_DOWNWARDS(counter) \
    "1:\n\t"                             \
    "sub $64, %rsp\n\t"                  \
    "movups %xmm0, (%rsp)\n\t"           \
    "movups %xmm0, 16(%rsp)\n\t"         \
    "movups %xmm0, 32(%rsp)\n\t"         \
    "movups %xmm0, 48(%rsp)\n\t"         \
    "dec " counter                       \
    "\n\t"                               \
    "jnz 1b\n\t"
#define B2_SCRUB_WIPE_AND_RETURN \
    "pxor %xmm0, %xmm0\n\t"      \
    "mov %rbp, %rsp\n\t"         \
    B2_STORE_XMM0_DOWNWARDS("%ecx") \
    "mov %rbp, %rsp\n\t"         \
    "pop %rbp\n\t"               \
    ".cfi_restore %rbp\n\t"      \
    ".cfi_def_cfa %rsp, 8\n\t"   \
    "ret"

__attribute__((naked)) void scrub_after_key_block() noexcept {
    __asm__(B2_SCRUB_PROLOGUE
            "call blake2simd_clear_vector_registers\n\t"
            "mov $" B2_STRINGIFY(B2_STACK_WIPE_BYTES) " / 64, %ecx\n\t" B2_SCRUB_WIPE_AND_RETURN);
}

// The kernel's address stays in the frame that is wiped (it is no secret).
__attribute__((naked)) void scrub_after_key_block(SingleLaneKernel /*kernel*/) noexcept {
    __asm__(B2_SCRUB_PROLOGUE
            "push %rdi\n\t"
            "sub $8, %rsp\n\t"
            "call blake2simd_clear_vector_registers\n\t"
            "mov -8(%rbp), %rdi\n\t"
            "call blake2simd_wipe_steps_after\n\t"
            "mov %eax, %ecx\n\t" B2_SCRUB_WIPE_AND_RETURN);
}

#if B2_MEASURED_WIPE
#define B2_REACH_PATTERN "0x6b3a9f5ec1d2e487"

namespace {

// The measurement: fills `limit` bytes below its stack pointer with the pattern (moving the
// stack pointer along, as the wipe does), calls kernel(state, block, 1, block_bytes) from
// there, then looks from the bottom up for the first 8 bytes that changed. To read below its
// stack pointer it first moves under the area (memory checkers count what lies below it as
// dead) and says so to valgrind (blake2simd_stack_area_readable). The return address the call
// pushed always changed, so the answer is at least 8.
__attribute__((naked)) size_t measure_stack_reach(SingleLaneKernel /*kernel*/, void* /*state*/,
                                                  const void* /*block*/, uint64_t /*block_bytes*/,
                                                  size_t /*limit*/) noexcept {
    __asm__(B2_SCRUB_PROLOGUE
            "push %rbx\n\t"
            ".cfi_offset %rbx, -24\n\t"
            "push %r12\n\t"
            ".cfi_offset %r12, -32\n\t"
            "push %r13\n\t"
            ".cfi_offset %r13, -40\n\t"
            "push %r14\n\t"
            ".cfi_offset %r14, -48\n\t"
            "mov %rdi, %rbx\n\t"
            "mov %rsp, %r12\n\t"
            "mov %r8, %r13\n\t"
            "movabs $" B2_REACH_PATTERN
            ", %rax\n\t"
            "movq %rax, %xmm0\n\t"
            "punpcklqdq %xmm0, %xmm0\n\t"
            "mov %r13, %r14\n\t"
            "shr $6, %r14\n\t" B2_STORE_XMM0_DOWNWARDS("%r14")
            "mov %r12, %rsp\n\t"
            "mov %rsi, %rdi\n\t"
            "mov %rdx, %rsi\n\t"
            "mov $1, %edx\n\t"
            "call *%rbx\n\t"
            "mov %r12, %rdi\n\t"
            "sub %r13, %rdi\n\t"
            "lea -64(%rdi), %rsp\n\t"
            "mov %r13, %rsi\n\t"
            "call blake2simd_stack_area_readable\n\t"
            "mov %r12, %rax\n\t"
            "sub %r13, %rax\n\t"
            "movabs $" B2_REACH_PATTERN
            ", %rdx\n"
            "2:\n\t"
            "cmp %r12, %rax\n\t"
            "jae 3f\n\t"
            "cmp %rdx, (%rax)\n\t"
            "jne 3f\n\t"
            "add $8, %rax\n\t"
            "jmp 2b\n"
            "3:\n\t"
            "mov %r12, %rsp\n\t"
            "sub %rax, %r12\n\t"
            "mov %r12, %rax\n\t"
            "pop %r14\n\t"
            "pop %r13\n\t"
            "pop %r12\n\t"
            "pop %rbx\n\t"
            "pop %rbp\n\t"
            ".cfi_def_cfa %rsp, 8\n\t"
            "ret");
}

}  // namespace
#endif
#else
void scrub_after_key_block() noexcept {
    clear_vector_registers();
    wipe_stack_below_caller();
}

// The same frame depth as the other: no call in between whose own frame keeps slots below the
// engine's.
void scrub_after_key_block(SingleLaneKernel) noexcept {
    clear_vector_registers();
    wipe_stack_below_caller();
}
#endif

}  // namespace blake2simd
