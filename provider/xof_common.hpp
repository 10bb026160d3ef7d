// What the BLAKE2X digests and MACs share: update, final and squeeze over a context's XofState.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/core_dispatch.h>

#include <cstddef>

#include "blake2x.hpp"
#include "context.hpp"
#include "errors.hpp"
#include "params.hpp"

// OpenSSL 3.3's squeeze slot, absent from the 3.0 headers we build against; older cores never
// look it up.
#ifndef OSSL_FUNC_DIGEST_SQUEEZE
#define OSSL_FUNC_DIGEST_SQUEEZE 14
OSSL_CORE_MAKE_FUNC(int, digest_squeeze,
                    (void* dctx, unsigned char* out, size_t* outl, size_t outsz))
#endif

namespace blake2simd {

// A length fixed in H0: 1..kMaxXofLength (0 and the unknown-length value are not lengths).
template <class Family>
bool parse_xof_length(const OSSL_PARAM* p, uint64_t& length, Reason& failure) noexcept {
    size_t value = 0;
    if (!parse_size_param(p, 1, kMaxXofLength<Family>, Reason::xof_invalid_length, value,
                          failure)) {
        return false;
    }
    length = value;
    return true;
}

// `Context` has provider, kernel, phase, engine and xof (an XofState). `finish_root(h0)` ends the
// message into H0 (the MAC first restores its key block).

// Input after squeezing started would change H0 under output already given out.
template <class Context>
int xof_absorb(Context* ctx, const unsigned char* in, size_t inl) noexcept {
    if (ctx->phase == Phase::absorbing && ctx->xof.squeezing) {
        B2_RAISE(ctx->provider, Reason::update_after_final);
        return 0;
    }
    return absorb(ctx, in, inl);
}

// A NULL `out` is a size query and leaves the message open.
template <class Context, class FinishRoot>
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
        write_xof_output(ctx->kernel->compress, ctx->xof.root, 0, out, *outl);
    }
    ctx->phase = Phase::finished;
    return 1;
}

// The next `outsize` bytes of the stream; in the known-length mode the stream ends at the init
// length. Squeeze after final is refused, as are final and update after squeezing.
template <class Context, class FinishRoot>
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
    write_xof_output(ctx->kernel->compress, xof.root, xof.position, out, outsize);
    xof.position += outsize;
    *outl = outsize;
    return 1;
}

}  // namespace blake2simd
