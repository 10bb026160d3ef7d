// BLAKE2Xb and BLAKE2Xs (the BLAKE2X paper): the root hash H0 with the XOF length in its
// parameter block, and the output blocks B2(i) of H0. The digests over it live in
// digest_blake2x.cpp, the MACs in mac_blake2x.cpp.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/core_dispatch.h>

#include <concepts>
#include <cstddef>
#include <cstdint>

#include "algorithm_params.hpp"
#include "blake2_engine.hpp"
#include "context.hpp"
#include "errors.hpp"

namespace blake2simd {

// XofLimits, kMaxXofLength: algorithm_params.hpp (the tables' ranges).

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
ParameterBlock<Family> xof_root_parameter_block(uint8_t key_length, uint64_t xof_length,
                                                const uint8_t* salt,
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

// What the BLAKE2X digests and MACs share: update, final and squeeze over a context's XofState
// (OpenSSL 3.3's squeeze slot: digest_ids.hpp).

namespace blake2simd {

// An XOF's context (BLAKE2XB/XS and their MACs) also has its output stream, `xof` (an
// XofState), and `lanes`, the lanes form its output blocks are made on a group at a time.
// `finish_root(h0)` ends the message into H0 (the MAC first restores its key block).
template <class Context>
concept XofContext = TreeContext<Context> && requires(Context& ctx) {
    { ctx.xof.squeezing } -> std::convertible_to<bool>;
    ctx.xof.root;
    ctx.xof.position;
};

// Input after squeezing started would change H0 under output already given out.
template <XofContext Context>
int xof_absorb(Context* ctx, const unsigned char* in, size_t inl) noexcept {
    if (ctx->phase == Phase::absorbing && ctx->xof.squeezing) {
        B2_RAISE(ctx->provider, Reason::update_after_final);
        return 0;
    }
    return absorb(ctx, in, inl);
}

// A NULL `out` is a size query and leaves the message open.
template <XofContext Context, class FinishRoot>
int xof_finalize(Context* ctx, unsigned char* out, size_t* outl, size_t outsize,
                 FinishRoot finish_root) noexcept {
    if (!require_absorbing(ctx->provider, ctx->phase, Reason::already_finalized)) {
        return 0;
    }
    uint64_t length = 0;
    Reason failure{};
    if (!ctx->xof.final_length(length, failure)) {
        B2_RAISE(ctx->provider, failure);
        return 0;
    }
    if (out != nullptr && outsize < length) {
        B2_RAISE(ctx->provider, Reason::output_buffer_too_small);
        return 0;
    }
    *outl = static_cast<size_t>(length);
    if (out == nullptr) {
        return 1;
    }
    if (length > 0) {
        finish_root(ctx->xof.root.h0);
        write_xof_output(ctx->kernel.compress, ctx->lanes.compress, ctx->xof.root, 0, out, *outl);
    }
    ctx->phase = Phase::finished;
    return 1;
}

// The next `outsize` bytes of the stream; in the known-length mode the stream ends at the init
// length. Squeeze after final is refused, as are final and update after squeezing.
template <XofContext Context, class FinishRoot>
int xof_squeeze(Context* ctx, unsigned char* out, size_t* outl, size_t outsize,
                FinishRoot finish_root) noexcept {
    if (!require_absorbing(ctx->provider, ctx->phase, Reason::xof_squeeze_after_final)) {
        return 0;
    }
    auto& xof = ctx->xof;
    if (outsize > xof.root.total_output() - xof.position) {
        B2_RAISE(ctx->provider, Reason::xof_output_too_long);
        return 0;
    }
    if (!xof.squeezing) {
        finish_root(xof.root.h0);
        xof.squeezing = true;
    }
    write_xof_output(ctx->kernel.compress, ctx->lanes.compress, xof.root, xof.position, out,
                     outsize);
    xof.position += outsize;
    *outl = outsize;
    return 1;
}

}  // namespace blake2simd
