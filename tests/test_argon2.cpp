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

#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "b2test.hpp"
#include "registry.hpp"

namespace {

using Bytes = std::vector<uint8_t>;

using b2test::KdfCtxPtr;
using b2test::KdfPtr;

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

    // False when the test is to be skipped: the kernel asked for does not serve BlaMka here.
    bool check_kernel(b2test::Report& report) const {
        KdfCtxPtr ctx(EVP_KDF_CTX_new(ours(Argon2_id)));
        const auto served = served_kernel(ctx.get());
        B2_CHECK(report, served.has_value() && !served->empty(), "kernel gettable before derive");
        if (served) {
            std::printf("BlaMka kernel: %s\n", served->c_str());
            if (m_policy.wants_skip(*served)) {
                return false;
            }
            // A requested row without a BlaMka form (x64, avx) leaves the form to the automatic
            // choice, which must still run on this CPU (model).
            if (requested_row_has_blamka()) {
                m_policy.check(report, *served, "ARGON2ID kernel");
            } else {
                m_policy.check_allowed(report, *served, "ARGON2ID kernel");
            }
        }
        return true;
    }

  private:
    static bool requested_row_has_blamka() {
        const char* request = std::getenv("BLAKE2SIMD_KERNEL");
        for (const auto& row : blake2simd::registry::kKernelRows) {
            if (request != nullptr && std::string_view(row.name) == request) {
                return row.blamka.has_single;
            }
        }
        return true;
    }

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
    context.threads = 1;  // the answer never depends on it
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

// One param of a refusal row: a uint32, an octet string or a UTF-8 string.
struct Param {
    enum class Kind { uint32, octets, utf8 } kind;
    const char* name;
    uint32_t number = 0;
    size_t length = 0;  // octets and utf8: that many bytes
};

class ParamArray final {
  public:
    explicit ParamArray(const std::vector<Param>& params) : m_params(params) {
        m_numbers.reserve(params.size());
        for (const Param& p : m_params) {
            m_numbers.push_back(p.number);
        }
        for (size_t i = 0; i < m_params.size(); ++i) {
            const Param& p = m_params[i];
            switch (p.kind) {
                case Param::Kind::uint32:
                    m_array.push_back(OSSL_PARAM_construct_uint32(p.name, &m_numbers[i]));
                    break;
                case Param::Kind::octets:
                    m_array.push_back(
                        OSSL_PARAM_construct_octet_string(p.name, m_bytes.data(), p.length));
                    break;
                case Param::Kind::utf8:
                    m_array.push_back(OSSL_PARAM_construct_utf8_string(
                        p.name, reinterpret_cast<char*>(m_bytes.data()), p.length));
                    break;
            }
        }
        m_array.push_back(OSSL_PARAM_construct_end());
    }
    OSSL_PARAM* get() { return m_array.data(); }

  private:
    std::vector<Param> m_params;
    std::vector<uint32_t> m_numbers;
    Bytes m_bytes = Bytes(64, 's');
    std::vector<OSSL_PARAM> m_array;
};

Param u32(const char* name, uint32_t value) {
    return {Param::Kind::uint32, name, value};
}
Param octets(const char* name, size_t length) {
    return {Param::Kind::octets, name, 0, length};
}
Param utf8(const char* name, size_t length) {
    return {Param::Kind::utf8, name, 0, length};
}

enum class Stage { none, set, derive };

struct Refusal {
    const char* what;
    bool salt;                     // the base params include a 16-byte salt
    std::vector<Param> set;        // EVP_KDF_CTX_set_params
    std::vector<Param> at_derive;  // EVP_KDF_derive's params
    size_t keylen;
    Stage refused_at;
    const char* reason_part;  // ours: the reason names what is wrong
};

const std::vector<Refusal>& refusals() {
    static const std::vector<Refusal> rows = {
        {"defaults", true, {}, {}, 32, Stage::none, ""},
        {"size 3", true, {u32("size", 3)}, {}, 32, Stage::set, "size"},
        {"size 4", true, {u32("size", 4)}, {}, 4, Stage::none, ""},
        {"salt 7 bytes", true, {octets("salt", 7)}, {}, 32, Stage::set, "salt"},
        {"memcost 7", true, {u32("memcost", 7)}, {}, 32, Stage::set, "memcost"},
        {"iter 0", true, {u32("iter", 0)}, {}, 32, Stage::set, "iter"},
        {"lanes 0", true, {u32("lanes", 0)}, {}, 32, Stage::set, "lanes"},
        {"lanes 2^24", true, {u32("lanes", 0x1000000)}, {}, 32, Stage::set, "lanes"},
        {"threads 0", true, {u32("threads", 0)}, {}, 32, Stage::set, "threads"},
        {"threads 2^24", true, {u32("threads", 0x1000000)}, {}, 32, Stage::set, "threads"},
        {"version 0x11", true, {u32("version", 0x11)}, {}, 32, Stage::set, "version"},
        {"version 0x10", true, {u32("version", 0x10)}, {}, 32, Stage::none, ""},
        {"pass as UTF-8", true, {utf8("pass", 8)}, {}, 32, Stage::set, "type"},
        {"iter as UTF-8", true, {utf8("iter", 1)}, {}, 32, Stage::set, "type"},
        {"no salt", false, {}, {}, 32, Stage::derive, "salt"},
        {"memcost 16, lanes 4",
         true,
         {u32("memcost", 16), u32("lanes", 4)},
         {},
         32,
         Stage::derive,
         "memcost"},
        {"memcost 32, lanes 4",
         true,
         {u32("memcost", 32), u32("lanes", 4)},
         {},
         32,
         Stage::none,
         ""},
        {"threads 3, lanes 2",
         true,
         {u32("threads", 3), u32("lanes", 2)},
         {},
         32,
         Stage::derive,
         "threads"},
        {"derive length 3", true, {}, {}, 3, Stage::derive, "size"},
        {"size 32 at derive, length 64", true, {}, {u32("size", 32)}, 64, Stage::derive, "size"},
        {"size 32 set, length 64", true, {u32("size", 32)}, {}, 64, Stage::none, ""},
        {"salt 7 at derive", true, {}, {octets("salt", 7)}, 32, Stage::derive, "salt"},
    };
    return rows;
}

// Ours must refuse at the row's call with a reason naming what is wrong; OpenSSL's own Argon2
// (where the core has one) must refuse at the same call. Threads above 1 are left out of
// OpenSSL's runs: it refuses them without a thread pool (docs/semantics.md).
void check_refusals(b2test::Report& report, const Argon2Test& test) {
    for (const Refusal& row : refusals()) {
        for (EVP_KDF* kdf : {test.ours(Argon2_id), test.openssl(Argon2_id)}) {
            if (kdf == nullptr) {
                continue;
            }
            const bool ours = kdf == test.ours(Argon2_id);
            const std::string who = std::string(ours ? "ours" : "OpenSSL's") + ", " + row.what;
            KdfCtxPtr ctx(EVP_KDF_CTX_new(kdf));
            std::vector<Param> base = {octets("pass", 8)};
            if (row.salt) {
                base.push_back(octets("salt", 16));
            }
            ParamArray base_params(base);
            B2_REQUIRE(EVP_KDF_CTX_set_params(ctx.get(), base_params.get()) == 1, who);
            ParamArray set(row.set);
            const bool set_ok = EVP_KDF_CTX_set_params(ctx.get(), set.get()) == 1;
            const std::string set_reason = b2test::last_reason();
            B2_CHECK(report, set_ok == (row.refused_at != Stage::set), who + ": set_params");
            if (!set_ok) {
                B2_CHECK(report, !ours || b2test::contains(set_reason, row.reason_part),
                         who + ": reason '" + set_reason + "'");
                continue;
            }
            ParamArray at_derive(row.at_derive);
            Bytes out(row.keylen);
            const bool derived =
                EVP_KDF_derive(ctx.get(), out.data(), out.size(), at_derive.get()) == 1;
            const std::string derive_reason = b2test::last_reason();
            B2_CHECK(report, derived == (row.refused_at == Stage::none), who + ": derive");
            if (!derived) {
                B2_CHECK(report, !ours || b2test::contains(derive_reason, row.reason_part),
                         who + ": reason '" + derive_reason + "'");
            }
        }
    }
}

std::optional<Bytes> derive_on(EVP_KDF_CTX* ctx, size_t size) {
    Bytes out(size);
    if (EVP_KDF_derive(ctx, out.data(), out.size(), nullptr) != 1) {
        return std::nullopt;
    }
    return out;
}

// get size (SIZE_MAX), reset, dupctx, early_clean, the defaults, the memory refusal.
void check_life_cycle(b2test::Report& report, const Argon2Test& test) {
    Case c;
    c.type = Argon2_id;
    c.pass = filled(8, 's');
    c.salt = filled(16, 's');
    c.iter = 3;
    c.out_size = 64;
    const auto expected = reference_argon2(c);  // OpenSSL's defaults: t 3, m 8, one lane
    KdfCtxPtr ctx(EVP_KDF_CTX_new(test.ours(Argon2_id)));
    ParamArray inputs({octets("pass", 8), octets("salt", 16)});
    B2_REQUIRE(EVP_KDF_CTX_set_params(ctx.get(), inputs.get()) == 1, "set pass, salt");
    B2_CHECK(report, EVP_KDF_CTX_get_kdf_size(ctx.get()) == SIZE_MAX, "size is SIZE_MAX");
    const auto defaults = derive_on(ctx.get(), 64);
    B2_CHECK(report, defaults && expected && *defaults == *expected, "the defaults");

    KdfCtxPtr copy(EVP_KDF_CTX_dup(ctx.get()));
    B2_CHECK(report, copy != nullptr, "dupctx");
    if (copy) {
        ctx.reset();  // the copy owns its own inputs
        const auto again = derive_on(copy.get(), 64);
        B2_CHECK(report, again && expected && *again == *expected, "the copy derives the same");
        EVP_KDF_CTX_reset(copy.get());
        B2_CHECK(report, !derive_on(copy.get(), 64), "after reset: no salt");
        ERR_clear_error();
    }

    // early_clean: pass and secret are dropped once H0 is made; the next derive runs without.
    KdfCtxPtr clean(EVP_KDF_CTX_new(test.ours(Argon2_id)));
    ParamArray with_clean(
        {octets("pass", 8), octets("salt", 16), octets("secret", 8), u32("early_clean", 1)});
    B2_REQUIRE(EVP_KDF_CTX_set_params(clean.get(), with_clean.get()) == 1, "early_clean");
    Case secret = c;
    secret.secret = filled(8, 's');
    const auto first = derive_on(clean.get(), 64);
    const auto expected_first = reference_argon2(secret);
    B2_CHECK(report, first && expected_first && *first == *expected_first, "early_clean first");
    Case emptied = c;
    emptied.pass.clear();
    const auto second = derive_on(clean.get(), 64);
    const auto expected_second = reference_argon2(emptied);
    B2_CHECK(report, second && expected_second && *second == *expected_second,
             "early_clean: the second derive has neither pass nor secret, as OpenSSL's");

    // No output buffer: refused, not written through.
    KdfCtxPtr no_buffer(EVP_KDF_CTX_new(test.ours(Argon2_id)));
    B2_REQUIRE(EVP_KDF_CTX_set_params(no_buffer.get(), inputs.get()) == 1, "set pass, salt");
    B2_CHECK(report, EVP_KDF_derive(no_buffer.get(), nullptr, 32, nullptr) == 0,
             "derive into NULL is refused");
    ERR_clear_error();

    // 2^32-1 KiB blocks (4 TiB): refused with a reason, never a crash (docs/semantics.md).
    KdfCtxPtr huge(EVP_KDF_CTX_new(test.ours(Argon2_id)));
    ParamArray huge_params({octets("pass", 8), octets("salt", 16), u32("memcost", UINT32_MAX)});
    B2_REQUIRE(EVP_KDF_CTX_set_params(huge.get(), huge_params.get()) == 1, "memcost 2^32-1");
    const bool derived = derive_on(huge.get(), 32).has_value();
    const std::string reason = b2test::last_reason();
    B2_CHECK(report, !derived && b2test::contains(reason, "memory"),
             "memcost 2^32-1: '" + reason + "'");
}

// threads 1..lanes give one answer, libargon2's (computed on one thread: with pthread_create
// failing, as B2_FAIL_THREADS runs it, the reference could not start its own threads either).
void check_threads(b2test::Report& report, const Argon2Test& test) {
    if (std::getenv("B2_EXPECT_THREAD_FAILURE") != nullptr) {
        pthread_t thread;
        const int status = pthread_create(
            &thread, nullptr, [](void*) -> void* { return nullptr; }, nullptr);
        B2_REQUIRE(status != 0, "B2_EXPECT_THREAD_FAILURE: pthread_create must fail here");
        std::printf("pthread_create fails in this process (%d): lanes run on the caller\n", status);
    }
    std::mt19937_64 rng(0x7347u);
    for (uint32_t lanes = 2; lanes <= 8; lanes += 3) {
        Case c;
        c.type = static_cast<argon2_type>(lanes % 3);
        c.lanes = lanes;
        c.memcost = 8 * lanes + 64;
        c.iter = 2;
        c.pass = random_bytes(rng, 20);
        c.salt = random_bytes(rng, 16);
        const auto expected = reference_argon2(c);
        for (uint32_t threads = 1; threads <= lanes; ++threads) {
            c.threads = threads;
            const auto ours = test.derive(test.ours(c.type), c);
            B2_CHECK(report, ours && expected && *ours == *expected, c.describe());
        }
    }
}

// A fork in another thread while a derive runs on threads of its own: the child (which has only
// the forking thread) derives the right answer, and so does the parent's derive.
void check_fork(b2test::Report& report, const Argon2Test& test) {
    if (b2test::multithreaded_fork_unsupported()) {
        std::printf("fork: skipped under this sanitizer\n");
        return;
    }
    Case big;
    big.type = Argon2_id;
    big.lanes = 2;
    big.threads = 2;
    big.memcost = 16384;
    big.iter = 2;
    big.pass = filled(8, 'p');
    big.salt = filled(16, 's');
    const auto expected_big = reference_argon2(big);
    Case small = big;
    small.memcost = 64;
    small.iter = 1;
    const auto expected_small = reference_argon2(small);
    std::atomic<bool> started{false};
    std::optional<Bytes> derived_big;
    std::thread deriving([&] {
        started = true;
        derived_big = test.derive(test.ours(big.type), big);
    });
    while (!started) {
        std::this_thread::yield();
    }
    usleep(2000);  // inside the fill, most likely
    const pid_t child = fork();
    if (child == 0) {
        const auto ours = test.derive(test.ours(small.type), small);
        _exit(ours && expected_small && *ours == *expected_small ? 0 : 1);
    }
    int status = 0;
    B2_CHECK(report,
             child > 0 && waitpid(child, &status, 0) == child && WIFEXITED(status) &&
                 WEXITSTATUS(status) == 0,
             "a child forked during a derive derives the right answer");
    deriving.join();
    B2_CHECK(report, derived_big && expected_big && *derived_big == *expected_big,
             "the derive the fork interrupted is right");
}

// `openssl kdf ... ARGON2ID` with our module: on a core without Argon2 (3.0, 3.1) it answers only
// through us; -propquery provider=blake2simd makes it ours on any core. Against libargon2.
void check_cli(b2test::Report& report, const Argon2Test& test, const std::string& openssl) {
    Case c;
    c.type = Argon2_id;
    c.lanes = 2;
    c.memcost = 64;
    c.iter = 2;
    const std::string pass = "password";
    const std::string salt = "somesalt";
    c.pass.assign(pass.begin(), pass.end());
    c.salt.assign(salt.begin(), salt.end());
    const auto expected = reference_argon2(c);
    const std::string options =
        " kdf -provider-path " + b2test::module_dir() +
        " -provider blake2simd -provider default -keylen 32 -kdfopt pass:" + pass +
        " -kdfopt salt:" + salt + " -kdfopt iter:2 -kdfopt memcost:64 -kdfopt lanes:2";
    const auto run = [&](const std::string& extra) -> std::optional<std::string> {
        const std::string command = openssl + options + extra + " ARGON2ID 2>/dev/null";
        FILE* pipe = popen(command.c_str(), "r");
        if (pipe == nullptr) {
            return std::nullopt;
        }
        std::string text;
        char buffer[512];
        while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) {
            text += buffer;
        }
        const int status = pclose(pipe);
        if (status != 0) {
            return std::nullopt;
        }
        std::string hex;
        for (const char ch : text) {
            if (std::isxdigit(static_cast<unsigned char>(ch))) {
                hex += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
            }
        }
        return hex;
    };
    const auto forced = run(" -propquery provider=blake2simd");
    B2_CHECK(report, forced && expected && *forced == b2test::to_hex(*expected),
             "openssl kdf -propquery provider=blake2simd ARGON2ID: " + forced.value_or("failed"));
    if (test.openssl(Argon2_id) == nullptr) {
        const auto plain = run("");
        B2_CHECK(report, plain && expected && *plain == b2test::to_hex(*expected),
                 "openssl kdf ARGON2ID on a core without Argon2: ours answers");
    }
}

}  // namespace

int main(int argc, char** argv) {
    std::string section = "all";
    int cases = 40;
    std::string openssl = "openssl";
    uint64_t seed = 0xa2602u;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--section") {
            section = argv[i + 1];
        } else if (flag == "--cases") {
            cases = std::atoi(argv[i + 1]);
        } else if (flag == "--openssl") {
            openssl = argv[i + 1];
        } else if (flag == "--seed") {
            seed = std::strtoull(argv[i + 1], nullptr, 0);
        }
    }
    b2test::Report report("test_argon2");
    const Argon2Test test;
    if (!test.check_kernel(report)) {
        return b2test::kSkipExitCode;
    }
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
    if (all || section == "semantics") {
        check_refusals(report, test);
        check_life_cycle(report, test);
    }
    if (all || section == "threads") {
        check_threads(report, test);
    }
    if (section == "cli") {  // not in "all": it needs the openssl program
        check_cli(report, test, openssl);
    }
    if (all || section == "fork") {
        check_fork(report, test);
    }
    return report.finish();
}
