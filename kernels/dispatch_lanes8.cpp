// BLAKE2sp 8-lane selection: the candidates from the registry and their traits for the skeleton.
// SPDX-License-Identifier: Apache-2.0
#include "dispatch_lanes8.hpp"

#include "baseline_guard.hpp"
#include "dispatch_blake2s.hpp"
#include "dispatch_lanes_skeleton.hpp"
#include "kernel_families.hpp"
#include "lanes_by_lane.hpp"

namespace blake2simd::dispatch {
namespace {

struct Lanes8Traits {
    using Family = Blake2sKernels;
    using Candidate = Lanes8Candidate;
    static constexpr auto kSingles = skeleton::built_blake2s_kernels();
    template <Blake2sCompressFn compress>
    static constexpr Blake2sCompress8Fn by_lane = &compress_by_lane<Blake2sKernels, compress>;
    static constexpr bool has_native(const registry::KernelRow& row) noexcept {
        return row.blake2s.has_native8;
    }
    static constexpr Blake2sCompress8Fn native(const registry::KernelRow& row) noexcept {
        return row.blake2s.compress8;
    }
    static constexpr Blake2sCompress8Fn entry(const Lanes8Candidate& candidate) noexcept {
        return candidate.compress8;
    }
    static bool single_lane_runnable(KernelId id) noexcept {
        for (const Blake2sKernelInfo& kernel : blake2s_kernels()) {
            if (kernel.id == id) {
                return blake2s_is_runnable(kernel);
            }
        }
        return false;
    }
    static bool self_test(Blake2sCompress8Fn compress8) noexcept {
        return lanes8_passes_self_test(compress8);
    }
    // As BLAKE2bp's (dispatch_lanes4.cpp), within this calibration's share of the 2 ms; fewer
    // steps, as the reference lane by lane (always a candidate) is slow.
    static constexpr size_t kCalibrationSteps = 16;
    static constexpr int kMaxCalibrationRounds = 5;
    static constexpr double kCalibrationBudgetMicroseconds = 400;
    static constexpr const char* kLanesLabel = "8-lane";
    static constexpr const char* kNativeForm = "native 8-lane";
};

using Process = skeleton::LanesProcess<Lanes8Traits>;
using View = skeleton::LanesView<Lanes8Traits>;

// The registry row a request names for BLAKE2sp, or nullptr (automatic or unknown).
const registry::KernelRow* requested_row(std::string_view request) noexcept {
    return skeleton::wants_automatic(request) ? nullptr : skeleton::row_named(request);
}

// The named row's own 8-lane form; an entry point of nullptr if the request names no row or
// the row has no usable form.
Lanes8Selection choose_named(std::string_view request, const View& view) noexcept {
    const registry::KernelRow* row = requested_row(request);
    if (row == nullptr) {
        return {};
    }
    View named = view;
    named.id = row->id;
    return skeleton::choose_lanes_named(named);
}

const char* refusal(const registry::KernelRow* row, const cpu::CpuFeatures& features) noexcept {
    if (row == nullptr || !row->built) {
        return "is unknown or not built in";
    }
    return cpu_can_run(row->id, features) ? "has no usable 8-lane or BLAKE2s form"
                                          : "is not supported by this CPU";
}

// Why the automatic choice serves, for the description.
void describe_fallback(std::string_view request, const cpu::CpuFeatures& features, char* out,
                       size_t size) noexcept {
    if (skeleton::wants_automatic(request)) {
        std::snprintf(out, size, "%s", registry::kAutomaticRequest);
    } else if (!skeleton::looks_like_kernel_name(request)) {
        std::snprintf(out, size, "%s", skeleton::kNotAName);
    } else {
        std::snprintf(out, size, "auto; requested '%.*s' %s", static_cast<int>(request.size()),
                      request.data(), refusal(requested_row(request), features));
    }
}

}  // namespace

std::span<const Lanes8Candidate> lanes8_candidates() noexcept {
    return Process::kCandidates;
}

Lanes8Selection choose_lanes8(std::string_view request, const cpu::CpuFeatures& features,
                              std::span<const Lanes8Candidate> candidates,
                              std::span<const LanesMeasurement> measurements) noexcept {
    const View view{KernelId::ref, features, candidates, measurements};
    const Lanes8Selection named = choose_named(request, view);
    if (skeleton::serves<Lanes8Traits>(named)) {
        return named;
    }
    char lead[128];
    describe_fallback(request, features, lead, sizeof lead);
    return skeleton::finish_lanes<Lanes8Traits>(skeleton::choose_lanes_automatic(view, lead));
}

Lanes8Selection select_lanes8(std::string_view request) noexcept {
    const cpu::CpuFeatures& features = cpu::detected_features();
    // A row served by name must not pay for timing; only the automatic path calibrates.
    const Lanes8Selection named = choose_named(
        request,
        View{KernelId::ref, features, Process::kCandidates, Process::facts().measurements});
    if (skeleton::serves<Lanes8Traits>(named)) {
        return named;
    }
    return choose_lanes8(request, features, Process::kCandidates,
                         Process::calibrated().measurements);
}

std::span<const LanesMeasurement> lanes8_measurements() noexcept {
    return Process::calibrated().measurements;
}

double lanes8_calibration_microseconds() noexcept {
    return Process::calibrated().microseconds_spent;
}

bool lanes8_calibration_has_run() noexcept {
    return Process::calibration_has_run();
}

}  // namespace blake2simd::dispatch
