// OSSL_OP_DIGEST implementations of BLAKE2B-512 and BLAKE2S-256, with the parameter block's
// fields as context params (kDigestTable), and of the sizes RFC 7693 names (BLAKE2B-160/256/384,
// BLAKE2S-128/160/224): one template over the family and the size a name fixes, one dispatch table
// per algorithm. SPDX-License-Identifier: Apache-2.0
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>

#include <cstring>

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

// The size a context starts with: the one the digest's name fixes, else the family's longest.
template <class Family, size_t kNamedSize>
inline constexpr size_t kDefaultSize = kNamedSize != 0 ? kNamedSize : Family::kMaxDigestBytes;

// kNamedSize: the output size the algorithm's name fixes (BLAKE2B-256: 32), which the size param
// may only repeat; 0: any size (BLAKE2B-512, BLAKE2S-256).
template <class Family, size_t kNamedSize>
struct DigestContext {
    static constexpr const auto& kTable = kDigestTable<Family, kNamedSize>;

    ProviderContext* provider;
    typename Family::Kernel kernel;
    // Applied at the next init, kept across re-inits.
    Blake2Settings<Family> settings = starting_settings();
    Phase phase;
    Blake2Engine<Family> engine;

    size_t output_size() const noexcept {
        return phase == Phase::absorbing ? engine.digest_length() : settings.block.digest_length;
    }
    const char* served_by() const noexcept { return kernel.name; }

    // A serialized state: the settings' parameter block, a flags byte, then the engine. The
    // flags hold what a parameter block has no field for: bit 0 the settings' last-node flag,
    // bit 1 the running message's.
    static constexpr uint16_t kStateAlgorithm = state_blob::algorithm_id(
        Family::kMember == Member::blake2b ? state_blob::Kind::blake2b : state_blob::Kind::blake2s,
        kNamedSize != 0 ? kNamedSize : Family::kMaxDigestBytes);
    static constexpr size_t kStateBodyBytes =
        state_blob::kParameterBlockBytes<Family> + 1 + state_blob::kEngineBytes<Family>;
    static constexpr uint8_t kSettingsLastNode = 1;
    static constexpr uint8_t kMessageLastNode = 2;

    void save_state(state_blob::Writer& out) const noexcept {
        const auto snapshot = engine.snapshot();
        state_blob::write_parameter_block(out, settings.parameter_block(0));
        out.word(static_cast<uint8_t>((settings.last_node ? kSettingsLastNode : 0) |
                                      (snapshot.last_node ? kMessageLastNode : 0)));
        state_blob::write_engine<Family>(out, snapshot);
    }

    bool load_state(state_blob::Reader& in) noexcept {
        Blake2Settings<Family> loaded;
        typename Blake2Engine<Family>::Snapshot snapshot;
        bool valid = state_blob::read_parameter_block(in, loaded.block) && settings_valid(loaded);
        const auto flags = in.word<uint8_t>();
        valid = state_blob::read_engine<Family>(in, snapshot) && valid &&
                (flags & ~(kSettingsLastNode | kMessageLastNode)) == 0 &&
                size_allowed(snapshot.digest_length);
        if (valid) {
            loaded.last_node = (flags & kSettingsLastNode) != 0;
            snapshot.last_node = (flags & kMessageLastNode) != 0;
            settings = loaded;
            engine.restore(kernel.compress, snapshot);
            phase = Phase::absorbing;
        }
        cleanse(&snapshot, sizeof snapshot);
        return valid;
    }

    // A name that fixes the size (BLAKE2B-256) allows that size alone.
    static bool size_allowed(size_t size) noexcept {
        return kNamedSize != 0 ? size == kNamedSize : size >= 1 && size <= Family::kMaxDigestBytes;
    }

    // What the table's rows allow (kDigestTable): no key, a size the name allows, a depth of 1 or
    // more, an inner size up to the longest digest; the other fields take any value they hold.
    static bool settings_valid(const Blake2Settings<Family>& loaded) noexcept {
        const ParameterBlock<Family>& block = loaded.block;
        return block.key_length == 0 && size_allowed(block.digest_length) && block.depth >= 1 &&
               block.inner_length <= Family::kMaxDigestBytes;
    }

    static Blake2Settings<Family> starting_settings() noexcept {
        Blake2Settings<Family> settings;
        settings.block.digest_length = kDefaultSize<Family, kNamedSize>;
        return settings;
    }
};

// The callbacks of one family's digest; their symbols name the family and size
// (Digest<Blake2sFamily, 0>).
template <class Family, size_t kNamedSize>
struct Digest : SerializableDigest<DigestContext<Family, kNamedSize>> {
    using Context = DigestContext<Family, kNamedSize>;

    static bool apply_params(Context* ctx, const OSSL_PARAM params[]) noexcept {
        // OpenSSL 3.0 inits a fresh context per message, mostly without params: as in the MAC's
        // init, no parsed copy of the settings for nothing to parse.
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
        ctx->engine.start(ctx->kernel.compress, ctx->settings.parameter_block(0),
                          ctx->settings.last_node);
        ctx->phase = Phase::absorbing;
        return 1;
    }

    static int get_params(OSSL_PARAM params[]) noexcept {
        constexpr size_t size = kDefaultSize<Family, kNamedSize>;  // what EVP_MD_get_size says
        return get_digest_params(params, Family::kBlockBytes, size) ? 1 : 0;
    }

    static int set_ctx_params(void* vctx, const OSSL_PARAM params[]) noexcept {
        return apply_params(static_cast<Context*>(vctx), params) ? 1 : 0;
    }
};

using Blake2bDigest = Digest<Blake2bFamily, 0>;
using Blake2sDigest = Digest<Blake2sFamily, 0>;
using Blake2b160Digest = Digest<Blake2bFamily, 20>;
using Blake2b256Digest = Digest<Blake2bFamily, 32>;
using Blake2b384Digest = Digest<Blake2bFamily, 48>;
using Blake2s128Digest = Digest<Blake2sFamily, 16>;
using Blake2s160Digest = Digest<Blake2sFamily, 20>;
using Blake2s224Digest = Digest<Blake2sFamily, 28>;

}  // namespace

extern const OSSL_DISPATCH kDigestBlake2b512Functions[] = B2_DIGEST_FUNCTIONS(Blake2bDigest);
extern const OSSL_DISPATCH kDigestBlake2s256Functions[] = B2_DIGEST_FUNCTIONS(Blake2sDigest);
extern const OSSL_DISPATCH kDigestBlake2b160Functions[] = B2_DIGEST_FUNCTIONS(Blake2b160Digest);
extern const OSSL_DISPATCH kDigestBlake2b256Functions[] = B2_DIGEST_FUNCTIONS(Blake2b256Digest);
extern const OSSL_DISPATCH kDigestBlake2b384Functions[] = B2_DIGEST_FUNCTIONS(Blake2b384Digest);
extern const OSSL_DISPATCH kDigestBlake2s128Functions[] = B2_DIGEST_FUNCTIONS(Blake2s128Digest);
extern const OSSL_DISPATCH kDigestBlake2s160Functions[] = B2_DIGEST_FUNCTIONS(Blake2s160Digest);
extern const OSSL_DISPATCH kDigestBlake2s224Functions[] = B2_DIGEST_FUNCTIONS(Blake2s224Digest);

}  // namespace blake2simd
