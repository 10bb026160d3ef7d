// Clearing what a kernel leaves behind after compressing key material.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>

namespace blake2simd {

// Clears every vector register the CPU has, then zeroes the stack from right below the
// caller's stack pointer down (on x86-64 every byte but the return address: no frame of its
// own in between), where the kernels just called kept their copies of the block (message
// words, spills, the x64 kernel's red zone). Call it right after compressing a block of key
// material, from the function that made the kernel call: the message path never needs it.
// Costs a register clear and 2 KiB of stores in an optimised build.
void scrub_after_key_block() noexcept;

// A single-lane kernel of either BLAKE2 member, as an address (SingleCompress's signature).
using SingleLaneKernel = void (*)() noexcept;

// The same right after `kernel` (a single-lane BLAKE2b or BLAKE2s kernel, the engine's)
// compressed key material: as deep as that kernel reaches in this build, measured once per
// process for every such kernel this CPU runs (stack_reach), plus a margin. The fixed depth for
// any other kernel, and where the reach is not measured: builds without the x86-64 assembly or
// without valgrind's header (valgrind/memcheck.h), unoptimised ones and AddressSanitizer's.
void scrub_after_key_block(SingleLaneKernel kernel) noexcept;

// How many bytes below its caller's stack pointer one call of `kernel` (on one block of
// `block_bytes`, counter increment `block_bytes`) wrote, found by filling `limit` bytes below
// with a pattern first (a signal in between can only deepen it); `limit` (rounded up to 64) when
// it reached that far, or unmeasured in this build (then the kernel does not run).
size_t stack_reach(SingleLaneKernel kernel, void* state, const void* block, uint64_t block_bytes,
                   size_t limit) noexcept;

// Whether this build measures (stack_reach runs the kernel) or wipes a fixed depth everywhere.
bool stack_reach_is_measured() noexcept;

}  // namespace blake2simd
