// BLAKE2s kernel selection: the BLAKE2s catalogue and its traits for the skeleton.
// SPDX-License-Identifier: Apache-2.0
#include "dispatch_blake2s.hpp"

#include "baseline_guard.hpp"
#include "dispatch_skeleton.hpp"
#include "kernel_families.hpp"
#include "self_test.hpp"

namespace blake2simd::dispatch {
namespace {

struct Blake2sTraits {
    using Family = Blake2sKernels;
    static constexpr auto catalogue() noexcept { return skeleton::built_blake2s_kernels(); }
    static bool self_test(Blake2sCompressFn compress) noexcept {
        return blake2s_passes_self_test(compress);
    }
    // As BLAKE2b's (dispatch.cpp), within this calibration's share of the first use's 2 ms.
    static constexpr size_t kCalibrationBlocks = 32;
    static constexpr int kMaxCalibrationRounds = 7;
    static constexpr double kCalibrationBudgetMicroseconds = 400;
};

using Process = skeleton::SingleLaneProcess<Blake2sTraits>;

const char* absent_reason(std::string_view request) noexcept {
    const registry::KernelRow* row = skeleton::row_named(request);
    return row != nullptr && row->built && !row->blake2s.has_single ? "has no BLAKE2s form"
                                                                    : "is unknown or not built in";
}

}  // namespace

std::span<const Blake2sKernelInfo> blake2s_kernels() noexcept {
    return Process::kKernels;
}

bool blake2s_is_runnable(const Blake2sKernelInfo& kernel) noexcept {
    return Process::is_runnable(kernel);
}

bool blake2s_reference_works() noexcept {
    return Process::is_runnable(Process::kKernels[0]);
}

Blake2sSelection select_blake2s(std::string_view request) noexcept {
    return Process::select(request, &absent_reason);
}

Blake2sSelection choose_blake2s(std::string_view request, const cpu::CpuFeatures& features,
                                std::span<const Blake2sKernelInfo> kernels,
                                std::span<const KernelMeasurement> measurements) noexcept {
    const skeleton::SingleView<Blake2sKernelInfo> view{features, kernels, measurements};
    return skeleton::choose_single(request, view, kBlake2sBlockBytes, &absent_reason);
}

std::span<const KernelMeasurement> blake2s_measurements() noexcept {
    return Process::calibrated().measurements;
}

double blake2s_calibration_microseconds() noexcept {
    return Process::calibrated().microseconds_spent;
}

bool blake2s_calibration_has_run() noexcept {
    return Process::calibration_has_run();
}

}  // namespace blake2simd::dispatch
