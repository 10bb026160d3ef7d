// BLAKE2s kernel selection: the single-lane BLAKE2s forms of the registry's rows.
// SPDX-License-Identifier: Apache-2.0
//
// The skeleton of every choice (dispatch.hpp). A BLAKE2s kernel is the blake2s column of a
// registry row, so it has the row's name; a request naming a row without a BLAKE2s form falls
// back to the automatic choice, and the description says so.
#pragma once

#include <span>
#include <string_view>

#include "cpu_features.hpp"
#include "dispatch_types.hpp"
#include "kernel_blake2s.hpp"

namespace blake2simd::dispatch {

using Blake2sSelection = KernelSelection<Blake2sKernelInfo>;

// The single-lane BLAKE2s kernels of this build, the reference first.
std::span<const Blake2sKernelInfo> blake2s_kernels() noexcept;

// Whether this CPU runs it and it reproduced the BLAKE2s known answer (never run otherwise).
bool blake2s_is_runnable(const Blake2sKernelInfo& kernel) noexcept;

// Whether the BLAKE2s reference kernel passed its self-test (no calibration).
bool blake2s_reference_works() noexcept;

// Resolves a request (auto, empty, or a kernel name) for BLAKE2s like select_kernel() for
// BLAKE2b; the automatic choice is the fastest in this process's BLAKE2s calibration, which
// runs on the first call.
Blake2sSelection select_blake2s(std::string_view request) noexcept;

// Pure decision, choose()'s rules for BLAKE2s: `measurements[i]` belongs to `kernels[i]`,
// kernels[0] must be the reference kernel.
Blake2sSelection choose_blake2s(std::string_view request, const cpu::CpuFeatures& features,
                                std::span<const Blake2sKernelInfo> kernels,
                                std::span<const KernelMeasurement> measurements) noexcept;

// This process's BLAKE2s measurements, parallel to blake2s_kernels(); calibrates if needed.
std::span<const KernelMeasurement> blake2s_measurements() noexcept;

// Wall time the BLAKE2s calibration took, in microseconds; calibrates if needed.
double blake2s_calibration_microseconds() noexcept;

// Whether the BLAKE2s calibration has run in this process (does not trigger it).
bool blake2s_calibration_has_run() noexcept;

}  // namespace blake2simd::dispatch
