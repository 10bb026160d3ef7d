// Time sources for the benchmark: thread and process CPU time and wall time, in nanoseconds.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <time.h>

namespace blake2simd::bench {

// CPU time of the calling thread: time slices given to other processes on this shared machine
// are not counted, so they cannot inflate a measurement (they can still evict caches).
inline double thread_cpu_ns() noexcept {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) * 1e9 + static_cast<double>(now.tv_nsec);
}

// CPU time of all the process's threads, for a row that hands work to other threads: their CPU
// time counts as the row's cost.
inline double process_cpu_ns() noexcept {
    timespec now{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) * 1e9 + static_cast<double>(now.tv_nsec);
}

inline double wall_ns() noexcept {
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    return static_cast<double>(now.tv_sec) * 1e9 + static_cast<double>(now.tv_nsec);
}

}  // namespace blake2simd::bench
