// Scalar x86-64 BLAKE2b kernel, generated assembly (gen_compress_blake2_x64.py ->
// compress_blake2_x64.S); the same file defines kernels::blake2s_compress_x64 (kernel.hpp).
// SPDX-License-Identifier: Apache-2.0
//
// Restricted header (see blake2b_state.hpp): declarations only. Available when the build
// defines B2_KERNEL_X64=1 (x86-64, GNU-compatible toolchain, ELF).
#pragma once

#include "kernel.hpp"

namespace blake2simd::kernels {

// Baseline x86-64 only (general-purpose registers plus SSE2 moves): runnable on every
// x86-64 CPU. The assembly defines it under a plain C symbol, because a mangled C++ name is
// awkward to spell there; the asm label binds this declaration to that symbol.
__attribute__((visibility("hidden"))) void blake2b_compress_x64(Blake2bState* state,
                                                                const uint8_t* blocks,
                                                                size_t block_count,
                                                                uint64_t counter_increment) noexcept
    __asm__("blake2simd_blake2b_compress_x64");

}  // namespace blake2simd::kernels
