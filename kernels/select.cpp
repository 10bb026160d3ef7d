// The one selection process behind every form (forms.hpp): candidates from the registry, facts
// and the calibration once per process, the request parsed once, one choice policy, one
// describer.
// SPDX-License-Identifier: Apache-2.0
#include <time.h>

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <utility>

#include "baseline_guard.hpp"
#include "forms.hpp"
#include "lanes_by_lane.hpp"
#include "once.hpp"

namespace blake2simd::dispatch {
namespace {

template <size_t form>
using FormFamily = FamilyOf<kForms[form].member>;

// A multi-lane form's lane-by-lane candidates take their facts from its member's single form.
constexpr size_t single_form_of(Member member) noexcept {
    size_t f = 0;
    while (f < kFormCount && (kForms[f].member != member || kForms[f].lanes != 1)) {
        ++f;
    }
    return f;
}

// --- the candidates, from the registry's rows

template <class Fn>
constexpr Entry entry_of(Fn Entry::*field, Fn compress) noexcept {
    Entry entry{};
    entry.*field = compress;
    return entry;
}

// Built rows with the member's single form (`lanes` false) or native multi-lane form.
template <class Family>
constexpr size_t row_count(bool lanes) noexcept {
    size_t count = 0;
    for (const registry::KernelRow& row : registry::kKernelRows) {
        const auto& entries = row.entries<Family>();
        count += row.built && (lanes ? entries.has_lanes : entries.has_single) ? 1 : 0;
    }
    return count;
}

// The member's single-lane kernels, the reference first: the single-lane form's candidates.
template <class Family>
constexpr auto make_singles() noexcept {
    std::array<Candidate, row_count<Family>(false)> singles{};
    size_t next = 0;
    for (const registry::KernelRow& row : registry::kKernelRows) {
        if (row.built && row.entries<Family>().has_single) {
            singles[next++] = {row.id, false,
                               entry_of(Family::kSingleEntry, row.entries<Family>().single)};
        }
    }
    return singles;
}

template <class Family>
inline constexpr auto kSingles = make_singles<Family>();

// A multi-lane form: every single-lane kernel lane by lane, then the native forms.
template <size_t form, size_t... single>
constexpr auto make_candidates(std::index_sequence<single...>) noexcept {
    using Family = FormFamily<form>;
    constexpr size_t kLanes = kForms[form].lanes;
    if constexpr (kLanes == 1) {
        return kSingles<Family>;
    } else {
        std::array<Candidate, sizeof...(single) + row_count<Family>(true)> all{
            {{kSingles<Family>[single].id, true,
              entry_of(
                  Family::kLanesEntry,
                  &compress_by_lane<Family, kSingles<Family>[single].entry.*Family::kSingleEntry,
                                    kLanes>)}...}};
        size_t next = sizeof...(single);
        for (const registry::KernelRow& row : registry::kKernelRows) {
            if (row.built && row.entries<Family>().has_lanes) {
                all[next++] = {row.id, false,
                               entry_of(Family::kLanesEntry, row.entries<Family>().lanes)};
            }
        }
        return all;
    }
}

template <size_t form>
inline constexpr auto kCandidates =
    make_candidates<form>(std::make_index_sequence<kSingles<FormFamily<form>>.size()>{});

constexpr size_t kMaxCandidates = 2 * registry::kKnownKernelCount;

// --- this process's facts and calibration

struct FormFacts {
    Measurement measurements[kMaxCandidates];  // usable only, no speeds
};

struct Calibrated {
    Measurement measurements[kFormCount][kMaxCandidates];
    double microseconds[kFormCount];
};

// Trivially destructible and constant-initialised: no code runs for it at load time.
constinit std::atomic<bool> s_calibration_ran{false};

const FormFacts& form_facts(size_t form) noexcept;

template <size_t... form>
constexpr auto candidate_spans(std::index_sequence<form...>) noexcept {
    return std::array<std::span<const Candidate>, kFormCount>{kCandidates<form>...};
}
constexpr auto kCandidateSpans = candidate_spans(std::make_index_sequence<kFormCount>{});

// Whether row `id`'s kernel of the single-lane form `single` is usable.
bool single_lane_usable(size_t single, KernelId id) noexcept {
    const std::span<const Candidate> singles = kCandidateSpans[single];
    for (size_t i = 0; i < singles.size(); ++i) {
        if (singles[i].id == id) {
            return form_facts(single).measurements[i].usable;
        }
    }
    return false;
}

// Per form, so a process that only asks whether we work runs the single-lane self-tests only.
template <size_t form>
FormFacts check_candidates() noexcept {
    FormFacts facts{};
    const cpu::CpuFeatures& features = cpu::detected_features();
    for (size_t i = 0; i < kCandidates<form>.size(); ++i) {
        const Candidate& candidate = kCandidates<form>[i];
        const bool runnable =
            candidate.lane_by_lane
                ? single_lane_usable(single_form_of(kForms[form].member), candidate.id)
                : cpu_can_run(candidate.id, features);
        // Short-circuit: a kernel the CPU lacks is never called, not even by the self-test.
        facts.measurements[i].usable =
            runnable && passes_self_test(kForms[form].form, candidate.entry);
    }
    return facts;
}

constexpr size_t kMessageBytes = 16 * 1024;

// One timed call of `entry` over calibration_units blocks into each lane of `message`.
template <size_t form>
double time_one_call(const Entry& entry, const uint8_t* message) noexcept {
    using Family = FormFamily<form>;
    using Word = typename Family::Word;
    constexpr FormRow kForm = kForms[form];
    static_assert(kForm.calibration_units * kForm.lanes * Family::kBlockBytes <= kMessageBytes);
    typename Family::State states[kForm.lanes]{};
    const uint8_t* blocks[kForm.lanes];
    for (size_t lane = 0; lane < kForm.lanes; ++lane) {
        std::memcpy(states[lane].h, Family::kIV, sizeof states[lane].h);
        blocks[lane] = message + lane * Family::kBlockBytes;
    }
    const double start = monotonic_nanoseconds();
    if constexpr (kForm.lanes == 1) {
        (entry.*Family::kSingleEntry)(states, message, kForm.calibration_units,
                                      static_cast<Word>(Family::kBlockBytes));
    } else {
        (entry.*Family::kLanesEntry)(states, blocks, kForm.calibration_units,
                                     kForm.lanes * Family::kBlockBytes,
                                     static_cast<Word>(Family::kBlockBytes));
    }
    const double stop = monotonic_nanoseconds();
    // Keeps the result observable so the call cannot be dropped.
    volatile auto sink = states[0].h[0] ^ states[kForm.lanes - 1].h[7];
    (void)sink;
    return stop - start;
}

// What is typed by form, instantiated once per row of kForms.
struct FormSteps {
    const FormFacts& (*facts)() noexcept;
    double (*time_one_call)(const Entry&, const uint8_t*) noexcept;
};

template <size_t... form>
constexpr std::array<FormSteps, kFormCount> form_steps(std::index_sequence<form...>) noexcept {
    return {{{&ComputedOnce<FormFacts, &check_candidates<form>>::get, &time_one_call<form>}...}};
}
constexpr auto kSteps = form_steps(std::make_index_sequence<kFormCount>{});

const FormFacts& form_facts(size_t form) noexcept {
    return kSteps[form].facts();
}

// Best of rounds per candidate, within the form's budget; returns the microseconds spent.
double calibrate_form(size_t f, const Measurement* checked, const uint8_t* message,
                      Measurement* out) noexcept {
    const double start = monotonic_nanoseconds();
    const std::span<const Candidate> candidates = kCandidateSpans[f];
    double best[kMaxCandidates] = {};
    time_best_of_rounds(
        candidates.size(), kForms[f].calibration_rounds, kForms[f].budget_microseconds,
        [checked](size_t i) { return checked[i].usable; },
        [&](size_t i) { return kSteps[f].time_one_call(candidates[i].entry, message); }, best);
    for (size_t i = 0; i < candidates.size(); ++i) {
        out[i] = {checked[i].usable, best[i] / static_cast<double>(kForms[f].calibration_units)};
    }
    return (monotonic_nanoseconds() - start) / 1e3;
}

Calibrated calibrate() noexcept {
    uint8_t message[kMessageBytes];
    for (size_t i = 0; i < sizeof message; ++i) {
        message[i] = static_cast<uint8_t>(i * 131 + 7);
    }
    Calibrated calibrated{};
    for (size_t f = 0; f < kFormCount; ++f) {
        calibrated.microseconds[f] =
            calibrate_form(f, form_facts(f).measurements, message, calibrated.measurements[f]);
    }
    s_calibration_ran.store(true, std::memory_order_release);
    return calibrated;
}

// Only automatic choices and diagnostics reach it, never the provider's load.
const Calibrated& process_calibration() noexcept {
    return ComputedOnce<Calibrated, &calibrate>::get();
}

// --- the request

bool names_match(std::string_view request, std::string_view name) noexcept {
    if (request.size() != name.size()) {
        return false;
    }
    for (size_t i = 0; i < name.size(); ++i) {
        const char c = request[i];
        if ((c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c) != name[i]) {
            return false;
        }
    }
    return true;
}

bool looks_like_kernel_name(std::string_view request) noexcept {
    constexpr std::string_view kAllowed =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-";
    return !request.empty() && request.size() < sizeof KernelRequest{}.shown &&
           request.find_first_not_of(kAllowed) == std::string_view::npos;
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
    // Row `id`'s usable candidate, native before lane by lane, or kNone.
    size_t of_row(KernelId id) const noexcept {
        for (const bool lane_by_lane : {false, true}) {
            for (size_t i = 0; i < candidates.size(); ++i) {
                const Candidate& c = candidates[i];
                if (c.id == id && c.lane_by_lane == lane_by_lane && usable(i)) {
                    return i;
                }
            }
        }
        return kNone;
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
    if (request.kind == KernelRequest::Kind::automatic) {
        std::snprintf(out, size, "auto");
        return;
    }
    if (request.kind == KernelRequest::Kind::not_a_name) {
        std::snprintf(out, size,
                      "auto; the request is not a kernel name: letters, digits, '-' "
                      "and '_', at most 24, not shown");
        return;
    }
    bool has_form = false;
    for (const Candidate& candidate : view.candidates) {
        has_form = has_form || candidate.id == request.id;
    }
    const char* reason = request.kind == KernelRequest::Kind::absent ? "is unknown or not built in"
                         : !has_form                                 ? "has no "
                         : cpu_can_run(request.id, view.features)    ? "failed its self-test"
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

double monotonic_nanoseconds() noexcept {
    // clock_gettime, not std::chrono: the module must not need libstdc++ (see once.hpp).
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    return static_cast<double>(now.tv_sec) * 1e9 + static_cast<double>(now.tv_nsec);
}

bool cpu_can_run(KernelId id, const cpu::CpuFeatures& features) noexcept {
    return registry::meets(registry::row_of(id).need, features);
}

KernelRequest parse_request(std::string_view text) noexcept {
    KernelRequest request{KernelRequest::Kind::automatic, KernelId::ref, {}};
    if (text.empty() || names_match(text, registry::kAutomaticRequest)) {
        return request;
    }
    if (!looks_like_kernel_name(text)) {
        request.kind = KernelRequest::Kind::not_a_name;
        return request;
    }
    std::memcpy(request.shown, text.data(), text.size());
    request.kind = KernelRequest::Kind::absent;
    for (const registry::KernelRow& row : registry::kKernelRows) {
        if (row.built && names_match(text, row.name)) {
            request.kind = KernelRequest::Kind::named;
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
        Serving none{};
        std::snprintf(none.description, sizeof none.description,
                      "none (the reference kernel failed its self-test)");
        return none;
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
    return kCandidateSpans[index_of(form)];
}

std::span<const Measurement> facts(Form form) noexcept {
    const size_t f = index_of(form);
    return {form_facts(f).measurements, kCandidateSpans[f].size()};
}

std::span<const Measurement> measurements(Form form) noexcept {
    const size_t f = index_of(form);
    return {process_calibration().measurements[f], kCandidateSpans[f].size()};
}

double calibration_microseconds(Form form) noexcept {
    return process_calibration().microseconds[index_of(form)];
}

bool calibration_has_run() noexcept {
    return s_calibration_ran.load(std::memory_order_acquire);
}

bool reference_kernel_works() noexcept {
    // A multi-lane form's reference is the single-lane one lane by lane.
    for (size_t f = 0; f < kFormCount; ++f) {
        if (kForms[f].lanes == 1 && !form_facts(f).measurements[0].usable) {
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
