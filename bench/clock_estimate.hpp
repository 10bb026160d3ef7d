// Estimates the core clock without a cycle counter, from chains of dependent instructions.
// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace blake2simd::bench {

// A chain of dependent register-register adds retires one add per cycle on every x86-64 and
// AArch64 core, so adds per nanosecond is the clock in GHz. A dependent imul chain (3 cycles per
// imul on x86-64) gives a second, independent estimate. Both are 0 where unsupported.
struct ClockEstimate {
    double add_chain_ghz;
    double imul_chain_ghz;
};

// Times each chain for about `target_ms` milliseconds of this thread's CPU time.
ClockEstimate estimate_clock(double target_ms) noexcept;

}  // namespace blake2simd::bench
