// Clearing what a kernel leaves behind after compressing key material.
// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace blake2simd {

// Overwrites the stack below the caller, where the kernels just called kept their copies of
// the block (message words, spills, the x64 kernel's red zone), and every vector register the
// CPU has. Call it right after compressing a block of key material, from the function that
// made the kernel call: the message path never needs it. Costs a 2 KiB memset and a
// register clear (bench: --only mac-init).
void scrub_after_key_block() noexcept;

}  // namespace blake2simd
