// BLAKE2Xb and BLAKE2Xs (the BLAKE2X paper): the root hash H0 with the XOF length in its
// parameter block, and the output blocks B2(i) of H0. The digests over it live in
// digest_blake2x.cpp, the MACs in mac_blake2x.cpp.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>

#include "blake2_engine.hpp"
#include "errors.hpp"

namespace blake2simd {

// The XOF length field: 32 bits after BLAKE2b's 32-bit node offset, 16 bits after BLAKE2s's.
template <class Family>
struct XofLimits;

template <>
struct XofLimits<Blake2bFamily> {
    static constexpr uint64_t kUnknownLength = 0xffffffffu;  // "length not known in advance"
};

template <>
struct XofLimits<Blake2sFamily> {
    static constexpr uint64_t kUnknownLength = 0xffffu;
};

// Longest output whose length H0 fixes (2^32-2, 2^16-2 bytes).
template <class Family>
inline constexpr uint64_t kMaxXofLength = XofLimits<Family>::kUnknownLength - 1;

// Longest output of the unknown-length mode: 2^32 blocks (the node offset is 32 bits).
template <class Family>
inline constexpr uint64_t kMaxUnknownOutput = (uint64_t{1} << 32) * Family::kMaxDigestBytes;

// What the output blocks are computed from once the message is absorbed.
template <class Family>
struct XofRoot {
    uint8_t h0[Family::kMaxDigestBytes];
    uint64_t xof_length;  // the field's value: the known length, or kUnknownLength
    uint8_t salt[Family::kSaltBytes];
    uint8_t personal[Family::kPersonalBytes];

    // Bytes the stream holds: the known length, or kMaxUnknownOutput.
    uint64_t total_output() const noexcept {
        return xof_length == XofLimits<Family>::kUnknownLength ? kMaxUnknownOutput<Family>
                                                               : xof_length;
    }
};

// Where a BLAKE2X message is: its root, the output length final was last asked for, and how far
// squeezing got. Trivially copyable, like the contexts that hold it.
template <class Family>
struct XofState {
    XofRoot<Family> root;  // h0 is valid once squeezing (or finished)
    uint64_t requested;    // the last "xoflen" set since init, when has_request
    uint64_t position;     // bytes squeezed so far
    bool has_request;
    bool squeezing;

    // A new message; init_length 0 selects the unknown-length mode.
    void start(uint64_t init_length, const uint8_t* salt, const uint8_t* personal) noexcept;

    bool known_length() const noexcept {
        return root.xof_length != XofLimits<Family>::kUnknownLength;
    }
    // The context's "size": the length H0 fixes, or 0 in the unknown-length mode.
    uint64_t reported_size() const noexcept { return known_length() ? root.xof_length : 0; }

    // The bytes final writes, or false with the reason: the init length (a different request
    // is refused), the request in the unknown-length mode, and 0 when 0 was asked for.
    bool final_length(uint64_t& length, Reason& failure) const noexcept;
};

// H0's parameter block: the family's longest digest, the key length, the XOF length field
// (node offset 0), salt and personalization.
template <class Family>
Blake2Params<Family> xof_root_params(uint8_t key_length, uint64_t xof_length, const uint8_t* salt,
                                     const uint8_t* personal) noexcept;

// Writes bytes [position, position + length) of the output stream B2(0) || B2(1) || ... of
// `root`; position + length <= root.total_output(). The only place output blocks are made: the
// blocks are independent, so `compress_lanes` (the tree mode's lanes form: 4 for BLAKE2Xb, 8 for
// BLAKE2Xs) makes them a group at a time while the request spans a group, and the single-lane
// `compress` makes the rest; a null `compress_lanes` leaves every block to `compress`.
template <class Family>
void write_xof_output(typename Family::Compress compress,
                      typename Family::CompressLanes compress_lanes, const XofRoot<Family>& root,
                      uint64_t position, uint8_t* out, size_t length) noexcept;

}  // namespace blake2simd
