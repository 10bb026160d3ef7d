// Clock estimate from timed chains of dependent instructions (no cycle counter in this VM).
// SPDX-License-Identifier: Apache-2.0
#include "clock_estimate.hpp"

#include <cstdint>

#include "stopwatch.hpp"

namespace blake2simd::bench {
namespace {

constexpr uint64_t kInstructionsPerIteration = 200;

#if defined(__x86_64__)
constexpr bool kHaveChains = true;
constexpr double kImulLatencyCycles = 3.0;

uint64_t run_add_chain(uint64_t iterations) noexcept {
    uint64_t accumulator = 0;
    uint64_t one = 1;
    for (uint64_t i = 0; i < iterations; ++i) {
        // Register-register adds: immediates could be folded by the renamer on newer cores.
        __asm__ __volatile__(".rept 200\n\taddq %1, %0\n\t.endr" : "+r"(accumulator) : "r"(one));
    }
    return accumulator;
}

uint64_t run_imul_chain(uint64_t iterations) noexcept {
    uint64_t accumulator = 3;
    uint64_t factor = 1;
    for (uint64_t i = 0; i < iterations; ++i) {
        __asm__ __volatile__(".rept 200\n\timulq %1, %0\n\t.endr"
                             : "+r"(accumulator)
                             : "r"(factor));
    }
    return accumulator;
}
#elif defined(__aarch64__)
constexpr bool kHaveChains = true;
constexpr double kImulLatencyCycles = 0.0;  // mul latency varies between AArch64 cores

uint64_t run_add_chain(uint64_t iterations) noexcept {
    uint64_t accumulator = 0;
    uint64_t one = 1;
    for (uint64_t i = 0; i < iterations; ++i) {
        __asm__ __volatile__(".rept 200\n\tadd %0, %0, %1\n\t.endr" : "+r"(accumulator) : "r"(one));
    }
    return accumulator;
}

uint64_t run_imul_chain(uint64_t) noexcept {
    return 0;
}
#else
constexpr bool kHaveChains = false;
constexpr double kImulLatencyCycles = 0.0;
uint64_t run_add_chain(uint64_t) noexcept {
    return 0;
}
uint64_t run_imul_chain(uint64_t) noexcept {
    return 0;
}
#endif

using Chain = uint64_t (*)(uint64_t) noexcept;

// Instructions per nanosecond for `chain`, run for about `target_ms` after a short calibration.
double instructions_per_ns(Chain chain, double target_ms) noexcept {
    volatile uint64_t sink = 0;
    uint64_t iterations = 1000;
    double elapsed_ns = 0.0;
    for (;;) {
        const double start = thread_cpu_ns();
        sink = sink + chain(iterations);
        elapsed_ns = thread_cpu_ns() - start;
        if (elapsed_ns >= target_ms * 1e6 * 0.5) {
            break;
        }
        iterations *= elapsed_ns < target_ms * 1e6 * 0.05 ? 8 : 2;
    }
    return static_cast<double>(iterations * kInstructionsPerIteration) / elapsed_ns;
}

}  // namespace

ClockEstimate estimate_clock(double target_ms) noexcept {
    if (!kHaveChains) {
        return {0.0, 0.0};
    }
    const double add_ghz = instructions_per_ns(run_add_chain, target_ms);
    const double imul_ghz =
        kImulLatencyCycles > 0.0
            ? instructions_per_ns(run_imul_chain, target_ms) * kImulLatencyCycles
            : 0.0;
    return {add_ghz, imul_ghz};
}

}  // namespace blake2simd::bench
