// ARGON2I / ARGON2D / ARGON2ID through EVP_KDF with provider=blake2simd, against answers nobody
// here wrote: RFC 9106's vectors, the reference implementation (libargon2) over generated
// params, libsodium's crypto_pwhash, and OpenSSL's own default provider where the core has one
// (3.2+) for the params, defaults and refusals.
// SPDX-License-Identifier: Apache-2.0
//
// test_argon2 [--section vectors|differential|sodium|semantics|threads] [--cases N] [--seed S]
// Honours B2_EXPECT_KERNEL / B2_ALLOWED_KERNELS for the BlaMka kernel that serves.
#include <argon2.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <sodium.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "b2test.hpp"

namespace {

using Bytes = std::vector<uint8_t>;

struct KdfFree {
    void operator()(EVP_KDF* kdf) const noexcept { EVP_KDF_free(kdf); }
};
struct KdfCtxFree {
    void operator()(EVP_KDF_CTX* ctx) const noexcept { EVP_KDF_CTX_free(ctx); }
};
using KdfPtr = std::unique_ptr<EVP_KDF, KdfFree>;
using KdfCtxPtr = std::unique_ptr<EVP_KDF_CTX, KdfCtxFree>;

constexpr const char* kTypeNames[] = {"ARGON2D", "ARGON2I", "ARGON2ID"};  // argon2_type order

struct Case {
    argon2_type type = Argon2_id;
    uint32_t version = ARGON2_VERSION_13;
    uint32_t lanes = 1;
    uint32_t threads = 1;
    uint32_t memcost = 8;
    uint32_t iter = 1;
    Bytes pass, salt, secret, ad;
    size_t out_size = 32;

    std::string describe() const {
        char text[256];
        std::snprintf(text, sizeof text,
                      "%s v=0x%x lanes=%u threads=%u m=%u t=%u pass=%zu salt=%zu secret=%zu "
                      "ad=%zu out=%zu",
                      kTypeNames[type], version, lanes, threads, memcost, iter, pass.size(),
                      salt.size(), secret.size(), ad.size(), out_size);
        return text;
    }
};

// The params of `c` as OpenSSL's Argon2 takes them; empty secret/ad are left unset.
class CaseParams final {
  public:
    explicit CaseParams(const Case& c) : m_case(c) {
        add_octets(OSSL_KDF_PARAM_PASSWORD, m_case.pass, true);
        add_octets(OSSL_KDF_PARAM_SALT, m_case.salt, true);
        add_octets("secret", m_case.secret, false);
        add_octets("ad", m_case.ad, false);
        m_params.push_back(OSSL_PARAM_construct_uint32("iter", &m_case.iter));
        m_params.push_back(OSSL_PARAM_construct_uint32("lanes", &m_case.lanes));
        m_params.push_back(OSSL_PARAM_construct_uint32("threads", &m_case.threads));
        m_params.push_back(OSSL_PARAM_construct_uint32("memcost", &m_case.memcost));
        m_params.push_back(OSSL_PARAM_construct_uint32("version", &m_case.version));
        m_params.push_back(OSSL_PARAM_construct_end());
    }
    OSSL_PARAM* get() { return m_params.data(); }

  private:
    void add_octets(const char* name, Bytes& bytes, bool always) {
        if (always || !bytes.empty()) {
            m_params.push_back(OSSL_PARAM_construct_octet_string(name, bytes.data(), bytes.size()));
        }
    }
    Case m_case;
    std::vector<OSSL_PARAM> m_params;
};

std::optional<std::string> served_kernel(EVP_KDF_CTX* ctx) {
    char name[64] = {};
    OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string("kernel", name, sizeof name),
                           OSSL_PARAM_construct_end()};
    if (EVP_KDF_CTX_get_params(ctx, params) != 1) {
        return std::nullopt;
    }
    return std::string(name);
}

class Argon2Test final {
  public:
    Argon2Test() : m_session(b2test::ProviderSession::Default::include) {
        for (int t = 0; t < 3; ++t) {
            m_ours[t].reset(EVP_KDF_fetch(m_session.libctx(), kTypeNames[t], b2test::kOurPropq));
            B2_REQUIRE(m_ours[t] != nullptr, std::string("fetch ") + kTypeNames[t]);
            B2_REQUIRE(std::string(OSSL_PROVIDER_get0_name(
                           EVP_KDF_get0_provider(m_ours[t].get()))) == b2test::kOurProvider,
                       "served by blake2simd");
            m_default[t].reset(
                EVP_KDF_fetch(m_session.libctx(), kTypeNames[t], b2test::kDefaultPropq));
        }
        ERR_clear_error();
    }

    EVP_KDF* ours(argon2_type type) const { return m_ours[type].get(); }
    // OpenSSL's own Argon2 (3.2+), or nullptr on a core without one.
    EVP_KDF* openssl(argon2_type type) const { return m_default[type].get(); }

    std::optional<Bytes> derive(EVP_KDF* kdf, const Case& c) const {
        KdfCtxPtr ctx(EVP_KDF_CTX_new(kdf));
        if (!ctx) {
            return std::nullopt;
        }
        CaseParams params(c);
        Bytes out(c.out_size);
        if (EVP_KDF_derive(ctx.get(), out.data(), out.size(), params.get()) != 1) {
            return std::nullopt;
        }
        return out;
    }

    void check_kernel(b2test::Report& report) const {
        KdfCtxPtr ctx(EVP_KDF_CTX_new(ours(Argon2_id)));
        const auto served = served_kernel(ctx.get());
        B2_CHECK(report, served.has_value() && !served->empty(), "kernel gettable before derive");
        if (served) {
            std::printf("BlaMka kernel: %s\n", served->c_str());
            m_policy.check(report, *served, "ARGON2ID kernel");
        }
    }

  private:
    b2test::ProviderSession m_session;
    KdfPtr m_ours[3];
    KdfPtr m_default[3];
    b2test::KernelPolicy m_policy;
};

std::optional<Bytes> reference_argon2(const Case& c) {
    Bytes out(c.out_size);
    Case copy = c;
    argon2_context context{};
    context.out = out.data();
    context.outlen = static_cast<uint32_t>(out.size());
    context.pwd = copy.pass.empty() ? nullptr : copy.pass.data();
    context.pwdlen = static_cast<uint32_t>(copy.pass.size());
    context.salt = copy.salt.data();
    context.saltlen = static_cast<uint32_t>(copy.salt.size());
    context.secret = copy.secret.empty() ? nullptr : copy.secret.data();
    context.secretlen = static_cast<uint32_t>(copy.secret.size());
    context.ad = copy.ad.empty() ? nullptr : copy.ad.data();
    context.adlen = static_cast<uint32_t>(copy.ad.size());
    context.t_cost = c.iter;
    context.m_cost = c.memcost;
    context.lanes = c.lanes;
    context.threads = c.threads;
    context.version = c.version;
    context.flags = ARGON2_DEFAULT_FLAGS;
    const int status = argon2_ctx(&context, c.type);
    if (status != ARGON2_OK) {
        std::fprintf(stderr, "libargon2: %s for %s\n", argon2_error_message(status),
                     c.describe().c_str());
        return std::nullopt;
    }
    return out;
}

Bytes filled(size_t size, uint8_t value) {
    return Bytes(size, value);
}

// RFC 9106 section 5: the three types, version 0x13, every input set.
void check_rfc9106(b2test::Report& report, const Argon2Test& test) {
    struct Vector {
        argon2_type type;
        const char* tag;
    };
    const Vector vectors[] = {
        {Argon2_d, "512b391b6f1162975371d30919734294f868e3be3984f3c1a13a4db9fabe4acb"},
        {Argon2_i, "c814d9d1dc7f37aa13f0d77f2494bda1c8de6b016dd388d29952a4c4672b6ce8"},
        {Argon2_id, "0d640df58d78766c08c037a34a8b53c9d01ef0452d75b65eb52520e96b01e659"},
    };
    for (const Vector& vector : vectors) {
        Case c;
        c.type = vector.type;
        c.lanes = 4;
        c.memcost = 32;
        c.iter = 3;
        c.pass = filled(32, 0x01);
        c.salt = filled(16, 0x02);
        c.secret = filled(8, 0x03);
        c.ad = filled(12, 0x04);
        for (const uint32_t threads : {1U, 2U, 4U}) {
            c.threads = threads;
            const auto out = test.derive(test.ours(c.type), c);
            B2_CHECK(report, out && b2test::to_hex(*out) == vector.tag,
                     "RFC 9106 " + c.describe() + ": " + (out ? b2test::to_hex(*out) : "failed"));
        }
    }
}

Bytes random_bytes(std::mt19937_64& rng, size_t size) {
    Bytes bytes(size);
    for (uint8_t& b : bytes) {
        b = static_cast<uint8_t>(rng());
    }
    return bytes;
}

// A length from the classes that cross BLAKE2b's block and H' boundaries, or any up to `max`.
size_t length_class(std::mt19937_64& rng, size_t min, size_t max) {
    static constexpr size_t kClasses[] = {0, 1, 8, 16, 63, 64, 65, 127, 128, 129, 255, 256, 1000};
    size_t size = rng() % 3 == 0 ? rng() % (max + 1) : kClasses[rng() % std::size(kClasses)];
    return size < min ? min : size;
}

Case generated_case(std::mt19937_64& rng) {
    Case c;
    c.type = static_cast<argon2_type>(rng() % 3);
    c.version = rng() % 4 == 0 ? ARGON2_VERSION_10 : ARGON2_VERSION_13;
    c.lanes = 1 + static_cast<uint32_t>(rng() % 8);
    c.threads = 1 + static_cast<uint32_t>(rng() % c.lanes);
    // Mostly small memory (the tests' budget); one case in eight up to 8 MiB.
    const uint32_t most = rng() % 8 == 0 ? 8192 : 8 * c.lanes + 256;
    c.memcost = 8 * c.lanes + static_cast<uint32_t>(rng() % (most - 8 * c.lanes + 1));
    c.iter = 1 + static_cast<uint32_t>(rng() % 4);
    c.pass = random_bytes(rng, length_class(rng, 0, 300));
    c.salt = random_bytes(rng, length_class(rng, 8, 300));
    c.secret = random_bytes(rng, length_class(rng, 0, 100));
    c.ad = random_bytes(rng, length_class(rng, 0, 300));
    static constexpr size_t kOutClasses[] = {4, 5, 31, 32, 33, 63, 64, 65, 96, 127, 128, 129, 1024};
    c.out_size = rng() % 3 == 0 ? 4 + rng() % 1021 : kOutClasses[rng() % std::size(kOutClasses)];
    return c;
}

void check_differential(b2test::Report& report, const Argon2Test& test, int cases, uint64_t seed) {
    std::mt19937_64 rng(seed);
    for (int i = 0; i < cases; ++i) {
        const Case c = generated_case(rng);
        const auto ours = test.derive(test.ours(c.type), c);
        const auto reference = reference_argon2(c);
        B2_CHECK(report, ours && reference && *ours == *reference,
                 "libargon2 differs: " + c.describe() + " (seed " + std::to_string(seed) +
                     ", case " + std::to_string(i) + ")");
    }
}

// libsodium's crypto_pwhash: one lane, a 16-byte salt, no secret or ad, version 0x13.
void check_sodium(b2test::Report& report, const Argon2Test& test) {
    B2_REQUIRE(sodium_init() >= 0, "sodium_init");
    std::mt19937_64 rng(0x50d1u);
    struct Algorithm {
        argon2_type type;
        int id;
        uint32_t min_iter;
    };
    const Algorithm algorithms[] = {{Argon2_id, crypto_pwhash_ALG_ARGON2ID13, 1},
                                    {Argon2_i, crypto_pwhash_ALG_ARGON2I13, 3}};
    for (const Algorithm& algorithm : algorithms) {
        for (int i = 0; i < 6; ++i) {
            Case c;
            c.type = algorithm.type;
            c.iter = algorithm.min_iter + static_cast<uint32_t>(rng() % 2);
            c.memcost = 8 + static_cast<uint32_t>(rng() % 2048);
            c.pass = random_bytes(rng, length_class(rng, 0, 200));
            c.salt = random_bytes(rng, crypto_pwhash_SALTBYTES);
            c.out_size = 16 + rng() % 200;
            Bytes expected(c.out_size);
            const int status = crypto_pwhash(
                expected.data(), expected.size(), reinterpret_cast<const char*>(c.pass.data()),
                c.pass.size(), c.salt.data(), c.iter, size_t{c.memcost} * 1024, algorithm.id);
            const auto ours = test.derive(test.ours(c.type), c);
            B2_CHECK(report, status == 0 && ours && *ours == expected,
                     "libsodium differs: " + c.describe());
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    std::string section = "all";
    int cases = 40;
    uint64_t seed = 0xa2602u;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--section") {
            section = argv[i + 1];
        } else if (flag == "--cases") {
            cases = std::atoi(argv[i + 1]);
        } else if (flag == "--seed") {
            seed = std::strtoull(argv[i + 1], nullptr, 0);
        }
    }
    b2test::Report report("test_argon2");
    const Argon2Test test;
    test.check_kernel(report);
    const bool all = section == "all";
    if (all || section == "vectors") {
        check_rfc9106(report, test);
    }
    if (all || section == "differential") {
        check_differential(report, test, cases, seed);
    }
    if (all || section == "sodium") {
        check_sodium(report, test);
    }
    return report.finish();
}
