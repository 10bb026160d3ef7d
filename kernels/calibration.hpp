// Timing shared by every calibration of the selection skeleton (dispatch_skeleton.hpp).
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <time.h>

#include <cstddef>

namespace blake2simd::dispatch {

// clock_gettime, not std::chrono: the module must not need libstdc++ (see once.hpp).
inline double monotonic_nanoseconds() noexcept {
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    return static_cast<double>(now.tv_sec) * 1e9 + static_cast<double>(now.tv_nsec);
}

// Fills best_nanoseconds[i] with the minimum of time_one(i) over up to `max_rounds` rounds, for
// every i with is_usable(i); entries of unusable candidates are left untouched. Each round times
// every candidate once, so frequency changes and noise hit them alike, and the loop stops before
// a further round would overrun `budget` (rounds take about equally long).
template <class IsUsable, class TimeOne>
void time_best_of_rounds(size_t count, int max_rounds, double budget_microseconds,
                         IsUsable is_usable, TimeOne time_one, double best_nanoseconds[]) noexcept {
    const double start = monotonic_nanoseconds();
    for (int round = 0; round < max_rounds; ++round) {
        for (size_t i = 0; i < count; ++i) {
            if (!is_usable(i)) {
                continue;
            }
            const double nanoseconds = time_one(i);
            if (round == 0 || nanoseconds < best_nanoseconds[i]) {
                best_nanoseconds[i] = nanoseconds;
            }
        }
        const double elapsed_microseconds = (monotonic_nanoseconds() - start) / 1e3;
        if (elapsed_microseconds + elapsed_microseconds / (round + 1) > budget_microseconds) {
            break;
        }
    }
}

template <size_t Count>
struct Calibration {
    double nanoseconds_per_unit[Count];  // 0 for candidates that may not run
    double microseconds_spent;
};

// The calibration step every choice shares: best-of-rounds timing of the usable
// candidates, each call doing `units_per_call` units of work (blocks, multi-lane steps).
template <size_t Count, class IsUsable, class TimeOne>
Calibration<Count> calibrate_candidates(int max_rounds, double budget_microseconds,
                                        size_t units_per_call, IsUsable is_usable,
                                        TimeOne time_one) noexcept {
    const double start = monotonic_nanoseconds();
    double best_nanoseconds[Count] = {};
    time_best_of_rounds(Count, max_rounds, budget_microseconds, is_usable, time_one,
                        best_nanoseconds);
    Calibration<Count> calibration{};
    for (size_t i = 0; i < Count; ++i) {
        calibration.nanoseconds_per_unit[i] =
            best_nanoseconds[i] / static_cast<double>(units_per_call);
    }
    calibration.microseconds_spent = (monotonic_nanoseconds() - start) / 1e3;
    return calibration;
}

}  // namespace blake2simd::dispatch
