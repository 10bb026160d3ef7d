// Values computed once per process, on first use, thread-safely, without the C++ runtime.
// SPDX-License-Identifier: Apache-2.0
//
// Function-local statics need __cxa_guard_* from libstdc++, and a module that needs libstdc++
// makes every process that loads it (with a system-wide openssl.cnf: every process using
// OpenSSL) map and relocate libstdc++ too: about 0.6 ms per process here. pthread_once is in
// libc. Baseline code only: no ISA file includes this.
#pragma once

#include <pthread.h>

namespace blake2simd {

// `compute` runs at most once per process; every caller sees its result. T must be trivially
// default-constructible so the storage needs no dynamic initialisation.
template <class T, T (*compute)() noexcept>
class ComputedOnce final {
  public:
    static const T& get() noexcept {
        pthread_once(&s_once, &fill);
        return s_value;
    }

  private:
    static void fill() noexcept { s_value = compute(); }

    static inline pthread_once_t s_once = PTHREAD_ONCE_INIT;
    static inline T s_value{};
};

}  // namespace blake2simd
