// The shapes every kernel selection shares, whatever the family (BLAKE2b, BLAKE2s) and lane
// count: measurements fed to the pure choices, and the selections they return.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "cpu_features.hpp"
#include "kernel.hpp"

namespace blake2simd::dispatch {

// Whether a CPU with these features can execute the instructions of the kernel's row.
bool cpu_can_run(KernelId id, const cpu::CpuFeatures& features) noexcept;

struct KernelMeasurement {
    bool passed_self_test;         // false also when the kernel was not run (CPU lacks it)
    double nanoseconds_per_block;  // calibrated speed; meaningful only for runnable kernels
};

// A single-lane choice; `Info` is KernelInfo (BLAKE2b) or Blake2sKernelInfo.
template <class Info>
struct KernelSelection {
    const Info* kernel;     // nullptr only when even the reference kernel failed its self-test
    bool automatic;         // the automatic choice serves: auto, empty, or a refused request
    char description[160];  // why this kernel, in words, for buildinfo
};

struct LanesMeasurement {
    // Built, runnable on this CPU, matched the reference kernel lane by lane; for a lane-by-lane
    // candidate its single-lane kernel is also runnable. False also when it was not run.
    bool usable;
    double nanoseconds_per_step;  // one block into each lane; 0 if not measured
};

// A multi-lane choice; `Kernel` is Lanes4Kernel (BLAKE2bp) or Lanes8Kernel (BLAKE2sp).
template <class Kernel>
struct LanesSelection {
    Kernel kernel;          // its entry point is nullptr only when no candidate is usable
    bool lane_by_lane;      // of the candidate serving
    char description[200];  // why this one, in words, for buildinfo (a fallback says more)
};

}  // namespace blake2simd::dispatch
