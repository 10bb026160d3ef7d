// Kernel selection: auto choice, named requests, fallbacks, the pure choose() decision, and
// the BLAKE2bp 4-lane kernel beside each.
// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "dispatch.hpp"
#include "kernels_check.hpp"
#include "lanes_by_lane.hpp"
#include "registry.hpp"
#include "self_test.hpp"

namespace {

namespace dispatch = blake2simd::dispatch;
using blake2simd::Blake2sKernelInfo;
using blake2simd::KernelId;
using blake2simd::KernelInfo;
using blake2simd::cpu::CpuFeatures;
using dispatch::KernelMeasurement;
using dispatch::LanesMeasurement;

bool contains(const char* text, std::string_view part) {
    return std::string_view(text).find(part) != std::string_view::npos;
}

// A catalogue with every kernel of the registry, built or not, so the pure choices are
// exercised for all of them on any host. The function pointers are never called by them.
template <class Info, class Compress>
constexpr auto every_row(Compress compress) {
    std::array<Info, blake2simd::registry::kKnownKernelCount> every{};
    for (size_t i = 0; i < every.size(); ++i) {
        const auto& row = blake2simd::registry::kKernelRows[i];
        every[i] = Info{row.id, row.name, compress};
    }
    return every;
}
constexpr auto kEveryKernel = every_row<KernelInfo>(&blake2simd::kernels::compress_ref);
constexpr auto kEveryBlake2s =
    every_row<Blake2sKernelInfo>(&blake2simd::kernels::blake2s_compress_ref);
constexpr size_t kEveryKernelCount = kEveryKernel.size();

CpuFeatures features_from_mask(unsigned mask) {
    return CpuFeatures{(mask & 1) != 0, (mask & 2) != 0, (mask & 4) != 0, (mask & 8) != 0,
                       (mask & 16) != 0};
}

// auto, empty, every kernel's name, no kernel at all, and no kernel name.
std::vector<const char*> every_request() {
    std::vector<const char*> requests = {"auto", ""};
    for (const auto& row : blake2simd::registry::kKernelRows) {
        requests.push_back(row.name);
    }
    requests.push_back("bogus");
    requests.push_back("a b");
    return requests;
}

// One single-lane choice over a synthetic catalogue, checked against the rules.
template <class Info>
void check_single_choice(b2kernels_test::Checks& checks, const char* request,
                         const dispatch::KernelSelection<Info>& s, std::span<const Info> kernels,
                         const KernelMeasurement* measurements, const CpuFeatures& features) {
    const auto runnable = [&](size_t i) {
        return measurements[i].passed_self_test && dispatch::cpu_can_run(kernels[i].id, features);
    };
    if (!runnable(0)) {
        checks.check(s.kernel == nullptr && contains(s.description, "reference"),
                     "a failed reference self-test selects nothing");
        return;
    }
    if (!checks.check(s.kernel != nullptr, "choose() returns a kernel")) {
        return;
    }
    const size_t chosen = static_cast<size_t>(s.kernel - kernels.data());
    checks.check(chosen < kernels.size() && runnable(chosen),
                 "choose() never returns a kernel the features lack or that failed its self-test");
    // Never slower than any runnable kernel, the reference included, unless the caller asked
    // for that kernel by name; on a tie the earlier kernel.
    const bool named = std::string_view(request) == s.kernel->name;
    checks.check(s.automatic == !named,
                 "automatic exactly when not served by name (auto, fallback)");
    for (size_t i = 0; i < kernels.size() && !named; ++i) {
        if (runnable(i)) {
            const double chosen_ns = measurements[chosen].nanoseconds_per_block;
            const double ns = measurements[i].nanoseconds_per_block;
            checks.check(chosen_ns < ns || (chosen_ns == ns && chosen <= i),
                         "auto picks the fastest runnable kernel, the earlier one on a tie");
        }
    }
    for (size_t i = 0; i < kernels.size(); ++i) {
        if (std::string_view(request) == kernels[i].name) {
            checks.check((chosen == i) == runnable(i), "a named kernel is served iff runnable");
            if (!runnable(i)) {
                checks.check(contains(s.description, request) && contains(s.description, "auto"),
                             "a refused request is named in the description");
            }
        }
    }
    if (std::string_view(request) == "bogus") {
        checks.check(contains(s.description, "unknown"), "an unknown request says so");
    }
    if (std::string_view(request) == "a b") {
        checks.check(
            contains(s.description, "not a kernel name") && !contains(s.description, "a b"),
            "no kernel name: said, and not echoed");
    }
}

// Every feature combination x every self-test outcome x several speed orders x every request.
template <class Info, class Choose>
void test_choose_family(b2kernels_test::Checks& checks, std::span<const Info> kernels,
                        Choose choose) {
    const std::vector<const char*> requests = every_request();
    for (unsigned mask = 0; mask < 32; ++mask) {
        const CpuFeatures features = features_from_mask(mask);
        for (unsigned failed = 0; failed < (1u << kernels.size()); failed += 7) {
            for (unsigned order = 0; order < 4; ++order) {
                KernelMeasurement measurements[blake2simd::registry::kKnownKernelCount];
                for (size_t i = 0; i < kernels.size(); ++i) {
                    measurements[i].passed_self_test = (failed & (1u << i)) == 0;
                    // Orders: SIMD fastest, SIMD slowest, alternating, all equal.
                    const double rank = order == 0   ? static_cast<double>(kernels.size() - i)
                                        : order == 1 ? static_cast<double>(i + 1)
                                        : order == 2 ? static_cast<double>((i * 3) % 5 + 1)
                                                     : 1.0;
                    measurements[i].nanoseconds_per_block = 100.0 * rank;
                }
                for (const char* request : requests) {
                    check_single_choice(
                        checks, request,
                        choose(request, features, kernels,
                               std::span<const KernelMeasurement>(measurements, kernels.size())),
                        kernels, measurements, features);
                }
            }
        }
    }
    // Ties keep the reference kernel: equal speed is not a reason to switch.
    KernelMeasurement equal[blake2simd::registry::kKnownKernelCount];
    for (auto& m : equal) {
        m = {true, 50.0};
    }
    const auto tie = choose("auto", features_from_mask(31), kernels,
                            std::span<const KernelMeasurement>(equal, kernels.size()));
    checks.check(tie.kernel == &kernels[0], "a tie keeps the reference kernel");
}

void test_choose(b2kernels_test::Checks& checks) {
    test_choose_family<KernelInfo>(checks, kEveryKernel, &dispatch::choose);
    test_choose_family<Blake2sKernelInfo>(checks, kEveryBlake2s, &dispatch::choose_blake2s);
}

// A request naming a row whose BLAKE2s column is empty gets the automatic BLAKE2s kernel and
// says why; the catalogue is the build's (rows with a BLAKE2s form only).
void test_blake2s_form_missing(b2kernels_test::Checks& checks) {
    const auto kernels = dispatch::blake2s_kernels();
    std::vector<KernelMeasurement> measurements(kernels.size(), KernelMeasurement{true, 10.0});
    int rows = 0;
    for (const auto& row : blake2simd::registry::kKernelRows) {
        if (!row.built || row.blake2s.has_single) {
            continue;
        }
        ++rows;
        const auto s =
            dispatch::choose_blake2s(row.name, features_from_mask(31), kernels, measurements);
        checks.check(s.kernel == &kernels[0] && s.automatic &&
                         contains(s.description, "no BLAKE2s form") &&
                         contains(s.description, row.name),
                     "a row without a BLAKE2s form falls back to auto and says so");
    }
    std::printf("%d built rows have no BLAKE2s form\n", rows);
}

// --- the pure 8-lane choice over synthetic candidates: every row lane by lane and native

void fake_compress8(blake2simd::Blake2sState*, const uint8_t* const*, size_t, size_t,
                    uint32_t) noexcept {}

constexpr auto every_lanes8_candidate() {
    std::array<dispatch::Lanes8Candidate, 2 * kEveryKernelCount> all{};
    for (size_t i = 0; i < kEveryKernelCount; ++i) {
        all[i] = {kEveryKernel[i].id, true, &fake_compress8};
        all[kEveryKernelCount + i] = {kEveryKernel[i].id, false, &fake_compress8};
    }
    return all;
}
constexpr auto kEveryLanes8 = every_lanes8_candidate();
constexpr size_t kLanes8Count = kEveryLanes8.size();

// The candidate a selection names (its name and form identify it), or kLanes8Count.
size_t lanes8_index(const dispatch::Lanes8Selection& s) {
    for (size_t i = 0; i < kLanes8Count; ++i) {
        if (s.kernel.name != nullptr &&
            std::string_view(s.kernel.name) ==
                blake2simd::registry::row_of(kEveryLanes8[i].id).name &&
            s.lane_by_lane == kEveryLanes8[i].lane_by_lane) {
            return i;
        }
    }
    return kLanes8Count;
}

// The candidate the rules expect for a named row: native, else lane by lane, else none.
size_t expected_named(const char* request, const std::function<bool(size_t)>& usable) {
    for (const bool lane_by_lane : {false, true}) {
        for (size_t i = 0; i < kLanes8Count; ++i) {
            if (kEveryLanes8[i].lane_by_lane == lane_by_lane &&
                std::string_view(request) ==
                    blake2simd::registry::row_of(kEveryLanes8[i].id).name &&
                usable(i)) {
                return i;
            }
        }
    }
    return kLanes8Count;
}

void check_lanes8_choice(b2kernels_test::Checks& checks, const char* request,
                         const CpuFeatures& features, const LanesMeasurement* measurements) {
    const auto usable = [&](size_t i) {
        return measurements[i].usable && dispatch::cpu_can_run(kEveryLanes8[i].id, features);
    };
    const auto s =
        dispatch::choose_lanes8(request, features, kEveryLanes8,
                                std::span<const LanesMeasurement>(measurements, kLanes8Count));
    const size_t chosen = lanes8_index(s);
    if (s.kernel.compress8 == nullptr) {
        bool any = false;
        for (size_t i = 0; i < kLanes8Count; ++i) {
            any = any || usable(i);
        }
        checks.check(!any && contains(s.description, "none"), "8-lane: none only if none usable");
        return;
    }
    if (!checks.check(chosen < kLanes8Count && usable(chosen),
                      "8-lane: never a candidate the features lack or that is unusable")) {
        return;
    }
    const size_t named = expected_named(request, usable);
    if (named != kLanes8Count) {
        checks.check(chosen == named && contains(s.description, "as the kernel"),
                     "8-lane: a named row serves its native form, else lane by lane");
        return;
    }
    for (size_t i = 0; i < kLanes8Count; ++i) {
        const double chosen_ns = measurements[chosen].nanoseconds_per_step;
        const double ns = measurements[i].nanoseconds_per_step;
        checks.check(!usable(i) || chosen_ns < ns || (chosen_ns == ns && chosen <= i),
                     "8-lane: the fastest usable candidate, the earlier one on a tie");
    }
    checks.check(contains(s.description, "auto") && contains(s.description, "MB/s"),
                 "8-lane: an automatic choice says auto and its speed");
    const std::string_view req = request;
    if (!req.empty() && req != "auto" && req != "a b") {
        checks.check(contains(s.description, request), "8-lane: a refused request is named");
    }
    if (req == "a b") {
        checks.check(
            contains(s.description, "not a kernel name") && !contains(s.description, "a b"),
            "8-lane: no kernel name: said, and not echoed");
    }
}

// An odd step through the unusable-candidate bit patterns: about 24 patterns.
constexpr unsigned kUnusableStep = ((1u << kLanes8Count) / 24) | 1u;

void test_choose_lanes8(b2kernels_test::Checks& checks) {
    const std::vector<const char*> requests = every_request();
    for (unsigned mask = 0; mask < 32; ++mask) {
        const CpuFeatures features = features_from_mask(mask);
        for (unsigned unusable = 0; unusable < (1u << kLanes8Count); unusable += kUnusableStep) {
            for (unsigned order = 0; order < 4; ++order) {
                LanesMeasurement measurements[kLanes8Count];
                for (size_t i = 0; i < kLanes8Count; ++i) {
                    measurements[i].usable = (unusable & (1u << i)) == 0;
                    // Orders: native fastest, native slowest, scrambled, all equal.
                    const double rank = order == 0   ? static_cast<double>(kLanes8Count - i)
                                        : order == 1 ? static_cast<double>(i + 1)
                                        : order == 2 ? static_cast<double>((i * 5) % 7 + 1)
                                                     : 1.0;
                    measurements[i].nanoseconds_per_step = 250.0 * rank;
                }
                for (const char* request : requests) {
                    check_lanes8_choice(checks, request, features, measurements);
                }
            }
        }
    }
    // Measured speed decides: the reference lane by lane, if fastest, beats every native form.
    LanesMeasurement ref_wins[kLanes8Count];
    for (size_t i = 0; i < kLanes8Count; ++i) {
        ref_wins[i] = {true, i == 0 ? 100.0 : 400.0 - 10.0 * static_cast<double>(i)};
    }
    const auto s = dispatch::choose_lanes8("auto", features_from_mask(31), kEveryLanes8, ref_wins);
    checks.check(lanes8_index(s) == 0 && contains(s.description, "lane by lane"),
                 "8-lane: the fastest candidate serves whatever its form");
}

// The first selection races from several threads: one detection, one calibration per kind,
// one answer.
struct Chosen {
    const KernelInfo* kernel;
    blake2simd::Compress4Fn compress4;
    const Blake2sKernelInfo* blake2s;
    blake2simd::Blake2sCompress8Fn compress8;

    bool operator==(const Chosen&) const = default;
};

bool concurrent_first_selections_agree() {
    constexpr int kThreads = 4;
    Chosen chosen[kThreads] = {};
    std::thread threads[kThreads];
    for (int i = 0; i < kThreads; ++i) {
        threads[i] = std::thread([&chosen, i] {
            // Half the threads start with BLAKE2s, so the calibrations race in both orders.
            if (i % 2 == 0) {
                chosen[i].blake2s = dispatch::select_blake2s("auto").kernel;
                chosen[i].compress8 = dispatch::select_lanes8("auto").kernel.compress8;
            }
            const dispatch::Selection selection = dispatch::select_kernel("auto");
            chosen[i].kernel = selection.kernel;
            if (selection.kernel != nullptr) {
                chosen[i].compress4 = dispatch::select_lanes4(selection).kernel.compress4;
            }
            chosen[i].blake2s = dispatch::select_blake2s("auto").kernel;
            chosen[i].compress8 = dispatch::select_lanes8("auto").kernel.compress8;
        });
    }
    for (auto& thread : threads) {
        thread.join();
    }
    for (int i = 0; i < kThreads; ++i) {
        if (chosen[i].kernel == nullptr || chosen[i].compress4 == nullptr ||
            chosen[i].blake2s == nullptr || chosen[i].compress8 == nullptr ||
            !(chosen[i] == chosen[0])) {
            return false;
        }
    }
    return true;
}

void test_live_selection(b2kernels_test::Checks& checks) {
    const bool first_use = !dispatch::calibration_has_run();
    const bool lanes4_first_use = !dispatch::lanes4_calibration_has_run();
    const auto start = std::chrono::steady_clock::now();
    const dispatch::Selection automatic = dispatch::select_kernel("auto");
    const double call_microseconds =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
    checks.check(dispatch::calibration_has_run(), "select_kernel() calibrates");
    if (first_use) {
        std::printf("first select_kernel() took %.1f us (detection, self-tests, calibration)\n",
                    call_microseconds);
    }
    if (!checks.check(automatic.kernel != nullptr, "auto selects a kernel")) {
        return;
    }
    std::printf("auto: %s\n", automatic.description);
    checks.check(dispatch::is_runnable(*automatic.kernel), "the auto kernel is runnable");
    checks.check(contains(automatic.description, "auto"), "the description says auto");
    checks.check(dispatch::select_kernel("").kernel == automatic.kernel, "empty means auto");

    const double microseconds = dispatch::calibration_microseconds();
    std::printf("calibration took %.1f us\n", microseconds);
    // Printed, not bounded: its work is bounded (test_blake2bp_lanes4), its time is the
    // benchmark's business.
    checks.check(microseconds > 0, "the calibration ran");

    const auto kernels = dispatch::compiled_kernels();
    const auto measurements = dispatch::kernel_measurements();
    checks.check(measurements.size() == kernels.size(), "one measurement per kernel");
    const size_t auto_index = static_cast<size_t>(automatic.kernel - kernels.data());
    for (size_t i = 0; i < kernels.size(); ++i) {
        const KernelInfo& kernel = kernels[i];
        const bool runnable = dispatch::is_runnable(kernel);
        std::printf("  %-7s %-12s", kernel.name, runnable ? "runnable" : "not runnable");
        if (runnable) {
            std::printf(" %8.1f ns/block", measurements[i].nanoseconds_per_block);
            checks.check(measurements[auto_index].nanoseconds_per_block <=
                             measurements[i].nanoseconds_per_block,
                         "auto is not slower than any runnable kernel (ref included)");
        }
        std::printf("\n");
        checks.check(dispatch::find_kernel(kernel.name) == &kernel, "find_kernel by name");
        checks.check(
            runnable == (measurements[i].passed_self_test &&
                         dispatch::cpu_can_run(kernel.id, blake2simd::cpu::detected_features())),
            "runnable = CPU support and self-test");
        const dispatch::Selection named = dispatch::select_kernel(kernel.name);
        checks.check((named.kernel == &kernel) == runnable,
                     (std::string("request '") + kernel.name + "' served iff runnable").c_str());
        if (runnable) {
            checks.check(contains(named.description, "requested"), "says requested");
            checks.check(!named.automatic, "a request served by name is not automatic");
            // BLAKE2bp beside it: the same instruction set, and no 4-lane timing for that.
            const dispatch::Lanes4Selection lanes4 = dispatch::select_lanes4(named);
            checks.check(lanes4.kernel.compress4 != nullptr &&
                             std::string_view(lanes4.kernel.name) == kernel.name,
                         "a named kernel serves BLAKE2bp in its own instruction set");
            checks.check(!lanes4_first_use || !dispatch::lanes4_calibration_has_run(),
                         "a named kernel does not start the 4-lane calibration");
        } else {
            checks.check(named.automatic, "an unrunnable request falls back to automatic");
            checks.check(
                named.kernel == automatic.kernel && contains(named.description, kernel.name),
                "an unrunnable request falls back to auto and names the request");
        }
    }
    checks.check(dispatch::is_runnable(kernels[0]) && kernels[0].id == KernelId::ref,
                 "the reference kernel is first and runnable");

    const dispatch::Selection unknown = dispatch::select_kernel("nonesuch");
    checks.check(unknown.kernel == automatic.kernel, "an unknown request falls back to auto");
    checks.check(
        contains(unknown.description, "nonesuch") && contains(unknown.description, "unknown"),
        "an unknown request is reported as unknown");
    std::printf("unknown: %s\n", unknown.description);
    checks.check(dispatch::find_kernel("nonesuch") == nullptr, "find_kernel of an unknown name");
    // Names match case-insensitively, like OpenSSL's.
    std::string shouted = kernels[0].name;
    for (char& c : shouted) {
        c = static_cast<char>(c - 'a' + 'A');
    }
    checks.check(dispatch::find_kernel(shouted) == &kernels[0], "find_kernel ignores case");
    std::string capitalised = kernels[0].name;
    capitalised[0] = shouted[0];
    const dispatch::Selection upper = dispatch::select_kernel(capitalised);
    checks.check(upper.kernel == &kernels[0] && !upper.automatic, "a request ignores case");
    checks.check(dispatch::select_kernel("AUTO").automatic, "AUTO means auto");
    checks.check(automatic.automatic && unknown.automatic, "auto and fallbacks are automatic");

    // The automatic BLAKE2bp kernel is timed on first use, then fixed for the process.
    const dispatch::Lanes4Selection lanes4 = dispatch::select_lanes4(automatic);
    checks.check(dispatch::lanes4_calibration_has_run(), "automatic BLAKE2bp calibrates 4 lanes");
    checks.check(lanes4.kernel.compress4 != nullptr && contains(lanes4.description, "auto"),
                 "automatic BLAKE2bp serves and says auto");
    checks.check(dispatch::select_lanes4(unknown).kernel.compress4 == lanes4.kernel.compress4,
                 "a fallback serves the automatic BLAKE2bp kernel too");
    std::printf("blake2bp: %s\n4-lane calibration took %.1f us\n", lanes4.description,
                dispatch::lanes4_calibration_microseconds());
}

// BLAKE2s: the live choice follows the same rules as BLAKE2b's, over the BLAKE2s catalogue.
void test_live_blake2s(b2kernels_test::Checks& checks) {
    const bool first_use = !dispatch::blake2s_calibration_has_run();
    const auto start = std::chrono::steady_clock::now();
    const dispatch::Blake2sSelection automatic = dispatch::select_blake2s("auto");
    const double call_microseconds =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
    if (first_use) {
        std::printf("first select_blake2s() took %.1f us (self-tests, BLAKE2s calibration)\n",
                    call_microseconds);
    }
    std::printf("blake2s: %s\nBLAKE2s calibration took %.1f us\n", automatic.description,
                dispatch::blake2s_calibration_microseconds());
    if (!checks.check(automatic.kernel != nullptr && dispatch::blake2s_reference_works(),
                      "auto selects a BLAKE2s kernel; the reference works")) {
        return;
    }
    checks.check(automatic.automatic && contains(automatic.description, "auto"), "BLAKE2s auto");
    const auto kernels = dispatch::blake2s_kernels();
    const auto measurements = dispatch::blake2s_measurements();
    checks.check(kernels[0].id == KernelId::ref && measurements.size() == kernels.size(),
                 "the BLAKE2s reference first, one measurement per BLAKE2s kernel");
    const size_t auto_index = static_cast<size_t>(automatic.kernel - kernels.data());
    for (size_t i = 0; i < kernels.size(); ++i) {
        const bool runnable = dispatch::blake2s_is_runnable(kernels[i]);
        std::printf("  %-7s %-12s", kernels[i].name, runnable ? "runnable" : "not runnable");
        if (runnable) {
            std::printf(" %8.1f ns/block", measurements[i].nanoseconds_per_block);
            checks.check(measurements[auto_index].nanoseconds_per_block <=
                             measurements[i].nanoseconds_per_block,
                         "BLAKE2s auto is not slower than any runnable kernel");
        }
        std::printf("\n");
        checks.check(runnable == (measurements[i].passed_self_test &&
                                  dispatch::cpu_can_run(kernels[i].id,
                                                        blake2simd::cpu::detected_features())),
                     "BLAKE2s runnable = CPU support and self-test");
        const auto named = dispatch::select_blake2s(kernels[i].name);
        checks.check((named.kernel == &kernels[i] && !named.automatic) == runnable,
                     "a BLAKE2s request is served by name iff runnable");
    }
    checks.check(!blake2simd::blake2s_passes_self_test([](blake2simd::Blake2sState* state,
                                                          const uint8_t* blocks, size_t count,
                                                          uint32_t increment) noexcept {
        blake2simd::kernels::blake2s_compress_ref(state, blocks, count, increment);
        state->h[3] ^= count > 1 ? 1u : 0u;
    }),
                 "the BLAKE2s self-test rejects a broken kernel");
}

// BLAKE2sp: a row served by name does not calibrate; the live automatic choice is the pure one
// over this process's measurements; every request serves something this CPU runs.
void test_live_lanes8(b2kernels_test::Checks& checks) {
    const auto candidates = dispatch::lanes8_candidates();
    const blake2simd::cpu::CpuFeatures& features = blake2simd::cpu::detected_features();
    // The rows first: the automatic requests and the fallbacks calibrate.
    std::vector<const char*> requests = every_request();
    std::rotate(requests.begin(), requests.begin() + 2, requests.end());
    for (const char* request : requests) {
        const bool uncalibrated = !dispatch::lanes8_calibration_has_run();
        const dispatch::Lanes8Selection s = dispatch::select_lanes8(request);
        std::printf("request %-6s -> blake2sp %s\n", request, s.description);
        if (!checks.check(s.kernel.compress8 != nullptr, "every BLAKE2sp request is served")) {
            continue;
        }
        const auto* row = blake2simd::registry::kKernelRows;
        while (std::string_view(row->name) != s.kernel.name) {
            ++row;
        }
        checks.check(dispatch::cpu_can_run(row->id, features), "BLAKE2sp serves what the CPU runs");
        if (uncalibrated && contains(s.description, "as the kernel")) {
            checks.check(!dispatch::lanes8_calibration_has_run(),
                         "a row served by name does not start the 8-lane calibration");
        }
    }
    const auto measurements = dispatch::lanes8_measurements();
    checks.check(!candidates.empty() && candidates[0].id == KernelId::ref &&
                     candidates[0].lane_by_lane && measurements.size() == candidates.size(),
                 "the BLAKE2s reference lane by lane first, one measurement per candidate");
    for (size_t i = 0; i < candidates.size(); ++i) {
        const auto& c = candidates[i];
        bool runnable = dispatch::cpu_can_run(c.id, features);
        for (const auto& kernel : dispatch::blake2s_kernels()) {
            runnable = runnable && (!c.lane_by_lane || kernel.id != c.id ||
                                    dispatch::blake2s_is_runnable(kernel));
        }
        std::printf("  %-7s %-13s %s\n", blake2simd::registry::row_of(c.id).name,
                    c.lane_by_lane ? "lane by lane" : "native 8-lane",
                    measurements[i].usable ? "usable" : "not usable");
        checks.check(
            measurements[i].usable == (runnable && dispatch::lanes8_passes_self_test(c.compress8)),
            "8-lane usable = runnable and self-test");
    }
    const auto live = dispatch::select_lanes8("auto");
    const auto pure = dispatch::choose_lanes8("auto", features, candidates, measurements);
    checks.check(live.kernel.compress8 == pure.kernel.compress8,
                 "select_lanes8 (auto) = choose_lanes8 over this process's measurements");
    std::printf("8-lane calibration took %.1f us\n", dispatch::lanes8_calibration_microseconds());
    checks.check(!dispatch::lanes8_passes_self_test([](blake2simd::Blake2sState* states,
                                                       const uint8_t* const* blocks, size_t count,
                                                       size_t stride, uint32_t increment) noexcept {
        blake2simd::compress_by_lane<blake2simd::Blake2sKernels,
                                     &blake2simd::kernels::blake2s_compress_ref>(
            states, blocks, count, stride, increment);
        states[6].t[1] ^= count != 0 ? 1u : 0u;
    }),
                 "the 8-lane self-test rejects a broken kernel");
}

}  // namespace

int main() {
    b2kernels_test::Checks checks("test_dispatch");
    // Nothing may calibrate at load time: static initialisation is over when main() starts.
    checks.check(!dispatch::calibration_has_run(), "no calibration before the first selection");
    test_choose(checks);
    checks.check(!dispatch::calibration_has_run(), "choose() alone does not calibrate");
    checks.check(!dispatch::lanes4_calibration_has_run(), "no 4-lane calibration either");
    test_blake2s_form_missing(checks);
    test_choose_lanes8(checks);
    checks.check(
        !dispatch::blake2s_calibration_has_run() && !dispatch::lanes8_calibration_has_run(),
        "no BLAKE2s or 8-lane calibration before the first selection");
    if (std::getenv("BLAKE2SIMD_TEST_CONCURRENT_FIRST_USE") != nullptr) {
        checks.check(concurrent_first_selections_agree(), "concurrent first selections agree");
    }
    test_live_lanes8(checks);
    test_live_blake2s(checks);
    test_live_selection(checks);
    return checks.finish();
}
