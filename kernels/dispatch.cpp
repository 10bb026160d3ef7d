// Kernel selection: CPU support, self-tests and measured speed, each computed once per process.
// SPDX-License-Identifier: Apache-2.0
#include "dispatch.hpp"

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "baseline_guard.hpp"
#include "calibration.hpp"
#include "describe.hpp"
#include "once.hpp"
#include "registry.hpp"
#include "self_test.hpp"

namespace blake2simd::dispatch {
namespace {

// Kernel names match case-insensitively, as OpenSSL's own names do ("AVX2" is "avx2").
bool names_match(std::string_view request, std::string_view name) noexcept {
    if (request.size() != name.size()) {
        return false;
    }
    for (size_t i = 0; i < name.size(); ++i) {
        const char lower = (request[i] >= 'A' && request[i] <= 'Z')
                               ? static_cast<char>(request[i] - 'A' + 'a')
                               : request[i];
        if (lower != name[i]) {
            return false;
        }
    }
    return true;
}

// What a kernel name may contain. A request with anything else is no kernel name and is never
// echoed: buildinfo reaches terminals (`openssl list -providers -verbose`), and a request can
// come from the environment of whoever started the process.
bool looks_like_kernel_name(std::string_view request) noexcept {
    constexpr size_t kLongestShown = 24;
    if (request.empty() || request.size() > kLongestShown) {
        return false;
    }
    for (const char c : request) {
        const bool allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                             (c >= '0' && c <= '9') || c == '_' || c == '-';
        if (!allowed) {
            return false;
        }
    }
    return true;
}

// The single-lane catalogue: the registry's rows this build compiled, the reference first.
constexpr auto kCompiledKernels = registry::built_kernels();

constexpr size_t kKernelCount = kCompiledKernels.size();

// Calibration: a few dozen blocks per timing, interleaved across kernels so that frequency
// changes and noise hit all of them alike, best of several repetitions, bounded in time.
constexpr size_t kCalibrationBlocks = 24;
constexpr int kMaxCalibrationRounds = 7;
// The first use of the provider runs this and the 4-lane calibration (dispatch_lanes4.cpp);
// together with the self-tests they must stay within 2 ms.
constexpr double kCalibrationBudgetMicroseconds = 1000;

struct ProcessFacts {
    KernelMeasurement measurements[kKernelCount];
};

struct CalibratedFacts {
    KernelMeasurement measurements[kKernelCount];
    double microseconds_spent;
};

// Trivially destructible and constant-initialised: no code runs for it at load time.
std::atomic<bool> calibration_ran{false};

ProcessFacts check_kernels() noexcept {
    ProcessFacts facts{};
    const cpu::CpuFeatures& features = cpu::detected_features();
    for (size_t i = 0; i < kKernelCount; ++i) {
        const KernelInfo& kernel = kCompiledKernels[i];
        // Short-circuit: a kernel the CPU lacks is never called, not even by the self-test.
        facts.measurements[i].passed_self_test =
            cpu_can_run(kernel.id, features) && passes_self_test(kernel.compress);
    }
    return facts;
}

const ProcessFacts& process_facts() noexcept {
    return ComputedOnce<ProcessFacts, &check_kernels>::get();
}

double time_one_call(CompressFn compress, const uint8_t* blocks) noexcept {
    Blake2bState state{};
    std::memcpy(state.h, kIV, sizeof state.h);
    const double start = monotonic_nanoseconds();
    compress(&state, blocks, kCalibrationBlocks, kBlockBytes);
    const double stop = monotonic_nanoseconds();
    // Keeps the result observable so the call cannot be dropped.
    volatile uint64_t sink = state.h[0];
    (void)sink;
    return stop - start;
}

CalibratedFacts calibrate() noexcept {
    const ProcessFacts& facts = process_facts();
    uint8_t blocks[kCalibrationBlocks * kBlockBytes];
    for (size_t i = 0; i < sizeof blocks; ++i) {
        blocks[i] = static_cast<uint8_t>(i * 131 + 7);
    }
    const auto timing = calibrate_candidates<kKernelCount>(
        kMaxCalibrationRounds, kCalibrationBudgetMicroseconds, kCalibrationBlocks,
        [&facts](size_t k) { return facts.measurements[k].passed_self_test; },
        [&blocks](size_t k) { return time_one_call(kCompiledKernels[k].compress, blocks); });

    CalibratedFacts calibrated{};
    for (size_t k = 0; k < kKernelCount; ++k) {
        calibrated.measurements[k] = facts.measurements[k];
        calibrated.measurements[k].nanoseconds_per_block = timing.nanoseconds_per_unit[k];
    }
    calibrated.microseconds_spent = timing.microseconds_spent;
    calibration_ran.store(true, std::memory_order_release);
    return calibrated;
}

const CalibratedFacts& calibrated_facts() noexcept {
    // Like process_facts(), but only select_kernel() and the diagnostics below reach it.
    return ComputedOnce<CalibratedFacts, &calibrate>::get();
}

size_t index_of(const KernelInfo& kernel, std::span<const KernelInfo> kernels) noexcept {
    return static_cast<size_t>(&kernel - kernels.data());
}

double megabytes_per_second(const KernelMeasurement& measurement) noexcept {
    return measurement.nanoseconds_per_block > 0
               ? static_cast<double>(kBlockBytes) * 1000.0 / measurement.nanoseconds_per_block
               : 0.0;
}

// The kernels and their measurements as choose() sees them.
struct KernelView {
    const cpu::CpuFeatures& features;
    std::span<const KernelInfo> kernels;
    std::span<const KernelMeasurement> measurements;

    bool runnable(size_t i) const noexcept {
        return i < measurements.size() && measurements[i].passed_self_test &&
               cpu_can_run(kernels[i].id, features);
    }
};

// Strictly faster only: on a tie the earlier kernel (the reference first) keeps its place.
// kernels[0] must be runnable; `count` gets how many are.
size_t fastest_runnable(const KernelView& view, size_t* count) noexcept {
    size_t fastest = 0;
    for (size_t i = 0; i < view.kernels.size(); ++i) {
        if (!view.runnable(i)) {
            continue;
        }
        ++*count;
        if (view.measurements[i].nanoseconds_per_block <
            view.measurements[fastest].nanoseconds_per_block) {
            fastest = i;
        }
    }
    return fastest;
}

// The last kernel of that name (names are unique in a catalogue), or nullptr.
const KernelInfo* find_in(std::span<const KernelInfo> kernels, std::string_view name) noexcept {
    const KernelInfo* found = nullptr;
    for (const KernelInfo& kernel : kernels) {
        if (names_match(name, kernel.name)) {
            found = &kernel;
        }
    }
    return found;
}

// The one describer of a single-lane selection: the kernel's name, and why in words (`why`
// is a printf format for the rest of the parenthesis).
__attribute__((format(printf, 3, 4))) Selection describe(const KernelInfo& kernel, bool automatic,
                                                         const char* why, ...) noexcept {
    Selection selection{&kernel, automatic, {}};
    va_list args;
    va_start(args, why);
    describe_into(selection.description, sizeof selection.description, kernel.name, why, args);
    va_end(args);
    return selection;
}

}  // namespace

bool cpu_can_run(KernelId id, const cpu::CpuFeatures& features) noexcept {
    return registry::meets(registry::row_of(id).need, features);
}

Selection choose(std::string_view request, const cpu::CpuFeatures& features,
                 std::span<const KernelInfo> kernels,
                 std::span<const KernelMeasurement> measurements) noexcept {
    const KernelView view{features, kernels, measurements};
    if (kernels.empty() || kernels[0].id != KernelId::ref || !view.runnable(0)) {
        Selection none{};
        std::snprintf(none.description, sizeof none.description,
                      "no kernel: the reference kernel failed its self-test");
        return none;
    }
    size_t runnable_count = 0;
    const size_t fastest = fastest_runnable(view, &runnable_count);
    const KernelInfo& automatic = kernels[fastest];
    const bool wants_auto = request.empty() || names_match(request, "auto");
    const KernelInfo* requested = wants_auto ? nullptr : find_in(kernels, request);
    if (requested != nullptr && view.runnable(index_of(*requested, kernels))) {
        return describe(*requested, false, "requested)");
    }
    if (wants_auto) {
        return describe(automatic, true, "auto: fastest of %zu runnable, %.0f MB/s; ref %.0f MB/s)",
                        runnable_count, megabytes_per_second(measurements[fastest]),
                        megabytes_per_second(measurements[0]));
    }
    if (!looks_like_kernel_name(request)) {
        return describe(automatic, true,
                        "auto; the request is not a kernel name: letters, digits, '-' and '_'"
                        ", at most 24, not shown)");
    }
    const char* reason = "is unknown or not built in";
    if (requested != nullptr) {
        reason = cpu_can_run(requested->id, features) ? "failed its self-test"
                                                      : "is not supported by this CPU";
    }
    return describe(automatic, true, "auto; requested '%.*s' %s)", static_cast<int>(request.size()),
                    request.data(), reason);
}

std::span<const KernelInfo> compiled_kernels() noexcept {
    return kCompiledKernels;
}

const KernelInfo* find_kernel(std::string_view name) noexcept {
    for (const auto& kernel : kCompiledKernels) {
        if (names_match(name, kernel.name)) {
            return &kernel;
        }
    }
    return nullptr;
}

bool is_runnable(const KernelInfo& kernel) noexcept {
    const size_t index = index_of(kernel, kCompiledKernels);
    return index < kKernelCount && process_facts().measurements[index].passed_self_test;
}

bool reference_kernel_works() noexcept {
    return is_runnable(kCompiledKernels[0]);
}

Selection select_kernel(std::string_view request) noexcept {
    return choose(request, cpu::detected_features(), kCompiledKernels,
                  calibrated_facts().measurements);
}

std::span<const KernelMeasurement> kernel_measurements() noexcept {
    return calibrated_facts().measurements;
}

double calibration_microseconds() noexcept {
    return calibrated_facts().microseconds_spent;
}

bool calibration_has_run() noexcept {
    return calibration_ran.load(std::memory_order_acquire);
}

}  // namespace blake2simd::dispatch
