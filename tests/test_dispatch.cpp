// Kernel selection: auto choice, named requests, fallbacks, the pure choose() decision, and
// the BLAKE2bp 4-lane kernel beside each.
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

#include "dispatch.hpp"
#include "kernels_check.hpp"
#include "registry.hpp"

namespace {

namespace dispatch = blake2simd::dispatch;
using blake2simd::KernelId;
using blake2simd::KernelInfo;
using blake2simd::cpu::CpuFeatures;
using dispatch::KernelMeasurement;

bool contains(const char* text, std::string_view part) {
    return std::string_view(text).find(part) != std::string_view::npos;
}

// A catalogue with every kernel of the registry, built or not, so choose() is exercised for
// all of them on any host. The function pointers are never called by choose().
constexpr auto every_kernel() {
    std::array<KernelInfo, blake2simd::registry::kKnownKernelCount> every{};
    for (size_t i = 0; i < every.size(); ++i) {
        const auto& row = blake2simd::registry::kKernelRows[i];
        every[i] = KernelInfo{row.id, row.name, &blake2simd::kernels::compress_ref};
    }
    return every;
}
constexpr auto kEveryKernel = every_kernel();
constexpr size_t kEveryKernelCount = kEveryKernel.size();

CpuFeatures features_from_mask(unsigned mask) {
    return CpuFeatures{(mask & 1) != 0, (mask & 2) != 0, (mask & 4) != 0, (mask & 8) != 0,
                       (mask & 16) != 0};
}

void test_choose(b2kernels_test::Checks& checks) {
    // Every feature combination x every self-test outcome x several speed orders x every request.
    // auto, empty, every kernel's name, and no kernel at all.
    std::vector<const char*> requests = {"auto", ""};
    for (const KernelInfo& kernel : kEveryKernel) {
        requests.push_back(kernel.name);
    }
    requests.push_back("bogus");
    for (unsigned mask = 0; mask < 32; ++mask) {
        const CpuFeatures features = features_from_mask(mask);
        for (unsigned failed = 0; failed < (1u << kEveryKernelCount); failed += 7) {
            for (unsigned order = 0; order < 4; ++order) {
                KernelMeasurement measurements[kEveryKernelCount];
                for (size_t i = 0; i < kEveryKernelCount; ++i) {
                    measurements[i].passed_self_test = (failed & (1u << i)) == 0;
                    // Orders: SIMD fastest, SIMD slowest, alternating, all equal.
                    const double rank = order == 0   ? static_cast<double>(kEveryKernelCount - i)
                                        : order == 1 ? static_cast<double>(i + 1)
                                        : order == 2 ? static_cast<double>((i * 3) % 5 + 1)
                                                     : 1.0;
                    measurements[i].nanoseconds_per_block = 100.0 * rank;
                }
                const auto runnable = [&](size_t i) {
                    return measurements[i].passed_self_test &&
                           dispatch::cpu_can_run(kEveryKernel[i].id, features);
                };
                for (const char* request : requests) {
                    const dispatch::Selection s =
                        dispatch::choose(request, features, kEveryKernel, measurements);
                    if (!runnable(0)) {
                        checks.check(s.kernel == nullptr && contains(s.description, "reference"),
                                     "a failed reference self-test selects nothing");
                        continue;
                    }
                    if (!checks.check(s.kernel != nullptr, "choose() returns a kernel")) {
                        continue;
                    }
                    const size_t chosen = static_cast<size_t>(s.kernel - kEveryKernel.data());
                    checks.check(chosen < kEveryKernelCount && runnable(chosen),
                                 "choose() never returns a kernel the features lack or that "
                                 "failed its self-test");
                    // Never slower than any runnable kernel, the reference included, unless
                    // the caller asked for that kernel by name.
                    const bool named = std::string_view(request) == s.kernel->name;
                    checks.check(s.automatic == !named,
                                 "automatic exactly when not served by name (auto, fallback)");
                    for (size_t i = 0; i < kEveryKernelCount && !named; ++i) {
                        if (runnable(i)) {
                            checks.check(measurements[chosen].nanoseconds_per_block <=
                                             measurements[i].nanoseconds_per_block,
                                         "auto picks the fastest runnable kernel");
                        }
                    }
                    for (size_t i = 0; i < kEveryKernelCount; ++i) {
                        if (std::string_view(request) == kEveryKernel[i].name) {
                            checks.check((chosen == i) == runnable(i),
                                         "a named kernel is served iff runnable");
                            if (!runnable(i)) {
                                checks.check(contains(s.description, request) &&
                                                 contains(s.description, "auto"),
                                             "a refused request is named in the description");
                            }
                        }
                    }
                    if (std::string_view(request) == "bogus") {
                        checks.check(contains(s.description, "unknown"),
                                     "an unknown request says so");
                    }
                }
            }
        }
    }
    // Ties keep the reference kernel: equal speed is not a reason to switch.
    KernelMeasurement equal[kEveryKernelCount];
    for (auto& m : equal) {
        m = {true, 50.0};
    }
    const dispatch::Selection tie =
        dispatch::choose("auto", features_from_mask(31), kEveryKernel, equal);
    checks.check(tie.kernel == &kEveryKernel[0], "a tie keeps the reference kernel");
}

// The first selection races from several threads: one detection, one calibration per kind,
// one answer.
bool concurrent_first_selections_agree() {
    constexpr int kThreads = 4;
    const KernelInfo* chosen[kThreads] = {};
    blake2simd::Compress4Fn chosen4[kThreads] = {};
    std::thread threads[kThreads];
    for (int i = 0; i < kThreads; ++i) {
        threads[i] = std::thread([&chosen, &chosen4, i] {
            const dispatch::Selection selection = dispatch::select_kernel("auto");
            chosen[i] = selection.kernel;
            if (selection.kernel != nullptr) {
                chosen4[i] = dispatch::select_lanes4(selection).kernel.compress4;
            }
        });
    }
    for (auto& thread : threads) {
        thread.join();
    }
    for (int i = 0; i < kThreads; ++i) {
        if (chosen[i] == nullptr || chosen[i] != chosen[0] || chosen4[i] == nullptr ||
            chosen4[i] != chosen4[0]) {
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

}  // namespace

int main() {
    b2kernels_test::Checks checks("test_dispatch");
    // Nothing may calibrate at load time: static initialisation is over when main() starts.
    checks.check(!dispatch::calibration_has_run(), "no calibration before the first selection");
    test_choose(checks);
    checks.check(!dispatch::calibration_has_run(), "choose() alone does not calibrate");
    checks.check(!dispatch::lanes4_calibration_has_run(), "no 4-lane calibration either");
    if (std::getenv("BLAKE2SIMD_TEST_CONCURRENT_FIRST_USE") != nullptr) {
        checks.check(concurrent_first_selections_agree(), "concurrent first selections agree");
    }
    test_live_selection(checks);
    return checks.finish();
}
