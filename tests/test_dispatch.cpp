// Kernel selection for every form alike: the request parsed once, the pure choice over synthetic
// candidates of every registry row (built or not) under every feature set, self-test outcome,
// speed order and request, then this process's live choice, its calibration and its fallbacks.
// SPDX-License-Identifier: Apache-2.0
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "forms.hpp"
#include "kernels_check.hpp"
#include "lanes_by_lane.hpp"

namespace {

namespace dispatch = blake2simd::dispatch;
namespace registry = blake2simd::registry;
using blake2simd::Entry;
using blake2simd::KernelId;
using blake2simd::cpu::CpuFeatures;
using dispatch::Candidate;
using dispatch::Form;
using dispatch::FormRow;
using dispatch::KernelRequest;
using dispatch::Measurement;
using Kind = KernelRequest::Kind;

bool contains(const char* text, std::string_view part) {
    return std::string_view(text).find(part) != std::string_view::npos;
}

CpuFeatures features_from_mask(unsigned mask) {
    return CpuFeatures{(mask & 1) != 0, (mask & 2) != 0, (mask & 4) != 0, (mask & 8) != 0,
                       (mask & 16) != 0};
}

// --- the request

void test_parse_request(b2test::Report& checks) {
    checks.check(dispatch::parse_request("").kind == Kind::automatic, "empty means auto");
    checks.check(dispatch::parse_request("AUTO").kind == Kind::automatic, "AUTO means auto");
    for (const registry::KernelRow& row : registry::kKernelRows) {
        std::string shouted = row.name;
        for (char& c : shouted) {
            c = c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
        }
        for (const std::string& name : {std::string(row.name), shouted}) {
            const KernelRequest request = dispatch::parse_request(name);
            checks.check(request.kind == (row.built ? Kind::named : Kind::absent) &&
                             (!row.built || request.id == row.id) && name == request.shown,
                         "a row's name, any case: named if built, else absent; shown as given");
        }
    }
    const KernelRequest bogus = dispatch::parse_request("bogus");
    checks.check(bogus.kind == Kind::absent && std::string_view(bogus.shown) == "bogus",
                 "an unknown name is absent and shown");
    for (const char* junk : {"a b", "ref;rm", "\x1b[31m", "averyveryverylongkernelname"}) {
        const KernelRequest request = dispatch::parse_request(junk);
        checks.check(request.kind == Kind::not_a_name && request.shown[0] == '\0',
                     "no kernel name (other bytes, over 24): not_a_name, nothing shown");
    }
}

// --- the pure choice, every form over synthetic candidates of every row

void fake_b(blake2simd::Blake2bState*, const uint8_t*, size_t, uint64_t) noexcept {}
void fake_b4(blake2simd::Blake2bState*, const uint8_t* const*, size_t, size_t, uint64_t) noexcept {}
void fake_s(blake2simd::Blake2sState*, const uint8_t*, size_t, uint32_t) noexcept {}
void fake_s8(blake2simd::Blake2sState*, const uint8_t* const*, size_t, size_t, uint32_t) noexcept {}
void fake_blamka(uint64_t*, const uint64_t*, const uint64_t*, bool) noexcept {}

// A form's candidates as the build makes them, for every row the registry knows, built or not.
// The entry points are never called by the choice.
std::vector<Candidate> every_candidate(const FormRow& form) {
    if (form.member == blake2simd::Member::blamka) {
        std::vector<Candidate> all;
        for (const registry::KernelRow& row : registry::kKernelRows) {
            if (row.blamka.has_single) {
                all.push_back({row.id, false, Entry{.blamka = &fake_blamka}});
            }
        }
        return all;
    }
    const bool b = form.member == blake2simd::Member::blake2b;
    const Entry single = b ? Entry{.blake2b = &fake_b} : Entry{.blake2s = &fake_s};
    const Entry lanes = b ? Entry{.blake2b_lanes = &fake_b4} : Entry{.blake2s_lanes = &fake_s8};
    std::vector<Candidate> all;
    for (const registry::KernelRow& row : registry::kKernelRows) {
        if (b ? row.blake2b.has_single : row.blake2s.has_single) {
            all.push_back({row.id, form.lanes > 1, form.lanes > 1 ? lanes : single});
        }
    }
    for (const registry::KernelRow& row : registry::kKernelRows) {
        if (form.lanes > 1 && (b ? row.blake2b.has_lanes : row.blake2s.has_lanes)) {
            all.push_back({row.id, false, lanes});
        }
    }
    return all;
}

// auto, every row by name (built or not: the pure choice sees any row), an unknown name, and
// no kernel name.
std::vector<KernelRequest> every_request() {
    std::vector<KernelRequest> requests = {dispatch::parse_request("auto")};
    for (const registry::KernelRow& row : registry::kKernelRows) {
        KernelRequest named{Kind::named, row.id, {}};
        std::snprintf(named.shown, sizeof named.shown, "%s", row.name);
        requests.push_back(named);
    }
    requests.push_back(dispatch::parse_request("bogus"));
    requests.push_back(dispatch::parse_request("a b"));
    return requests;
}

struct Case {
    const FormRow& form;
    const KernelRequest& request;
    const CpuFeatures& features;
    const std::vector<Candidate>& candidates;
    const std::vector<Measurement>& measurements;

    bool usable(size_t i) const {
        return measurements[i].usable && dispatch::cpu_can_run(candidates[i].id, features);
    }
    // The row's usable candidate the rules serve by name: native first, else lane by lane.
    size_t expected_named() const {
        for (const bool lane_by_lane : {false, true}) {
            for (size_t i = 0; i < candidates.size() && request.kind == Kind::named; ++i) {
                if (candidates[i].id == request.id && candidates[i].lane_by_lane == lane_by_lane &&
                    usable(i)) {
                    return i;
                }
            }
        }
        return candidates.size();
    }
    // The words a refused request must be described with, the same for every form.
    std::string expected_reason() const {
        bool has_form = false;
        for (const Candidate& candidate : candidates) {
            has_form = has_form || candidate.id == request.id;
        }
        if (request.kind == Kind::not_a_name) {
            return "not a kernel name";
        }
        if (request.kind == Kind::absent) {
            return "is unknown or not built in";
        }
        if (!has_form) {
            return std::string("has no ") + form.title + " form";
        }
        return dispatch::cpu_can_run(request.id, features) ? "failed its self-test"
                                                           : "is not supported by this CPU";
    }
};

size_t index_in(const Case& c, const dispatch::Serving& s) {
    for (size_t i = 0; i < c.candidates.size(); ++i) {
        if (c.candidates[i].id == s.candidate.id &&
            c.candidates[i].lane_by_lane == s.candidate.lane_by_lane) {
            return i;
        }
    }
    return c.candidates.size();
}

void check_automatic(b2test::Report& checks, const Case& c, const dispatch::Serving& s,
                     size_t chosen) {
    checks.check(s.automatic && contains(s.description, "auto") && contains(s.description, "MB/s"),
                 "automatic: said, with the speed");
    for (size_t i = 0; i < c.candidates.size(); ++i) {
        const double chosen_ns = c.measurements[chosen].nanoseconds_per_unit;
        const double ns = c.measurements[i].nanoseconds_per_unit;
        checks.check(!c.usable(i) || chosen_ns < ns || (chosen_ns == ns && chosen <= i),
                     "automatic: the fastest usable candidate, the earlier one on a tie");
    }
    if (c.request.kind == Kind::automatic) {
        return;
    }
    checks.check(contains(s.description, c.expected_reason()), "a refusal says why, alike");
    if (c.request.kind == Kind::not_a_name) {
        checks.check(!contains(s.description, "a b"), "no kernel name: not echoed");
    } else {
        checks.check(contains(s.description, c.request.shown), "a refused request is named");
    }
}

void check_choice(b2test::Report& checks, const Case& c) {
    const dispatch::Serving s =
        dispatch::choose(c.form.form, c.request, c.features, c.candidates, c.measurements);
    if (!c.usable(0)) {
        checks.check(!s.served && !s.automatic && contains(s.description, "reference"),
                     "no usable reference candidate: nothing serves, and it says so");
        return;
    }
    const size_t chosen = index_in(c, s);
    if (!checks.check(s.served && chosen < c.candidates.size() && c.usable(chosen),
                      "never a candidate the features lack or that is unusable")) {
        return;
    }
    checks.check(std::string_view(s.description).substr(0, std::strlen(s.name())) == s.name(),
                 "the description starts with the serving kernel");
    const size_t named = c.expected_named();
    if (named < c.candidates.size()) {
        checks.check(chosen == named && !s.automatic &&
                         contains(s.description, c.form.lanes == 1 ? "requested" : "as the kernel"),
                     "a named row serves its native form, else lane by lane");
        return;
    }
    check_automatic(checks, c, s, chosen);
}

// An odd step through the unusable-candidate patterns: about 24 whatever the count.
unsigned unusable_step(size_t count) {
    return ((1u << count) / 24) | 1u;
}

double rank(unsigned order, size_t i, size_t count) {
    // Orders: newest fastest, newest slowest, scrambled, all equal.
    return order == 0   ? static_cast<double>(count - i)
           : order == 1 ? static_cast<double>(i + 1)
           : order == 2 ? static_cast<double>((i * 5) % 7 + 1)
                        : 1.0;
}

void test_choose_form(b2test::Report& checks, const FormRow& form) {
    const std::vector<Candidate> candidates = every_candidate(form);
    const std::vector<KernelRequest> requests = every_request();
    const size_t n = candidates.size();
    std::vector<Measurement> measurements(n);
    for (unsigned mask = 0; mask < 32; ++mask) {
        const CpuFeatures features = features_from_mask(mask);
        for (unsigned unusable = 0; unusable < (1u << n); unusable += unusable_step(n)) {
            for (unsigned order = 0; order < 4; ++order) {
                for (size_t i = 0; i < n; ++i) {
                    measurements[i] = {(unusable & (1u << i)) == 0, 100.0 * rank(order, i, n)};
                }
                for (const KernelRequest& request : requests) {
                    check_choice(checks, {form, request, features, candidates, measurements});
                }
            }
        }
    }
    // Measured speed decides, not the instruction set's age: the reference, if fastest, serves
    // automatically; a named row is not overruled by speed.
    const CpuFeatures everything = features_from_mask(31);
    for (size_t i = 0; i < n; ++i) {
        measurements[i] = {true, i == 0 ? 100.0 : 400.0 - 10.0 * static_cast<double>(i)};
    }
    const auto fastest =
        dispatch::choose(form.form, requests[0], everything, candidates, measurements);
    checks.check(fastest.candidate.id == KernelId::ref && fastest.automatic,
                 "the fastest candidate serves whatever its instruction set");
    for (size_t i = 0; i < n; ++i) {
        measurements[i] = {true, 50.0};
    }
    const auto tie = dispatch::choose(form.form, requests[0], everything, candidates, measurements);
    checks.check(tie.candidate.id == KernelId::ref, "a tie keeps the reference candidate");
    std::printf("%s: the pure choice over %zu synthetic candidates checked\n", form.label, n);
}

// Every form refuses and falls back alike, row by row of one table: auto, each row by name, rows
// the CPU cannot run, a row whose self-test fails (natively only, then wholly), an unknown name,
// no kernel name, and a failed reference. Each cell is a literal part of the form's description.
enum class Broken { nothing, native, row, reference };

struct RefusalRow {
    const char* request;
    unsigned features;  // features_from_mask
    Broken broken;      // which candidates of the requested row (or the reference) are unusable
    const char* expected[dispatch::kFormCount];  // BLAKE2b, BLAKE2bp, BLAKE2s, BLAKE2sp, BlaMka
};

constexpr unsigned kSsse3Only = 1;
constexpr unsigned kEveryFeature = 31;
// x64 needs only an x86-64 build.
const bool kX64Runs = registry::meets(registry::CpuNeed::x86_64, CpuFeatures{});

const char* name_of(KernelId id) {
    return registry::row_of(id).name;
}

// A row whose text is the same in every form.
RefusalRow everywhere(const char* request, unsigned features, Broken broken, const char* text) {
    return {request, features, broken, {text, text, text, text, text}};
}

const std::vector<RefusalRow>& refusal_table() {
    static const std::vector<RefusalRow> rows = {
        everywhere("auto", kSsse3Only, Broken::nothing, "(auto: "),
        {name_of(KernelId::ref),
         kSsse3Only,
         Broken::nothing,
         {"ref (requested)", "ref (as the kernel, lane by lane)", "ref (requested)",
          "ref (as the kernel, lane by lane)", "ref (requested)"}},
        kX64Runs ? RefusalRow{name_of(KernelId::x64),
                              kSsse3Only,
                              Broken::nothing,
                              {"x64 (requested)", "x64 (as the kernel, lane by lane)",
                               "x64 (requested)", "x64 (as the kernel, lane by lane)",
                               "auto; requested 'x64' has no BlaMka form: fastest of"}}
                 : RefusalRow{name_of(KernelId::x64),
                              kSsse3Only,
                              Broken::nothing,
                              {"'x64' is not supported by this CPU",
                               "'x64' is not supported by this CPU",
                               "'x64' is not supported by this CPU",
                               "'x64' is not supported by this CPU", "'x64' has no BlaMka form"}},
        {name_of(KernelId::ssse3),
         kSsse3Only,
         Broken::nothing,
         {"ssse3 (requested)", "ssse3 (as the kernel, lane by lane)", "ssse3 (requested)",
          "ssse3 (as the kernel, lane by lane)", "ssse3 (requested)"}},
        {name_of(KernelId::avx),
         kSsse3Only,
         Broken::nothing,
         {"auto; requested 'avx' is not supported by this CPU: fastest of",
          "auto; requested 'avx' is not supported by this CPU: fastest of",
          "auto; requested 'avx' is not supported by this CPU: fastest of",
          "auto; requested 'avx' is not supported by this CPU: fastest of",
          "auto; requested 'avx' has no BlaMka form: fastest of"}},
        {name_of(KernelId::avx),
         kEveryFeature,
         Broken::nothing,
         {"avx (requested)", "avx (as the kernel, lane by lane)", "avx (requested)",
          "avx (as the kernel, lane by lane)", "'avx' has no BlaMka form"}},
        {name_of(KernelId::avx2),
         kSsse3Only,
         Broken::nothing,
         {"'avx2' is not supported by this CPU", "'avx2' is not supported by this CPU",
          "auto; requested 'avx2' has no BLAKE2s form: fastest of",
          "'avx2' is not supported by this CPU", "'avx2' is not supported by this CPU"}},
        {name_of(KernelId::avx2),
         kEveryFeature,
         Broken::nothing,
         {"avx2 (requested)", "avx2 (as the kernel, native 4-lane)", "'avx2' has no BLAKE2s form",
          "avx2 (as the kernel, native 8-lane)", "avx2 (requested)"}},
        everywhere(name_of(KernelId::avx512), kSsse3Only, Broken::nothing,
                   "'avx512' is not supported by this CPU"),
        {name_of(KernelId::avx512),
         kEveryFeature,
         Broken::nothing,
         {"avx512 (requested)", "avx512 (as the kernel, native 4-lane)", "avx512 (requested)",
          "avx512 (as the kernel, native 8-lane)", "avx512 (requested)"}},
        {name_of(KernelId::avx512),
         kEveryFeature,
         Broken::native,
         {"auto; requested 'avx512' failed its self-test: fastest of",
          "avx512 (as the kernel, lane by lane)",
          "auto; requested 'avx512' failed its self-test: fastest of",
          "avx512 (as the kernel, lane by lane)",
          "auto; requested 'avx512' failed its self-test: fastest of"}},
        everywhere(name_of(KernelId::avx512), kEveryFeature, Broken::row,
                   "'avx512' failed its self-test"),
        everywhere("nope", kEveryFeature, Broken::nothing,
                   "auto; requested 'nope' is unknown or not built in: fastest of"),
        everywhere("a b", kEveryFeature, Broken::nothing,
                   "(auto; the request is not a kernel name"),
        everywhere(name_of(KernelId::ref), kEveryFeature, Broken::reference,
                   "none (the reference kernel failed its self-test)"),
    };
    return rows;
}

// A row's name as a named request whether or not this build has it: the pure choice sees them all.
KernelRequest request_of(const char* text) {
    for (const registry::KernelRow& row : registry::kKernelRows) {
        if (std::string_view(row.name) == text) {
            KernelRequest named{Kind::named, row.id, {}};
            std::snprintf(named.shown, sizeof named.shown, "%s", row.name);
            return named;
        }
    }
    return dispatch::parse_request(text);
}

std::vector<Measurement> measurements_for(const std::vector<Candidate>& candidates,
                                          const KernelRequest& request, Broken broken) {
    std::vector<Measurement> measurements;
    for (const Candidate& c : candidates) {
        const bool of_row = request.kind == Kind::named && c.id == request.id;
        const bool unusable = (broken == Broken::row && of_row) ||
                              (broken == Broken::native && of_row && !c.lane_by_lane) ||
                              (broken == Broken::reference && c.id == KernelId::ref);
        measurements.push_back({!unusable, 100.0});  // a tie everywhere: the earliest serves
    }
    return measurements;
}

void test_refusals_alike(b2test::Report& checks) {
    size_t cells = 0;
    for (const RefusalRow& row : refusal_table()) {
        const KernelRequest request = request_of(row.request);
        const CpuFeatures features = features_from_mask(row.features);
        for (const FormRow& form : dispatch::kForms) {
            const std::vector<Candidate> candidates = every_candidate(form);
            const std::vector<Measurement> measurements =
                measurements_for(candidates, request, row.broken);
            const dispatch::Serving s =
                dispatch::choose(form.form, request, features, candidates, measurements);
            const dispatch::Serving automatic = dispatch::choose(
                form.form, dispatch::parse_request("auto"), features, candidates, measurements);
            const std::string what = std::string(form.label) + " '" + row.request +
                                     "': " + s.description + " contains " +
                                     row.expected[dispatch::index_of(form.form)];
            checks.check(contains(s.description, row.expected[dispatch::index_of(form.form)]),
                         what.c_str());
            const bool refused = s.automatic && request.kind != Kind::automatic;
            checks.check(!refused || (s.candidate.id == automatic.candidate.id &&
                                      s.candidate.lane_by_lane == automatic.candidate.lane_by_lane),
                         "a refused request gets the automatic choice, in every form");
            checks.check(request.kind != Kind::not_a_name || !contains(s.description, row.request),
                         "no kernel name is never echoed");
            ++cells;
        }
    }
    for (const registry::KernelRow& kernel : registry::kKernelRows) {
        bool requested = false;
        for (const RefusalRow& row : refusal_table()) {
            requested = requested || std::string_view(row.request) == kernel.name;
        }
        checks.check(requested, "the refusal table requests every registry row by name");
    }
    std::printf("refusals and fallbacks: %zu cells (requests x forms) checked alike\n", cells);
}

// --- this process

// The first servings race from several threads (named and automatic requests): one detection,
// one calibration, one answer per request.
bool concurrent_first_servings_agree() {
    constexpr int kThreads = 4;
    dispatch::Servings servings[kThreads][2] = {};
    std::thread threads[kThreads];
    for (int i = 0; i < kThreads; ++i) {
        threads[i] = std::thread([&servings, i] {
            const char* requests[2] = {registry::kKernelRows[0].name, "auto"};
            for (int k = 0; k < 2; ++k) {
                const int r = (i + k) % 2;  // half the threads start with the automatic request
                servings[i][r] = dispatch::serve(dispatch::parse_request(requests[r]));
            }
        });
    }
    for (auto& thread : threads) {
        thread.join();
    }
    for (int i = 0; i < kThreads; ++i) {
        for (int r = 0; r < 2; ++r) {
            for (size_t f = 0; f < dispatch::kFormCount; ++f) {
                const dispatch::Serving& a = servings[i][r][f];
                const dispatch::Serving& b = servings[0][r][f];
                if (!a.served || a.candidate.id != b.candidate.id ||
                    a.candidate.lane_by_lane != b.candidate.lane_by_lane) {
                    return false;
                }
            }
        }
    }
    return true;
}

// Usable = the CPU runs it (a lane-by-lane candidate: its single-lane kernel is usable) and it
// passes the form's self-test.
bool expected_usable(const FormRow& form, const Candidate& candidate) {
    if (!candidate.lane_by_lane) {
        return dispatch::cpu_can_run(candidate.id, blake2simd::cpu::detected_features()) &&
               dispatch::passes_self_test(form.form, candidate.entry);
    }
    const Form single = dispatch::kForms[dispatch::index_of(form.form) - 1].form;
    const auto singles = dispatch::candidates(single);
    for (size_t i = 0; i < singles.size(); ++i) {
        if (singles[i].id == candidate.id) {
            return dispatch::facts(single)[i].usable &&
                   dispatch::passes_self_test(form.form, candidate.entry);
        }
    }
    return false;
}

void check_live_candidates(b2test::Report& checks, const FormRow& form, size_t automatic) {
    const auto candidates = dispatch::candidates(form.form);
    const auto measurements = dispatch::measurements(form.form);
    checks.check(!candidates.empty() && candidates[0].id == KernelId::ref &&
                     candidates[0].lane_by_lane == (form.lanes > 1) &&
                     measurements.size() == candidates.size(),
                 "the reference first, one measurement per candidate");
    for (size_t i = 0; i < candidates.size(); ++i) {
        const bool usable = measurements[i].usable;
        std::printf("  %-8s %-7s %-13s %-10s", form.label, registry::row_of(candidates[i].id).name,
                    candidates[i].lane_by_lane ? "lane by lane" : "native",
                    usable ? "usable" : "-");
        if (usable) {
            std::printf(" %8.1f ns/unit", measurements[i].nanoseconds_per_unit);
            checks.check(measurements[automatic].nanoseconds_per_unit <=
                             measurements[i].nanoseconds_per_unit,
                         "auto is not slower than any usable candidate (the reference included)");
        }
        std::printf("\n");
        checks.check(usable == expected_usable(form, candidates[i]),
                     "usable = runnable and self-test");
        checks.check(usable == dispatch::facts(form.form)[i].usable,
                     "the calibration keeps the facts");
    }
}

// Every row by name: served by name exactly when the row has a usable candidate in the form,
// else the automatic choice, naming the request; a named serving does not calibrate.
void check_live_requests(b2test::Report& checks, const dispatch::Servings& automatic) {
    for (const registry::KernelRow& row : registry::kKernelRows) {
        const bool uncalibrated = !dispatch::calibration_has_run();
        const dispatch::Servings named = dispatch::serve(dispatch::parse_request(row.name));
        bool all_by_name = true;
        for (const FormRow& form : dispatch::kForms) {
            const size_t f = dispatch::index_of(form.form);
            bool servable = false;
            const auto candidates = dispatch::candidates(form.form);
            for (size_t i = 0; i < candidates.size(); ++i) {
                servable = servable ||
                           (candidates[i].id == row.id && dispatch::facts(form.form)[i].usable);
            }
            std::printf("request %-7s -> %s %s\n", row.name, form.label, named[f].description);
            checks.check(named[f].served && named[f].automatic == !servable,
                         "a row serves by name exactly when it has a usable candidate");
            checks.check(servable ? named[f].candidate.id == row.id
                                  : named[f].candidate.id == automatic[f].candidate.id &&
                                        contains(named[f].description, row.name),
                         "a refused row gets the automatic choice and is named");
            all_by_name = all_by_name && servable;
        }
        checks.check(!uncalibrated || !all_by_name || !dispatch::calibration_has_run(),
                     "a row served by name in every form does not start the calibration");
    }
    const dispatch::Servings unknown = dispatch::serve(dispatch::parse_request("nonesuch"));
    const dispatch::Servings upper = dispatch::serve(dispatch::parse_request("REF"));
    for (size_t f = 0; f < dispatch::kFormCount; ++f) {
        checks.check(unknown[f].automatic && unknown[f].candidate.id == automatic[f].candidate.id &&
                         contains(unknown[f].description, "nonesuch") &&
                         contains(unknown[f].description, "unknown"),
                     "an unknown request falls back to auto and says unknown");
        checks.check(!upper[f].automatic && upper[f].candidate.id == KernelId::ref,
                     "a request ignores case");
    }
    std::printf("unknown: %s\n", unknown[0].description);
}

void test_live_selection(b2test::Report& checks) {
    const bool first_use = !dispatch::calibration_has_run();
    const auto start = std::chrono::steady_clock::now();
    const dispatch::KernelRequest request = dispatch::parse_request("auto");
    const dispatch::Servings automatic = dispatch::serve(request);
    const double call_microseconds =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
    checks.check(dispatch::calibration_has_run(), "an automatic serving calibrates");
    checks.check(dispatch::reference_kernel_works(), "the reference kernel works");
    if (first_use) {
        std::printf("first serve() took %.1f us (detection, self-tests, calibration)\n",
                    call_microseconds);
    }
    for (const FormRow& form : dispatch::kForms) {
        const size_t f = dispatch::index_of(form.form);
        const dispatch::Serving& s = automatic[f];
        std::printf("%s %s\ncalibration took %.1f us\n", form.label, s.description,
                    dispatch::calibration_microseconds(form.form));
        if (!checks.check(s.served && s.automatic && contains(s.description, "auto"),
                          "auto serves every form and says so")) {
            continue;
        }
        // Printed, not bounded: its work is bounded (test_blake2bp_lanes4).
        checks.check(dispatch::calibration_microseconds(form.form) > 0, "the calibration ran");
        const dispatch::Serving pure =
            dispatch::choose(form.form, request, blake2simd::cpu::detected_features(),
                             dispatch::candidates(form.form), dispatch::measurements(form.form));
        checks.check(pure.candidate.id == s.candidate.id &&
                         pure.candidate.lane_by_lane == s.candidate.lane_by_lane,
                     "serve (auto) = choose over this process's measurements");
        size_t index = 0;
        while (dispatch::candidates(form.form)[index].id != s.candidate.id ||
               dispatch::candidates(form.form)[index].lane_by_lane != s.candidate.lane_by_lane) {
            ++index;
        }
        check_live_candidates(checks, form, index);
    }
    check_live_requests(checks, automatic);
}

// Every form's self-test must be able to fail: the reference with one bit flipped.
void test_self_tests_reject(b2test::Report& checks) {
    using namespace blake2simd;
    const CompressFn b = [](Blake2bState* s, const uint8_t* p, size_t n, uint64_t i) noexcept {
        kernels::blake2b_compress_ref(s, p, n, i);
        s->h[3] ^= n > 1 ? 1u : 0u;
    };
    const Compress4Fn b4 = [](Blake2bState* s, const uint8_t* const* p, size_t n, size_t stride,
                              uint64_t i) noexcept {
        compress_by_lane<Blake2bFamily, &kernels::blake2b_compress_ref>(s, p, n, stride, i);
        s[2].h[5] ^= n != 0 ? 1u : 0u;
    };
    const Blake2sCompressFn bs = [](Blake2sState* s, const uint8_t* p, size_t n,
                                    uint32_t i) noexcept {
        kernels::blake2s_compress_ref(s, p, n, i);
        s->h[3] ^= n > 1 ? 1u : 0u;
    };
    const Blake2sCompress8Fn bs8 = [](Blake2sState* s, const uint8_t* const* p, size_t n,
                                      size_t stride, uint32_t i) noexcept {
        compress_by_lane<Blake2sFamily, &kernels::blake2s_compress_ref>(s, p, n, stride, i);
        s[6].t[1] ^= n != 0 ? 1u : 0u;
    };
    const FillBlockFn blamka = [](uint64_t* next, const uint64_t* previous,
                                  const uint64_t* reference, bool xor_into_next) noexcept {
        kernels::fill_block_ref(next, previous, reference, xor_into_next);
        next[77] ^= xor_into_next ? 1u : 0u;
    };
    const Entry broken[dispatch::kFormCount] = {{.blake2b = b},
                                                {.blake2b_lanes = b4},
                                                {.blake2s = bs},
                                                {.blake2s_lanes = bs8},
                                                {.blamka = blamka}};
    for (const FormRow& form : dispatch::kForms) {
        const size_t f = dispatch::index_of(form.form);
        checks.check(
            dispatch::passes_self_test(form.form, dispatch::candidates(form.form)[0].entry),
            "the reference passes every form's self-test");
        checks.check(!dispatch::passes_self_test(form.form, broken[f]),
                     "every form's self-test rejects a broken kernel");
    }
}

}  // namespace

int main() {
    b2test::Report checks("test_dispatch");
    // Nothing may calibrate at load time: static initialisation is over when main() starts.
    checks.check(!dispatch::calibration_has_run(), "no calibration before the first selection");
    test_parse_request(checks);
    for (const FormRow& form : dispatch::kForms) {
        test_choose_form(checks, form);
    }
    test_refusals_alike(checks);
    test_self_tests_reject(checks);
    checks.check(!dispatch::calibration_has_run(), "choose() alone does not calibrate");
    if (std::getenv("BLAKE2SIMD_TEST_CONCURRENT_FIRST_USE") != nullptr) {
        checks.check(concurrent_first_servings_agree(), "concurrent first servings agree");
    } else {
        // The reference serves every form by name, and no timing is needed for that.
        for (const dispatch::Serving& s :
             dispatch::serve(dispatch::parse_request(registry::kKernelRows[0].name))) {
            checks.check(s.served && !s.automatic, "ref serves every form by name");
        }
        checks.check(!dispatch::calibration_has_run(), "a row served by name does not calibrate");
    }
    test_live_selection(checks);
    return checks.finish();
}
