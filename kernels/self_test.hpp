// Known-answer self-tests a single-lane kernel must pass before it serves anyone.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "kernel.hpp"
#include "kernel_blake2s.hpp"

namespace blake2simd {

// Hashes a 300-byte message (the full blocks through one multi-block call, then a partial
// final block) and compares the BLAKE2b-512 digest with a known answer.
bool passes_self_test(CompressFn compress) noexcept;

// The same for BLAKE2s-256 (four full blocks, then 44 bytes).
bool blake2s_passes_self_test(Blake2sCompressFn compress) noexcept;

}  // namespace blake2simd
