// blake2simd_bench --kdf: HMAC, HKDF and PBKDF2 over our digests and the default provider's
// (kdf_bench.cpp).
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace blake2simd::bench {

// Prints the table (`only`: the operations whose name contains it); 1 if a row's answer differs
// from the default provider's.
int run_kdf_bench(const std::string& module_dir, const std::string& compared_module_dir,
                  unsigned repetitions, double target_ms, const std::string& only);

}  // namespace blake2simd::bench
