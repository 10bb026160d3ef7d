// Kernel selection: which kernels this build has, which ones this CPU can run, which one serves.
// SPDX-License-Identifier: Apache-2.0
//
// Four choices share one skeleton (dispatch_skeleton.hpp): BLAKE2b here, BLAKE2bp 4-lane
// (dispatch_lanes4.hpp), BLAKE2s (dispatch_blake2s.hpp) and BLAKE2sp 8-lane
// (dispatch_lanes8.hpp). CPU detection and self-tests happen once per process on first use,
// each speed calibration once per process on the first selection that needs it (never at
// load time); all thread-safe. The choice itself is per caller (each provider instance
// resolves its own request).
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

#include "cpu_features.hpp"
#include "dispatch_types.hpp"
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

// Whether the BLAKE2b and BLAKE2s reference kernels reproduced their known answers: the
// condition for offering any algorithm at all. Runs the self-tests (microseconds), not the
// calibrations.
bool reference_kernel_works() noexcept;

using Selection = KernelSelection<KernelInfo>;

// Resolves a request (auto, empty, or a kernel name) to a runnable kernel. An unknown or
// unrunnable request falls back to the automatic choice, and the description says so.
// The automatic choice is the kernel that compressed fastest in this process's calibration.
Selection select_kernel(std::string_view request) noexcept;

// --- The pieces select_kernel is made of, exposed for tests and diagnostics. ---

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

// The other three choices; most callers of select_kernel() need them too.
#include "dispatch_blake2s.hpp"
#include "dispatch_lanes4.hpp"
#include "dispatch_lanes8.hpp"
