// Known-answer tests through EVP only: official BLAKE2b KATs and our extended hashlib vectors.
// SPDX-License-Identifier: Apache-2.0
//
// Usage: test_kat [--quick]   (--quick: first 64 official entries of each kind and the
// extended entries up to 8 KiB, for emulated runs). Honours B2_EXPECT_KERNEL,
// B2_ALLOWED_KERNELS and B2_SKIP_UNLESS_KERNEL (see tests/support/b2test/evp.hpp).
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "b2test.hpp"

namespace {

using b2test::Blake2bParams;
using b2test::Blake2bVector;
using b2test::Report;

constexpr const char* kDigestAlias = "BLAKE2b512";
constexpr const char* kDigestOid = "1.3.6.1.4.1.1722.12.2.1.16";
constexpr const char* kMacOid = "1.3.6.1.4.1.1722.12.2.1";
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
std::vector<size_t> pieces_for(size_t index) {
    return {index % 7, 0, 128 - index % 128, 1, 129};
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
// environment policy. Returns true if the test must be skipped.
bool report_kernels(Report& report, const EVP_MD* md, const EVP_MAC* mac) {
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
    std::printf("kernel serving BLAKE2B-512: %s, BLAKE2BMAC: %s\n", digest_name.c_str(),
                mac_name.c_str());
    if (policy.wants_skip(digest_name) || policy.wants_skip(mac_name)) {
        return true;
    }
    policy.check(report, digest_name, "digest");
    policy.check(report, mac_name, "MAC");
    return false;
}

void check_digest_vector(Report& report, EVP_MD_CTX* ctx, const EVP_MD* md,
                         const Blake2bVector& vector, size_t index, bool with_params) {
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

    const std::vector<size_t> pieces = pieces_for(index);
    const auto split = b2test::run_digest(ctx, md, built, vector.message, pieces);
    B2_CHECK(report, split == vector.expected, describe(vector, "digest, split updates", split));
}

void check_mac_vector(Report& report, EVP_MAC_CTX* ctx, const Blake2bVector& vector, size_t index,
                      bool with_params) {
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

    const std::vector<size_t> pieces = pieces_for(index);
    const auto split = b2test::run_mac(ctx, vector.key, built, vector.message, pieces);
    B2_CHECK(report, split == vector.expected, describe(vector, "MAC, split updates", split));
}

void run_official(Report& report, const Options& options, const EVP_MD* md, const EVP_MAC* mac) {
    const auto vectors = b2test::load_official_kat(b2test::vectors_path("blake2b-kat.json"));
    B2_CHECK(report, vectors.size() == 512,
             "official blake2b entries: " + std::to_string(vectors.size()));
    b2test::MdCtxPtr md_ctx(EVP_MD_CTX_new());
    b2test::MacCtxPtr mac_ctx(EVP_MAC_CTX_new(const_cast<EVP_MAC*>(mac)));
    B2_REQUIRE(md_ctx && mac_ctx, "ctx allocation");
    size_t unkeyed = 0;
    size_t keyed = 0;
    for (size_t index = 0; index < vectors.size(); ++index) {
        const Blake2bVector& vector = vectors[index];
        if (vector.key.empty()) {
            if (!options.quick || unkeyed < kQuickOfficialPerKind) {
                check_digest_vector(report, md_ctx.get(), md, vector, index, false);
            }
            ++unkeyed;
        } else {
            if (!options.quick || keyed < kQuickOfficialPerKind) {
                check_mac_vector(report, mac_ctx.get(), vector, index, false);
            }
            ++keyed;
        }
    }
    B2_CHECK(report, unkeyed == 256 && keyed == 256,
             "official split: " + std::to_string(unkeyed) + " unkeyed, " + std::to_string(keyed) +
                 " keyed");
    std::printf("official KAT: %zu unkeyed, %zu keyed entries%s\n", unkeyed, keyed,
                options.quick ? " (quick: first 64 of each checked)" : "");
}

void run_extended(Report& report, const Options& options, const EVP_MD* md, const EVP_MAC* mac) {
    const auto vectors = b2test::load_extended(b2test::vectors_path("blake2b-extended.json"));
    B2_CHECK(report, vectors.size() >= 300, "extended entries: " + std::to_string(vectors.size()));
    b2test::MdCtxPtr md_ctx(EVP_MD_CTX_new());
    b2test::MacCtxPtr mac_ctx(EVP_MAC_CTX_new(const_cast<EVP_MAC*>(mac)));
    B2_REQUIRE(md_ctx && mac_ctx, "ctx allocation");
    size_t checked = 0;
    for (size_t index = 0; index < vectors.size(); ++index) {
        const Blake2bVector& vector = vectors[index];
        if (options.quick && vector.message.size() > kQuickMaxExtendedLength) {
            continue;
        }
        if (vector.key.empty()) {
            check_digest_vector(report, md_ctx.get(), md, vector, index, true);
        } else {
            check_mac_vector(report, mac_ctx.get(), vector, index, true);
        }
        ++checked;
    }
    std::printf("extended vectors: %zu of %zu entries checked\n", checked, vectors.size());
}

// Every name must reach our implementation and compute the same thing.
void run_aliases(Report& report, const b2test::ProviderSession& session, const EVP_MD* md,
                 const EVP_MAC* mac) {
    const std::vector<uint8_t> message = b2test::pattern_mod251(200);
    b2test::MdCtxPtr md_ctx(EVP_MD_CTX_new());
    const auto reference_digest = b2test::run_digest(md_ctx.get(), md, nullptr, message);
    B2_CHECK(report, reference_digest.has_value(), "digest via BLAKE2B-512");

    const char* digest_names[] = {"BLAKE2B-512", kDigestAlias, kDigestOid, "blake2b-512"};
    for (const char* name : digest_names) {
        for (const char* propq : {b2test::kOurPropq, static_cast<const char*>(nullptr)}) {
            const auto alias = fetch_digest_checked(report, session, name, propq);
            if (alias) {
                const auto got = b2test::run_digest(md_ctx.get(), alias.get(), nullptr, message);
                B2_CHECK(report, got == reference_digest, std::string("digest via ") + name);
            }
        }
    }

    const std::vector<uint8_t> key = b2test::pattern_mod251(64);
    b2test::MacCtxPtr reference_ctx(EVP_MAC_CTX_new(const_cast<EVP_MAC*>(mac)));
    const auto reference_mac = b2test::run_mac(reference_ctx.get(), key, nullptr, message);
    B2_CHECK(report, reference_mac.has_value(), "MAC via BLAKE2BMAC");
    for (const char* name : {"BLAKE2BMAC", kMacOid, "blake2bmac"}) {
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

int run(const Options& options) {
    Report report("test_kat");
    const b2test::ProviderSession session(b2test::ProviderSession::Default::exclude);
    const auto md = fetch_digest_checked(report, session, b2test::kDigestName, b2test::kOurPropq);
    const auto mac = fetch_mac_checked(report, session, b2test::kMacName, b2test::kOurPropq);
    B2_REQUIRE(md && mac, "fetching BLAKE2B-512 and BLAKE2BMAC from blake2simd");

    if (report_kernels(report, md.get(), mac.get())) {
        return b2test::kSkipExitCode;
    }
    run_aliases(report, session, md.get(), mac.get());
    run_official(report, options, md.get(), mac.get());
    run_extended(report, options, md.get(), mac.get());
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
