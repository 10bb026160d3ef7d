// The one selection skeleton behind all four kernel choices (BLAKE2b and BLAKE2s single-lane
// here, BLAKE2bp 4-lane and BLAKE2sp 8-lane in dispatch_lanes_skeleton.hpp): facts once per
// process, calibration once on first use, a pure choice, one describer. Each dispatch_*.cpp
// supplies a small traits type.
// SPDX-License-Identifier: Apache-2.0
//
// Baseline code only (dispatch's own translation units).
#pragma once

#include <array>
#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <span>
#include <string_view>
#include <utility>

#include "calibration.hpp"
#include "describe.hpp"
#include "dispatch_types.hpp"
#include "once.hpp"
#include "registry.hpp"

namespace blake2simd::dispatch::skeleton {

// --- requests

// Kernel names match case-insensitively, as OpenSSL's own names do.
inline bool names_match(std::string_view request, std::string_view name) noexcept {
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
inline bool looks_like_kernel_name(std::string_view request) noexcept {
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

inline constexpr const char* kNotAName =
    "auto; the request is not a kernel name: letters, digits, '-' and '_', at most 24, not shown";

inline bool wants_automatic(std::string_view request) noexcept {
    return request.empty() || names_match(request, registry::kAutomaticRequest);
}

// The registry row that `request` names, built or not, or nullptr.
inline const registry::KernelRow* row_named(std::string_view request) noexcept {
    for (const registry::KernelRow& row : registry::kKernelRows) {
        if (names_match(request, row.name)) {
            return &row;
        }
    }
    return nullptr;
}

// The rows this build compiled that have a single-lane BLAKE2s form: the BLAKE2s catalogue, as
// registry::built_kernels() is BLAKE2b's.
constexpr size_t built_blake2s_count() noexcept {
    size_t count = 0;
    for (const registry::KernelRow& row : registry::kKernelRows) {
        count += row.built && row.blake2s.has_single ? 1 : 0;
    }
    return count;
}

constexpr std::array<Blake2sKernelInfo, built_blake2s_count()> built_blake2s_kernels() noexcept {
    std::array<Blake2sKernelInfo, built_blake2s_count()> built{};
    size_t next = 0;
    for (const registry::KernelRow& row : registry::kKernelRows) {
        if (row.built && row.blake2s.has_single) {
            built[next++] = Blake2sKernelInfo{row.id, row.name, row.blake2s.compress};
        }
    }
    return built;
}

// --- single-lane: the pure choice

// Why no kernel of a catalogue matches a request that looks like a kernel name.
using AbsentReasonFn = const char* (*)(std::string_view request) noexcept;

template <class Info>
struct SingleView {
    const cpu::CpuFeatures& features;
    std::span<const Info> kernels;
    std::span<const KernelMeasurement> measurements;

    bool runnable(size_t i) const noexcept {
        return i < measurements.size() && measurements[i].passed_self_test &&
               cpu_can_run(kernels[i].id, features);
    }
    double mb_per_second(size_t i, size_t block_bytes) const noexcept {
        const double ns = measurements[i].nanoseconds_per_block;
        return ns > 0 ? static_cast<double>(block_bytes) * 1000.0 / ns : 0.0;
    }
};

// Strictly faster only: on a tie the earlier kernel (the reference first) keeps its place.
// kernels[0] must be runnable; `count` gets how many are.
template <class Info>
size_t fastest_runnable(const SingleView<Info>& view, size_t* count) noexcept {
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

// The index of the kernel of that name (names are unique in a catalogue), or kernels.size().
template <class Info>
size_t find_in(std::span<const Info> kernels, std::string_view name) noexcept {
    for (size_t i = 0; i < kernels.size(); ++i) {
        if (names_match(name, kernels[i].name)) {
            return i;
        }
    }
    return kernels.size();
}

// The one describer of a single-lane selection: the kernel's name, and why in words (`why`
// is a printf format for the rest of the parenthesis).
template <class Info>
__attribute__((format(printf, 3, 4))) KernelSelection<Info> describe(const Info& kernel,
                                                                     bool automatic,
                                                                     const char* why,
                                                                     ...) noexcept {
    KernelSelection<Info> selection{&kernel, automatic, {}};
    va_list args;
    va_start(args, why);
    describe_into(selection.description, sizeof selection.description, kernel.name, why, args);
    va_end(args);
    return selection;
}

template <class Info>
KernelSelection<Info> describe_refused(const SingleView<Info>& view, size_t automatic,
                                       std::string_view request, size_t requested,
                                       AbsentReasonFn absent_reason) noexcept {
    const Info& kernel = view.kernels[automatic];
    if (!looks_like_kernel_name(request)) {
        return describe(kernel, true, "%s)", kNotAName);
    }
    const char* reason = absent_reason(request);
    if (requested < view.kernels.size()) {
        reason = cpu_can_run(view.kernels[requested].id, view.features)
                     ? "failed its self-test"
                     : "is not supported by this CPU";
    }
    return describe(kernel, true, "auto; requested '%.*s' %s)", static_cast<int>(request.size()),
                    request.data(), reason);
}

// Never returns a kernel the features lack or one that failed its self-test; kernels[0] must be
// the reference kernel. A request it cannot serve gets the automatic choice, described.
template <class Info>
KernelSelection<Info> choose_single(std::string_view request, const SingleView<Info>& view,
                                    size_t block_bytes, AbsentReasonFn absent_reason) noexcept {
    if (view.kernels.empty() || view.kernels[0].id != KernelId::ref || !view.runnable(0)) {
        KernelSelection<Info> none{};
        std::snprintf(none.description, sizeof none.description,
                      "no kernel: the reference kernel failed its self-test");
        return none;
    }
    size_t runnable_count = 0;
    const size_t fastest = fastest_runnable(view, &runnable_count);
    const bool wants_auto = wants_automatic(request);
    const size_t requested = wants_auto ? view.kernels.size() : find_in(view.kernels, request);
    if (requested < view.kernels.size() && view.runnable(requested)) {
        return describe(view.kernels[requested], false, "requested)");
    }
    if (!wants_auto) {
        return describe_refused(view, fastest, request, requested, absent_reason);
    }
    return describe(view.kernels[fastest], true,
                    "auto: fastest of %zu runnable, %.0f MB/s; %s %.0f MB/s)", runnable_count,
                    view.mb_per_second(fastest, block_bytes), view.kernels[0].name,
                    view.mb_per_second(0, block_bytes));
}

// --- single-lane: this process's facts
//
// Traits: Family (kernel_families.hpp), catalogue() (constexpr std::array<Family::Kernel, N>, the
// reference first), self_test(Family::Compress), kCalibrationBlocks, kMaxCalibrationRounds,
// kCalibrationBudgetMicroseconds.
template <class Traits>
class SingleLaneProcess final {
  public:
    using Family = typename Traits::Family;
    using Info = typename Family::Kernel;
    static constexpr auto kKernels = Traits::catalogue();
    static constexpr size_t kCount = kKernels.size();

    struct Facts {
        KernelMeasurement measurements[kCount];  // self-test outcomes, no timing
    };
    struct Calibrated {
        KernelMeasurement measurements[kCount];
        double microseconds_spent;
    };

    static const Facts& facts() noexcept { return ComputedOnce<Facts, &check_kernels>::get(); }
    // Only selections and diagnostics reach it, never the provider's load.
    static const Calibrated& calibrated() noexcept {
        return ComputedOnce<Calibrated, &calibrate>::get();
    }
    static bool calibration_has_run() noexcept {
        return s_calibration_ran.load(std::memory_order_acquire);
    }
    static bool is_runnable(const Info& kernel) noexcept {
        const size_t index = static_cast<size_t>(&kernel - kKernels.data());
        return index < kCount && facts().measurements[index].passed_self_test;
    }
    static const Info* find(std::string_view name) noexcept {
        const size_t index = find_in<Info>(kKernels, name);
        return index < kCount ? &kKernels[index] : nullptr;
    }
    static KernelSelection<Info> select(std::string_view request,
                                        AbsentReasonFn absent_reason) noexcept {
        const SingleView<Info> view{cpu::detected_features(), kKernels, calibrated().measurements};
        return choose_single(request, view, Family::kBlockBytes, absent_reason);
    }

  private:
    // Trivially destructible and constant-initialised: no code runs for it at load time.
    static constinit inline std::atomic<bool> s_calibration_ran{false};

    static Facts check_kernels() noexcept {
        Facts facts{};
        const cpu::CpuFeatures& features = cpu::detected_features();
        for (size_t i = 0; i < kCount; ++i) {
            // Short-circuit: a kernel the CPU lacks is never called, not even by the self-test.
            facts.measurements[i].passed_self_test =
                cpu_can_run(kKernels[i].id, features) && Traits::self_test(kKernels[i].compress);
        }
        return facts;
    }

    static double time_one_call(typename Family::Compress compress,
                                const uint8_t* blocks) noexcept {
        typename Family::State state{};
        std::memcpy(state.h, Family::kIV, sizeof state.h);
        const double start = monotonic_nanoseconds();
        compress(&state, blocks, Traits::kCalibrationBlocks,
                 static_cast<typename Family::Word>(Family::kBlockBytes));
        const double stop = monotonic_nanoseconds();
        // Keeps the result observable so the call cannot be dropped.
        volatile auto sink = state.h[0];
        (void)sink;
        return stop - start;
    }

    static Calibrated calibrate() noexcept {
        const Facts& checked = facts();
        uint8_t blocks[Traits::kCalibrationBlocks * Family::kBlockBytes];
        for (size_t i = 0; i < sizeof blocks; ++i) {
            blocks[i] = static_cast<uint8_t>(i * 131 + 7);
        }
        const auto timing = calibrate_candidates<kCount>(
            Traits::kMaxCalibrationRounds, Traits::kCalibrationBudgetMicroseconds,
            Traits::kCalibrationBlocks,
            [&checked](size_t k) { return checked.measurements[k].passed_self_test; },
            [&blocks](size_t k) { return time_one_call(kKernels[k].compress, blocks); });
        Calibrated calibrated{};
        for (size_t k = 0; k < kCount; ++k) {
            calibrated.measurements[k] = checked.measurements[k];
            calibrated.measurements[k].nanoseconds_per_block = timing.nanoseconds_per_unit[k];
        }
        calibrated.microseconds_spent = timing.microseconds_spent;
        s_calibration_ran.store(true, std::memory_order_release);
        return calibrated;
    }
};

}  // namespace blake2simd::dispatch::skeleton
