// BLAKE2Xb and BLAKE2Xs: H0's parameter block and the output blocks.
// SPDX-License-Identifier: Apache-2.0
#include "blake2x.hpp"
#include "baseline_guard.hpp"

#include <algorithm>
#include <cstring>

#include "core_memory.hpp"

namespace blake2simd {

template <class Family>
ParameterBlock<Family> xof_root_params(uint8_t key_length, uint64_t xof_length, const uint8_t* salt,
                                       const uint8_t* personal) noexcept {
    ParameterBlock<Family> params;
    params.key_length = key_length;
    params.node_offset = xof_length << 32;
    std::memcpy(params.salt, salt, Family::kSaltBytes);
    std::memcpy(params.personal, personal, Family::kPersonalBytes);
    return params;
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

// B2(index): H0 hashed unkeyed with fanout 0, depth 0, leaf and inner length the longest
// digest, node offset `index`, the XOF length, salt and personalization; `size` bytes.
template <class Family>
void output_block(typename Family::Compress compress, const XofRoot<Family>& root, uint64_t index,
                  uint8_t size, uint8_t* block, Blake2Engine<Family>& engine) noexcept {
    constexpr size_t kOut = Family::kMaxDigestBytes;
    ParameterBlock<Family> params =
        xof_root_params<Family>(0, root.xof_length, root.salt, root.personal);
    params.digest_length = size;
    params.fanout = 0;
    params.depth = 0;
    params.leaf_length = kOut;
    params.node_offset |= index;
    params.inner_length = kOut;
    engine.start(compress, params);
    engine.update(root.h0, kOut);
    engine.finish(block);
}

}  // namespace

template <class Family>
void write_xof_output(typename Family::Compress compress, const XofRoot<Family>& root,
                      uint64_t position, uint8_t* out, size_t length) noexcept {
    constexpr size_t kOut = Family::kMaxDigestBytes;
    const uint64_t total = root.total_output();
    uint8_t block[kOut];
    Blake2Engine<Family> engine;  // holds H0 in its buffer: cleansed below
    while (length > 0) {
        const uint64_t index = position / kOut;
        const size_t skip = static_cast<size_t>(position % kOut);
        const auto size = static_cast<uint8_t>(std::min<uint64_t>(kOut, total - index * kOut));
        output_block(compress, root, index, size, block, engine);
        const size_t take = std::min(length, size_t{size} - skip);
        std::memcpy(out, block + skip, take);
        out += take;
        length -= take;
        position += take;
    }
    cleanse(&engine, sizeof engine);
    cleanse(block, sizeof block);
}

template struct XofState<Blake2bFamily>;
template struct XofState<Blake2sFamily>;
template ParameterBlock<Blake2bFamily> xof_root_params<Blake2bFamily>(uint8_t, uint64_t,
                                                                      const uint8_t*,
                                                                      const uint8_t*) noexcept;
template ParameterBlock<Blake2sFamily> xof_root_params<Blake2sFamily>(uint8_t, uint64_t,
                                                                      const uint8_t*,
                                                                      const uint8_t*) noexcept;
template void write_xof_output<Blake2bFamily>(CompressFn, const XofRoot<Blake2bFamily>&, uint64_t,
                                              uint8_t*, size_t) noexcept;
template void write_xof_output<Blake2sFamily>(Blake2sCompressFn, const XofRoot<Blake2sFamily>&,
                                              uint64_t, uint8_t*, size_t) noexcept;

}  // namespace blake2simd
