// BLAKE2b and BLAKE2s as dispatch and the self-tests see them: one traits type per family, so
// the selection skeleton (dispatch_skeleton.hpp) and the self-tests are written once, and the
// engines' families (provider/blake2_family.hpp) extend these rather than restate them.
// SPDX-License-Identifier: Apache-2.0
//
// Baseline code only: it names the dispatch-side catalogue types.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernel.hpp"
#include "kernel_blake2s.hpp"
#include "lanes4.hpp"

namespace blake2simd {

struct Blake2bKernels {
    using State = Blake2bState;
    using Word = uint64_t;
    using Compress = CompressFn;
    using CompressLanes = Compress4Fn;
    using Kernel = KernelInfo;
    using LanesKernel = Lanes4Kernel;
    static constexpr size_t kBlockBytes = blake2simd::kBlockBytes;
    static constexpr size_t kMaxDigestBytes = blake2simd::kMaxDigestBytes;
    static constexpr size_t kLanes = blake2simd::kLanes;
    static constexpr const Word* kIV = blake2simd::kIV;

    static constexpr Compress4Fn lanes_entry(const Lanes4Kernel& kernel) noexcept {
        return kernel.compress4;
    }
};

struct Blake2sKernels {
    using State = Blake2sState;
    using Word = uint32_t;
    using Compress = Blake2sCompressFn;
    using CompressLanes = Blake2sCompress8Fn;
    using Kernel = Blake2sKernelInfo;
    using LanesKernel = Lanes8Kernel;
    static constexpr size_t kBlockBytes = kBlake2sBlockBytes;
    static constexpr size_t kMaxDigestBytes = kBlake2sMaxDigestBytes;
    static constexpr size_t kLanes = kBlake2spLanes;
    static constexpr const Word* kIV = kBlake2sIV;

    static constexpr Blake2sCompress8Fn lanes_entry(const Lanes8Kernel& kernel) noexcept {
        return kernel.compress8;
    }
};

}  // namespace blake2simd
