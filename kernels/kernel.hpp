// The one compression contract every BLAKE2b kernel implements, and the kernels' declarations.
// SPDX-License-Identifier: Apache-2.0
//
// Restricted header (see blake2b_state.hpp): declarations only.
#pragma once

#include "blake2b_state.hpp"

namespace blake2simd {

// Compresses `block_count` consecutive 128-byte blocks starting at `blocks` (any alignment).
// Before each block the 128-bit counter state->t grows by `counter_increment`; the flags in
// state->f apply to every block. Full blocks pass 128; the final block passes the number
// of message bytes it carries (0..128) with state->f[0] already set by the caller.
// Keeping the block loop inside the kernel lets a kernel hold the state in registers
// across blocks.
using CompressFn = void (*)(Blake2bState* state, const uint8_t* blocks, size_t block_count,
                            uint64_t counter_increment) noexcept;

// One per row of the registry (registry.hpp), which gives each its name and CPU need.
enum class KernelId : uint8_t { ref, x64, ssse3, avx, avx2, avx512 };

namespace kernels {
// Portable C++; the fallback on every CPU and the oracle the other kernels are tested against.
void compress_ref(Blake2bState* state, const uint8_t* blocks, size_t block_count,
                  uint64_t counter_increment) noexcept;

#if defined(__x86_64__) || defined(_M_X64)
// Each is built with its own ISA flags and may run only where the selection (forms.hpp) found it
// usable.
void compress_ssse3(Blake2bState* state, const uint8_t* blocks, size_t block_count,
                    uint64_t counter_increment) noexcept;
void compress_avx(Blake2bState* state, const uint8_t* blocks, size_t block_count,
                  uint64_t counter_increment) noexcept;
void compress_avx2(Blake2bState* state, const uint8_t* blocks, size_t block_count,
                   uint64_t counter_increment) noexcept;
void compress_avx512(Blake2bState* state, const uint8_t* blocks, size_t block_count,
                     uint64_t counter_increment) noexcept;

// Zero every vector register of their ISA (scrub.hpp chooses): vzeroall, and for AVX-512 also
// ymm16-31, which vzeroall leaves alone.
void scrub_avx() noexcept;
void scrub_avx512() noexcept;
#endif
}  // namespace kernels

}  // namespace blake2simd
