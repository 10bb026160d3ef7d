// The kernels the engine-level tests and fuzzers drive the streaming engines with.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdio>
#include <vector>

#include "forms.hpp"

namespace engine_kernels {

namespace dispatch = blake2simd::dispatch;

// The usable candidates of a form, with their indices; each left out is named on stdout, so a
// run shows what it did not cover.
inline std::vector<size_t> usable_indices(dispatch::Form form) {
    const auto candidates = dispatch::candidates(form);
    const auto facts = dispatch::facts(form);
    std::vector<size_t> usable;
    for (size_t i = 0; i < candidates.size(); ++i) {
        if (facts[i].usable) {
            usable.push_back(i);
        } else {
            std::printf("%s %s%s: not usable on this host, skipped\n",
                        dispatch::kForms[dispatch::index_of(form)].title,
                        blake2simd::registry::row_of(candidates[i].id).name,
                        candidates[i].lane_by_lane ? " lane by lane" : "");
        }
    }
    return usable;
}

// The single-lane kernels of a member this host runs, as contexts hold them (stable addresses).
template <class Family>
const std::vector<typename Family::Kernel>& runnable_of(dispatch::Form form) {
    static const std::vector<typename Family::Kernel> kernels = [form] {
        std::vector<typename Family::Kernel> usable;
        for (const size_t i : usable_indices(form)) {
            const dispatch::Candidate& c = dispatch::candidates(form)[i];
            usable.push_back(
                {blake2simd::registry::row_of(c.id).name, c.entry.*Family::kSingleEntry});
        }
        return usable;
    }();
    return kernels;
}

template <class Family>
std::vector<const typename Family::Kernel*> pointers_to(
    const std::vector<typename Family::Kernel>& all) {
    std::vector<const typename Family::Kernel*> pointers;
    for (const auto& kernel : all) {
        pointers.push_back(&kernel);
    }
    return pointers;
}

// The single-lane kernel of a multi-lane candidate's row serves the tree engines' other blocks
// (last blocks, root), as in the provider; the reference where that row's cannot run.
template <class Family>
typename Family::Compress single_lane_for(dispatch::Form single, blake2simd::KernelId id) {
    const auto candidates = dispatch::candidates(single);
    for (size_t i = 0; i < candidates.size(); ++i) {
        if (candidates[i].id == id && dispatch::facts(single)[i].usable) {
            return candidates[i].entry.*Family::kSingleEntry;
        }
    }
    return candidates[0].entry.*Family::kSingleEntry;
}

}  // namespace engine_kernels

inline std::vector<const blake2simd::Blake2bFamily::Kernel*> runnable_kernels() {
    using blake2simd::Blake2bFamily;
    return engine_kernels::pointers_to<Blake2bFamily>(
        engine_kernels::runnable_of<Blake2bFamily>(blake2simd::dispatch::Form::blake2b));
}

inline std::vector<const blake2simd::Blake2sFamily::Kernel*> runnable_blake2s_kernels() {
    using blake2simd::Blake2sFamily;
    return engine_kernels::pointers_to<Blake2sFamily>(
        engine_kernels::runnable_of<Blake2sFamily>(blake2simd::dispatch::Form::blake2s));
}

inline blake2simd::CompressFn single_lane_for(blake2simd::KernelId id) {
    return engine_kernels::single_lane_for<blake2simd::Blake2bFamily>(
        blake2simd::dispatch::Form::blake2b, id);
}

inline blake2simd::Blake2sCompressFn blake2s_single_lane_for(blake2simd::KernelId id) {
    return engine_kernels::single_lane_for<blake2simd::Blake2sFamily>(
        blake2simd::dispatch::Form::blake2s, id);
}
