// BLAKE2bp 4-lane selection: the candidates from the registry and their traits for the skeleton.
// SPDX-License-Identifier: Apache-2.0
#include "dispatch_lanes4.hpp"

#include "baseline_guard.hpp"
#include "dispatch_lanes_skeleton.hpp"
#include "kernel_families.hpp"
#include "lanes_by_lane.hpp"

namespace blake2simd::dispatch {
namespace {

struct Lanes4Traits {
    using Family = Blake2bKernels;
    using Candidate = Lanes4Candidate;
    static constexpr auto kSingles = registry::built_kernels();
    template <CompressFn compress>
    static constexpr Compress4Fn by_lane = &compress_by_lane<Blake2bKernels, compress>;
    static constexpr bool has_native(const registry::KernelRow& row) noexcept {
        return row.blake2b.has_native4;
    }
    static constexpr Compress4Fn native(const registry::KernelRow& row) noexcept {
        return row.blake2b.compress4;
    }
    static constexpr Compress4Fn entry(const Lanes4Candidate& candidate) noexcept {
        return candidate.compress4;
    }
    static bool single_lane_runnable(KernelId id) noexcept {
        const KernelInfo* kernel = find_kernel(registry::row_of(id).name);
        return kernel != nullptr && kernel->id == id && is_runnable(*kernel);
    }
    static bool self_test(Compress4Fn compress4) noexcept {
        return lanes4_passes_self_test(compress4);
    }
    // A few dozen BLAKE2bp steps per timing, best of a few rounds, within its share of the
    // first use's 2 ms (dispatch.cpp).
    static constexpr size_t kCalibrationSteps = 24;
    static constexpr int kMaxCalibrationRounds = 5;
    static constexpr double kCalibrationBudgetMicroseconds = 500;
    static constexpr const char* kLanesLabel = "4-lane";
    static constexpr const char* kNativeForm = "native 4-lane";
};

using Process = skeleton::LanesProcess<Lanes4Traits>;
using View = skeleton::LanesView<Lanes4Traits>;

// BLAKE2bp for a named kernel that has no usable 4-lane form: the first usable candidate (the
// reference lane by lane).
Lanes4Selection choose_first_usable(const View& view) noexcept {
    for (size_t i = 0; i < view.candidates.size(); ++i) {
        if (view.usable(i)) {
            return skeleton::describe_lanes(view, i, "%s; no usable 4-lane form of %s)",
                                            view.form(i), registry::row_of(view.id).name);
        }
    }
    return {};
}

}  // namespace

std::span<const Lanes4Candidate> lanes4_candidates() noexcept {
    return Process::kCandidates;
}

Lanes4Selection choose_lanes4(KernelId id, bool automatic, const cpu::CpuFeatures& features,
                              std::span<const Lanes4Candidate> candidates,
                              std::span<const Lanes4Measurement> measurements) noexcept {
    const View view{id, features, candidates, measurements};
    if (automatic) {
        return skeleton::finish_lanes<Lanes4Traits>(
            skeleton::choose_lanes_automatic(view, registry::kAutomaticRequest));
    }
    Lanes4Selection selection = skeleton::choose_lanes_named(view);
    if (!skeleton::serves<Lanes4Traits>(selection)) {
        selection = choose_first_usable(view);
    }
    return skeleton::finish_lanes<Lanes4Traits>(selection);
}

Lanes4Selection select_lanes4(const Selection& selection) noexcept {
    const KernelId id = selection.kernel != nullptr ? selection.kernel->id : KernelId::ref;
    // Only the automatic path needs speeds; a named request must not pay for timing.
    const std::span<const Lanes4Measurement> measurements =
        selection.automatic ? std::span<const Lanes4Measurement>(Process::calibrated().measurements)
                            : std::span<const Lanes4Measurement>(Process::facts().measurements);
    return choose_lanes4(id, selection.automatic, cpu::detected_features(), Process::kCandidates,
                         measurements);
}

std::span<const Lanes4Measurement> lanes4_measurements() noexcept {
    return Process::calibrated().measurements;
}

double lanes4_calibration_microseconds() noexcept {
    return Process::calibrated().microseconds_spent;
}

bool lanes4_calibration_has_run() noexcept {
    return Process::calibration_has_run();
}

}  // namespace blake2simd::dispatch
