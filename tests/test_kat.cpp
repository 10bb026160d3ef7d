// Known-answer tests through EVP only: the official KATs of BLAKE2b, BLAKE2s and BLAKE2sp (digest
// and MAC) and our extended hashlib vectors (salt, personalization, every size, long messages).
// SPDX-License-Identifier: Apache-2.0
//
// Usage: test_kat [--quick]   (--quick: first 64 official entries of each kind and the
// extended entries up to 8 KiB, for emulated runs). Honours B2_EXPECT_KERNEL,
// B2_ALLOWED_KERNELS and B2_SKIP_UNLESS_KERNEL (see tests/support/b2test/evp.hpp).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "b2test.hpp"
#include "rfc7693.hpp"

namespace {

using b2test::Blake2bParams;
using b2test::Blake2bVector;
using b2test::Report;

// The independent RFC 7693 code (tests/support/rfc7693.hpp) on an extended vector: the vectors
// pin the oracle the engine-level tests rely on.
template <class Options, size_t kFieldBytes, class Hash>
std::vector<uint8_t> sequential_oracle(const Blake2bVector& vector, Hash hash) {
    uint8_t salt[kFieldBytes] = {};
    uint8_t personal[kFieldBytes] = {};
    std::copy(vector.salt.begin(), vector.salt.end(), salt);
    std::copy(vector.custom.begin(), vector.custom.end(), personal);
    Options options;
    options.out_len = vector.size;
    options.key = vector.key.data();
    options.key_len = vector.key.size();
    options.salt = salt;
    options.personal = personal;
    return hash(options, vector.message.data(), vector.message.size());
}

std::vector<uint8_t> blake2b_oracle(const Blake2bVector& vector) {
    return sequential_oracle<rfc7693::Options, 16>(
        vector, [](const rfc7693::Options& o, const uint8_t* data, size_t length) {
            return rfc7693::hash(o, data, length);
        });
}

std::vector<uint8_t> blake2s_oracle(const Blake2bVector& vector) {
    return sequential_oracle<rfc7693::blake2s::Options, 8>(
        vector, [](const rfc7693::blake2s::Options& o, const uint8_t* data, size_t length) {
            return rfc7693::blake2s::hash(o, data, length);
        });
}

std::vector<uint8_t> blake2sp_oracle(const Blake2bVector& vector) {
    return rfc7693::blake2sp(vector.key.data(), vector.key.size(), vector.message.data(),
                             vector.message.size());
}

// A digest whose name fixes its size (RFC 7693 section 4): BLAKE2 with that digest length.
struct NamedSize {
    size_t size;
    std::vector<const char*> names;  // canonical name first, then aliases and the OID
};

// One algorithm pair (digest and MAC) and its vector files.
struct Algorithm {
    const char* family;  // "BLAKE2b": the messages' name for it
    const char* digest;
    const char* mac;
    std::vector<const char*> digest_names;  // aliases and OIDs, each must reach us
    std::vector<const char*> mac_names;
    const char* official_hash;  // the "hash" of its entries in the official JSON layout
    const char* official_file;
    const char* extended_file;
    size_t block_bytes;
    size_t min_extended;
    bool takes_params;  // size/salt/custom (the tree modes take none)
    std::vector<uint8_t> (*oracle)(const Blake2bVector&);
    std::vector<NamedSize> named_sizes;  // checked on the extended vectors of their size
};

const Algorithm kBlake2b{
    "BLAKE2b",
    "BLAKE2B-512",
    "BLAKE2BMAC",
    {"BLAKE2B-512", "BLAKE2b512", "1.3.6.1.4.1.1722.12.2.1.16", "blake2b-512"},
    {"BLAKE2BMAC", "1.3.6.1.4.1.1722.12.2.1", "blake2bmac"},
    "blake2b",
    "blake2b-kat.json",
    "blake2b-extended.json",
    128,
    300,
    true,
    &blake2b_oracle,
    {{20, {"BLAKE2B-160", "BLAKE2b160", "1.3.6.1.4.1.1722.12.2.1.5", "blake2b-160"}},
     {32, {"BLAKE2B-256", "BLAKE2b256", "1.3.6.1.4.1.1722.12.2.1.8", "blake2b-256"}},
     {48, {"BLAKE2B-384", "BLAKE2b384", "1.3.6.1.4.1.1722.12.2.1.12", "blake2b-384"}}}};
// Served by a BLAKE2s kernel; a request naming a kernel without a BLAKE2s form falls back to
// the automatic choice, so only the BLAKE2b kernel is held to the request.
const Algorithm kBlake2s{
    "BLAKE2s",
    "BLAKE2S-256",
    "BLAKE2SMAC",
    {"BLAKE2S-256", "BLAKE2s256", "1.3.6.1.4.1.1722.12.2.2.8", "blake2s-256"},
    {"BLAKE2SMAC", "1.3.6.1.4.1.1722.12.2.2", "blake2smac"},
    "blake2s",
    "blake2s-kat.json",
    "blake2s-extended.json",
    64,
    250,
    true,
    &blake2s_oracle,
    {{16, {"BLAKE2S-128", "BLAKE2s128", "1.3.6.1.4.1.1722.12.2.2.4", "blake2s-128"}},
     {20, {"BLAKE2S-160", "BLAKE2s160", "1.3.6.1.4.1.1722.12.2.2.5", "blake2s-160"}},
     {28, {"BLAKE2S-224", "BLAKE2s224", "1.3.6.1.4.1.1722.12.2.2.7", "blake2s-224"}}}};
const Algorithm kBlake2sp{"BLAKE2sp",
                          "BLAKE2SP-256",
                          "BLAKE2SPMAC",
                          {"BLAKE2SP-256", "blake2sp-256"},
                          {"BLAKE2SPMAC", "blake2spmac"},
                          "blake2sp",
                          "blake2sp-kat.json",
                          "blake2sp-extended.json",
                          64,
                          150,
                          false,
                          &blake2sp_oracle,
                          {}};

constexpr size_t kQuickOfficialPerKind = 64;
constexpr size_t kQuickMaxExtendedLength = 8193;

struct Options {
    bool quick = false;
};

std::string describe(const Blake2bVector& vector, const char* how,
                     const std::optional<std::vector<uint8_t>>& got) {
    return vector.name + " (" + how + "): expected " + b2test::to_hex(vector.expected) + ", got " +
           (got ? b2test::to_hex(*got) : std::string("failure"));
}

// A split that varies with the entry: a few short pieces (one empty) straddling block edges.
std::vector<size_t> pieces_for(size_t index, size_t block_bytes) {
    return {index % 7, 0, block_bytes - index % block_bytes, 1, block_bytes + 1};
}

b2test::MdPtr fetch_digest_checked(Report& report, const b2test::ProviderSession& session,
                                   const char* name, const char* propq) {
    b2test::MdPtr md = session.fetch_md(name, propq);
    const std::string where =
        std::string("EVP_MD_fetch(") + name + ", " + (propq != nullptr ? propq : "NULL") + ")";
    B2_CHECK(report, md != nullptr, where);
    B2_CHECK(report, b2test::provider_name(md.get()) == b2test::kOurProvider,
             where + " served by " + b2test::provider_name(md.get()));
    return md;
}

b2test::MacPtr fetch_mac_checked(Report& report, const b2test::ProviderSession& session,
                                 const char* name, const char* propq) {
    b2test::MacPtr mac = session.fetch_mac(name, propq);
    const std::string where =
        std::string("EVP_MAC_fetch(") + name + ", " + (propq != nullptr ? propq : "NULL") + ")";
    B2_CHECK(report, mac != nullptr, where);
    B2_CHECK(report, b2test::provider_name(mac.get()) == b2test::kOurProvider,
             where + " served by " + b2test::provider_name(mac.get()));
    return mac;
}

// Reads the kernel from a freshly initialised ctx of each face, prints it and applies the
// environment policy. Returns true if the test must be skipped. `bound_to_request`: the BLAKE2b
// kernel must be the requested one; the other families' may fall back to the automatic choice
// (then only B2_ALLOWED_KERNELS applies).
bool report_kernels(Report& report, const Algorithm& algorithm, const EVP_MD* md,
                    const EVP_MAC* mac, bool bound_to_request) {
    const b2test::KernelPolicy policy;
    b2test::MdCtxPtr md_ctx(EVP_MD_CTX_new());
    B2_REQUIRE(md_ctx && EVP_DigestInit_ex2(md_ctx.get(), md, nullptr) == 1, "digest init");
    const auto digest_kernel = b2test::served_kernel(md_ctx.get());
    B2_CHECK(report, digest_kernel && !digest_kernel->empty(),
             "EVP_MD_CTX_get_params(kernel) answered");

    b2test::MacCtxPtr mac_ctx(EVP_MAC_CTX_new(const_cast<EVP_MAC*>(mac)));
    const uint8_t key[1] = {1};
    B2_REQUIRE(mac_ctx && EVP_MAC_init(mac_ctx.get(), key, sizeof key, nullptr) == 1, "MAC init");
    const auto mac_kernel = b2test::served_kernel(mac_ctx.get());
    B2_CHECK(report, mac_kernel && !mac_kernel->empty(), "EVP_MAC_CTX_get_params(kernel) answered");

    const std::string digest_name = digest_kernel.value_or("(unknown)");
    const std::string mac_name = mac_kernel.value_or("(unknown)");
    std::printf("kernel serving %s: %s, %s: %s\n", algorithm.digest, digest_name.c_str(),
                algorithm.mac, mac_name.c_str());
    if (bound_to_request) {
        if (policy.wants_skip(digest_name) || policy.wants_skip(mac_name)) {
            return true;
        }
        policy.check(report, digest_name, "digest");
        policy.check(report, mac_name, "MAC");
        return false;
    }
    B2_CHECK(report, digest_name == mac_name,
             std::string(algorithm.family) + ": digest kernel " + digest_name + ", MAC kernel " +
                 mac_name);
    policy.check_allowed(report, digest_name, algorithm.digest);
    return false;
}

void check_digest_vector(Report& report, EVP_MD_CTX* ctx, const EVP_MD* md,
                         const Blake2bVector& vector, size_t index, bool with_params,
                         size_t block_bytes) {
    Blake2bParams params;
    if (with_params) {
        // All three every time (empty salt/custom included): settings may persist across
        // re-inits of the reused ctx, as OpenSSL's MAC does.
        params.set_size(vector.size);
        params.set_salt(vector.salt);
        params.set_custom(vector.custom);
    }
    const OSSL_PARAM* built = params.build(Blake2bParams::Face::digest);
    const auto whole = b2test::run_digest(ctx, md, built, vector.message);
    B2_CHECK(report, whole == vector.expected, describe(vector, "digest, one update", whole));

    if (with_params) {
        // A ctx initialised with a size must report it back.
        size_t reported = 0;
        OSSL_PARAM query[] = {OSSL_PARAM_construct_size_t("size", &reported),
                              OSSL_PARAM_construct_end()};
        B2_CHECK(report,
                 EVP_DigestInit_ex2(ctx, md, built) == 1 &&
                     EVP_MD_CTX_get_params(ctx, query) == 1 && reported == vector.size,
                 vector.name + ": gettable size " + std::to_string(reported));
    }

    const std::vector<size_t> pieces = pieces_for(index, block_bytes);
    const auto split = b2test::run_digest(ctx, md, built, vector.message, pieces);
    B2_CHECK(report, split == vector.expected, describe(vector, "digest, split updates", split));
}

void check_mac_vector(Report& report, EVP_MAC_CTX* ctx, const Blake2bVector& vector, size_t index,
                      bool with_params, size_t block_bytes) {
    Blake2bParams params;
    if (with_params) {
        // All three every time (empty salt/custom included): settings may persist across
        // re-inits of the reused ctx, as OpenSSL's MAC does.
        params.set_size(vector.size);
        params.set_salt(vector.salt);
        params.set_custom(vector.custom);
    }
    const OSSL_PARAM* built = params.build(Blake2bParams::Face::mac);
    const auto whole = b2test::run_mac(ctx, vector.key, built, vector.message);
    B2_CHECK(report, whole == vector.expected, describe(vector, "MAC, one update", whole));
    B2_CHECK(report, EVP_MAC_CTX_get_mac_size(ctx) == vector.size,
             vector.name + ": EVP_MAC_CTX_get_mac_size " +
                 std::to_string(EVP_MAC_CTX_get_mac_size(ctx)));

    const std::vector<size_t> pieces = pieces_for(index, block_bytes);
    const auto split = b2test::run_mac(ctx, vector.key, built, vector.message, pieces);
    B2_CHECK(report, split == vector.expected, describe(vector, "MAC, split updates", split));
}

void run_official(Report& report, const Options& options, const Algorithm& algorithm,
                  const EVP_MD* md, const EVP_MAC* mac) {
    const auto vectors = b2test::load_official_kat(b2test::vectors_path(algorithm.official_file),
                                                   algorithm.official_hash);
    B2_CHECK(report, vectors.size() == 512,
             std::string("official ") + algorithm.official_hash +
                 " entries: " + std::to_string(vectors.size()));
    b2test::MdCtxPtr md_ctx(EVP_MD_CTX_new());
    b2test::MacCtxPtr mac_ctx(EVP_MAC_CTX_new(const_cast<EVP_MAC*>(mac)));
    B2_REQUIRE(md_ctx && mac_ctx, "ctx allocation");
    size_t unkeyed = 0;
    size_t keyed = 0;
    for (size_t index = 0; index < vectors.size(); ++index) {
        const Blake2bVector& vector = vectors[index];
        if (vector.key.empty()) {
            if (!options.quick || unkeyed < kQuickOfficialPerKind) {
                check_digest_vector(report, md_ctx.get(), md, vector, index, false,
                                    algorithm.block_bytes);
            }
            ++unkeyed;
        } else {
            if (!options.quick || keyed < kQuickOfficialPerKind) {
                check_mac_vector(report, mac_ctx.get(), vector, index, false,
                                 algorithm.block_bytes);
            }
            ++keyed;
        }
    }
    B2_CHECK(report, unkeyed == 256 && keyed == 256,
             "official split: " + std::to_string(unkeyed) + " unkeyed, " + std::to_string(keyed) +
                 " keyed");
    std::printf("%s official KAT: %zu unkeyed, %zu keyed entries%s\n", algorithm.family, unkeyed,
                keyed, options.quick ? " (quick: first 64 of each checked)" : "");
}

void run_extended(Report& report, const Options& options, const Algorithm& algorithm,
                  const EVP_MD* md, const EVP_MAC* mac) {
    const auto vectors = b2test::load_extended(b2test::vectors_path(algorithm.extended_file));
    B2_CHECK(report, vectors.size() >= algorithm.min_extended,
             std::string(algorithm.extended_file) + " entries: " + std::to_string(vectors.size()));
    b2test::MdCtxPtr md_ctx(EVP_MD_CTX_new());
    b2test::MacCtxPtr mac_ctx(EVP_MAC_CTX_new(const_cast<EVP_MAC*>(mac)));
    B2_REQUIRE(md_ctx && mac_ctx, "ctx allocation");
    size_t checked = 0;
    for (size_t index = 0; index < vectors.size(); ++index) {
        const Blake2bVector& vector = vectors[index];
        if (options.quick && vector.message.size() > kQuickMaxExtendedLength) {
            continue;
        }
        const bool with_params = algorithm.takes_params;
        B2_CHECK(report,
                 with_params || (vector.salt.empty() && vector.custom.empty() &&
                                 vector.size == static_cast<size_t>(EVP_MD_get_size(md))),
                 vector.name + ": salt, custom or size given to a tree mode");
        if (!options.quick) {
            B2_CHECK(report, algorithm.oracle(vector) == vector.expected,
                     vector.name + ": the RFC 7693 oracle disagrees with the vector");
        }
        if (vector.key.empty()) {
            check_digest_vector(report, md_ctx.get(), md, vector, index, with_params,
                                algorithm.block_bytes);
        } else {
            check_mac_vector(report, mac_ctx.get(), vector, index, with_params,
                             algorithm.block_bytes);
        }
        ++checked;
    }
    std::printf("%s extended vectors: %zu of %zu entries checked\n", algorithm.family, checked,
                vectors.size());
}

// Every name must reach our implementation and compute the same thing.
void run_aliases(Report& report, const b2test::ProviderSession& session, const Algorithm& algorithm,
                 const EVP_MD* md, const EVP_MAC* mac) {
    const std::vector<uint8_t> message = b2test::pattern_mod251(200);
    b2test::MdCtxPtr md_ctx(EVP_MD_CTX_new());
    const auto reference_digest = b2test::run_digest(md_ctx.get(), md, nullptr, message);
    B2_CHECK(report, reference_digest.has_value(), std::string("digest via ") + algorithm.digest);

    for (const char* name : algorithm.digest_names) {
        for (const char* propq : {b2test::kOurPropq, static_cast<const char*>(nullptr)}) {
            const auto alias = fetch_digest_checked(report, session, name, propq);
            if (alias) {
                const auto got = b2test::run_digest(md_ctx.get(), alias.get(), nullptr, message);
                B2_CHECK(report, got == reference_digest, std::string("digest via ") + name);
            }
        }
    }

    const std::vector<uint8_t> key =
        b2test::pattern_mod251(static_cast<size_t>(EVP_MD_get_size(md)));
    b2test::MacCtxPtr reference_ctx(EVP_MAC_CTX_new(const_cast<EVP_MAC*>(mac)));
    const auto reference_mac = b2test::run_mac(reference_ctx.get(), key, nullptr, message);
    B2_CHECK(report, reference_mac.has_value(), std::string("MAC via ") + algorithm.mac);
    for (const char* name : algorithm.mac_names) {
        for (const char* propq : {b2test::kOurPropq, static_cast<const char*>(nullptr)}) {
            const auto alias = fetch_mac_checked(report, session, name, propq);
            if (alias) {
                b2test::MacCtxPtr ctx(EVP_MAC_CTX_new(alias.get()));
                const auto got = b2test::run_mac(ctx.get(), key, nullptr, message);
                B2_CHECK(report, got == reference_mac, std::string("MAC via ") + name);
            }
        }
    }
}

// A size param other than the named size fails init and set_params with the reason saying so;
// the failed set_params leaves the context computing the named size.
void check_size_refused(Report& report, EVP_MD_CTX* ctx, const EVP_MD* md, const NamedSize& named,
                        size_t max_size) {
    const std::vector<uint8_t> message = b2test::pattern_mod251(77);
    const auto plain = b2test::run_digest(ctx, md, nullptr, message);
    for (const size_t bad : {named.size - 1, named.size + 1, size_t{1}, max_size, size_t{0}}) {
        const std::string what = std::string(named.names.front()) + " size " + std::to_string(bad);
        Blake2bParams params;
        params.set_size(bad);
        const OSSL_PARAM* built = params.build(Blake2bParams::Face::digest);
        B2_CHECK(report, EVP_DigestInit_ex2(ctx, md, built) == 0, what + ": init refused");
        std::string reason = b2test::last_reason();
        B2_CHECK(report, reason.find("name fixes its size") != std::string::npos,
                 what + ": init's reason \"" + reason + "\"");
        B2_REQUIRE(EVP_DigestInit_ex2(ctx, md, nullptr) == 1, what + ": plain init");
        B2_CHECK(report, EVP_MD_CTX_set_params(ctx, built) == 0, what + ": set_params refused");
        reason = b2test::last_reason();
        B2_CHECK(report, reason.find("name fixes its size") != std::string::npos,
                 what + ": set_params's reason \"" + reason + "\"");
        std::vector<uint8_t> out(EVP_MAX_MD_SIZE);
        unsigned int length = 0;
        B2_CHECK(report,
                 EVP_DigestUpdate(ctx, message.data(), message.size()) == 1 &&
                     EVP_DigestFinal_ex(ctx, out.data(), &length) == 1 && length == named.size &&
                     plain && std::equal(plain->begin(), plain->end(), out.begin()),
                 what + ": after the refusal the context still computes " +
                     std::to_string(named.size) + " bytes");
    }
}

// A named size takes the tree fields as the family's digest does with its size (which
// evp.hashlib_tree_params_* holds to hashlib).
void check_named_tree_fields(Report& report, const b2test::ProviderSession& session,
                             EVP_MD_CTX* ctx, const EVP_MD* md, const Algorithm& algorithm,
                             const NamedSize& named) {
    const auto family_md = session.fetch_md(algorithm.digest, b2test::kOurPropq);
    B2_REQUIRE(family_md != nullptr, std::string("fetching ") + algorithm.digest);
    const std::vector<uint8_t> message = b2test::pattern_mod251(200);
    b2test::TreeFields fields;
    fields.fanout = 0;
    fields.depth = 3;
    fields.leaf_size = 4096;
    fields.node_offset = 5;
    fields.node_depth = 1;
    fields.inner_size = static_cast<unsigned int>(named.size);
    fields.last_node = 1;
    Blake2bParams named_params;
    named_params.set_tree(fields);
    Blake2bParams family_params;
    family_params.set_size(named.size);
    family_params.set_tree(fields);
    const auto got =
        b2test::run_digest(ctx, md, named_params.build(Blake2bParams::Face::digest), message);
    const auto expected = b2test::run_digest(
        ctx, family_md.get(), family_params.build(Blake2bParams::Face::digest), message);
    B2_CHECK(report, got && got == expected,
             std::string(named.names.front()) + " takes the tree fields as " + algorithm.digest +
                 " with size " + std::to_string(named.size) + " does");
}

// Each named size: every name reaches us, EVP_MD_get_size is the size, and every unkeyed
// extended vector of that size (salt and custom included) comes out with no size param and with
// the size param repeating the named size; any other size is refused.
void run_named_sizes(Report& report, const b2test::ProviderSession& session, const Options& options,
                     const Algorithm& algorithm) {
    const auto vectors = b2test::load_extended(b2test::vectors_path(algorithm.extended_file));
    b2test::MdCtxPtr ctx(EVP_MD_CTX_new());
    B2_REQUIRE(ctx != nullptr, "ctx allocation");
    const std::vector<uint8_t> message = b2test::pattern_mod251(300);
    for (const NamedSize& named : algorithm.named_sizes) {
        const char* canonical = named.names.front();
        const auto md = fetch_digest_checked(report, session, canonical, b2test::kOurPropq);
        B2_REQUIRE(md != nullptr, std::string("fetching ") + canonical);
        B2_CHECK(report, EVP_MD_get_size(md.get()) == static_cast<int>(named.size),
                 std::string(canonical) + ": EVP_MD_get_size " +
                     std::to_string(EVP_MD_get_size(md.get())));
        const auto reference = b2test::run_digest(ctx.get(), md.get(), nullptr, message);
        for (const char* name : named.names) {
            for (const char* propq : {b2test::kOurPropq, static_cast<const char*>(nullptr)}) {
                const auto alias = fetch_digest_checked(report, session, name, propq);
                B2_CHECK(report,
                         alias && b2test::run_digest(ctx.get(), alias.get(), nullptr, message) ==
                                      reference,
                         std::string("digest via ") + name);
            }
        }
        // The family's longest size (block / 2) is fine for BLAKE2B-512 but not here.
        check_size_refused(report, ctx.get(), md.get(), named, algorithm.block_bytes / 2);
        check_named_tree_fields(report, session, ctx.get(), md.get(), algorithm, named);
        size_t checked = 0;
        for (size_t index = 0; index < vectors.size(); ++index) {
            const Blake2bVector& vector = vectors[index];
            if (!vector.key.empty() || vector.size != named.size ||
                (options.quick && vector.message.size() > kQuickMaxExtendedLength)) {
                continue;
            }
            Blake2bParams params;
            params.set_salt(vector.salt);
            params.set_custom(vector.custom);
            const auto got = b2test::run_digest(
                ctx.get(), md.get(), params.build(Blake2bParams::Face::digest), vector.message);
            B2_CHECK(report, got == vector.expected, describe(vector, canonical, got));
            check_digest_vector(report, ctx.get(), md.get(), vector, index, true,
                                algorithm.block_bytes);
            ++checked;
        }
        B2_CHECK(report, checked >= 12,
                 std::string(canonical) + ": only " + std::to_string(checked) + " vectors");
        std::printf("%s: %zu extended vectors of its size\n", canonical, checked);
    }
}

// False if the test must be skipped (the BLAKE2b kernel asked for does not serve).
bool run_algorithm(Report& report, const b2test::ProviderSession& session, const Options& options,
                   const Algorithm& algorithm, bool bound_to_request) {
    const auto md = fetch_digest_checked(report, session, algorithm.digest, b2test::kOurPropq);
    const auto mac = fetch_mac_checked(report, session, algorithm.mac, b2test::kOurPropq);
    B2_REQUIRE(md && mac, std::string("fetching ") + algorithm.digest + " and " + algorithm.mac +
                              " from blake2simd");
    if (report_kernels(report, algorithm, md.get(), mac.get(), bound_to_request)) {
        return false;
    }
    run_aliases(report, session, algorithm, md.get(), mac.get());
    run_official(report, options, algorithm, md.get(), mac.get());
    run_extended(report, options, algorithm, md.get(), mac.get());
    run_named_sizes(report, session, options, algorithm);
    return true;
}

int run(const Options& options) {
    Report report("test_kat");
    const b2test::ProviderSession session(b2test::ProviderSession::Default::exclude);
    if (!run_algorithm(report, session, options, kBlake2b, true)) {
        return b2test::kSkipExitCode;
    }
    run_algorithm(report, session, options, kBlake2s, false);
    run_algorithm(report, session, options, kBlake2sp, false);
    return report.finish();
}

}  // namespace

int main(int argc, char** argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--quick") == 0) {
            options.quick = true;
        } else {
            std::fprintf(stderr, "usage: %s [--quick]\n", argv[0]);
            return 2;
        }
    }
    try {
        return run(options);
    } catch (const std::exception& error) {
        std::fprintf(stderr, "FATAL: %s\n", error.what());
        return 1;
    }
}
