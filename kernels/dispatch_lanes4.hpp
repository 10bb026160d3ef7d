// 4-lane kernel selection for BLAKE2bp: which 4-lane form serves beside a single-lane selection.
// SPDX-License-Identifier: Apache-2.0
//
// The skeleton of every choice (dispatch.hpp): facts once per process, the calibration once on
// the first automatic selection, a pure choice tested on its own.
#pragma once

#include <span>

#include "cpu_features.hpp"
#include "dispatch.hpp"
#include "dispatch_types.hpp"
#include "kernel.hpp"
#include "lanes4.hpp"

namespace blake2simd::dispatch {

// One way to compress four lanes: a native 4-lane kernel (one 64-bit word of each lane per
// vector lane), or a single-lane kernel applied lane by lane.
struct Lanes4Candidate {
    KernelId id;        // its instruction set, also its reported name
    bool lane_by_lane;  // true: the single-lane kernel `id` four times
    Compress4Fn compress4;
};

using Lanes4Measurement = LanesMeasurement;
using Lanes4Selection = LanesSelection<Lanes4Kernel>;

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
