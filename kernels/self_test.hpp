// Known-answer self-test a kernel must pass before it serves anyone.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "kernel.hpp"

namespace blake2simd {

// Hashes a 300-byte message (two full blocks through one multi-block call, then a partial
// final block) and compares the BLAKE2b-512 digest with a known answer.
bool passes_self_test(CompressFn compress) noexcept;

}  // namespace blake2simd
