// 4-lane dispatch for BLAKE2bp: the candidates from the registry, their facts, the choice.
// SPDX-License-Identifier: Apache-2.0
#include "dispatch_lanes4.hpp"

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <utility>

#include "baseline_guard.hpp"
#include "calibration.hpp"
#include "describe.hpp"
#include "lanes4_by_lane.hpp"
#include "once.hpp"
#include "registry.hpp"

namespace blake2simd::dispatch {
namespace {

constexpr auto kBuiltKernels = registry::built_kernels();

template <size_t... I>
constexpr auto by_lane_candidates(std::index_sequence<I...>) noexcept {
    return std::array<Lanes4Candidate, sizeof...(I)>{
        {{kBuiltKernels[I].id, true, &compress4_by_lane<kBuiltKernels[I].compress>}...}};
}

// Every built kernel lane by lane, the reference first (ties keep it, as in choose()), then
// the native 4-lane kernels in registry order.
constexpr auto make_candidates() noexcept {
    constexpr size_t kByLane = kBuiltKernels.size();
    std::array<Lanes4Candidate, kByLane + registry::native_lanes4_count()> all{};
    const auto by_lane = by_lane_candidates(std::make_index_sequence<kByLane>{});
    size_t next = 0;
    for (const Lanes4Candidate& candidate : by_lane) {
        all[next++] = candidate;
    }
    for (const registry::KernelRow& row : registry::kKernelRows) {
        if (row.built && row.blake2b.has_native4) {
            all[next++] = Lanes4Candidate{row.id, false, row.blake2b.compress4};
        }
    }
    return all;
}

constexpr auto kCandidates = make_candidates();
constexpr size_t kCandidateCount = kCandidates.size();

const char* id_name(KernelId id) noexcept {
    return registry::row_of(id).name;
}

const char* form_name(const Lanes4Candidate& candidate) noexcept {
    return candidate.lane_by_lane ? "lane by lane" : "native 4-lane";
}

// --- usability and calibration, each once per process

struct Lanes4Facts {
    Lanes4Measurement measurements[kCandidateCount];  // usable only, no timing
};

struct CalibratedLanes4Facts {
    Lanes4Measurement measurements[kCandidateCount];
    double microseconds_spent;
};

// Trivially destructible and constant-initialised: no code runs for it at load time.
std::atomic<bool> lanes4_calibration_ran{false};

bool single_lane_runnable(KernelId id) noexcept {
    const KernelInfo* kernel = find_kernel(id_name(id));
    return kernel != nullptr && kernel->id == id && is_runnable(*kernel);
}

Lanes4Facts check_candidates() noexcept {
    Lanes4Facts facts{};
    const cpu::CpuFeatures& features = cpu::detected_features();
    for (size_t i = 0; i < kCandidateCount; ++i) {
        const Lanes4Candidate& candidate = kCandidates[i];
        const bool runnable = candidate.lane_by_lane ? single_lane_runnable(candidate.id)
                                                     : cpu_can_run(candidate.id, features);
        // Short-circuit: a kernel the CPU lacks is never called, not even by the self-test.
        facts.measurements[i].usable = runnable && lanes4_passes_self_test(candidate.compress4);
    }
    return facts;
}

const Lanes4Facts& lanes4_facts() noexcept {
    return ComputedOnce<Lanes4Facts, &check_candidates>::get();
}

// A few dozen BLAKE2bp steps per timing, interleaved across candidates, best of a few rounds,
// bounded in time (dispatch.cpp's single-lane calibration has the rest of the 2 ms).
constexpr size_t kCalibrationSteps = 24;
constexpr int kMaxCalibrationRounds = 5;
constexpr double kCalibrationBudgetMicroseconds = 700;
constexpr size_t kStepBytes = kLanes * kBlockBytes;

double time_one_call(Compress4Fn compress4, const uint8_t* message) noexcept {
    Blake2bState states[kLanes]{};
    for (Blake2bState& state : states) {
        std::memcpy(state.h, kIV, sizeof state.h);
    }
    const uint8_t* blocks[kLanes];
    for (size_t lane = 0; lane < kLanes; ++lane) {
        blocks[lane] = message + lane * kBlockBytes;
    }
    const double start = monotonic_nanoseconds();
    compress4(states, blocks, kCalibrationSteps, kStepBytes, kBlockBytes);
    const double stop = monotonic_nanoseconds();
    // Keeps the result observable so the call cannot be dropped.
    volatile uint64_t sink = states[0].h[0] ^ states[3].h[7];
    (void)sink;
    return stop - start;
}

CalibratedLanes4Facts calibrate() noexcept {
    const Lanes4Facts& facts = lanes4_facts();
    static_assert(kCalibrationSteps * kStepBytes <= 16 * 1024, "calibration input on the stack");
    uint8_t message[kCalibrationSteps * kStepBytes];
    for (size_t i = 0; i < sizeof message; ++i) {
        message[i] = static_cast<uint8_t>(i * 131 + 7);
    }
    const auto timing = calibrate_candidates<kCandidateCount>(
        kMaxCalibrationRounds, kCalibrationBudgetMicroseconds, kCalibrationSteps,
        [&facts](size_t c) { return facts.measurements[c].usable; },
        [&message](size_t c) { return time_one_call(kCandidates[c].compress4, message); });

    CalibratedLanes4Facts calibrated{};
    for (size_t c = 0; c < kCandidateCount; ++c) {
        calibrated.measurements[c].usable = facts.measurements[c].usable;
        calibrated.measurements[c].nanoseconds_per_step = timing.nanoseconds_per_unit[c];
    }
    calibrated.microseconds_spent = timing.microseconds_spent;
    lanes4_calibration_ran.store(true, std::memory_order_release);
    return calibrated;
}

const CalibratedLanes4Facts& calibrated_lanes4_facts() noexcept {
    // Like lanes4_facts(), but only automatic selections and the diagnostics below reach it.
    return ComputedOnce<CalibratedLanes4Facts, &calibrate>::get();
}

double megabytes_per_second(const Lanes4Measurement& measurement) noexcept {
    return measurement.nanoseconds_per_step > 0
               ? static_cast<double>(kStepBytes) * 1000.0 / measurement.nanoseconds_per_step
               : 0.0;
}

// --- the pure choice

constexpr size_t kNone = ~size_t{0};

// The candidates and their measurements as choose_lanes4() sees them.
struct CandidateView {
    KernelId id;  // the single-lane kernel's instruction set
    const cpu::CpuFeatures& features;
    std::span<const Lanes4Candidate> candidates;
    std::span<const Lanes4Measurement> measurements;

    bool usable(size_t i) const noexcept {
        return i < measurements.size() && measurements[i].usable &&
               cpu_can_run(candidates[i].id, features);
    }
    double step(size_t i) const noexcept { return measurements[i].nanoseconds_per_step; }
};

// The fastest usable candidate whose form passes `form_ok` (strictly faster only: on a tie the
// earlier candidate keeps its place), or kNone; `count` gets how many were usable.
template <class FormOk>
size_t fastest(const CandidateView& view, FormOk form_ok, size_t* count) noexcept {
    size_t chosen = kNone;
    for (size_t i = 0; i < view.candidates.size(); ++i) {
        if (!view.usable(i) || !form_ok(view.candidates[i])) {
            continue;
        }
        ++*count;
        if (chosen == kNone || view.step(i) < view.step(chosen)) {
            chosen = i;
        }
    }
    return chosen;
}

// The first usable candidate of `id` in that form, or kNone.
size_t first_usable(const CandidateView& view, KernelId id, bool lane_by_lane) noexcept {
    for (size_t i = 0; i < view.candidates.size(); ++i) {
        if (view.candidates[i].id == id && view.candidates[i].lane_by_lane == lane_by_lane &&
            view.usable(i)) {
            return i;
        }
    }
    return kNone;
}

// The one describer: the candidate serving, its name, and why in words (`why` is a printf
// format for the rest of the parenthesis).
__attribute__((format(printf, 3, 4))) Lanes4Selection describe(const CandidateView& view,
                                                               size_t chosen, const char* why,
                                                               ...) noexcept {
    Lanes4Selection selection{};
    const Lanes4Candidate& candidate = view.candidates[chosen];
    selection.kernel = {id_name(candidate.id), candidate.compress4};
    selection.lane_by_lane = candidate.lane_by_lane;
    va_list args;
    va_start(args, why);
    describe_into(selection.description, sizeof selection.description, selection.kernel.name, why,
                  args);
    va_end(args);
    return selection;
}

Lanes4Selection choose_automatic(const CandidateView& view) noexcept {
    size_t usable_count = 0;
    const size_t chosen = fastest(
        view, [](const Lanes4Candidate&) { return true; }, &usable_count);
    if (chosen == kNone) {
        return {};
    }
    // The best of the other form, to show what the choice was measured against.
    const bool chosen_by_lane = view.candidates[chosen].lane_by_lane;
    size_t rivals = 0;
    const size_t rival = fastest(
        view, [&](const Lanes4Candidate& c) { return c.lane_by_lane != chosen_by_lane; }, &rivals);
    const double speed = megabytes_per_second(view.measurements[chosen]);
    const char* form = form_name(view.candidates[chosen]);
    if (rival == kNone) {
        return describe(view, chosen, "auto: fastest of %zu 4-lane candidates, %s, %.0f MB/s)",
                        usable_count, form, speed);
    }
    return describe(view, chosen,
                    "auto: fastest of %zu 4-lane candidates, %s, %.0f MB/s; best %s: %s %.0f MB/s)",
                    usable_count, form, speed, form_name(view.candidates[rival]),
                    id_name(view.candidates[rival].id),
                    megabytes_per_second(view.measurements[rival]));
}

// The requested instruction set for BLAKE2bp too: native 4-lane, else lane by lane, else the
// first usable candidate (the reference lane by lane).
Lanes4Selection choose_named(const CandidateView& view) noexcept {
    for (const bool lane_by_lane : {false, true}) {
        const size_t chosen = first_usable(view, view.id, lane_by_lane);
        if (chosen != kNone) {
            return describe(view, chosen, "as the kernel, %s)", form_name(view.candidates[chosen]));
        }
    }
    for (size_t i = 0; i < view.candidates.size(); ++i) {
        if (view.usable(i)) {
            return describe(view, i, "%s; no usable 4-lane form of %s)",
                            form_name(view.candidates[i]), id_name(view.id));
        }
    }
    return {};
}

}  // namespace

std::span<const Lanes4Candidate> lanes4_candidates() noexcept {
    return kCandidates;
}

Lanes4Selection choose_lanes4(KernelId id, bool automatic, const cpu::CpuFeatures& features,
                              std::span<const Lanes4Candidate> candidates,
                              std::span<const Lanes4Measurement> measurements) noexcept {
    const CandidateView view{id, features, candidates, measurements};
    Lanes4Selection selection = automatic ? choose_automatic(view) : choose_named(view);
    if (selection.kernel.compress4 == nullptr) {
        std::snprintf(selection.description, sizeof selection.description,
                      "none (no usable 4-lane candidate)");
    }
    return selection;
}

Lanes4Selection select_lanes4(const Selection& selection) noexcept {
    const KernelId id = selection.kernel != nullptr ? selection.kernel->id : KernelId::ref;
    // Only the automatic path needs speeds; a named request must not pay for timing.
    const std::span<const Lanes4Measurement> measurements =
        selection.automatic
            ? std::span<const Lanes4Measurement>(calibrated_lanes4_facts().measurements)
            : std::span<const Lanes4Measurement>(lanes4_facts().measurements);
    return choose_lanes4(id, selection.automatic, cpu::detected_features(), kCandidates,
                         measurements);
}

std::span<const Lanes4Measurement> lanes4_measurements() noexcept {
    return calibrated_lanes4_facts().measurements;
}

double lanes4_calibration_microseconds() noexcept {
    return calibrated_lanes4_facts().microseconds_spent;
}

bool lanes4_calibration_has_run() noexcept {
    return lanes4_calibration_ran.load(std::memory_order_acquire);
}

}  // namespace blake2simd::dispatch
