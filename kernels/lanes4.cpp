// 4-lane kernels: lane-by-lane adapters of the single-lane kernels, self-test, measured choice.
// SPDX-License-Identifier: Apache-2.0
#include "lanes4.hpp"

#include <atomic>
#include <cstdio>
#include <cstring>
#include <initializer_list>

#include "baseline_guard.hpp"
#include "calibration.hpp"
#include "dispatch.hpp"
#include "once.hpp"
#if B2_HAVE_X64_KERNEL
#include "compress_x64.hpp"
#endif

namespace blake2simd {
namespace {

// Block-major order: the four lanes' blocks of one step are adjacent in a BLAKE2bp message,
// so each cache line of the input is used once.
template <CompressFn compress>
void compress4_by_lane(Blake2bState* states, const uint8_t* const* blocks, size_t block_count,
                       size_t block_stride, uint64_t counter_increment) noexcept {
    for (size_t k = 0; k < block_count; ++k) {
        for (size_t lane = 0; lane < kLanes; ++lane) {
            compress(&states[lane], blocks[lane] + k * block_stride, 1, counter_increment);
        }
    }
}

// The reference kernel lane by lane comes first: ties keep it, as in dispatch::choose.
constexpr dispatch::Lanes4Candidate kCandidates[] = {
    {KernelId::ref, true, &compress4_by_lane<&kernels::compress_ref>},
#if B2_HAVE_X64_KERNEL
    {KernelId::x64, true, &compress4_by_lane<&kernels::compress_x64>},
#endif
#if BLAKE2SIMD_HAVE_SSSE3
    {KernelId::ssse3, true, &compress4_by_lane<&kernels::compress_ssse3>},
#endif
#if BLAKE2SIMD_HAVE_AVX
    {KernelId::avx, true, &compress4_by_lane<&kernels::compress_avx>},
#endif
#if BLAKE2SIMD_HAVE_AVX2
    {KernelId::avx2, true, &compress4_by_lane<&kernels::compress_avx2>},
#endif
#if BLAKE2SIMD_HAVE_AVX512
    {KernelId::avx512, true, &compress4_by_lane<&kernels::compress_avx512>},
#endif
#if B2_HAVE_LANES4_AVX2
    {KernelId::avx2, false, &kernels::compress4_avx2},
#endif
#if B2_HAVE_LANES4_AVX512
    {KernelId::avx512, false, &kernels::compress4_avx512},
#endif
};
constexpr size_t kCandidateCount = sizeof kCandidates / sizeof kCandidates[0];

const char* id_name(KernelId id) noexcept {
    switch (id) {
        case KernelId::ref:
            return "ref";
        case KernelId::x64:
            return "x64";
        case KernelId::ssse3:
            return "ssse3";
        case KernelId::avx:
            return "avx";
        case KernelId::avx2:
            return "avx2";
        case KernelId::avx512:
            return "avx512";
    }
    return "ref";
}

const char* form_name(const dispatch::Lanes4Candidate& candidate) noexcept {
    return candidate.lane_by_lane ? "lane by lane" : "native 4-lane";
}

// --- usability and calibration, each once per process

struct Lanes4Facts {
    dispatch::Lanes4Measurement measurements[kCandidateCount];  // usable only, no timing
};

struct CalibratedLanes4Facts {
    dispatch::Lanes4Measurement measurements[kCandidateCount];
    double microseconds_spent;
};

// Trivially destructible and constant-initialised: no code runs for it at load time.
std::atomic<bool> lanes4_calibration_ran{false};

bool single_lane_runnable(KernelId id) noexcept {
    const KernelInfo* kernel = dispatch::find_kernel(id_name(id));
    return kernel != nullptr && kernel->id == id && dispatch::is_runnable(*kernel);
}

Lanes4Facts check_candidates() noexcept {
    Lanes4Facts facts{};
    const cpu::CpuFeatures& features = cpu::detected_features();
    for (size_t i = 0; i < kCandidateCount; ++i) {
        const dispatch::Lanes4Candidate& candidate = kCandidates[i];
        const bool runnable = candidate.lane_by_lane
                                  ? single_lane_runnable(candidate.id)
                                  : dispatch::cpu_can_run(candidate.id, features);
        // Short-circuit: a kernel the CPU lacks is never called, not even by the self-test.
        facts.measurements[i].usable =
            runnable && dispatch::lanes4_passes_self_test(candidate.compress4);
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
    const double start = dispatch::monotonic_nanoseconds();
    compress4(states, blocks, kCalibrationSteps, kStepBytes, kBlockBytes);
    const double stop = dispatch::monotonic_nanoseconds();
    // Keeps the result observable so the call cannot be dropped.
    volatile uint64_t sink = states[0].h[0] ^ states[3].h[7];
    (void)sink;
    return stop - start;
}

// Best (minimum) time per candidate over interleaved rounds; untouched for unusable ones.
void time_usable_candidates(const Lanes4Facts& facts, double best_nanoseconds[]) noexcept {
    static_assert(kCalibrationSteps * kStepBytes <= 16 * 1024, "calibration input on the stack");
    uint8_t message[kCalibrationSteps * kStepBytes];
    for (size_t i = 0; i < sizeof message; ++i) {
        message[i] = static_cast<uint8_t>(i * 131 + 7);
    }
    dispatch::time_best_of_rounds(
        kCandidateCount, kMaxCalibrationRounds, kCalibrationBudgetMicroseconds,
        [&facts](size_t c) { return facts.measurements[c].usable; },
        [&message](size_t c) { return time_one_call(kCandidates[c].compress4, message); },
        best_nanoseconds);
}

CalibratedLanes4Facts calibrate() noexcept {
    const Lanes4Facts& facts = lanes4_facts();
    const double start = dispatch::monotonic_nanoseconds();
    double best_nanoseconds[kCandidateCount] = {};
    time_usable_candidates(facts, best_nanoseconds);

    CalibratedLanes4Facts calibrated{};
    for (size_t c = 0; c < kCandidateCount; ++c) {
        calibrated.measurements[c].usable = facts.measurements[c].usable;
        calibrated.measurements[c].nanoseconds_per_step =
            best_nanoseconds[c] / static_cast<double>(kCalibrationSteps);
    }
    calibrated.microseconds_spent = (dispatch::monotonic_nanoseconds() - start) / 1e3;
    lanes4_calibration_ran.store(true, std::memory_order_release);
    return calibrated;
}

const CalibratedLanes4Facts& calibrated_lanes4_facts() noexcept {
    // Like lanes4_facts(), but only automatic selections and the diagnostics below reach it.
    return ComputedOnce<CalibratedLanes4Facts, &calibrate>::get();
}

double megabytes_per_second(const dispatch::Lanes4Measurement& measurement) noexcept {
    return measurement.nanoseconds_per_step > 0
               ? static_cast<double>(kStepBytes) * 1000.0 / measurement.nanoseconds_per_step
               : 0.0;
}

// --- self-test

constexpr size_t kTestSteps = 3;
constexpr size_t kInterleavedStride = kLanes * kBlockBytes;
constexpr size_t kAreaBytes = 8 + kTestSteps * kInterleavedStride;

void reference_lanes(Blake2bState* states, const uint8_t* const* blocks, size_t block_count,
                     size_t block_stride, uint64_t counter_increment) noexcept {
    compress4_by_lane<&kernels::compress_ref>(states, blocks, block_count, block_stride,
                                              counter_increment);
}

void initial_test_states(Blake2bState states[kLanes]) noexcept {
    // Distinct chaining values; lanes 1 and 3 carry out of t[0] during the test; every
    // combination of the two flags occurs once.
    constexpr uint64_t kCounters[kLanes] = {0, ~0ULL - 200, 1ULL << 40, ~0ULL - 127};
    for (size_t lane = 0; lane < kLanes; ++lane) {
        for (size_t i = 0; i < 8; ++i) {
            states[lane].h[i] = kIV[i] ^ (0x0123456789abcdefULL * (lane * 8 + i + 1));
        }
        states[lane].t[0] = kCounters[lane];
        states[lane].t[1] = lane * 0x1000000001ULL;
        states[lane].f[0] = (lane & 1) != 0 ? ~0ULL : 0;
        states[lane].f[1] = (lane & 2) != 0 ? ~0ULL : 0;
    }
}

void run_test_calls(Compress4Fn compress4, Blake2bState states[kLanes],
                    const uint8_t* area) noexcept {
    // BLAKE2bp's layout, from an odd address.
    const uint8_t* interleaved[kLanes];
    for (size_t lane = 0; lane < kLanes; ++lane) {
        interleaved[lane] = area + 1 + lane * kBlockBytes;
    }
    compress4(states, interleaved, kTestSteps, kInterleavedStride, kBlockBytes);
    // One block shared by all lanes (a key block), partial-block increment.
    const uint8_t* shared[kLanes] = {area + 7, area + 7, area + 7, area + 7};
    compress4(states, shared, 1, 0, 77);
    // Contiguous runs in arbitrary order; zero blocks must change nothing.
    const uint8_t* runs[kLanes] = {area + 3 * kBlockBytes, area + 2, area + 5 * kBlockBytes + 4,
                                   area + 9};
    compress4(states, runs, 2, kBlockBytes, kBlockBytes);
    compress4(states, runs, 0, kBlockBytes, kBlockBytes);
}

}  // namespace

namespace dispatch {

bool lanes4_passes_self_test(Compress4Fn compress4) noexcept {
    uint8_t area[kAreaBytes];
    for (size_t i = 0; i < kAreaBytes; ++i) {
        area[i] = static_cast<uint8_t>((i * 167 + 13) ^ (i >> 8));
    }
    Blake2bState expected[kLanes];
    Blake2bState actual[kLanes];
    initial_test_states(expected);
    initial_test_states(actual);
    run_test_calls(&reference_lanes, expected, area);
    run_test_calls(compress4, actual, area);
    return std::memcmp(expected, actual, sizeof expected) == 0;
}

std::span<const Lanes4Candidate> lanes4_candidates() noexcept {
    return kCandidates;
}

Lanes4Selection choose_lanes4(KernelId id, bool automatic, const cpu::CpuFeatures& features,
                              std::span<const Lanes4Candidate> candidates,
                              std::span<const Lanes4Measurement> measurements) noexcept {
    const auto usable = [&](size_t i) {
        return i < measurements.size() && measurements[i].usable &&
               cpu_can_run(candidates[i].id, features);
    };
    constexpr size_t kNone = ~size_t{0};
    size_t chosen = kNone;
    if (automatic) {
        // Strictly faster only: on a tie the earlier candidate keeps its place.
        size_t usable_count = 0;
        for (size_t i = 0; i < candidates.size(); ++i) {
            if (!usable(i)) {
                continue;
            }
            ++usable_count;
            if (chosen == kNone ||
                measurements[i].nanoseconds_per_step < measurements[chosen].nanoseconds_per_step) {
                chosen = i;
            }
        }
        if (chosen != kNone) {
            // The best of the other form, to show what the choice was measured against.
            size_t rival = kNone;
            for (size_t i = 0; i < candidates.size(); ++i) {
                if (usable(i) && candidates[i].lane_by_lane != candidates[chosen].lane_by_lane &&
                    (rival == kNone || measurements[i].nanoseconds_per_step <
                                           measurements[rival].nanoseconds_per_step)) {
                    rival = i;
                }
            }
            Lanes4Selection selection{};
            selection.kernel = {id_name(candidates[chosen].id), candidates[chosen].compress4};
            selection.lane_by_lane = candidates[chosen].lane_by_lane;
            const int written =
                std::snprintf(selection.description, sizeof selection.description,
                              "%s (auto: fastest of %zu 4-lane candidates, %s, %.0f MB/s",
                              selection.kernel.name, usable_count, form_name(candidates[chosen]),
                              megabytes_per_second(measurements[chosen]));
            const size_t used = written > 0 ? static_cast<size_t>(written) : 0;
            if (used < sizeof selection.description) {
                if (rival != kNone) {
                    std::snprintf(selection.description + used, sizeof selection.description - used,
                                  "; best %s: %s %.0f MB/s)", form_name(candidates[rival]),
                                  id_name(candidates[rival].id),
                                  megabytes_per_second(measurements[rival]));
                } else {
                    std::snprintf(selection.description + used, sizeof selection.description - used,
                                  ")");
                }
            }
            return selection;
        }
    } else {
        // The requested instruction set for BLAKE2bp too: native 4-lane, else lane by lane.
        for (const bool lane_by_lane : {false, true}) {
            for (size_t i = 0; i < candidates.size() && chosen == kNone; ++i) {
                if (candidates[i].id == id && candidates[i].lane_by_lane == lane_by_lane &&
                    usable(i)) {
                    chosen = i;
                }
            }
        }
        if (chosen != kNone) {
            Lanes4Selection selection{};
            selection.kernel = {id_name(id), candidates[chosen].compress4};
            selection.lane_by_lane = candidates[chosen].lane_by_lane;
            std::snprintf(selection.description, sizeof selection.description,
                          "%s (as the kernel, %s)", selection.kernel.name,
                          form_name(candidates[chosen]));
            return selection;
        }
        for (size_t i = 0; i < candidates.size() && chosen == kNone; ++i) {
            if (usable(i)) {
                chosen = i;
            }
        }
        if (chosen != kNone) {
            Lanes4Selection selection{};
            selection.kernel = {id_name(candidates[chosen].id), candidates[chosen].compress4};
            selection.lane_by_lane = candidates[chosen].lane_by_lane;
            std::snprintf(selection.description, sizeof selection.description,
                          "%s (%s; no usable 4-lane form of %s)", selection.kernel.name,
                          form_name(candidates[chosen]), id_name(id));
            return selection;
        }
    }
    Lanes4Selection none{};
    std::snprintf(none.description, sizeof none.description, "none (no usable 4-lane candidate)");
    return none;
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

}  // namespace dispatch
}  // namespace blake2simd
