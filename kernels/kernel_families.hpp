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

// One member's traits: its state and word, its compression contracts (single state and its tree
// mode's lanes), the kernel types contexts hold, its sizes and IV, and its Entry fields.
template <Member member, class StateType, class Single, class Lanes, size_t block_bytes,
          size_t max_digest_bytes, size_t lanes, const auto* iv, Single Entry::*single_field,
          Lanes Entry::*lanes_field>
struct MemberKernels {
    static constexpr Member kMember = member;
    using State = StateType;
    using Word = std::remove_cvref_t<decltype(State{}.h[0])>;
    using Compress = Single;
    using CompressLanes = Lanes;
    using Kernel = NamedKernel<Single>;
    using LanesKernel = NamedKernel<Lanes>;
    static constexpr size_t kBlockBytes = block_bytes;
    static constexpr size_t kMaxDigestBytes = max_digest_bytes;
    static constexpr size_t kLanes = lanes;
    static constexpr const Word* kIV = iv;
    static constexpr Single Entry::*kSingleEntry = single_field;
    static constexpr Lanes Entry::*kLanesEntry = lanes_field;

    static constexpr Lanes lanes_entry(const LanesKernel& kernel) noexcept {
        return kernel.compress;
    }
};

using Blake2bKernels = MemberKernels<Member::blake2b, Blake2bState, CompressFn, Compress4Fn,
                                     kBlake2bBlockBytes, kBlake2bMaxDigestBytes, kBlake2bpLanes,
                                     kBlake2bIV, &Entry::blake2b, &Entry::blake2b_lanes>;
using Blake2sKernels =
    MemberKernels<Member::blake2s, Blake2sState, Blake2sCompressFn, Blake2sCompress8Fn,
                  kBlake2sBlockBytes, kBlake2sMaxDigestBytes, kBlake2spLanes, kBlake2sIV,
                  &Entry::blake2s, &Entry::blake2s_lanes>;

template <Member member>
using FamilyOf = std::conditional_t<member == Member::blake2b, Blake2bKernels, Blake2sKernels>;

}  // namespace blake2simd
