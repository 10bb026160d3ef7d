// BLAKE2b and BLAKE2s as the selection and the self-tests see them: one traits type per family
// member, so the selection (forms.hpp) and the self-tests are written once, and the engines'
// families (provider/blake2_family.hpp) extend these rather than restate them.
// SPDX-License-Identifier: Apache-2.0
//
// Baseline code only: ISA files include the kernel contracts, never this.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernel.hpp"
#include "kernel_blake2s.hpp"
#include "lanes4.hpp"

namespace blake2simd {

enum class Member : uint8_t { blake2b, blake2s };

// A kernel as a context holds it: the registry row's name and the entry point serving it.
template <class Fn>
struct NamedKernel {
    const char* name;
    Fn compress;
};

// A candidate's entry point: the field of its form's signature is set, the others are nullptr.
struct Entry {
    CompressFn blake2b = nullptr;
    Compress4Fn blake2b_lanes = nullptr;
    Blake2sCompressFn blake2s = nullptr;
    Blake2sCompress8Fn blake2s_lanes = nullptr;
};

struct Blake2bKernels {
    static constexpr Member kMember = Member::blake2b;
    using State = Blake2bState;
    using Word = uint64_t;
    using Compress = CompressFn;
    using CompressLanes = Compress4Fn;
    using Kernel = NamedKernel<CompressFn>;
    using LanesKernel = NamedKernel<Compress4Fn>;
    static constexpr size_t kBlockBytes = blake2simd::kBlockBytes;
    static constexpr size_t kMaxDigestBytes = blake2simd::kMaxDigestBytes;
    static constexpr size_t kLanes = blake2simd::kLanes;
    static constexpr const Word* kIV = blake2simd::kIV;
    static constexpr Compress Entry::*kSingleEntry = &Entry::blake2b;
    static constexpr CompressLanes Entry::*kLanesEntry = &Entry::blake2b_lanes;

    static constexpr CompressLanes lanes_entry(const LanesKernel& kernel) noexcept {
        return kernel.compress;
    }
};

struct Blake2sKernels {
    static constexpr Member kMember = Member::blake2s;
    using State = Blake2sState;
    using Word = uint32_t;
    using Compress = Blake2sCompressFn;
    using CompressLanes = Blake2sCompress8Fn;
    using Kernel = NamedKernel<Blake2sCompressFn>;
    using LanesKernel = NamedKernel<Blake2sCompress8Fn>;
    static constexpr size_t kBlockBytes = kBlake2sBlockBytes;
    static constexpr size_t kMaxDigestBytes = kBlake2sMaxDigestBytes;
    static constexpr size_t kLanes = kBlake2spLanes;
    static constexpr const Word* kIV = kBlake2sIV;
    static constexpr Compress Entry::*kSingleEntry = &Entry::blake2s;
    static constexpr CompressLanes Entry::*kLanesEntry = &Entry::blake2s_lanes;

    static constexpr CompressLanes lanes_entry(const LanesKernel& kernel) noexcept {
        return kernel.compress;
    }
};

template <Member member>
using FamilyOf = std::conditional_t<member == Member::blake2b, Blake2bKernels, Blake2sKernels>;

}  // namespace blake2simd
