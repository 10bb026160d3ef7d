// The kernels the engine-level tests and fuzzers drive the streaming engines with.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdio>
#include <vector>

#include "dispatch.hpp"
#include "kernel_blake2s.hpp"

// Each kernel left out is named on stdout, so a run shows what it did not cover.
inline std::vector<const blake2simd::KernelInfo*> runnable_kernels() {
    std::vector<const blake2simd::KernelInfo*> runnable;
    for (const blake2simd::KernelInfo& kernel : blake2simd::dispatch::compiled_kernels()) {
        if (blake2simd::dispatch::is_runnable(kernel)) {
            runnable.push_back(&kernel);
        } else {
            std::printf("kernel %s: not runnable on this host, skipped\n", kernel.name);
        }
    }
    return runnable;
}

// The single-lane kernel of a 4-lane candidate's instruction set serves the BLAKE2bp engine's
// other blocks (last blocks, root), as in the provider; ref where it cannot run.
inline blake2simd::CompressFn single_lane_for(blake2simd::KernelId id) {
    namespace dispatch = blake2simd::dispatch;
    for (const blake2simd::KernelInfo& kernel : dispatch::compiled_kernels()) {
        if (kernel.id == id && dispatch::is_runnable(kernel)) {
            return kernel.compress;
        }
    }
    return dispatch::compiled_kernels()[0].compress;
}

// The BLAKE2s kernels this host runs (the blake2s column of the registry's rows).
inline std::vector<const blake2simd::Blake2sKernelInfo*> runnable_blake2s_kernels() {
    std::vector<const blake2simd::Blake2sKernelInfo*> runnable;
    for (const blake2simd::Blake2sKernelInfo& kernel : blake2simd::dispatch::blake2s_kernels()) {
        if (blake2simd::dispatch::blake2s_is_runnable(kernel)) {
            runnable.push_back(&kernel);
        } else {
            std::printf("BLAKE2s kernel %s: not runnable on this host, skipped\n", kernel.name);
        }
    }
    return runnable;
}

// As single_lane_for, for the BLAKE2sp engine's single-lane blocks.
inline blake2simd::Blake2sCompressFn blake2s_single_lane_for(blake2simd::KernelId id) {
    namespace dispatch = blake2simd::dispatch;
    for (const blake2simd::Blake2sKernelInfo& kernel : dispatch::blake2s_kernels()) {
        if (kernel.id == id && dispatch::blake2s_is_runnable(kernel)) {
            return kernel.compress;
        }
    }
    return dispatch::blake2s_kernels()[0].compress;
}
