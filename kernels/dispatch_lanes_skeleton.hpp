// The multi-lane half of the selection skeleton (dispatch_skeleton.hpp): the candidates of a
// tree mode (every single-lane kernel lane by lane, then the native multi-lane forms), their
// facts and calibration once per process, the pure choice and its describer.
// SPDX-License-Identifier: Apache-2.0
//
// Baseline code only (dispatch's own translation units).
//
// Traits: Family (kernel_families.hpp); Candidate {id, lane_by_lane, entry point}; kSingles
// (the single-lane catalogue); by_lane<compress> (the lane-by-lane form of a single-lane
// kernel); has_native(row) and native(row) (the row's native multi-lane form); entry(candidate);
// single_lane_runnable(id); self_test(entry); kCalibrationSteps, kMaxCalibrationRounds,
// kCalibrationBudgetMicroseconds; kLanesLabel ("4-lane") and kNativeForm ("native 4-lane").
#pragma once

#include "dispatch_skeleton.hpp"

namespace blake2simd::dispatch::skeleton {

// --- the candidates

template <class Traits, size_t... I>
constexpr auto by_lane_candidates(std::index_sequence<I...>) noexcept {
    return std::array<typename Traits::Candidate, sizeof...(I)>{
        {{Traits::kSingles[I].id, true,
          Traits::template by_lane<Traits::kSingles[I].compress>}...}};
}

template <class Traits>
constexpr size_t native_count() noexcept {
    size_t count = 0;
    for (const registry::KernelRow& row : registry::kKernelRows) {
        count += row.built && Traits::has_native(row) ? 1 : 0;
    }
    return count;
}

// Every single-lane kernel lane by lane, the reference first (ties keep it, as in the
// single-lane choice), then the native forms in registry order.
template <class Traits>
constexpr auto make_candidates() noexcept {
    constexpr size_t kByLane = Traits::kSingles.size();
    std::array<typename Traits::Candidate, kByLane + native_count<Traits>()> all{};
    const auto by_lane = by_lane_candidates<Traits>(std::make_index_sequence<kByLane>{});
    size_t next = 0;
    for (const auto& candidate : by_lane) {
        all[next++] = candidate;
    }
    for (const registry::KernelRow& row : registry::kKernelRows) {
        if (row.built && Traits::has_native(row)) {
            all[next++] = typename Traits::Candidate{row.id, false, Traits::native(row)};
        }
    }
    return all;
}

// --- the pure choice

inline constexpr size_t kNone = ~size_t{0};

template <class Traits>
struct LanesView {
    KernelId id;  // the requested row (named choices only)
    const cpu::CpuFeatures& features;
    std::span<const typename Traits::Candidate> candidates;
    std::span<const LanesMeasurement> measurements;

    bool usable(size_t i) const noexcept {
        return i < measurements.size() && measurements[i].usable &&
               cpu_can_run(candidates[i].id, features);
    }
    double step(size_t i) const noexcept { return measurements[i].nanoseconds_per_step; }
    double mb_per_second(size_t i) const noexcept {
        constexpr size_t kStepBytes = Traits::Family::kLanes * Traits::Family::kBlockBytes;
        return step(i) > 0 ? static_cast<double>(kStepBytes) * 1000.0 / step(i) : 0.0;
    }
    const char* form(size_t i) const noexcept {
        return candidates[i].lane_by_lane ? "lane by lane" : Traits::kNativeForm;
    }
    const char* name(size_t i) const noexcept { return registry::row_of(candidates[i].id).name; }
};

// The fastest usable candidate whose form passes `form_ok` (strictly faster only: on a tie the
// earlier candidate keeps its place), or kNone; `count` gets how many were usable.
template <class Traits, class FormOk>
size_t fastest(const LanesView<Traits>& view, FormOk form_ok, size_t* count) noexcept {
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
template <class Traits>
size_t first_usable(const LanesView<Traits>& view, KernelId id, bool lane_by_lane) noexcept {
    for (size_t i = 0; i < view.candidates.size(); ++i) {
        if (view.candidates[i].id == id && view.candidates[i].lane_by_lane == lane_by_lane &&
            view.usable(i)) {
            return i;
        }
    }
    return kNone;
}

template <class Traits>
using LanesSelectionOf = LanesSelection<typename Traits::Family::LanesKernel>;

// The one describer: the candidate serving, its name, and why in words (`why` is a printf
// format for the rest of the parenthesis).
template <class Traits>
__attribute__((format(printf, 3, 4))) LanesSelectionOf<Traits> describe_lanes(
    const LanesView<Traits>& view, size_t chosen, const char* why, ...) noexcept {
    LanesSelectionOf<Traits> selection{};
    selection.kernel = {view.name(chosen), Traits::entry(view.candidates[chosen])};
    selection.lane_by_lane = view.candidates[chosen].lane_by_lane;
    va_list args;
    va_start(args, why);
    describe_into(selection.description, sizeof selection.description, selection.kernel.name, why,
                  args);
    va_end(args);
    return selection;
}

// The fastest usable candidate, described after `lead` ("auto", or why a request fell back),
// with the best of the other form to show what it was measured against.
template <class Traits>
LanesSelectionOf<Traits> choose_lanes_automatic(const LanesView<Traits>& view,
                                                const char* lead) noexcept {
    size_t usable_count = 0;
    const size_t chosen = fastest(
        view, [](const typename Traits::Candidate&) { return true; }, &usable_count);
    if (chosen == kNone) {
        return {};
    }
    const bool chosen_by_lane = view.candidates[chosen].lane_by_lane;
    size_t rivals = 0;
    const size_t rival = fastest(
        view, [&](const auto& c) { return c.lane_by_lane != chosen_by_lane; }, &rivals);
    if (rival == kNone) {
        return describe_lanes(view, chosen, "%s: fastest of %zu %s candidates, %s, %.0f MB/s)",
                              lead, usable_count, Traits::kLanesLabel, view.form(chosen),
                              view.mb_per_second(chosen));
    }
    return describe_lanes(
        view, chosen, "%s: fastest of %zu %s candidates, %s, %.0f MB/s; best %s: %s %.0f MB/s)",
        lead, usable_count, Traits::kLanesLabel, view.form(chosen), view.mb_per_second(chosen),
        view.form(rival), view.name(rival), view.mb_per_second(rival));
}

// The requested row's native form if usable, else its lane-by-lane form; neither gives an
// entry point of nullptr.
template <class Traits>
LanesSelectionOf<Traits> choose_lanes_named(const LanesView<Traits>& view) noexcept {
    for (const bool lane_by_lane : {false, true}) {
        const size_t chosen = first_usable(view, view.id, lane_by_lane);
        if (chosen != kNone) {
            return describe_lanes(view, chosen, "as the kernel, %s)", view.form(chosen));
        }
    }
    return {};
}

template <class Traits>
bool serves(const LanesSelectionOf<Traits>& selection) noexcept {
    return Traits::Family::lanes_entry(selection.kernel) != nullptr;
}

// Nothing usable: say so.
template <class Traits>
LanesSelectionOf<Traits> finish_lanes(LanesSelectionOf<Traits> selection) noexcept {
    if (!serves<Traits>(selection)) {
        std::snprintf(selection.description, sizeof selection.description,
                      "none (no usable %s candidate)", Traits::kLanesLabel);
    }
    return selection;
}

// --- this process's facts

template <class Traits>
class LanesProcess final {
  public:
    using Family = typename Traits::Family;
    static constexpr auto kCandidates = make_candidates<Traits>();
    static constexpr size_t kCount = kCandidates.size();

    struct Facts {
        LanesMeasurement measurements[kCount];  // usable only, no timing
    };
    struct Calibrated {
        LanesMeasurement measurements[kCount];
        double microseconds_spent;
    };

    static const Facts& facts() noexcept { return ComputedOnce<Facts, &check_candidates>::get(); }
    // Only automatic selections and diagnostics reach it, never the provider's load.
    static const Calibrated& calibrated() noexcept {
        return ComputedOnce<Calibrated, &calibrate>::get();
    }
    static bool calibration_has_run() noexcept {
        return s_calibration_ran.load(std::memory_order_acquire);
    }

  private:
    static constexpr size_t kStepBytes = Family::kLanes * Family::kBlockBytes;
    // Trivially destructible and constant-initialised: no code runs for it at load time.
    static constinit inline std::atomic<bool> s_calibration_ran{false};

    static Facts check_candidates() noexcept {
        Facts facts{};
        const cpu::CpuFeatures& features = cpu::detected_features();
        for (size_t i = 0; i < kCount; ++i) {
            const auto& candidate = kCandidates[i];
            const bool runnable = candidate.lane_by_lane
                                      ? Traits::single_lane_runnable(candidate.id)
                                      : cpu_can_run(candidate.id, features);
            // Short-circuit: a kernel the CPU lacks is never called, not even by the self-test.
            facts.measurements[i].usable = runnable && Traits::self_test(Traits::entry(candidate));
        }
        return facts;
    }

    static double time_one_call(typename Family::CompressLanes compress,
                                const uint8_t* message) noexcept {
        typename Family::State states[Family::kLanes]{};
        const uint8_t* blocks[Family::kLanes];
        for (size_t lane = 0; lane < Family::kLanes; ++lane) {
            std::memcpy(states[lane].h, Family::kIV, sizeof states[lane].h);
            blocks[lane] = message + lane * Family::kBlockBytes;
        }
        const double start = monotonic_nanoseconds();
        compress(states, blocks, Traits::kCalibrationSteps, kStepBytes,
                 static_cast<typename Family::Word>(Family::kBlockBytes));
        const double stop = monotonic_nanoseconds();
        // Keeps the result observable so the call cannot be dropped.
        volatile auto sink = states[0].h[0] ^ states[Family::kLanes - 1].h[7];
        (void)sink;
        return stop - start;
    }

    static Calibrated calibrate() noexcept {
        const Facts& checked = facts();
        static_assert(Traits::kCalibrationSteps * kStepBytes <= 16 * 1024,
                      "calibration input on the stack");
        uint8_t message[Traits::kCalibrationSteps * kStepBytes];
        for (size_t i = 0; i < sizeof message; ++i) {
            message[i] = static_cast<uint8_t>(i * 131 + 7);
        }
        const auto timing = calibrate_candidates<kCount>(
            Traits::kMaxCalibrationRounds, Traits::kCalibrationBudgetMicroseconds,
            Traits::kCalibrationSteps,
            [&checked](size_t c) { return checked.measurements[c].usable; },
            [&message](size_t c) { return time_one_call(Traits::entry(kCandidates[c]), message); });
        Calibrated calibrated{};
        for (size_t c = 0; c < kCount; ++c) {
            calibrated.measurements[c].usable = checked.measurements[c].usable;
            calibrated.measurements[c].nanoseconds_per_step = timing.nanoseconds_per_unit[c];
        }
        calibrated.microseconds_spent = timing.microseconds_spent;
        s_calibration_ran.store(true, std::memory_order_release);
        return calibrated;
    }
};

}  // namespace blake2simd::dispatch::skeleton
