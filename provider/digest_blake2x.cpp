// OSSL_OP_DIGEST implementations of BLAKE2XB and BLAKE2XS, the BLAKE2X extendable-output
// functions: one template over the family, one dispatch table per algorithm.
// SPDX-License-Identifier: Apache-2.0
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>

#include <cstring>

#include "algorithm_params.hpp"
#include "baseline_guard.hpp"
#include "blake2_engine.hpp"
#include "blake2x.hpp"
#include "context.hpp"
#include "errors.hpp"
#include "names.hpp"
#include "provider_context.hpp"
#include "state_blob.hpp"

namespace blake2simd {
namespace {

template <class Family>
struct XofDigestContext {
    static constexpr const auto& kTable = kXofDigestTable<Family>;

    ProviderContext* provider;
    typename Family::Kernel kernel;
    typename Family::LanesKernel lanes;  // the output blocks, a group at a time
    XofSettings<Family> settings;        // applied at the next init
    Phase phase;
    XofState<Family> xof;
    Blake2Engine<Family> engine;  // H0

    size_t output_size() const noexcept {
        return phase == Phase::absorbing ? xof.reported_size() : settings.init_length();
    }
    const char* served_by() const noexcept { return kernel.name; }

    // A serialized state: the settings' and the message's H0 parameter blocks, H0's engine, then
    // the output stream (requested length, position, the two flags, H0 once squeezing). While
    // squeezing the engine is spent: a blank one (all zero, the longest digest) stands in.
    using Snapshot = typename Blake2Engine<Family>::Snapshot;
    static constexpr uint16_t kStateAlgorithm =
        state_blob::algorithm_id(Family::kMember == Member::blake2b ? state_blob::Kind::blake2xb
                                                                    : state_blob::Kind::blake2xs,
                                 0);
    static constexpr size_t kStateBodyBytes = 2 * state_blob::kParameterBlockBytes<Family> +
                                              state_blob::kEngineBytes<Family> + 8 + 8 + 1 + 1 +
                                              Family::kMaxDigestBytes;

    static Snapshot spent_engine() noexcept {
        Snapshot spent{};
        spent.digest_length = Family::kMaxDigestBytes;
        return spent;
    }

    void save_state(state_blob::Writer& out) const noexcept {
        const uint64_t settings_length = settings.init_length() != 0
                                             ? settings.init_length()
                                             : XofLimits<Family>::kUnknownLength;
        const auto& fields = settings.fields.block;
        const auto& root = xof.root;
        state_blob::write_parameter_block(
            out,
            xof_root_parameter_block<Family>(0, settings_length, fields.salt, fields.personal));
        state_blob::write_parameter_block(
            out, xof_root_parameter_block<Family>(0, root.xof_length, root.salt, root.personal));
        state_blob::write_engine<Family>(out, xof.squeezing ? spent_engine() : engine.snapshot());
        out.word(xof.requested);
        out.word(xof.position);
        out.word(uint8_t{xof.has_request});
        out.word(uint8_t{xof.squeezing});
        const uint8_t no_h0[Family::kMaxDigestBytes] = {};
        out.bytes(xof.squeezing ? root.h0 : no_h0, Family::kMaxDigestBytes);
    }

    // The XOF length field of an H0 parameter block with nothing else of its own, or false.
    static bool xof_length_field(const ParameterBlock<Family>& block, uint64_t& length) noexcept {
        length = block.node_offset >> 32;
        const bool in_range = (length >= 1 && length <= kMaxXofLength<Family>) ||
                              length == XofLimits<Family>::kUnknownLength;
        return in_range &&
               state_blob::same_parameter_block(
                   xof_root_parameter_block<Family>(0, length, block.salt, block.personal), block);
    }

    bool load_state(state_blob::Reader& in) noexcept {
        ParameterBlock<Family> settings_block;
        ParameterBlock<Family> root_block;
        Snapshot snapshot;
        XofState<Family> loaded{};
        uint64_t settings_length = 0;
        bool valid = state_blob::read_parameter_block(in, settings_block) &&
                     xof_length_field(settings_block, settings_length);
        valid = state_blob::read_parameter_block(in, root_block) &&
                xof_length_field(root_block, loaded.root.xof_length) && valid;
        valid = state_blob::read_engine<Family>(in, snapshot) && valid;
        loaded.requested = in.word<uint64_t>();
        loaded.position = in.word<uint64_t>();
        const auto has_request = in.word<uint8_t>();
        const auto squeezing = in.word<uint8_t>();
        in.bytes(loaded.root.h0, sizeof loaded.root.h0);
        loaded.has_request = has_request == 1;
        loaded.squeezing = squeezing == 1;
        valid = valid && has_request <= 1 && squeezing <= 1 &&
                (loaded.has_request || loaded.requested == 0) &&
                stream_consistent(loaded, snapshot);
        if (valid) {
            settings.length =
                settings_length == XofLimits<Family>::kUnknownLength ? 0 : settings_length;
            settings.unknown_length = false;
            auto& fields = settings.fields.block;
            std::memcpy(fields.salt, settings_block.salt, sizeof fields.salt);
            std::memcpy(fields.personal, settings_block.personal, sizeof fields.personal);
            std::memcpy(loaded.root.salt, root_block.salt, sizeof loaded.root.salt);
            std::memcpy(loaded.root.personal, root_block.personal, sizeof loaded.root.personal);
            xof = loaded;
            engine.restore(kernel.compress, snapshot);
            phase = Phase::absorbing;
        }
        cleanse(&snapshot, sizeof snapshot);
        cleanse(&loaded, sizeof loaded);
        return valid;
    }

    // Absorbing: H0's engine at the longest digest, nothing squeezed, no H0. Squeezing: the
    // blank engine, a position within the stream.
    static bool stream_consistent(const XofState<Family>& loaded,
                                  const Snapshot& snapshot) noexcept {
        uint8_t engine_bytes[state_blob::kEngineBytes<Family>];
        uint8_t spent_bytes[sizeof engine_bytes];
        state_blob::Writer engine_writer(engine_bytes);
        state_blob::Writer spent_writer(spent_bytes);
        state_blob::write_engine<Family>(engine_writer, snapshot);
        state_blob::write_engine<Family>(spent_writer, spent_engine());
        const bool spent = std::memcmp(engine_bytes, spent_bytes, sizeof engine_bytes) == 0;
        cleanse(engine_bytes, sizeof engine_bytes);
        if (loaded.squeezing) {
            return spent && loaded.position <= loaded.root.total_output();
        }
        const uint8_t no_h0[Family::kMaxDigestBytes] = {};
        return snapshot.digest_length == Family::kMaxDigestBytes && loaded.position == 0 &&
               std::memcmp(loaded.root.h0, no_h0, sizeof no_h0) == 0;
    }
};

// The callbacks of one family's XOF; their symbols name the family (XofDigest<Blake2sFamily>).
template <class Family>
struct XofDigest : SerializableDigest<XofDigestContext<Family>> {
    using Context = XofDigestContext<Family>;

    // At init "xoflen" or "size" (equal if both) fixes the length in H0; salt and custom.
    static int init(void* vctx, const OSSL_PARAM params[]) noexcept {
        auto* ctx = static_cast<Context*>(vctx);
        if (params != nullptr) {
            Parsed<XofSettings<Family>> parsed;
            if (!parse_ctx_params(ctx, params, parsed, true)) {
                return 0;
            }
            ctx->settings = parsed.settings;
        }
        const auto& block = ctx->settings.fields.block;
        ctx->xof.start(ctx->settings.init_length(), block.salt, block.personal);
        ctx->engine.start(ctx->kernel.compress,
                          xof_root_parameter_block<Family>(0, ctx->xof.root.xof_length, block.salt,
                                                           block.personal));
        ctx->phase = Phase::absorbing;
        return 1;
    }

    // "xoflen" says how much final writes (checked there: EVP_DigestFinalXOF sends it just
    // before final, and 3.5+ calls final even when this failed); "size", salt and custom apply
    // from the next init.
    static int set_ctx_params(void* vctx, const OSSL_PARAM params[]) noexcept {
        auto* ctx = static_cast<Context*>(vctx);
        Parsed<XofSettings<Family>> parsed;
        if (!parse_ctx_params(ctx, params, parsed)) {
            return 0;
        }
        ctx->settings = parsed.settings;
        if (parsed.request_given && ctx->phase == Phase::absorbing) {
            ctx->xof.requested = parsed.request;
            ctx->xof.has_request = true;
        }
        return 1;
    }

    static void finish_root(Context* ctx, uint8_t* h0) noexcept { ctx->engine.finish(h0); }

    static int update(void* vctx, const unsigned char* in, size_t inl) noexcept {
        return xof_absorb(static_cast<Context*>(vctx), in, inl);
    }

    static int finalize(void* vctx, unsigned char* out, size_t* outl, size_t outsize) noexcept {
        auto* ctx = static_cast<Context*>(vctx);
        return xof_finalize(ctx, out, outl, outsize,
                            [ctx](uint8_t* h0) noexcept { finish_root(ctx, h0); });
    }

    static int squeeze(void* vctx, unsigned char* out, size_t* outl, size_t outsize) noexcept {
        auto* ctx = static_cast<Context*>(vctx);
        return xof_squeeze(ctx, out, outl, outsize,
                           [ctx](uint8_t* h0) noexcept { finish_root(ctx, h0); });
    }

    static int get_params(OSSL_PARAM params[]) noexcept {
        // EVP_MD_get_size is 0: the length is the caller's.
        return get_digest_params(params, Family::kBlockBytes, 0, true) ? 1 : 0;
    }
};

using Blake2xbDigest = XofDigest<Blake2bFamily>;
using Blake2xsDigest = XofDigest<Blake2sFamily>;

}  // namespace

extern const OSSL_DISPATCH kDigestBlake2xbFunctions[] = B2_DIGEST_FUNCTIONS(
    Blake2xbDigest, B2_DISPATCH_TO(DIGEST_SQUEEZE, digest_squeeze, Blake2xbDigest::squeeze));
extern const OSSL_DISPATCH kDigestBlake2xsFunctions[] = B2_DIGEST_FUNCTIONS(
    Blake2xsDigest, B2_DISPATCH_TO(DIGEST_SQUEEZE, digest_squeeze, Blake2xsDigest::squeeze));

}  // namespace blake2simd
