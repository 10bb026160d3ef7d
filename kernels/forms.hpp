// The forms a kernel can serve, and the one selection process (select.cpp) that serves every
// form: facts (CPU detection, self-tests) once per process, one calibration on the first
// automatic choice (never at load time), one choice policy, one describer; all thread-safe.
// SPDX-License-Identifier: Apache-2.0
// The provider calls parse_request(), serve(), describe() and reference_kernel_works(); the rest
// is for the tests and diagnostics.
#pragma once

#include <time.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>

#include "registry.hpp"

namespace blake2simd::dispatch {

// One form a kernel serves: a member of the family, `lanes` states per call. Adding a form is a
// row of kForms (its candidates come from the registry's columns of its member).
enum class Form : uint8_t { blake2b, blake2bp, blake2s, blake2sp, blamka };

struct FormRow {
    Form form;  // its index in kForms
    Member member;
    size_t lanes;        // 1, or the leaves of the member's tree mode
    const char* label;   // its name in buildinfo
    const char* title;   // its name in a refusal ("has no BLAKE2s form")
    const char* native;  // a native candidate's form in a description
    // Calibration: blocks into each lane per timed call, at most that many rounds, within that
    // many microseconds of the first use's budget.
    size_t calibration_units;
    int calibration_rounds;
    double budget_microseconds;
};

// The lanes forms also make BLAKE2Xb's (BLAKE2Xs's) output blocks, independent compressions of
// one H0, four (eight) at a time: `kernel =` governs them too, with the same contract and
// self-test and no row of their own (provider/blake2x.cpp).
inline constexpr FormRow kForms[] = {
    {Form::blake2b, Member::blake2b, 1, "kernel", "BLAKE2b", "native", 24, 7, 700},
    {Form::blake2bp, Member::blake2b, 4, "blake2bp", "BLAKE2bp", "native 4-lane", 24, 5, 500},
    {Form::blake2s, Member::blake2s, 1, "blake2s", "BLAKE2s", "native", 32, 7, 400},
    // Fewer units: the reference lane by lane (always a candidate) is slow.
    {Form::blake2sp, Member::blake2s, 8, "blake2sp", "BLAKE2sp", "native 8-lane", 16, 5, 400},
    // Argon2's block compression (the provider's ARGON2I/ARGON2D/ARGON2ID): 1 KiB blocks.
    {Form::blamka, Member::blamka, 1, "blamka", "BlaMka", "native", 8, 5, 300},
};
inline constexpr size_t kFormCount = sizeof kForms / sizeof kForms[0];

constexpr size_t index_of(Form form) noexcept {
    return static_cast<size_t>(form);
}

// Each row at its Form's index; a multi-lane form at its tree mode's lanes (the native kernels'
// and the self-tests' count), right after its member's single-lane form (whose facts its lane by
// lane candidates take); the budgets' sum within 2.3 ms, the first use's, which calibrates them
// all (2 ms for the BLAKE2 forms, 0.3 ms for BlaMka's).
constexpr bool forms_are_sound() noexcept {
    bool sound = true;
    double sum = 0;
    for (size_t f = 0; f < kFormCount; ++f) {
        const FormRow& row = kForms[f];
        const size_t tree_lanes =
            row.member == Member::blake2b ? Blake2bFamily::kLanes : Blake2sFamily::kLanes;
        sound =
            sound && index_of(row.form) == f &&
            (row.lanes == 1 || (row.lanes == tree_lanes && f > 0 &&
                                kForms[f - 1].member == row.member && kForms[f - 1].lanes == 1));
        sum += row.budget_microseconds;
    }
    return sound && sum <= 2300;
}
static_assert(forms_are_sound(), "kForms: a row out of place, lanes not the tree mode's, or over");

// One way to serve a form: a row's own entry point for it, or its single-lane one lane by lane.
struct Candidate {
    KernelId id;        // its registry row: name and CPU need
    bool lane_by_lane;  // the row's single-lane kernel, once per lane
    Entry entry;
};

struct Measurement {
    // Built, runnable on this CPU, passed the form's self-test (never run otherwise); for a
    // lane-by-lane candidate its single-lane kernel too.
    bool usable;
    double nanoseconds_per_unit;  // one block into each lane; 0 if not measured
};

// A request (BLAKE2SIMD_KERNEL, `kernel =`), parsed once: the one place that matches names.
struct KernelRequest {
    enum class Kind : uint8_t { automatic, named, absent, not_a_name };
    Kind kind;       // named: a built row; absent: a name no built row has
    KernelId id;     // named only
    char shown[25];  // named and absent: the request as given (it looks like a kernel name)
};

// Names match case-insensitively, as OpenSSL's do; empty means auto. A request that is no kernel
// name (letters, digits, '-' and '_', at most 24) is never echoed: buildinfo reaches terminals.
KernelRequest parse_request(std::string_view request) noexcept;

struct Serving {
    bool served;     // false: the form's reference candidate is not usable; nothing serves
    bool automatic;  // the automatic choice serves: auto, empty, or a refused request
    Candidate candidate;
    char description[256];  // "<kernel> (<why>)" for buildinfo

    const char* name() const noexcept { return registry::row_of(candidate.id).name; }
};
using Servings = std::array<Serving, kFormCount>;

// Every form's serving for the request. A request that names a row serves its form natively if
// usable, else lane by lane; any other request, or a row with neither, gets the fastest usable
// candidate of this process's calibration, which runs then (a named row never waits for it).
Servings serve(const KernelRequest& request) noexcept;

// "<label> <description>; ..." over every form, for buildinfo.
void describe(const Servings& servings, char* out, size_t size) noexcept;

// Whether every form's reference candidate passed its self-test: the condition for offering any
// algorithm. Runs the self-tests (microseconds), not the calibration.
bool reference_kernel_works() noexcept;

// Form f's kernel as a context holds it: its member's Kernel, or LanesKernel for a multi-lane form.
template <size_t f>
using FormKernel =
    std::conditional_t<kForms[f].lanes == 1, typename FamilyOf<kForms[f].member>::Kernel,
                       typename FamilyOf<kForms[f].member>::LanesKernel>;

// Form f's kernel from the name and entry of its serving (the entry's field of form f).
template <size_t f>
FormKernel<f> form_kernel(const char* name, const Entry& entry) noexcept {
    using Family = FamilyOf<kForms[f].member>;
    if constexpr (kForms[f].lanes == 1) {
        return {name, entry.*Family::kSingleEntry};
    } else {
        return {name, entry.*Family::kLanesEntry};
    }
}

// The form whose kernel has type `Kernel` (kFormCount if none), and how many have it.
template <class Kernel, size_t... f>
constexpr size_t form_with_kernel(std::index_sequence<f...>) noexcept {
    size_t form = kFormCount;
    ((form = std::is_same_v<FormKernel<f>, Kernel> ? f : form), ...);
    return form;
}
template <class Kernel, size_t... f>
constexpr size_t forms_with_kernel(std::index_sequence<f...>) noexcept {
    return (size_t{std::is_same_v<FormKernel<f>, Kernel>} + ...);
}
template <class Kernel>
inline constexpr size_t kFormWithKernel =
    form_with_kernel<Kernel>(std::make_index_sequence<kFormCount>{});

// Each form's kernel type is its own, so a context's kernel type names its form.
template <size_t... f>
constexpr bool form_kernels_are_distinct(std::index_sequence<f...>) noexcept {
    return ((forms_with_kernel<FormKernel<f>>(std::index_sequence<f...>{}) == 1) && ...);
}
static_assert(form_kernels_are_distinct(std::make_index_sequence<kFormCount>{}),
              "kForms: two forms whose kernels have one type");

// --- The pieces serve() is made of, for tests and diagnostics.

constexpr bool cpu_can_run(KernelId id, const cpu::CpuFeatures& features) noexcept {
    return registry::meets(registry::row_of(id).need, features);
}

// The form's candidates in this build, the reference first: the member's single-lane kernels, for
// a multi-lane form each lane by lane and then the native multi-lane ones, in registry order.
std::span<const Candidate> candidates(Form form) noexcept;

// Pure choice: `measurements[i]` belongs to `candidates[i]`, candidates[0] is the reference.
// Never returns a candidate the features lack or one that is not usable; ties keep the earlier.
Serving choose(Form form, const KernelRequest& request, const cpu::CpuFeatures& features,
               std::span<const Candidate> candidates,
               std::span<const Measurement> measurements) noexcept;

// This process's self-test outcomes (no speeds), parallel to candidates(form); no calibration.
std::span<const Measurement> facts(Form form) noexcept;

// This process's measurements with speeds, and the wall time the form's calibration took; both
// run the calibration if it has not run yet (calibration_has_run() does not).
std::span<const Measurement> measurements(Form form) noexcept;
double calibration_microseconds(Form form) noexcept;
bool calibration_has_run() noexcept;

// The form's self-test: a single-lane entry must reproduce a known digest, a multi-lane one the
// reference lane by lane on edge cases.
bool passes_self_test(Form form, const Entry& entry) noexcept;

// The self-test on demand (the provider's OSSL_PROVIDER_self_test): every form's self-test run
// again, now, on each of its candidates this CPU can run (whatever the cached facts say); true
// only when all pass. `substitute`, for tests only (nullptr otherwise), gives the entry tested in
// a candidate's place, so a test can make one fail.
using SelfTestSubstitute = Entry (*)(Form form, const Candidate& candidate);
bool runnable_candidates_pass(SelfTestSubstitute substitute = nullptr) noexcept;

// clock_gettime, not std::chrono: the module must not need libstdc++ (see once.hpp).
inline double monotonic_nanoseconds() noexcept {
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    return static_cast<double>(now.tv_sec) * 1e9 + static_cast<double>(now.tv_nsec);
}

// best_nanoseconds[i] = the least time_one(i) over up to `max_rounds` rounds, for each i with
// is_usable(i) (the others untouched). Each round times every candidate once, so noise hits them
// alike; it stops before a further round (as long as the average) would overrun the budget.
template <class IsUsable, class TimeOne>
void time_best_of_rounds(size_t count, int max_rounds, double budget_microseconds,
                         IsUsable is_usable, TimeOne time_one, double best_nanoseconds[]) noexcept {
    const double start = monotonic_nanoseconds();
    for (int round = 0; round < max_rounds; ++round) {
        for (size_t i = 0; i < count; ++i) {
            if (is_usable(i)) {
                const double nanoseconds = time_one(i);
                best_nanoseconds[i] =
                    round == 0 ? nanoseconds : std::min(best_nanoseconds[i], nanoseconds);
            }
        }
        const double elapsed_microseconds = (monotonic_nanoseconds() - start) / 1e3;
        if (elapsed_microseconds + elapsed_microseconds / (round + 1) > budget_microseconds) {
            break;
        }
    }
}

}  // namespace blake2simd::dispatch
