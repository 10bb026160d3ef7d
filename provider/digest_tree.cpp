// OSSL_OP_DIGEST implementations of BLAKE2BP-512 (4 leaves, output 1..64 bytes, default 64) and
// BLAKE2SP-256 (8 leaves, 1..32, default 32): one template over the family, one dispatch table
// per algorithm.
// SPDX-License-Identifier: Apache-2.0
#include <openssl/core_dispatch.h>

#include "algorithm_params.hpp"
#include "baseline_guard.hpp"
#include "blake2_engine.hpp"
#include "context.hpp"
#include "errors.hpp"
#include "names.hpp"
#include "provider_context.hpp"
#include "state_blob.hpp"

namespace blake2simd {
namespace {

template <class Family>
struct TreeDigestContext {
    static constexpr const auto& kTable = kTreeDigestTable<Family>;

    ProviderContext* provider;
    typename Family::Kernel kernel;
    typename Family::LanesKernel lanes;
    Blake2Settings<Family> settings;  // the digest length, applied at the next init
    Phase phase;
    TreeEngine<Family> engine;

    size_t output_size() const noexcept {
        return phase == Phase::absorbing ? engine.digest_length() : settings.block.digest_length;
    }
    const char* served_by() const noexcept { return lanes.name; }

    // A serialized state: the engine alone; its digest length, the tree's only setting, is also
    // the resumed context's `size` for the next init.
    static constexpr uint16_t kStateAlgorithm =
        state_blob::algorithm_id(Family::kMember == Member::blake2b ? state_blob::Kind::blake2bp
                                                                    : state_blob::Kind::blake2sp,
                                 0);
    static constexpr size_t kStateBodyBytes = state_blob::kTreeEngineBytes<Family>;

    void save_state(state_blob::Writer& out) const noexcept {
        state_blob::write_tree_engine<Family>(out, engine.snapshot());
    }

    bool load_state(state_blob::Reader& in) noexcept {
        typename TreeEngine<Family>::Snapshot snapshot;
        const bool valid = state_blob::read_tree_engine<Family>(in, snapshot);
        if (valid) {
            engine.restore(kernel.compress, lanes.compress, snapshot);
            settings.block.digest_length = snapshot.digest_length;
            phase = Phase::absorbing;
        }
        cleanse(&snapshot, sizeof snapshot);
        return valid;
    }
};

// The callbacks of one family's tree digest; their symbols name the family.
template <class Family>
struct TreeDigest : SerializableDigest<TreeDigestContext<Family>> {
    using Context = TreeDigestContext<Family>;

    static bool apply_params(Context* ctx, const OSSL_PARAM params[]) noexcept {
        if (params == nullptr) {
            return true;
        }
        Parsed<Blake2Settings<Family>> parsed;
        if (!parse_ctx_params(ctx, params, parsed)) {
            return false;
        }
        ctx->settings = parsed.settings;
        return true;
    }

    static int init(void* vctx, const OSSL_PARAM params[]) noexcept {
        auto* ctx = static_cast<Context*>(vctx);
        if (!apply_params(ctx, params)) {
            return 0;
        }
        ctx->engine.start(ctx->kernel.compress, ctx->lanes.compress, nullptr, 0,
                          ctx->settings.block.digest_length);
        ctx->phase = Phase::absorbing;
        return 1;
    }

    static int get_params(OSSL_PARAM params[]) noexcept {
        return get_digest_params(params, Family::kBlockBytes, kTreeInnerBytes<Family>) ? 1 : 0;
    }

    static int set_ctx_params(void* vctx, const OSSL_PARAM params[]) noexcept {
        return apply_params(static_cast<Context*>(vctx), params) ? 1 : 0;
    }
};

using Blake2bpDigest = TreeDigest<Blake2bFamily>;
using Blake2spDigest = TreeDigest<Blake2sFamily>;

}  // namespace

extern const OSSL_DISPATCH kDigestBlake2bp512Functions[] = B2_DIGEST_FUNCTIONS(Blake2bpDigest);
extern const OSSL_DISPATCH kDigestBlake2sp256Functions[] = B2_DIGEST_FUNCTIONS(Blake2spDigest);

}  // namespace blake2simd
