// The one selection process behind every form (forms.hpp says what it does).
// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "baseline_guard.hpp"
#include "forms.hpp"
#include "lanes_by_lane.hpp"
#include "once.hpp"

namespace blake2simd::dispatch {
namespace {

// --- the candidates, from the registry's rows

constexpr size_t kMaxCandidates = 2 * registry::kKnownKernelCount;

struct CandidateList {
    Candidate items[kMaxCandidates];
    size_t count;

    constexpr void add(const Candidate& candidate) noexcept { items[count++] = candidate; }
    constexpr std::span<const Candidate> span() const noexcept { return {items, count}; }
};

template <class Fn>
constexpr Entry entry_of(Fn Entry::*field, Fn compress) noexcept {
    Entry entry{};
    entry.*field = compress;
    return entry;
}

// The built rows with the member's single form (`lanes` false) or a native multi-lane one, each
// with its own entry point for it.
template <class Family, bool lanes>
constexpr CandidateList natives() noexcept {
    CandidateList list{};
    for (const registry::KernelRow& row : registry::kKernelRows) {
        const auto& entries = row.entries<Family>();
        if (row.built && (lanes ? entries.has_lanes : entries.has_single)) {
            list.add({row.id, false,
                      lanes ? entry_of(Family::kLanesEntry, entries.lanes)
                            : entry_of(Family::kSingleEntry, entries.single)});
        }
    }
    return list;
}

// A single-lane form: the member's single-lane kernels, the reference first. A multi-lane form:
// each of those lane by lane (candidate i is the single-lane form's candidate i), then the
// native multi-lane kernels.
template <class Family, size_t kLanes, size_t... single>
constexpr CandidateList make_candidates(std::index_sequence<single...>) noexcept {
    constexpr CandidateList kSingles = natives<Family, false>();
    if constexpr (kLanes == 1) {
        return kSingles;
    } else {
        CandidateList all{};
        (all.add(
             {kSingles.items[single].id, true,
              entry_of(Family::kLanesEntry,
                       &compress_by_lane<Family, kSingles.items[single].entry.*Family::kSingleEntry,
                                         kLanes>)}),
         ...);
        for (const Candidate& native : natives<Family, true>().span()) {
            all.add(native);
        }
        return all;
    }
}

constexpr auto kCandidates = per_form([](auto form) {
    using Family = FamilyOf<kForms[form].member>;
    return make_candidates<Family, kForms[form].lanes>(
        std::make_index_sequence<natives<Family, false>().count>{});
});

// --- this process's facts and calibration

using Facts = std::array<Measurement, kMaxCandidates>;  // usable only, no speeds

struct Calibrated {
    Measurement measurements[kFormCount][kMaxCandidates];
    double microseconds[kFormCount];
};

template <size_t form>
Facts check_candidates() noexcept {
    constexpr Form kSingleForm = kForms[form - (kForms[form].lanes == 1 ? 0 : 1)].form;
    const cpu::CpuFeatures& features = cpu::detected_features();
    Facts checked{};
    for (size_t i = 0; i < kCandidates[form].count; ++i) {
        const Candidate& candidate = kCandidates[form].items[i];
        const bool runnable = candidate.lane_by_lane ? facts(kSingleForm)[i].usable
                                                     : cpu_can_run(candidate.id, features);
        // Short-circuit: a kernel the CPU lacks is never called, not even by the self-test.
        checked[i].usable = runnable && passes_self_test(kForms[form].form, candidate.entry);
    }
    return checked;
}

// Per form, so a process that only asks whether we work runs the single-lane self-tests only.
constexpr auto kFacts =
    per_form([](auto form) { return &ComputedOnce<Facts, &check_candidates<form>>::get; });

constexpr size_t kMessageBytes = 16 * 1024;

// One timed call of `entry` over calibration_units blocks into each lane of `message`.
template <size_t form>
double time_one_call(const Entry& entry, const uint8_t* message) noexcept {
    using Family = FamilyOf<kForms[form].member>;
    constexpr size_t kLanes = kForms[form].lanes;
    constexpr size_t kUnits = kForms[form].calibration_units;
    constexpr auto kBlock = static_cast<typename Family::Word>(Family::kBlockBytes);
    static_assert(kUnits * kLanes * kBlock <= kMessageBytes);
    typename Family::State states[kLanes]{};
    const uint8_t* blocks[kLanes];
    for (size_t lane = 0; lane < kLanes; ++lane) {
        std::memcpy(states[lane].h, Family::kIV, sizeof states[lane].h);
        blocks[lane] = message + lane * kBlock;
    }
    const double start = monotonic_nanoseconds();
    if constexpr (kLanes == 1) {
        (entry.*Family::kSingleEntry)(states, message, kUnits, kBlock);
    } else {
        (entry.*Family::kLanesEntry)(states, blocks, kUnits, kLanes * kBlock, kBlock);
    }
    const double stop = monotonic_nanoseconds();
    // Keeps the result observable so the call cannot be dropped.
    volatile auto sink = states[0].h[0] ^ states[kLanes - 1].h[7];
    (void)sink;
    return stop - start;
}

constexpr auto kTimeOneCall = per_form([](auto form) { return &time_one_call<form>; });

// Best of rounds per candidate, each form within its budget. Only automatic choices and
// diagnostics reach it, never the provider's load.
Calibrated calibrate() noexcept {
    uint8_t message[kMessageBytes];
    for (size_t i = 0; i < sizeof message; ++i) {
        message[i] = static_cast<uint8_t>(i * 131 + 7);
    }
    Calibrated calibrated{};
    for (size_t f = 0; f < kFormCount; ++f) {
        const Facts& checked = kFacts[f]();  // before the clock starts: self-tests are not timing
        const CandidateList& candidates = kCandidates[f];
        const double start = monotonic_nanoseconds();
        double best[kMaxCandidates] = {};
        time_best_of_rounds(
            candidates.count, kForms[f].calibration_rounds, kForms[f].budget_microseconds,
            [&checked](size_t i) { return checked[i].usable; },
            [&](size_t i) { return kTimeOneCall[f](candidates.items[i].entry, message); }, best);
        for (size_t i = 0; i < candidates.count; ++i) {
            calibrated.measurements[f][i] = {
                checked[i].usable, best[i] / static_cast<double>(kForms[f].calibration_units)};
        }
        calibrated.microseconds[f] = (monotonic_nanoseconds() - start) / 1e3;
    }
    return calibrated;
}

using ProcessCalibration = ComputedOnce<Calibrated, &calibrate>;

// --- the request

bool names_match(std::string_view request, std::string_view name) noexcept {
    const auto lower = [](char c) {
        return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    };
    return std::equal(request.begin(), request.end(), name.begin(), name.end(),
                      [lower](char r, char n) { return lower(r) == n; });
}

// --- the choice

constexpr size_t kNone = ~size_t{0};

struct View {
    const FormRow& form;
    const cpu::CpuFeatures& features;
    std::span<const Candidate> candidates;
    std::span<const Measurement> measurements;

    bool usable(size_t i) const noexcept {
        return i < measurements.size() && measurements[i].usable &&
               cpu_can_run(candidates[i].id, features);
    }
    double mb_per_second(size_t i) const noexcept {
        const size_t block = form.member == Member::blake2b ? Blake2bFamily::kBlockBytes
                                                            : Blake2sFamily::kBlockBytes;
        const double ns = measurements[i].nanoseconds_per_unit;
        return ns > 0 ? static_cast<double>(form.lanes * block) * 1000.0 / ns : 0.0;
    }
    const char* name(size_t i) const noexcept { return registry::row_of(candidates[i].id).name; }
    const char* form_of(size_t i) const noexcept {
        return candidates[i].lane_by_lane ? "lane by lane" : form.native;
    }

    // The fastest usable candidate that `keep` keeps (strictly faster only: on a tie the earlier
    // one stays), or kNone; `count` gets how many were usable.
    template <class Keep>
    size_t fastest(Keep keep, size_t* count) const noexcept {
        size_t chosen = kNone;
        for (size_t i = 0; i < candidates.size(); ++i) {
            if (usable(i) && keep(candidates[i])) {
                ++*count;
                const double ns = measurements[i].nanoseconds_per_unit;
                chosen =
                    chosen == kNone || ns < measurements[chosen].nanoseconds_per_unit ? i : chosen;
            }
        }
        return chosen;
    }
    // Row `id`'s usable candidate, native before lane by lane (a row has at most one of each),
    // or kNone.
    size_t of_row(KernelId id) const noexcept {
        size_t found = kNone;
        for (size_t i = 0; i < candidates.size(); ++i) {
            if (candidates[i].id == id && usable(i) &&
                (found == kNone || !candidates[i].lane_by_lane)) {
                found = i;
            }
        }
        return found;
    }
};

// The one describer: "<kernel> (" and `why`, a printf format for the rest of the parenthesis.
__attribute__((format(printf, 4, 5))) Serving describe_serving(const View& view, size_t chosen,
                                                               bool automatic, const char* why,
                                                               ...) noexcept {
    Serving serving{true, automatic, view.candidates[chosen], {}};
    const int written =
        std::snprintf(serving.description, sizeof serving.description, "%s (", serving.name());
    const size_t used = written > 0 ? static_cast<size_t>(written) : 0;
    va_list args;
    va_start(args, why);
    if (used < sizeof serving.description) {
        std::vsnprintf(serving.description + used, sizeof serving.description - used, why, args);
    }
    va_end(args);
    return serving;
}

// Why the automatic choice serves: the request's refusal, in the one place that words it.
void write_lead(const View& view, const KernelRequest& request, char* out, size_t size) noexcept {
    using Kind = KernelRequest::Kind;
    if (request.kind == Kind::automatic || request.kind == Kind::not_a_name) {
        std::snprintf(out, size, "auto%s",
                      request.kind == Kind::automatic
                          ? ""
                          : "; the request is not a kernel name: letters, digits, '-' and '_', "
                            "at most 24, not shown");
        return;
    }
    const bool has_form = std::any_of(view.candidates.begin(), view.candidates.end(),
                                      [&](const Candidate& c) { return c.id == request.id; });
    const char* reason = request.kind == Kind::absent             ? "is unknown or not built in"
                         : !has_form                              ? "has no "
                         : cpu_can_run(request.id, view.features) ? "failed its self-test"
                                                                  : "is not supported by this CPU";
    std::snprintf(out, size, "auto; requested '%s' %s%s%s", request.shown, reason,
                  has_form ? "" : view.form.title, has_form ? "" : " form");
}

Serving choose_automatic(const View& view, const char* lead) noexcept {
    size_t count = 0;
    const size_t chosen = view.fastest([](const Candidate&) { return true; }, &count);
    if (view.form.lanes == 1) {
        return describe_serving(
            view, chosen, true, "%s: fastest of %zu runnable, %.0f MB/s; %s %.0f MB/s)", lead,
            count, view.mb_per_second(chosen), view.name(0), view.mb_per_second(0));
    }
    const bool by_lane = view.candidates[chosen].lane_by_lane;
    size_t rivals = 0;
    const size_t rival =
        view.fastest([by_lane](const Candidate& c) { return c.lane_by_lane != by_lane; }, &rivals);
    char rival_text[96] = "";
    if (rival != kNone) {
        std::snprintf(rival_text, sizeof rival_text, "; best %s: %s %.0f MB/s", view.form_of(rival),
                      view.name(rival), view.mb_per_second(rival));
    }
    return describe_serving(
        view, chosen, true, "%s: fastest of %zu %zu-lane candidates, %s, %.0f MB/s%s)", lead, count,
        view.form.lanes, view.form_of(chosen), view.mb_per_second(chosen), rival_text);
}

}  // namespace

KernelRequest parse_request(std::string_view text) noexcept {
    using Kind = KernelRequest::Kind;
    constexpr std::string_view kNameCharacters =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-";
    KernelRequest request{Kind::automatic, KernelId::ref, {}};
    if (text.empty() || names_match(text, registry::kAutomaticRequest)) {
        return request;
    }
    if (text.size() >= sizeof request.shown ||
        text.find_first_not_of(kNameCharacters) != std::string_view::npos) {
        request.kind = Kind::not_a_name;
        return request;
    }
    std::memcpy(request.shown, text.data(), text.size());
    request.kind = Kind::absent;
    for (const registry::KernelRow& row : registry::kKernelRows) {
        if (row.built && names_match(text, row.name)) {
            request.kind = Kind::named;
            request.id = row.id;
        }
    }
    return request;
}

Serving choose(Form form, const KernelRequest& request, const cpu::CpuFeatures& features,
               std::span<const Candidate> candidates,
               std::span<const Measurement> measurements) noexcept {
    const View view{kForms[index_of(form)], features, candidates, measurements};
    if (candidates.empty() || candidates[0].id != KernelId::ref || !view.usable(0)) {
        return {false, false, {}, "none (the reference kernel failed its self-test)"};
    }
    const size_t named =
        request.kind == KernelRequest::Kind::named ? view.of_row(request.id) : kNone;
    if (named != kNone) {
        return view.form.lanes == 1 ? describe_serving(view, named, false, "requested)")
                                    : describe_serving(view, named, false, "as the kernel, %s)",
                                                       view.form_of(named));
    }
    char lead[128];
    write_lead(view, request, lead, sizeof lead);
    return choose_automatic(view, lead);
}

std::span<const Candidate> candidates(Form form) noexcept {
    return kCandidates[index_of(form)].span();
}

std::span<const Measurement> facts(Form form) noexcept {
    const size_t f = index_of(form);
    return {kFacts[f]().data(), kCandidates[f].count};
}

std::span<const Measurement> measurements(Form form) noexcept {
    const size_t f = index_of(form);
    return {ProcessCalibration::get().measurements[f], kCandidates[f].count};
}

double calibration_microseconds(Form form) noexcept {
    return ProcessCalibration::get().microseconds[index_of(form)];
}

bool calibration_has_run() noexcept {
    return ProcessCalibration::computed();
}

bool reference_kernel_works() noexcept {
    // A multi-lane form's reference is the single-lane one lane by lane.
    for (size_t f = 0; f < kFormCount; ++f) {
        if (kForms[f].lanes == 1 && !kFacts[f]()[0].usable) {
            return false;
        }
    }
    return true;
}

Servings serve(const KernelRequest& request) noexcept {
    const cpu::CpuFeatures& features = cpu::detected_features();
    Servings servings{};
    for (size_t f = 0; f < kFormCount; ++f) {
        const Form form = kForms[f].form;
        // A row served by name must not pay for timing; only the automatic choice calibrates.
        servings[f] = choose(form, request, features, candidates(form), facts(form));
        if (servings[f].automatic) {
            servings[f] = choose(form, request, features, candidates(form), measurements(form));
        }
    }
    return servings;
}

void describe(const Servings& servings, char* out, size_t size) noexcept {
    size_t used = 0;
    for (size_t f = 0; f < kFormCount && used < size; ++f) {
        const int written = std::snprintf(out + used, size - used, "%s%s %s", f == 0 ? "" : "; ",
                                          kForms[f].label, servings[f].description);
        used += written > 0 ? static_cast<size_t>(written) : 0;
    }
}

}  // namespace blake2simd::dispatch
