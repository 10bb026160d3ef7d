// Differential fuzz target: random data, update splits and parameters through every kernel
// compiled in that this host runs (on the streaming engine), the provider through EVP, and
// OpenSSL's default provider, all against an independent RFC 7693 implementation. The same
// message and key also go through BLAKE2bp: every usable 4-lane candidate on the BLAKE2bp
// engine and BLAKE2BP-512 / BLAKE2BPMAC through EVP, against rfc7693.hpp's BLAKE2bp. The case
// folded into BLAKE2s's limits (size and key 1..32, salt and personalization of 8 bytes) goes
// the same ways through BLAKE2s (every BLAKE2s kernel on the engine, BLAKE2S-256 / BLAKE2SMAC,
// the default provider's MAC and plain digest) against rfc7693.hpp's BLAKE2s, and through
// BLAKE2sp (every usable 8-lane candidate on the engine, BLAKE2SP-256 / BLAKE2SPMAC) against
// rfc7693.hpp's BLAKE2sp. Both cases also go through BLAKE2X (BLAKE2XB/BLAKE2XBMAC,
// BLAKE2XS/BLAKE2XSMAC through EVP, the key choosing the MAC) against rfc7693::blake2x, with an
// output length and a length mode (known: fixed at init; unknown: xof, read by FinalXOF) taken
// from the case's other fields.
// SPDX-License-Identifier: Apache-2.0
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <cstring>
#include <vector>

#include "blake2_engine.hpp"
#include "engine_kernels.hpp"
#include "fuzz_common.hpp"
#include "rfc7693.hpp"

namespace {

using Bytes = std::vector<uint8_t>;

struct Case {
    size_t out_len = 64;
    uint8_t key[64] = {};
    size_t key_len = 0;
    bool has_salt = false;
    bool has_personal = false;
    uint8_t salt[16] = {};
    uint8_t personal[16] = {};
    size_t salt_len = 16;  // of salt and personal: 16 for BLAKE2b, 8 for BLAKE2s
    std::vector<size_t> splits;
    const uint8_t* message = nullptr;
    size_t message_len = 0;
};

Case read_case(fuzz::Reader& in) {
    Case c;
    const uint8_t shape = in.byte();
    c.out_len = 1 + in.byte() % 64;
    if ((shape & 1) != 0) {
        c.key_len = 1 + in.byte() % 64;
        size_t n = c.key_len;
        std::memcpy(c.key, in.take(n), n);
    }
    c.has_salt = (shape & 2) != 0;
    c.has_personal = (shape & 4) != 0;
    if ((shape & 8) == 0) {
        c.out_len = 64;  // keep plain digests common: the default provider can check those
    }
    if (c.has_salt) {
        size_t n = 16;
        std::memcpy(c.salt, in.take(n), n);
    }
    if (c.has_personal) {
        size_t n = 16;
        std::memcpy(c.personal, in.take(n), n);
    }
    const size_t split_count = in.byte() % 8;
    for (size_t i = 0; i < split_count; ++i) {
        c.splits.push_back(in.u16() % 600);
    }
    c.message = in.rest(c.message_len);
    return c;
}

// The oracle of one family member: rfc7693::Options (BLAKE2b) or rfc7693::blake2s::Options.
template <class Options>
Bytes oracle(const Case& c) {
    Options o;
    o.out_len = c.out_len;
    o.key = c.key;
    o.key_len = c.key_len;
    o.salt = c.has_salt ? c.salt : nullptr;
    o.personal = c.has_personal ? c.personal : nullptr;
    return rfc7693::detail::hash(o, c.message, c.message_len);
}

template <class Update>
void feed(const Case& c, Update update) {
    size_t offset = 0;
    for (const size_t split : c.splits) {
        const size_t n = split < c.message_len - offset ? split : c.message_len - offset;
        update(c.message + offset, n);
        offset += n;
    }
    update(c.message + offset, c.message_len - offset);
}

template <class Family>
Bytes engine_digest(const Case& c, typename Family::Compress compress) {
    blake2simd::ParameterBlock<Family> params;
    params.digest_length = static_cast<uint8_t>(c.out_len);
    params.key_length = static_cast<uint8_t>(c.key_len);
    if (c.has_salt) {
        std::memcpy(params.salt, c.salt, Family::kSaltBytes);
    }
    if (c.has_personal) {
        std::memcpy(params.personal, c.personal, Family::kPersonalBytes);
    }
    blake2simd::Blake2Engine<Family> engine;
    engine.start(compress, params);
    if (c.key_len > 0) {
        uint8_t block[Family::kBlockBytes] = {};
        std::memcpy(block, c.key, c.key_len);
        engine.update(block, sizeof block);
    }
    feed(c, [&engine](const uint8_t* data, size_t n) { engine.update(data, n); });
    Bytes out(c.out_len);
    engine.finish(out.data());
    return out;
}

// The salt/custom/size params; pointers into `c`, so `c` must outlive the array.
struct ParamArray {
    size_t size;
    OSSL_PARAM params[5];
};

// The case's salt and personalization (the MAC names, which the digests share) from params[n].
size_t append_salt_and_custom(const Case& c, OSSL_PARAM* params, size_t n) {
    if (c.has_salt) {
        params[n++] = OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_SALT,
                                                        const_cast<uint8_t*>(c.salt), c.salt_len);
    }
    if (c.has_personal) {
        params[n++] = OSSL_PARAM_construct_octet_string(
            OSSL_MAC_PARAM_CUSTOM, const_cast<uint8_t*>(c.personal), c.salt_len);
    }
    return n;
}

void build_params(const Case& c, ParamArray& a, bool with_key) {
    size_t n = 0;
    a.size = c.out_len;
    a.params[n++] = OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &a.size);
    n = append_salt_and_custom(c, a.params, n);
    if (with_key) {
        a.params[n++] = OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_KEY,
                                                          const_cast<uint8_t*>(c.key), c.key_len);
    }
    a.params[n] = OSSL_PARAM_construct_end();
}

Bytes evp_mac(const Case& c, EVP_MAC* mac, bool key_as_param) {
    EVP_MAC_CTX* ctx = EVP_MAC_CTX_new(mac);
    ParamArray a;
    build_params(c, a, key_as_param);
    Bytes out(64);
    size_t length = 0;
    bool ok = key_as_param ? EVP_MAC_init(ctx, nullptr, 0, a.params) == 1
                           : EVP_MAC_init(ctx, c.key, c.key_len, a.params) == 1;
    feed(c, [&](const uint8_t* data, size_t n) { ok = ok && EVP_MAC_update(ctx, data, n) == 1; });
    ok = ok && EVP_MAC_final(ctx, out.data(), &length, out.size()) == 1;
    EVP_MAC_CTX_free(ctx);
    out.resize(ok ? length : 0);
    return out;
}

Bytes evp_digest(const Case& c, const EVP_MD* md, bool with_params) {
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    ParamArray a;
    build_params(c, a, false);
    Bytes out(64);
    unsigned int length = 0;
    bool ok = EVP_DigestInit_ex2(ctx, md, with_params ? a.params : nullptr) == 1;
    feed(c, [&](const uint8_t* data, size_t n) { ok = ok && EVP_DigestUpdate(ctx, data, n) == 1; });
    ok = ok && EVP_DigestFinal_ex(ctx, out.data(), &length) == 1;
    EVP_MD_CTX_free(ctx);
    out.resize(ok ? length : 0);
    return out;
}

// --- BLAKE2bp: fixed 64-byte output, no salt or personalization; the case's key and splits.

Bytes engine_blake2bp(const Case& c, blake2simd::CompressFn compress,
                      blake2simd::Compress4Fn compress4) {
    blake2simd::Blake2bpEngine engine;
    engine.start(compress, compress4, c.key, c.key_len);
    feed(c, [&engine](const uint8_t* data, size_t n) { engine.update(data, n); });
    Bytes out(64);
    engine.finish(out.data());
    return out;
}

// A tree mode's digest (no key) or MAC, of output size `size`, through EVP.
Bytes evp_tree(const Case& c, const EVP_MD* md, EVP_MAC* mac, size_t size, bool key_as_param) {
    Bytes out(size);
    bool ok = true;
    if (c.key_len == 0) {
        EVP_MD_CTX* ctx = EVP_MD_CTX_new();
        unsigned int length = 0;
        ok = EVP_DigestInit_ex2(ctx, md, nullptr) == 1;
        feed(c, [&](const uint8_t* data, size_t n) {
            ok = ok && EVP_DigestUpdate(ctx, data, n) == 1;
        });
        ok = ok && EVP_DigestFinal_ex(ctx, out.data(), &length) == 1 && length == size;
        EVP_MD_CTX_free(ctx);
    } else {
        EVP_MAC_CTX* ctx = EVP_MAC_CTX_new(mac);
        OSSL_PARAM key_param[] = {OSSL_PARAM_construct_octet_string(
                                      OSSL_MAC_PARAM_KEY, const_cast<uint8_t*>(c.key), c.key_len),
                                  OSSL_PARAM_construct_end()};
        size_t length = 0;
        ok = key_as_param ? EVP_MAC_init(ctx, nullptr, 0, key_param) == 1
                          : EVP_MAC_init(ctx, c.key, c.key_len, nullptr) == 1;
        feed(c,
             [&](const uint8_t* data, size_t n) { ok = ok && EVP_MAC_update(ctx, data, n) == 1; });
        ok = ok && EVP_MAC_final(ctx, out.data(), &length, out.size()) == 1 && length == size;
        EVP_MAC_CTX_free(ctx);
    }
    out.resize(ok ? size : 0);
    return out;
}

void check_blake2bp(const Case& c) {
    namespace dispatch = blake2simd::dispatch;
    const Bytes expected = rfc7693::blake2bp(c.key, c.key_len, c.message, c.message_len);
    const auto candidates = dispatch::candidates(dispatch::Form::blake2bp);
    const auto usable = dispatch::facts(dispatch::Form::blake2bp);
    for (size_t i = 0; i < candidates.size(); ++i) {
        if (usable[i].usable && engine_blake2bp(c, single_lane_for(candidates[i].id),
                                                candidates[i].entry.blake2b_lanes) != expected) {
            fuzz::mismatch(candidates[i].lane_by_lane ? "BLAKE2bp engine, lane by lane"
                                                      : "BLAKE2bp engine, native 4-lane");
        }
    }
    const fuzz::Providers& p = fuzz::providers();
    if (evp_tree(c, p.our_bp_md, p.our_bp_mac, 64, false) != expected) {
        fuzz::mismatch(c.key_len == 0 ? "blake2simd BLAKE2BP-512" : "blake2simd BLAKE2BPMAC");
    }
    if (c.key_len > 0 && evp_tree(c, p.our_bp_md, p.our_bp_mac, 64, true) != expected) {
        fuzz::mismatch("blake2simd BLAKE2BPMAC, key as a param");
    }
}

// --- BLAKE2s and BLAKE2sp: the case folded into BLAKE2s's limits.

Case blake2s_case(const Case& c) {
    Case s = c;
    s.out_len = 1 + (c.out_len - 1) % 32;
    s.key_len = c.key_len == 0 ? 0 : 1 + (c.key_len - 1) % 32;
    s.salt_len = 8;
    return s;
}

void check_blake2s(const Case& c) {
    const Bytes expected = oracle<rfc7693::blake2s::Options>(c);
    for (const blake2simd::Blake2sFamily::Kernel* kernel : runnable_blake2s_kernels()) {
        if (engine_digest<blake2simd::Blake2sFamily>(c, kernel->compress) != expected) {
            fuzz::mismatch(kernel->name);
        }
    }
    const fuzz::Providers& p = fuzz::providers();
    if (c.key_len > 0) {
        if (evp_mac(c, p.our_s_mac, false) != expected) {
            fuzz::mismatch("blake2simd BLAKE2SMAC");
        }
        if (evp_mac(c, p.our_s_mac, true) != expected) {
            fuzz::mismatch("blake2simd BLAKE2SMAC, key as a param");
        }
        if (evp_mac(c, p.default_s_mac, false) != expected) {
            fuzz::mismatch("default BLAKE2SMAC");
        }
        return;
    }
    if (evp_digest(c, p.our_s_md, true) != expected) {
        fuzz::mismatch("blake2simd BLAKE2S-256");
    }
    // OpenSSL 3.0's default digest has no size/salt/custom: compare plain digests only.
    if (c.out_len == 32 && !c.has_salt && !c.has_personal &&
        evp_digest(c, p.default_s_md, false) != expected) {
        fuzz::mismatch("default BLAKE2S-256");
    }
}

Bytes engine_blake2sp(const Case& c, blake2simd::Blake2sCompressFn compress,
                      blake2simd::Blake2sCompress8Fn compress8) {
    blake2simd::Blake2spEngine engine;
    engine.start(compress, compress8, c.key, c.key_len);
    feed(c, [&engine](const uint8_t* data, size_t n) { engine.update(data, n); });
    Bytes out(32);
    engine.finish(out.data());
    return out;
}

void check_blake2sp(const Case& c) {
    namespace dispatch = blake2simd::dispatch;
    const Bytes expected = rfc7693::blake2sp(c.key, c.key_len, c.message, c.message_len);
    const auto candidates = dispatch::candidates(dispatch::Form::blake2sp);
    const auto usable = dispatch::facts(dispatch::Form::blake2sp);
    for (size_t i = 0; i < candidates.size(); ++i) {
        if (usable[i].usable && engine_blake2sp(c, blake2s_single_lane_for(candidates[i].id),
                                                candidates[i].entry.blake2s_lanes) != expected) {
            fuzz::mismatch(candidates[i].lane_by_lane ? "BLAKE2sp engine, lane by lane"
                                                      : "BLAKE2sp engine, native 8-lane");
        }
    }
    const fuzz::Providers& p = fuzz::providers();
    if (evp_tree(c, p.our_sp_md, p.our_sp_mac, 32, false) != expected) {
        fuzz::mismatch(c.key_len == 0 ? "blake2simd BLAKE2SP-256" : "blake2simd BLAKE2SPMAC");
    }
    if (c.key_len > 0 && evp_tree(c, p.our_sp_md, p.our_sp_mac, 32, true) != expected) {
        fuzz::mismatch("blake2simd BLAKE2SPMAC, key as a param");
    }
}

// --- BLAKE2X: the case's key, salt, personalization and splits; the output length and mode from
// its other fields (so the corpus keeps its meaning): 1..64 plus up to 12 more blocks' worth.

struct XofShape {
    size_t length;
    bool unknown;
};

XofShape xof_shape(const Case& c) {
    return {c.out_len + 61 * (c.message_len % 13), c.splits.size() % 2 == 1};
}

template <class Options>
Bytes xof_oracle(const Case& c, XofShape shape) {
    Options o;
    o.key = c.key;
    o.key_len = c.key_len;
    o.salt = c.has_salt ? c.salt : nullptr;
    o.personal = c.has_personal ? c.personal : nullptr;
    return rfc7693::detail::blake2x(o, c.message, c.message_len, shape.length, shape.unknown);
}

// Salt and custom, and in the known-length mode the length (xoflen, or the MAC's size); in the
// unknown-length mode the MAC's xof 1.
struct XofParams {
    size_t length;
    int xof = 1;
    OSSL_PARAM params[5];
};

void build_xof_params(const Case& c, XofShape shape, XofParams& a, bool mac) {
    size_t n = 0;
    a.length = shape.length;
    if (!shape.unknown) {
        a.params[n++] = OSSL_PARAM_construct_size_t(
            mac ? OSSL_MAC_PARAM_SIZE : OSSL_DIGEST_PARAM_XOFLEN, &a.length);
    } else if (mac) {
        a.params[n++] = OSSL_PARAM_construct_int(OSSL_MAC_PARAM_XOF, &a.xof);
    }
    n = append_salt_and_custom(c, a.params, n);
    a.params[n] = OSSL_PARAM_construct_end();
}

Bytes evp_xof_digest(const Case& c, XofShape shape, const EVP_MD* md) {
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    XofParams a;
    build_xof_params(c, shape, a, false);
    Bytes out(shape.length);
    bool ok = EVP_DigestInit_ex2(ctx, md, a.params) == 1;
    feed(c, [&](const uint8_t* data, size_t n) { ok = ok && EVP_DigestUpdate(ctx, data, n) == 1; });
    ok = ok && EVP_DigestFinalXOF(ctx, out.data(), out.size()) == 1;
    EVP_MD_CTX_free(ctx);
    return ok ? out : Bytes{};
}

Bytes evp_xof_mac(const Case& c, XofShape shape, EVP_MAC* mac) {
    EVP_MAC_CTX* ctx = EVP_MAC_CTX_new(mac);
    XofParams a;
    build_xof_params(c, shape, a, true);
    Bytes out(shape.length);
    size_t length = 0;
    bool ok = EVP_MAC_init(ctx, c.key, c.key_len, a.params) == 1;
    feed(c, [&](const uint8_t* data, size_t n) { ok = ok && EVP_MAC_update(ctx, data, n) == 1; });
    if (shape.unknown) {
        ok = ok && EVP_MAC_finalXOF(ctx, out.data(), out.size()) == 1;
    } else {
        ok = ok && EVP_MAC_final(ctx, out.data(), &length, out.size()) == 1 && length == out.size();
    }
    EVP_MAC_CTX_free(ctx);
    return ok ? out : Bytes{};
}

template <class Options>
void check_blake2x(const Case& c, const EVP_MD* md, EVP_MAC* mac, const char* what) {
    const XofShape shape = xof_shape(c);
    const Bytes expected = xof_oracle<Options>(c, shape);
    const Bytes got = c.key_len > 0 ? evp_xof_mac(c, shape, mac) : evp_xof_digest(c, shape, md);
    if (got != expected) {
        fuzz::mismatch(what);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    fuzz::Reader in(data, size);
    const Case c = read_case(in);
    const Bytes expected = oracle<rfc7693::Options>(c);

    for (const blake2simd::Blake2bFamily::Kernel* kernel : runnable_kernels()) {
        if (engine_digest<blake2simd::Blake2bFamily>(c, kernel->compress) != expected) {
            fuzz::mismatch(kernel->name);
        }
    }
    const fuzz::Providers& p = fuzz::providers();
    if (c.key_len > 0) {
        if (evp_mac(c, p.our_mac, false) != expected) {
            fuzz::mismatch("blake2simd MAC");
        }
        if (evp_mac(c, p.our_mac, true) != expected) {
            fuzz::mismatch("blake2simd MAC, key as a param");
        }
        if (evp_mac(c, p.default_mac, false) != expected) {
            fuzz::mismatch("default MAC");
        }
    } else {
        if (evp_digest(c, p.our_md, true) != expected) {
            fuzz::mismatch("blake2simd digest");
        }
        // OpenSSL 3.0's default digest has no size/salt/custom: compare plain digests only.
        if (c.out_len == 64 && !c.has_salt && !c.has_personal &&
            evp_digest(c, p.default_md, false) != expected) {
            fuzz::mismatch("default digest");
        }
    }
    check_blake2bp(c);
    const Case s = blake2s_case(c);
    check_blake2s(s);
    check_blake2sp(s);
    check_blake2x<rfc7693::Options>(c, p.our_xb_md, p.our_xb_mac, "blake2simd BLAKE2XB(MAC)");
    check_blake2x<rfc7693::blake2s::Options>(s, p.our_xs_md, p.our_xs_mac,
                                             "blake2simd BLAKE2XS(MAC)");
    return 0;
}
