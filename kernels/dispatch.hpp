// Kernel selection: which kernels this build has, which ones this CPU can run, which one serves.
// SPDX-License-Identifier: Apache-2.0
//
// CPU detection and self-tests happen once per process on first use, speed calibration once
// per process on the first select_kernel() call, and the 4-lane calibration on the first
// automatic select_lanes4() call (never at load time); all thread-safe.
// The choice itself is per caller (each provider instance resolves its own request).
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

#include "cpu_features.hpp"
#include "kernel.hpp"

namespace blake2simd::dispatch {

// Every kernel compiled into this build, the reference kernel first.
std::span<const KernelInfo> compiled_kernels() noexcept;

// The compiled kernel with that name, or nullptr.
const KernelInfo* find_kernel(std::string_view name) noexcept;

// True if the running CPU and OS support the kernel's instructions and it reproduced the
// known answer. The reference kernel is runnable only if its own self-test passed.
// Kernels the CPU lacks are never executed, not even for the self-test.
bool is_runnable(const KernelInfo& kernel) noexcept;

// Whether the reference kernel reproduced its known answer: the condition for offering any
// algorithm at all. Runs the self-tests (microseconds), not the calibration.
bool reference_kernel_works() noexcept;

struct Selection {
    const KernelInfo* kernel;  // nullptr only when even the reference kernel failed its self-test
    bool automatic;            // the automatic choice serves: auto, empty, or a refused request
    char description[160];     // why this kernel, in words, for buildinfo
};

// Resolves a request ("auto", empty, or a kernel name) to a runnable kernel. An unknown or
// unrunnable request falls back to the automatic choice, and the description says so.
// "auto" is the kernel that compressed fastest in this process's calibration.
Selection select_kernel(std::string_view request) noexcept;

// --- The pieces select_kernel is made of, exposed for tests and diagnostics. ---

// Whether a CPU with these features can execute the kernel's instructions.
bool cpu_can_run(KernelId id, const cpu::CpuFeatures& features) noexcept;

struct KernelMeasurement {
    bool passed_self_test;         // false also when the kernel was not run (CPU lacks it)
    double nanoseconds_per_block;  // calibrated speed; meaningful only for runnable kernels
};

// Pure decision: `measurements[i]` belongs to `kernels[i]`. Never returns a kernel the
// features lack or one that failed its self-test; kernels[0] must be the reference kernel.
Selection choose(std::string_view request, const cpu::CpuFeatures& features,
                 std::span<const KernelInfo> kernels,
                 std::span<const KernelMeasurement> measurements) noexcept;

// This process's measurements, parallel to compiled_kernels(); runs the calibration if it has
// not run yet.
std::span<const KernelMeasurement> kernel_measurements() noexcept;

// Wall time the calibration took, in microseconds; runs it if it has not run yet.
double calibration_microseconds() noexcept;

// Whether the calibration has run in this process (does not trigger it).
bool calibration_has_run() noexcept;

}  // namespace blake2simd::dispatch

// The 4-lane half of dispatch, for BLAKE2bp; most callers of select_kernel() need it too.
#include "dispatch_lanes4.hpp"
