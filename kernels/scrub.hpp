// Clearing what a kernel leaves behind after compressing key material.
// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace blake2simd {

// Clears every vector register the CPU has, then zeroes the stack from right below the
// caller's stack pointer down (on x86-64 every byte but the return address: no frame of its
// own in between), where the kernels just called kept their copies of the block (message
// words, spills, the x64 kernel's red zone). Call it right after compressing a block of key
// material, from the function that made the kernel call: the message path never needs it.
// Costs a register clear and 2 KiB of stores (bench: --only mac-init).
void scrub_after_key_block() noexcept;

}  // namespace blake2simd
