// blake2simd_bench --xof: the BLAKE2X rows (xof_bench.cpp).
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace blake2simd::bench {

// Prints the XOF tables and which of issue 21's targets hold; 1 if rows that must agree differ.
int run_xof_bench(const std::string& module_dir, unsigned repetitions, double target_ms);

}  // namespace blake2simd::bench
