// BLAKE2Xb and BLAKE2Xs: H0's parameter block and the output blocks.
// SPDX-License-Identifier: Apache-2.0
#include "blake2x.hpp"
#include "baseline_guard.hpp"

#include <algorithm>
#include <cstring>

#include "core_memory.hpp"
#include "digest_bytes.hpp"

namespace blake2simd {

template <class Family>
ParameterBlock<Family> xof_root_parameter_block(uint8_t key_length, uint64_t xof_length,
                                                const uint8_t* salt,
                                                const uint8_t* personal) noexcept {
    ParameterBlock<Family> parameter_block;
    parameter_block.key_length = key_length;
    parameter_block.node_offset = xof_length << 32;
    std::memcpy(parameter_block.salt, salt, Family::kSaltBytes);
    std::memcpy(parameter_block.personal, personal, Family::kPersonalBytes);
    return parameter_block;
}

template <class Family>
void XofState<Family>::start(uint64_t init_length, const uint8_t* salt,
                             const uint8_t* personal) noexcept {
    root.xof_length = init_length != 0 ? init_length : XofLimits<Family>::kUnknownLength;
    std::memcpy(root.salt, salt, Family::kSaltBytes);
    std::memcpy(root.personal, personal, Family::kPersonalBytes);
    requested = 0;
    position = 0;
    has_request = false;
    squeezing = false;
}

template <class Family>
bool XofState<Family>::final_length(uint64_t& length, Reason& failure) const noexcept {
    if (squeezing) {
        failure = Reason::xof_final_after_squeeze;
        return false;
    }
    // OpenSSL's evp_test finishes every XOF with a length of 0 as well: nothing to write.
    if (has_request && requested == 0) {
        length = 0;
        return true;
    }
    if (known_length()) {
        failure = Reason::xof_length_mismatch;
        length = root.xof_length;
        return !has_request || requested == root.xof_length;
    }
    failure = has_request ? Reason::xof_output_too_long : Reason::xof_length_unknown;
    length = requested;
    return has_request && requested <= kMaxUnknownOutput<Family>;
}

namespace {

// B2(0)'s state before its one block: H0 hashed unkeyed with fanout 0, depth 0, leaf and inner
// length the longest digest, node offset 0, the XOF length, salt and personalization, the
// longest digest; H0 (shorter than a block) is the last block, of no last node.
template <class Family>
typename Family::State first_output_state(const XofRoot<Family>& root) noexcept {
    constexpr uint8_t kOut = Family::kMaxDigestBytes;
    ParameterBlock<Family> parameter_block =
        xof_root_parameter_block<Family>(0, root.xof_length, root.salt, root.personal);
    parameter_block.fanout = 0;
    parameter_block.depth = 0;
    parameter_block.leaf_length = kOut;
    parameter_block.inner_length = kOut;
    typename Family::State state;
    initial_chaining_value(parameter_block, state.h);
    state.t[0] = state.t[1] = 0;
    state.f[0] = ~typename Family::Word{0};
    state.f[1] = 0;
    return state;
}

// B2(i) differs from B2(0) in two parameter fields, each xored into its own chaining-value bits
// (initial_chaining_value): the digest length, byte 0 of word 0; the block index, the node
// offset's low 32 bits, in BLAKE2b's word 1 and BLAKE2s's word 2 (i < 2^32 in both).
template <class Family>
inline constexpr size_t kIndexWord = Family::kMember == Member::blake2b ? 1 : 2;

// Makes `lanes` consecutive output blocks (one, or the lanes form's count) in one kernel call.
template <class Family>
struct OutputMaker {
    static constexpr size_t kOut = Family::kMaxDigestBytes;
    static constexpr size_t kLanes = Family::kLanes;
    using State = typename Family::State;
    using Word = typename Family::Word;

    typename Family::Compress compress;
    typename Family::CompressLanes compress_lanes;  // nullptr: one block at a time
    uint64_t total;                                 // the stream's bytes
    State first;                                    // B2(0)'s state
    uint8_t h0_block[Family::kBlockBytes];          // H0 zero-padded: every block's message
    State states[kLanes];
    uint8_t group[kLanes * kOut];  // blocks that only partly go out

    size_t size_of(uint64_t index) const noexcept {
        return static_cast<size_t>(std::min<uint64_t>(kOut, total - index * kOut));
    }

    // Writes the blocks at kOut-byte steps to `to`, each its size_of() bytes.
    void make(uint64_t first_index, size_t lanes, uint8_t* to) noexcept {
        for (size_t lane = 0; lane < lanes; ++lane) {
            states[lane] = first;
            states[lane].h[0] ^= static_cast<Word>(kOut ^ size_of(first_index + lane));
            states[lane].h[kIndexWord<Family>] ^= static_cast<Word>(first_index + lane);
        }
        if (lanes == kLanes) {
            const uint8_t* blocks[kLanes];
            std::fill(blocks, blocks + kLanes, h0_block);
            compress_lanes(states, blocks, 1, 0, kOut);
        } else {
            compress(&states[0], h0_block, 1, kOut);
        }
        for (size_t lane = 0; lane < lanes; ++lane) {
            write_digest(states[lane], to + lane * kOut, size_of(first_index + lane));
        }
    }
};

}  // namespace

// Whole groups of the lanes form while the request spans one, then single blocks; blocks that
// go out whole are written in place. Only the stream's last block is short, so the blocks of a
// call are contiguous.
template <class Family>
void write_xof_output(typename Family::Compress compress,
                      typename Family::CompressLanes compress_lanes, const XofRoot<Family>& root,
                      uint64_t position, uint8_t* out, size_t length) noexcept {
    using Maker = OutputMaker<Family>;
    constexpr size_t kOut = Maker::kOut;
    Maker maker{compress, compress_lanes, root.total_output(), first_output_state(root), {}, {},
                {}};
    std::memcpy(maker.h0_block, root.h0, kOut);
    while (length > 0) {
        const uint64_t index = position / kOut;
        const size_t skip = static_cast<size_t>(position % kOut);
        const bool spans_group =
            compress_lanes != nullptr && (skip + length) / kOut >= Maker::kLanes;
        const size_t lanes = spans_group ? Maker::kLanes : 1;
        const size_t bytes = (lanes - 1) * kOut + maker.size_of(index + lanes - 1);
        const size_t take = std::min(length, bytes - skip);
        if (take == bytes) {
            maker.make(index, lanes, out);
        } else {
            maker.make(index, lanes, maker.group);
            std::memcpy(out, maker.group + skip, take);
        }
        out += take;
        length -= take;
        position += take;
    }
    cleanse(&maker, sizeof maker);  // H0 and output bytes
}

template struct XofState<Blake2bFamily>;
template struct XofState<Blake2sFamily>;
template ParameterBlock<Blake2bFamily> xof_root_parameter_block<Blake2bFamily>(
    uint8_t, uint64_t, const uint8_t*, const uint8_t*) noexcept;
template ParameterBlock<Blake2sFamily> xof_root_parameter_block<Blake2sFamily>(
    uint8_t, uint64_t, const uint8_t*, const uint8_t*) noexcept;
template void write_xof_output<Blake2bFamily>(CompressFn, Compress4Fn,
                                              const XofRoot<Blake2bFamily>&, uint64_t, uint8_t*,
                                              size_t) noexcept;
template void write_xof_output<Blake2sFamily>(Blake2sCompressFn, Blake2sCompress8Fn,
                                              const XofRoot<Blake2sFamily>&, uint64_t, uint8_t*,
                                              size_t) noexcept;

}  // namespace blake2simd
