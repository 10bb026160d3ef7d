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
#include "lanes4.hpp"

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

// --- BLAKE2bp: the 4-lane kernel that serves beside a single-lane selection. ---

// One way to compress four lanes: a native 4-lane kernel (one 64-bit word of each lane per
// vector lane), or a single-lane kernel applied lane by lane.
struct Lanes4Candidate {
    KernelId id;        // its instruction set, also its reported name
    bool lane_by_lane;  // true: the single-lane kernel `id` four times
    Compress4Fn compress4;
};

struct Lanes4Measurement {
    // Built, runnable on this CPU, matched four compress_ref runs; for a lane-by-lane candidate
    // its single-lane kernel is also runnable. False also when it was not run (CPU lacks it).
    bool usable;
    double nanoseconds_per_step;  // one block into each of the four lanes; 0 if not measured
};

struct Lanes4Selection {
    Lanes4Kernel kernel;    // compress4 is nullptr only when no candidate is usable
    bool lane_by_lane;      // of the candidate serving
    char description[160];  // why this one, in words, for buildinfo
};

// Every 4-lane candidate of this build: the reference kernel lane by lane first, then the other
// single-lane kernels lane by lane, then the native 4-lane kernels.
std::span<const Lanes4Candidate> lanes4_candidates() noexcept;

// The 4-lane kernel for BLAKE2bp beside `selection` (whose kernel must not be nullptr).
// Automatic selection: the candidate that was fastest in this process's 4-lane calibration
// (the fastest single lane, perhaps scalar, says nothing about four lanes). A kernel
// requested by name: the same instruction set, native 4-lane if usable, else lane by lane;
// only the automatic path calibrates.
Lanes4Selection select_lanes4(const Selection& selection) noexcept;

// Pure decision: `measurements[i]` belongs to `candidates[i]`. Automatic: the fastest usable
// candidate (ties keep the earlier one). Otherwise the usable native 4-lane candidate of `id`,
// else its usable lane-by-lane one, else the first usable one (the reference lane by lane). Never
// returns a candidate the features lack or one that is not usable; nothing usable gives compress4
// == nullptr.
Lanes4Selection choose_lanes4(KernelId id, bool automatic, const cpu::CpuFeatures& features,
                              std::span<const Lanes4Candidate> candidates,
                              std::span<const Lanes4Measurement> measurements) noexcept;

// This process's 4-lane measurements, parallel to lanes4_candidates(); runs the 4-lane
// calibration if it has not run yet.
std::span<const Lanes4Measurement> lanes4_measurements() noexcept;

// Wall time the 4-lane calibration took, in microseconds; runs it if it has not run yet.
double lanes4_calibration_microseconds() noexcept;

// Whether the 4-lane calibration has run in this process (does not trigger it).
bool lanes4_calibration_has_run() noexcept;

// Whether `compress4` reproduces four compress_ref runs on edge cases (counter carry, distinct
// flags per lane, shared and strided blocks).
bool lanes4_passes_self_test(Compress4Fn compress4) noexcept;

}  // namespace blake2simd::dispatch
