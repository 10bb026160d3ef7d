// The tree modes through EVP, BLAKE2BP-512/BLAKE2BPMAC and BLAKE2SP-256/BLAKE2SPMAC: official and
// extended vectors (one-shot and split updates), streaming consistency, duplication, and the
// parameter/life-cycle error rules.
// SPDX-License-Identifier: Apache-2.0
//
// Runs on whichever kernel serves; the CTest entries force each kernel with BLAKE2SIMD_KERNEL
// and skip (77) through B2_SKIP_UNLESS_KERNEL where this host or build lacks it for BLAKE2bp.
// BLAKE2sp's kernel may fall back to the automatic choice (a kernel without a BLAKE2s form), so
// it is held only to B2_ALLOWED_KERNELS.
// B2_SEED=<n> reproduces the random splits (the seed is printed).
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "b2test/check.hpp"
#include "b2test/evp.hpp"
#include "b2test/hex.hpp"
#include "b2test/json.hpp"
#include "b2test/openssl_errors.hpp"
#include "b2test/vectors.hpp"
#include "rfc7693.hpp"

namespace {

using b2test::MacCtxPtr;
using b2test::MdCtxPtr;
using Bytes = std::vector<uint8_t>;

// One tree mode, its sizes, vector files and refusal reasons.
struct Tree {
    const char* family;  // "BLAKE2bp"
    const char* digest;
    const char* mac;
    size_t output;
    size_t block;
    size_t max_key;
    const char* official_hash;
    const char* official_file;
    const char* extended_file;
    const char* size_reason;
    // The independent RFC 7693 tree (tests/support/rfc7693.hpp).
    Bytes (*oracle)(const uint8_t* key, size_t key_length, const uint8_t* data, size_t length);
};

const Tree kBlake2bp{"BLAKE2bp",
                     "BLAKE2BP-512",
                     "BLAKE2BPMAC",
                     64,
                     128,
                     64,
                     "blake2bp",
                     "blake2bp-kat.json",
                     "blake2bp-extended.json",
                     "BLAKE2bp: must be 1..64 bytes",
                     &rfc7693::blake2bp};
const Tree kBlake2sp{"BLAKE2sp",
                     "BLAKE2SP-256",
                     "BLAKE2SPMAC",
                     32,
                     64,
                     32,
                     "blake2sp",
                     "blake2sp-kat.json",
                     "blake2sp-extended.json",
                     "BLAKE2sp: must be 1..32 bytes",
                     &rfc7693::blake2sp};

struct Vector {
    std::string name;
    Bytes message;
    Bytes key;  // empty: the digest
    Bytes expected;
};

// The official layout ({"hash","in","key","out"}), the entries of `hash` only.
std::vector<Vector> load_official(const std::string& path, const std::string& hash) {
    std::vector<Vector> vectors;
    size_t index = 0;
    for (const b2test::JsonObject& object : b2test::read_json_objects(path)) {
        const std::string name = "kat#" + std::to_string(index++);
        if (object.string("hash") != hash) {
            continue;
        }
        vectors.push_back({name, b2test::hex_field(object, "in", name),
                           b2test::hex_field(object, "key", name),
                           b2test::hex_field(object, "out", name)});
    }
    return vectors;
}

std::vector<Vector> load_extended(const std::string& path, size_t output) {
    std::vector<Vector> vectors;
    for (const b2test::Blake2bVector& v : b2test::load_extended(path)) {
        if (v.size != output || !v.salt.empty() || !v.custom.empty()) {
            throw std::runtime_error(path + ": entry " + v.name + " is not a plain tree hash");
        }
        vectors.push_back({v.name, v.message, v.key, v.expected});
    }
    return vectors;
}

class Tester final {
  public:
    Tester(b2test::Report& report, const b2test::ProviderSession& session, const Tree& tree,
           uint64_t seed)
        : m_report(report), m_tree(tree), m_output(tree.output), m_random(seed) {
        m_md = session.fetch_md(tree.digest, b2test::kOurPropq);
        m_mac = session.fetch_mac(tree.mac, b2test::kOurPropq);
        B2_REQUIRE(m_md != nullptr, std::string("fetch ") + tree.digest + " from blake2simd");
        B2_REQUIRE(m_mac != nullptr, std::string("fetch ") + tree.mac + " from blake2simd");
        m_md_ctx.reset(EVP_MD_CTX_new());
        m_mac_ctx.reset(EVP_MAC_CTX_new(m_mac.get()));
        B2_REQUIRE(m_md_ctx != nullptr && m_mac_ctx != nullptr, "context allocation");
    }

    // The serving kernel, the same for the digest and the MAC.
    std::string kernel() {
        B2_REQUIRE(EVP_DigestInit_ex2(m_md_ctx.get(), m_md.get(), nullptr) == 1, "digest init");
        const auto digest_kernel = b2test::served_kernel(m_md_ctx.get());
        const auto mac_kernel = b2test::served_kernel(m_mac_ctx.get());
        B2_REQUIRE(digest_kernel.has_value() && mac_kernel.has_value(), "ctx param kernel");
        B2_CHECK(m_report, *digest_kernel == *mac_kernel,
                 "digest kernel " + *digest_kernel + " vs MAC kernel " + *mac_kernel);
        return *digest_kernel;
    }

    std::optional<Bytes> compute(const Vector& v, std::span<const size_t> pieces = {}) {
        if (v.key.empty()) {
            return b2test::run_digest(m_md_ctx.get(), m_md.get(), nullptr, v.message, pieces);
        }
        return b2test::run_mac(m_mac_ctx.get(), v.key, nullptr, v.message, pieces);
    }

    std::vector<size_t> random_pieces(size_t length) {
        std::vector<size_t> pieces;
        size_t covered = 0;
        while (covered < length && pieces.size() < 40) {
            // Mostly small pieces, sometimes zero, sometimes several groups at once.
            const size_t kind = m_random() % 8;
            size_t piece = kind == 0 ? 0 : kind < 5 ? m_random() % 200 : m_random() % 3000;
            pieces.push_back(piece);
            covered += piece;
        }
        return pieces;
    }

    void check_vector(const Vector& v) {
        const auto one_shot = compute(v);
        B2_CHECK(m_report, one_shot && *one_shot == v.expected,
                 v.name + " one-shot: got " + (one_shot ? b2test::to_hex(*one_shot) : "failure") +
                     ", expected " + b2test::to_hex(v.expected));
        const std::vector<size_t> pieces = random_pieces(v.message.size());
        const auto split = compute(v, pieces);
        B2_CHECK(m_report, split && *split == v.expected,
                 v.name + " split in " + std::to_string(pieces.size()) + " pieces");
        // Byte by byte over the first blocks: every possible pending length is visited.
        if (v.message.size() <= 1100) {
            const std::vector<size_t> bytes(v.message.size(), 1);
            const auto bytewise = compute(v, bytes);
            B2_CHECK(m_report, bytewise && *bytewise == v.expected, v.name + " byte by byte");
        }
    }

    // Random messages: one-shot and every split give the RFC 7693 oracle's answer.
    void check_streaming(int cases) {
        for (int i = 0; i < cases; ++i) {
            Vector v;
            v.name = "stream#" + std::to_string(i);
            v.message.resize(i % 5 == 0 ? m_random() % 70000 : m_random() % 5000);
            for (auto& byte : v.message) {
                byte = static_cast<uint8_t>(m_random());
            }
            if (i % 2 == 1) {
                v.key.resize(1 + m_random() % m_tree.max_key);
                for (auto& byte : v.key) {
                    byte = static_cast<uint8_t>(m_random());
                }
            }
            v.expected =
                m_tree.oracle(v.key.data(), v.key.size(), v.message.data(), v.message.size());
            const std::string what = v.name + " (" + std::to_string(v.message.size()) +
                                     " bytes, key " + std::to_string(v.key.size()) + ")";
            const auto one_shot = compute(v);
            B2_CHECK(m_report, one_shot && *one_shot == v.expected,
                     what + " one-shot differs from the oracle");
            const std::vector<size_t> pieces = random_pieces(v.message.size());
            const auto split = compute(v, pieces);
            B2_CHECK(m_report, split && *split == v.expected,
                     what + " split differs from the oracle");
        }
    }

    // A context duplicated mid-message finishes like the original.
    void check_duplication(const Vector& v) {
        const size_t half = v.message.size() / 2;
        if (v.key.empty()) {
            B2_REQUIRE(EVP_DigestInit_ex2(m_md_ctx.get(), m_md.get(), nullptr) == 1, "init");
            B2_REQUIRE(EVP_DigestUpdate(m_md_ctx.get(), v.message.data(), half) == 1, "update");
            MdCtxPtr copy(EVP_MD_CTX_new());
            B2_REQUIRE(copy && EVP_MD_CTX_copy_ex(copy.get(), m_md_ctx.get()) == 1, "copy");
            for (EVP_MD_CTX* ctx : {m_md_ctx.get(), copy.get()}) {
                Bytes out(m_output);
                unsigned int length = 0;
                const bool ok =
                    EVP_DigestUpdate(ctx, v.message.data() + half, v.message.size() - half) == 1 &&
                    EVP_DigestFinal_ex(ctx, out.data(), &length) == 1 && length == m_output;
                B2_CHECK(m_report, ok && out == v.expected, v.name + " digest duplicate");
            }
        } else {
            B2_REQUIRE(EVP_MAC_init(m_mac_ctx.get(), v.key.data(), v.key.size(), nullptr) == 1,
                       "mac init");
            B2_REQUIRE(EVP_MAC_update(m_mac_ctx.get(), v.message.data(), half) == 1, "update");
            MacCtxPtr copy(EVP_MAC_CTX_dup(m_mac_ctx.get()));
            B2_REQUIRE(copy != nullptr, "EVP_MAC_CTX_dup");
            for (EVP_MAC_CTX* ctx : {m_mac_ctx.get(), copy.get()}) {
                Bytes out(m_output);
                size_t length = 0;
                const bool ok =
                    EVP_MAC_update(ctx, v.message.data() + half, v.message.size() - half) == 1 &&
                    EVP_MAC_final(ctx, out.data(), &length, out.size()) == 1 && length == m_output;
                B2_CHECK(m_report, ok && out == v.expected, v.name + " MAC duplicate");
            }
        }
    }

    void check_sizes() {
        B2_CHECK(m_report, EVP_MD_get_size(m_md.get()) == static_cast<int>(m_output),
                 "EVP_MD_get_size");
        B2_CHECK(m_report, EVP_MD_get_block_size(m_md.get()) == static_cast<int>(m_tree.block),
                 "EVP_MD_get_block_size");
        const uint8_t key[1] = {7};
        B2_REQUIRE(EVP_MAC_init(m_mac_ctx.get(), key, 1, nullptr) == 1, "mac init");
        B2_CHECK(m_report, EVP_MAC_CTX_get_mac_size(m_mac_ctx.get()) == m_output, "MAC size");
    }

    // Failure expected, with a reason text containing `reason`.
    void expect_failure(bool succeeded, const std::string& what, const std::string& reason) {
        const std::string errors = b2test::drain_openssl_errors();
        B2_CHECK(m_report, !succeeded, what + " was accepted");
        if (!succeeded) {
            B2_CHECK(m_report, errors.find(reason) != std::string::npos,
                     what + ": expected a reason containing '" + reason + "', got: " + errors);
        }
    }

    void check_digest_errors() {
        EVP_MD_CTX* ctx = m_md_ctx.get();
        for (const size_t size : {size_t{0}, m_output + 1}) {
            b2test::Blake2bParams params;
            params.set_size(size);
            expect_failure(EVP_DigestInit_ex2(ctx, m_md.get(), params.build(kFaceDigest)) == 1,
                           "digest size " + std::to_string(size), m_tree.size_reason);
        }
        {
            b2test::Blake2bParams params;
            params.set_size(m_output);
            const auto out = b2test::run_digest(ctx, m_md.get(), params.build(kFaceDigest), {});
            B2_CHECK(m_report, out && out->size() == m_output,
                     "digest size of the output accepted");
        }
        const uint8_t field[16] = {1, 2, 3};
        for (const size_t length : {size_t{0}, size_t{16}}) {
            b2test::Blake2bParams salted;
            salted.set_salt(std::span<const uint8_t>(field, length));
            expect_failure(EVP_DigestInit_ex2(ctx, m_md.get(), salted.build(kFaceDigest)) == 1,
                           "digest salt of " + std::to_string(length), "salt is not supported");
            b2test::Blake2bParams custom;
            custom.set_custom(std::span<const uint8_t>(field, length));
            expect_failure(EVP_DigestInit_ex2(ctx, m_md.get(), custom.build(kFaceDigest)) == 1,
                           "digest custom of " + std::to_string(length),
                           "custom (personalization) is not supported");
        }
        // Life cycle: update after final and a second final fail.
        B2_REQUIRE(EVP_DigestInit_ex2(ctx, m_md.get(), nullptr) == 1, "init");
        Bytes out(m_output);
        unsigned int length = 0;
        B2_REQUIRE(EVP_DigestFinal_ex(ctx, out.data(), &length) == 1, "final");
        expect_failure(EVP_DigestUpdate(ctx, "x", 1) == 1, "digest update after final",
                       b2test::finished_digest_update_reason());
        expect_failure(EVP_DigestFinal_ex(ctx, out.data(), &length) == 1, "second digest final",
                       b2test::finished_digest_final_reason());
    }

    void check_mac_errors() {
        // No key ever set.
        {
            MacCtxPtr fresh(EVP_MAC_CTX_new(m_mac.get()));
            expect_failure(EVP_MAC_init(fresh.get(), nullptr, 0, nullptr) == 1,
                           "MAC init without key", "no key set");
        }
        MacCtxPtr ctx(EVP_MAC_CTX_new(m_mac.get()));
        check_unkeyed_mac_refusals(ctx.get());
        check_keyed_mac(ctx.get());
    }

    void set_keyed_reference(const Vector& v) { m_keyed_reference = v; }

  private:
    // On a context never keyed: key lengths 0 and max + 1 refused, as argument and as param;
    // sizes, salt, custom.
    void check_unkeyed_mac_refusals(EVP_MAC_CTX* ctx) {
        const Bytes long_key(m_tree.max_key + 1, 0x11);
        const std::string too_long = "MAC key of " + std::to_string(long_key.size());
        expect_failure(EVP_MAC_init(ctx, long_key.data(), 0, nullptr) == 1, "MAC key of 0",
                       "invalid key length");
        expect_failure(EVP_MAC_init(ctx, long_key.data(), long_key.size(), nullptr) == 1, too_long,
                       "invalid key length");
        {
            OSSL_PARAM params[] = {
                OSSL_PARAM_construct_octet_string(
                    OSSL_MAC_PARAM_KEY, const_cast<uint8_t*>(long_key.data()), long_key.size()),
                OSSL_PARAM_construct_end()};
            expect_failure(EVP_MAC_CTX_set_params(ctx, params) == 1, too_long + " (param)",
                           "invalid key length");
        }
        // Sizes, salt, custom.
        for (const size_t size : {size_t{0}, m_output + 1}) {
            b2test::Blake2bParams params;
            params.set_size(size);
            expect_failure(EVP_MAC_CTX_set_params(ctx, params.build(kFaceMac)) == 1,
                           "MAC size " + std::to_string(size), m_tree.size_reason);
        }
        const uint8_t field[8] = {9};
        {
            b2test::Blake2bParams salted;
            salted.set_salt(field);
            expect_failure(EVP_MAC_CTX_set_params(ctx, salted.build(kFaceMac)) == 1, "MAC salt",
                           "salt is not supported");
            b2test::Blake2bParams custom;
            custom.set_custom(field);
            expect_failure(EVP_MAC_CTX_set_params(ctx, custom.build(kFaceMac)) == 1, "MAC custom",
                           "custom (personalization) is not supported");
        }
    }

    // Set the reference key, then fail to change it: a failing call changes nothing, and a
    // NULL-key re-init reuses the key; the life cycle after.
    void check_keyed_mac(EVP_MAC_CTX* ctx) {
        const Vector& reference = m_keyed_reference;
        B2_REQUIRE(EVP_MAC_init(ctx, reference.key.data(), reference.key.size(), nullptr) == 1,
                   "MAC init with key");
        {
            const Bytes other_key(m_tree.max_key / 2, 0x5c);
            const uint8_t salt[4] = {1, 2, 3, 4};
            OSSL_PARAM params[] = {
                OSSL_PARAM_construct_octet_string(
                    OSSL_MAC_PARAM_KEY, const_cast<uint8_t*>(other_key.data()), other_key.size()),
                OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_SALT, const_cast<uint8_t*>(salt),
                                                  sizeof salt),
                OSSL_PARAM_construct_end()};
            expect_failure(EVP_MAC_CTX_set_params(ctx, params) == 1, "key + salt in one set_params",
                           "salt is not supported");
            expect_failure(EVP_MAC_init(ctx, other_key.data(), other_key.size(), params) == 1,
                           "init with key + salt", "salt is not supported");
        }
        for (int round = 0; round < 2; ++round) {
            Bytes out(m_output);
            size_t length = 0;
            const bool ok =
                EVP_MAC_init(ctx, nullptr, 0, nullptr) == 1 &&
                EVP_MAC_update(ctx, reference.message.data(), reference.message.size()) == 1 &&
                EVP_MAC_final(ctx, out.data(), &length, out.size()) == 1;
            B2_CHECK(m_report, ok && out == reference.expected,
                     "NULL-key re-init #" + std::to_string(round) + " reuses the key");
        }
        // Life cycle.
        B2_REQUIRE(EVP_MAC_init(ctx, nullptr, 0, nullptr) == 1, "re-init");
        Bytes out(m_output);
        size_t length = 0;
        expect_failure(EVP_MAC_final(ctx, out.data(), &length, m_output - 1) == 1,
                       "MAC final into one byte less", "buffer too small");
        B2_REQUIRE(EVP_MAC_final(ctx, out.data(), &length, out.size()) == 1, "final");
        expect_failure(EVP_MAC_update(ctx, reinterpret_cast<const uint8_t*>("x"), 1) == 1,
                       "MAC update after final", "update after final");
        expect_failure(EVP_MAC_final(ctx, out.data(), &length, out.size()) == 1, "second MAC final",
                       "final already called");
    }

    static constexpr auto kFaceDigest = b2test::Blake2bParams::Face::digest;
    static constexpr auto kFaceMac = b2test::Blake2bParams::Face::mac;

    b2test::Report& m_report;
    const Tree& m_tree;
    const size_t m_output;  // the tree's digest size
    std::mt19937_64 m_random;
    b2test::MdPtr m_md;
    b2test::MacPtr m_mac;
    MdCtxPtr m_md_ctx;
    MacCtxPtr m_mac_ctx;
    Vector m_keyed_reference;
};

uint64_t choose_seed() {
    const char* text = std::getenv("B2_SEED");
    if (text != nullptr && *text != '\0') {
        return std::strtoull(text, nullptr, 0);
    }
    return std::random_device{}();
}

// False if the test must be skipped (the kernel asked for does not serve BLAKE2bp).
bool run_tree(b2test::Report& report, const b2test::ProviderSession& session, const Tree& tree,
              uint64_t seed, bool bound_to_request) {
    Tester tester(report, session, tree, seed);
    const std::string kernel = tester.kernel();
    const b2test::KernelPolicy policy;
    if (bound_to_request) {
        if (policy.wants_skip(kernel)) {
            return false;
        }
        policy.check(report, kernel, tree.family);
    } else {
        // B2_ALLOWED_KERNELS (the kernels a CPU model runs) binds BLAKE2sp's kernel too.
        policy.check_allowed(report, kernel, tree.family);
    }
    std::printf("%s: kernel %s\n", tree.family, kernel.c_str());

    std::vector<Vector> official;
    std::vector<Vector> extended;
    try {
        official = load_official(b2test::vectors_path(tree.official_file), tree.official_hash);
        extended = load_extended(b2test::vectors_path(tree.extended_file), tree.output);
    } catch (const std::exception& error) {
        b2test::fatal(error.what());
    }
    B2_REQUIRE(official.size() == 512,
               std::string(tree.official_file) + " has 512 " + tree.official_hash + " entries");
    size_t keyed = 0;
    for (const Vector& v : official) {
        keyed += v.key.empty() ? 0 : 1;
        tester.check_vector(v);
    }
    B2_CHECK(report, keyed == 256, std::string(tree.family) + ": 256 keyed official entries");
    for (const Vector& v : extended) {
        tester.check_vector(v);
    }
    std::printf("%s vectors: %zu official (%zu keyed), %zu extended\n", tree.family,
                official.size(), keyed, extended.size());

    for (const Vector& v : extended) {
        if (v.message.size() > 2000 && v.message.size() < 100000) {
            tester.check_duplication(v);
        }
    }
    tester.check_streaming(200);
    tester.check_sizes();
    tester.set_keyed_reference(official.back());
    tester.check_digest_errors();
    tester.check_mac_errors();
    return true;
}

}  // namespace

int main() {
    b2test::Report report("test_blake2bp");
    const b2test::ProviderSession session(b2test::ProviderSession::Default::exclude);
    const uint64_t seed = choose_seed();
    std::printf("seed %" PRIu64 " (reproduce with B2_SEED=%" PRIu64 ")\n", seed, seed);
    if (!run_tree(report, session, kBlake2bp, seed, true)) {
        return b2test::kSkipExitCode;
    }
    run_tree(report, session, kBlake2sp, seed, false);
    return report.finish();
}
