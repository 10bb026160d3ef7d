// BLAKE2b kernel selection: the single-lane catalogue and its traits for the skeleton.
// SPDX-License-Identifier: Apache-2.0
#include "dispatch.hpp"

#include "baseline_guard.hpp"
#include "dispatch_skeleton.hpp"
#include "kernel_families.hpp"
#include "self_test.hpp"

namespace blake2simd::dispatch {
namespace {

struct Blake2bTraits {
    using Family = Blake2bKernels;
    static constexpr auto catalogue() noexcept { return registry::built_kernels(); }
    static bool self_test(CompressFn compress) noexcept { return passes_self_test(compress); }
    // A few dozen blocks per timing, interleaved across kernels, best of several rounds, bounded
    // in time. The first use of the provider runs all four calibrations (this one, 4-lane,
    // BLAKE2s, 8-lane); together with the self-tests they stay within 2 ms.
    static constexpr size_t kCalibrationBlocks = 24;
    static constexpr int kMaxCalibrationRounds = 7;
    static constexpr double kCalibrationBudgetMicroseconds = 700;
};

using Process = skeleton::SingleLaneProcess<Blake2bTraits>;

const char* absent_reason(std::string_view) noexcept {
    return "is unknown or not built in";
}

}  // namespace

bool cpu_can_run(KernelId id, const cpu::CpuFeatures& features) noexcept {
    return registry::meets(registry::row_of(id).need, features);
}

Selection choose(std::string_view request, const cpu::CpuFeatures& features,
                 std::span<const KernelInfo> kernels,
                 std::span<const KernelMeasurement> measurements) noexcept {
    const skeleton::SingleView<KernelInfo> view{features, kernels, measurements};
    return skeleton::choose_single(request, view, kBlockBytes, &absent_reason);
}

std::span<const KernelInfo> compiled_kernels() noexcept {
    return Process::kKernels;
}

const KernelInfo* find_kernel(std::string_view name) noexcept {
    return Process::find(name);
}

bool is_runnable(const KernelInfo& kernel) noexcept {
    return Process::is_runnable(kernel);
}

bool reference_kernel_works() noexcept {
    return is_runnable(Process::kKernels[0]) && blake2s_reference_works();
}

Selection select_kernel(std::string_view request) noexcept {
    return Process::select(request, &absent_reason);
}

std::span<const KernelMeasurement> kernel_measurements() noexcept {
    return Process::calibrated().measurements;
}

double calibration_microseconds() noexcept {
    return Process::calibrated().microseconds_spent;
}

bool calibration_has_run() noexcept {
    return Process::calibration_has_run();
}

}  // namespace blake2simd::dispatch
