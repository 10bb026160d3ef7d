// 8-lane kernel selection for BLAKE2sp: a native 8-lane kernel or a BLAKE2s kernel lane by lane.
// SPDX-License-Identifier: Apache-2.0
//
// The skeleton of every choice (dispatch.hpp), measured like BLAKE2bp's (dispatch_lanes4.hpp).
#pragma once

#include <span>
#include <string_view>

#include "cpu_features.hpp"
#include "dispatch_types.hpp"
#include "kernel_blake2s.hpp"

namespace blake2simd::dispatch {

// One way to compress eight BLAKE2s lanes: a native 8-lane kernel (one 32-bit word of each lane
// per vector lane), or a single-lane BLAKE2s kernel applied lane by lane.
struct Lanes8Candidate {
    KernelId id;        // its registry row, also its reported name
    bool lane_by_lane;  // true: the row's single-lane BLAKE2s kernel eight times
    Blake2sCompress8Fn compress8;
};

using Lanes8Selection = LanesSelection<Lanes8Kernel>;

// Every 8-lane candidate of this build: the BLAKE2s reference kernel lane by lane first, then
// the other BLAKE2s kernels lane by lane, then the native 8-lane kernels.
std::span<const Lanes8Candidate> lanes8_candidates() noexcept;

// The 8-lane kernel for BLAKE2sp for a request (auto, empty, or a kernel name). Automatic: the
// fastest candidate in this process's 8-lane calibration. A row requested by name: its native
// 8-lane form if usable, else its BLAKE2s kernel lane by lane, else the automatic choice, with
// the reason in the description; only the automatic path calibrates.
Lanes8Selection select_lanes8(std::string_view request) noexcept;

// Pure decision: `measurements[i]` belongs to `candidates[i]`; select_lanes8's rules, ties keep
// the earlier candidate. Never returns a candidate the features lack or one that is not usable;
// nothing usable gives compress8 == nullptr.
Lanes8Selection choose_lanes8(std::string_view request, const cpu::CpuFeatures& features,
                              std::span<const Lanes8Candidate> candidates,
                              std::span<const LanesMeasurement> measurements) noexcept;

// This process's 8-lane measurements, parallel to lanes8_candidates(); calibrates if needed.
std::span<const LanesMeasurement> lanes8_measurements() noexcept;

// Wall time the 8-lane calibration took, in microseconds; calibrates if needed.
double lanes8_calibration_microseconds() noexcept;

// Whether the 8-lane calibration has run in this process (does not trigger it).
bool lanes8_calibration_has_run() noexcept;

// Whether `compress8` reproduces eight blake2s_compress_ref runs on edge cases (counter carry,
// distinct flags per lane, shared and strided blocks).
bool lanes8_passes_self_test(Blake2sCompress8Fn compress8) noexcept;

}  // namespace blake2simd::dispatch
