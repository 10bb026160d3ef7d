// BLAKE2XB / BLAKE2XS (digests) and BLAKE2XBMAC / BLAKE2XSMAC through EVP: all 1024 official
// blake2xb/blake2xs entries, our cases from vectors/gen_blake2x.py (salt, personalization, every
// output length 1..1024, block edges, the unknown-length mode), the length rules and bad input.
// SPDX-License-Identifier: Apache-2.0
//
// Usage: test_blake2x CASES.json   (CASES.json: gen_blake2x.py --cases, written at test time)
//        test_blake2x --quick       (the first 64 and the last 8 unkeyed and keyed official entries
//                                    of each, lengths 1..64 and 249..256, where 256 is one group of
//                                    the 4- / 8-lane output form, and the rules, no cases: for
//                                    the emulated CPU models)
#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "b2test.hpp"

namespace {

using b2test::Blake2bVector;
using b2test::Report;
using Bytes = std::vector<uint8_t>;

struct Member {
    const char* hash;  // the official JSON's name
    const char* digest;
    const char* mac;
    const char* kat_file;
    size_t longest_key;
    uint64_t max_length;  // longest length H0 can fix; the next value means "unknown"
};

const Member kMembers[] = {
    {"blake2xb", "BLAKE2XB", "BLAKE2XBMAC", "blake2xb-kat.json", 64, 4294967294u},
    {"blake2xs", "BLAKE2XS", "BLAKE2XSMAC", "blake2xs-kat.json", 32, 65534},
};

// size, salt and custom params; `length_name` "xoflen" or "size"; length 0: none; xof: the MAC's.
class XofParams final {
  public:
    XofParams(const char* length_name, size_t length, const Blake2bVector* fields, int xof = -1) {
        size_t count = 0;
        m_length = length;
        if (length != 0) {
            m_params[count++] = OSSL_PARAM_construct_size_t(length_name, &m_length);
        }
        if (fields != nullptr) {
            m_params[count++] = octets("salt", fields->salt);
            m_params[count++] = octets("custom", fields->custom);
        }
        m_xof = xof;
        if (xof >= 0) {
            m_params[count++] = OSSL_PARAM_construct_int("xof", &m_xof);
        }
        m_params[count] = OSSL_PARAM_construct_end();
    }
    const OSSL_PARAM* get() const { return m_params; }

  private:
    static OSSL_PARAM octets(const char* key, const Bytes& bytes) {
        static uint8_t empty[1] = {0};
        return OSSL_PARAM_construct_octet_string(
            key, bytes.empty() ? empty : const_cast<uint8_t*>(bytes.data()), bytes.size());
    }
    size_t m_length = 0;
    int m_xof = 0;
    OSSL_PARAM m_params[5] = {};
};

bool feed_digest(EVP_MD_CTX* ctx, const Bytes& message, size_t piece) {
    for (size_t offset = 0; offset < message.size(); offset += piece) {
        const size_t n = std::min(piece, message.size() - offset);
        if (EVP_DigestUpdate(ctx, message.data() + offset, n) != 1) {
            return false;
        }
    }
    return true;
}

// Known length: fixed at init (under `length_name`), then EVP_DigestFinalXOF of it. Unknown:
// no length at init.
std::optional<Bytes> xof_digest(EVP_MD_CTX* ctx, const EVP_MD* md, const Blake2bVector& vector,
                                bool unknown, const char* length_name, size_t piece) {
    const XofParams params(length_name, unknown ? 0 : vector.size, &vector);
    Bytes out(vector.size);
    if (EVP_DigestInit_ex2(ctx, md, params.get()) != 1 ||
        !feed_digest(ctx, vector.message, piece) ||
        EVP_DigestFinalXOF(ctx, out.data(), out.size()) != 1) {
        return std::nullopt;
    }
    return out;
}

// Known length: "size" at init and EVP_MAC_final. Unknown: "xof" 1 and EVP_MAC_finalXOF.
std::optional<Bytes> xof_mac(EVP_MAC_CTX* ctx, const Blake2bVector& vector, bool unknown) {
    const XofParams params("size", unknown ? 0 : vector.size, &vector, unknown ? 1 : -1);
    Bytes out(vector.size);
    size_t written = 0;
    if (EVP_MAC_init(ctx, vector.key.data(), vector.key.size(), params.get()) != 1 ||
        EVP_MAC_update(ctx, vector.message.data(), vector.message.size()) != 1) {
        return std::nullopt;
    }
    const bool done = unknown ? EVP_MAC_finalXOF(ctx, out.data(), out.size()) == 1
                              : EVP_MAC_final(ctx, out.data(), &written, out.size()) == 1 &&
                                    written == vector.size;
    return done ? std::optional<Bytes>(out) : std::nullopt;
}

std::string describe(const Blake2bVector& vector, const char* how,
                     const std::optional<Bytes>& got) {
    return vector.name + " (" + how + ", " + std::to_string(vector.size) + " bytes): expected " +
           b2test::to_hex(vector.expected).substr(0, 80) + "..., got " +
           (got ? b2test::to_hex(*got).substr(0, 80) : std::string("failure"));
}

struct Algorithms {
    b2test::MdPtr md;
    b2test::MacPtr mac;
};

// One vector through the digest (unkeyed) or the MAC (keyed), whole and split.
void check_vector(Report& report, const Algorithms& algorithms, const Blake2bVector& vector,
                  bool unknown, size_t index) {
    if (vector.key.empty()) {
        b2test::MdCtxPtr ctx(EVP_MD_CTX_new());
        const char* length_name = index % 2 == 0 ? "xoflen" : "size";
        const auto whole = xof_digest(ctx.get(), algorithms.md.get(), vector, unknown, length_name,
                                      vector.message.size() + 1);
        B2_CHECK(report, whole == vector.expected, describe(vector, "digest", whole));
        const auto split =
            xof_digest(ctx.get(), algorithms.md.get(), vector, unknown, "xoflen", 1 + index % 67);
        B2_CHECK(report, split == vector.expected, describe(vector, "digest, split", split));
        return;
    }
    b2test::MacCtxPtr ctx(EVP_MAC_CTX_new(algorithms.mac.get()));
    const auto got = xof_mac(ctx.get(), vector, unknown);
    B2_CHECK(report, got == vector.expected, describe(vector, unknown ? "MAC xof" : "MAC", got));
}

// --quick: entries 0..63 and 248..255 of each kind (output lengths 1..64 and 249..256).
constexpr size_t kQuickFirst = 64;
constexpr size_t kQuickLast = 8;
constexpr size_t kEntriesPerKind = 256;

void run_official(Report& report, const Member& member, const Algorithms& algorithms, bool quick) {
    const auto vectors =
        b2test::load_official_kat(b2test::vectors_path(member.kat_file), member.hash);
    size_t keyed = 0;
    for (size_t index = 0; index < vectors.size(); ++index) {
        const bool is_keyed = !vectors[index].key.empty();
        const size_t in_kind = is_keyed ? keyed : index - keyed;
        if (!quick || in_kind < kQuickFirst || in_kind >= kEntriesPerKind - kQuickLast) {
            check_vector(report, algorithms, vectors[index], false, index);
        }
        keyed += is_keyed ? 1 : 0;
    }
    B2_CHECK(report, vectors.size() == 512 && keyed == 256,
             std::string(member.hash) + ": " + std::to_string(vectors.size()) + " entries, " +
                 std::to_string(keyed) + " keyed");
    std::printf("%s official: %zu entries (%zu keyed) through %s and %s%s\n", member.hash,
                vectors.size(), keyed, member.digest, member.mac,
                quick ? " (quick: the first 64 and the last 8 of each kind)" : "");
}

void run_cases(Report& report, const Member& member, const Algorithms& algorithms,
               const std::string& cases_path) {
    const auto vectors = b2test::load_extended(cases_path);
    const auto objects = b2test::read_json_objects(cases_path);
    size_t checked = 0;
    size_t unknown_count = 0;
    for (size_t index = 0; index < vectors.size(); ++index) {
        if (objects[index].string("hash") != member.hash) {
            continue;
        }
        const bool unknown = objects[index].string("mode") == "unknown";
        check_vector(report, algorithms, vectors[index], unknown, index);
        ++checked;
        unknown_count += unknown ? 1 : 0;
    }
    B2_CHECK(report, checked >= 1024 && unknown_count >= 10,
             std::string(member.hash) + ": only " + std::to_string(checked) + " cases");
    std::printf("%s cases from gen_blake2x.py: %zu (%zu unknown-length)\n", member.hash, checked,
                unknown_count);
}

bool refused_with(Report& report, bool succeeded, const std::string& reason,
                  const std::string& what) {
    const std::string got = b2test::last_reason();
    B2_CHECK(report, !succeeded, what + ": accepted");
    B2_CHECK(report, got.find(reason) != std::string::npos,
             what + ": reason \"" + got + "\", expected \"" + reason + "\"");
    return !succeeded;
}

// Lengths at init: 0, the unknown-length value and beyond are refused; the context's size.
void check_digest_lengths(Report& report, const Member& member, const EVP_MD* md) {
    b2test::MdCtxPtr ctx(EVP_MD_CTX_new());
    B2_CHECK(report, EVP_MD_get_size(md) == 0, std::string(member.digest) + ": EVP_MD_get_size");
    B2_CHECK(report, (EVP_MD_get_flags(md) & EVP_MD_FLAG_XOF) != 0,
             std::string(member.digest) + ": EVP_MD_FLAG_XOF");
    for (const uint64_t bad : {uint64_t{0}, member.max_length + 1, member.max_length + 2}) {
        for (const char* name : {"xoflen", "size"}) {
            size_t value = static_cast<size_t>(bad);
            OSSL_PARAM p[] = {OSSL_PARAM_construct_size_t(name, &value),
                              OSSL_PARAM_construct_end()};
            refused_with(report, EVP_DigestInit_ex2(ctx.get(), md, p) == 1, "invalid XOF length",
                         std::string(member.digest) + " init " + name + " " + std::to_string(bad));
        }
    }
    size_t reported = 1;
    OSSL_PARAM query[] = {OSSL_PARAM_construct_size_t("size", &reported),
                          OSSL_PARAM_construct_end()};
    const XofParams fixed("xoflen", 77, nullptr);
    B2_CHECK(
        report,
        EVP_DigestInit_ex2(ctx.get(), md, fixed.get()) == 1 &&
            EVP_MD_CTX_get_params(ctx.get(), query) == 1 && reported == 77,
        std::string(member.digest) + ": size of a 77-byte context " + std::to_string(reported));
    b2test::MdCtxPtr unknown(EVP_MD_CTX_new());
    B2_CHECK(report,
             EVP_DigestInit_ex2(unknown.get(), md, nullptr) == 1 &&
                 EVP_MD_CTX_get_params(unknown.get(), query) == 1 && reported == 0,
             std::string(member.digest) + ": size of an unknown-length context " +
                 std::to_string(reported));
}

// FinalXOF must ask for the init length (or 0: nothing); Final needs a known length.
void check_digest_final(Report& report, const Member& member, const EVP_MD* md) {
    const std::string name = member.digest;
    const XofParams fixed("xoflen", 40, nullptr);
    b2test::MdCtxPtr ctx(EVP_MD_CTX_new());
    uint8_t out[64] = {};
    B2_REQUIRE(EVP_DigestInit_ex2(ctx.get(), md, fixed.get()) == 1, name + " init");
    refused_with(report, EVP_DigestFinalXOF(ctx.get(), out, 41) == 1, "differs from the length",
                 name + ": FinalXOF 41 on a 40-byte context");
    B2_REQUIRE(EVP_DigestInit_ex2(ctx.get(), md, fixed.get()) == 1, name + " init");
    B2_CHECK(report, EVP_DigestFinalXOF(ctx.get(), out, 0) == 1,
             name + ": FinalXOF 0 succeeds (writing nothing)");
    b2test::MdCtxPtr unknown(EVP_MD_CTX_new());
    unsigned int length = 0;
    B2_REQUIRE(EVP_DigestInit_ex2(unknown.get(), md, nullptr) == 1, name + " unknown init");
    const bool final_succeeded = EVP_DigestFinal_ex(unknown.get(), out, &length) == 1;
    if (b2test::running_openssl_at_least(0x30400000L)) {
        // 3.4+ asks the context for its size first and, given 0 (unknown length), refuses
        // before calling our final, raising no reason of its own.
        B2_CHECK(report, !final_succeeded,
                 name + ": EVP_DigestFinal_ex without a length: accepted");
    } else {
        refused_with(report, final_succeeded, "no XOF output length",
                     name + ": EVP_DigestFinal_ex without a length");
    }
    // A copy in the middle of a message finishes as the original does.
    b2test::MdCtxPtr original(EVP_MD_CTX_new());
    b2test::MdCtxPtr copy(EVP_MD_CTX_new());
    uint8_t a[100] = {};
    uint8_t b[100] = {};
    B2_CHECK(report,
             EVP_DigestInit_ex2(original.get(), md, nullptr) == 1 &&
                 EVP_DigestUpdate(original.get(), "abc", 3) == 1 &&
                 EVP_MD_CTX_copy_ex(copy.get(), original.get()) == 1 &&
                 EVP_DigestFinalXOF(original.get(), a, sizeof a) == 1 &&
                 EVP_DigestFinalXOF(copy.get(), b, sizeof b) == 1 && std::memcmp(a, b, 100) == 0,
             name + ": a copy made mid-message gives the same output");
}

// EVP_DigestSqueeze exists from OpenSSL 3.3: found at run time, so one binary tests every version.
using SqueezeFn = int (*)(EVP_MD_CTX*, unsigned char*, size_t);

void check_squeeze(Report& report, const Member& member, const EVP_MD* md) {
    auto squeeze = reinterpret_cast<SqueezeFn>(dlsym(RTLD_DEFAULT, "EVP_DigestSqueeze"));
    if (squeeze == nullptr) {
        std::printf(
            "%s: EVP_DigestSqueeze absent (OpenSSL before 3.3): squeeze not checked via "
            "EVP\n",
            member.digest);
        return;
    }
    const std::string name = member.digest;
    b2test::MdCtxPtr ctx(EVP_MD_CTX_new());
    b2test::MdCtxPtr copy(EVP_MD_CTX_new());
    Bytes whole(300);
    Bytes pieces(300);
    Bytes rest(200);
    B2_REQUIRE(EVP_DigestInit_ex2(ctx.get(), md, nullptr) == 1 &&
                   EVP_DigestUpdate(ctx.get(), "squeeze", 7) == 1 &&
                   EVP_MD_CTX_copy_ex(copy.get(), ctx.get()) == 1 &&
                   EVP_DigestFinalXOF(copy.get(), whole.data(), whole.size()) == 1,
               name + ": the unknown-length output");
    B2_CHECK(report,
             squeeze(ctx.get(), pieces.data(), 1) == 1 &&
                 squeeze(ctx.get(), pieces.data() + 1, 99) == 1 &&
                 EVP_MD_CTX_copy_ex(copy.get(), ctx.get()) == 1 &&
                 squeeze(ctx.get(), pieces.data() + 100, 200) == 1 && pieces == whole &&
                 squeeze(copy.get(), rest.data(), 200) == 1 &&
                 Bytes(whole.begin() + 100, whole.end()) == rest,
             name + ": squeezes of 1, 99, 200 (and a copy after 100) continue one stream");
    B2_CHECK(report, EVP_DigestFinalXOF(ctx.get(), whole.data(), 10) != 1,
             name + ": final after squeeze is refused");
    (void)b2test::drain_openssl_errors();
}

void check_mac_rules(Report& report, const Member& member, EVP_MAC* mac) {
    const std::string name = member.mac;
    b2test::MacCtxPtr ctx(EVP_MAC_CTX_new(mac));
    const Bytes key = b2test::pattern(member.longest_key, 3, 5);
    const Bytes long_key = b2test::pattern(member.longest_key + 1, 3, 5);
    refused_with(report, EVP_MAC_init(ctx.get(), long_key.data(), long_key.size(), nullptr) == 1,
                 "invalid key length", name + ": a key too long");
    for (const uint64_t bad : {uint64_t{0}, member.max_length + 1}) {
        size_t value = static_cast<size_t>(bad);
        OSSL_PARAM p[] = {OSSL_PARAM_construct_size_t("size", &value), OSSL_PARAM_construct_end()};
        refused_with(report, EVP_MAC_init(ctx.get(), key.data(), key.size(), p) == 1,
                     "invalid XOF length", name + ": size " + std::to_string(bad));
    }
    B2_CHECK(report,
             EVP_MAC_init(ctx.get(), key.data(), key.size(), nullptr) == 1 &&
                 EVP_MAC_CTX_get_mac_size(ctx.get()) == member.longest_key,
             name + ": default size " + std::to_string(EVP_MAC_CTX_get_mac_size(ctx.get())));
    // xof after input changes nothing and fails; the same value again is a no-op.
    int one = 1;
    int zero = 0;
    OSSL_PARAM xof_on[] = {OSSL_PARAM_construct_int("xof", &one), OSSL_PARAM_construct_end()};
    OSSL_PARAM xof_off[] = {OSSL_PARAM_construct_int("xof", &zero), OSSL_PARAM_construct_end()};
    uint8_t out[64] = {};
    B2_CHECK(
        report,
        EVP_MAC_update(ctx.get(), out, 1) == 1 && EVP_MAC_CTX_set_params(ctx.get(), xof_off) == 1,
        name + ": xof 0 again after input is a no-op");
    refused_with(report, EVP_MAC_CTX_set_params(ctx.get(), xof_on) == 1, "xof changes",
                 name + ": xof 1 after input");
    B2_CHECK(report, EVP_MAC_finalXOF(ctx.get(), out, 10) != 1,
             name + ": finalXOF on a known-length context");
    (void)b2test::drain_openssl_errors();
    // NULL-key re-init reuses the key.
    const Bytes message = b2test::pattern_mod251(300);
    const auto first = b2test::run_mac(ctx.get(), key, nullptr, message);
    Bytes again(member.longest_key);
    size_t written = 0;
    B2_CHECK(report,
             EVP_MAC_init(ctx.get(), nullptr, 0, nullptr) == 1 &&
                 EVP_MAC_update(ctx.get(), message.data(), message.size()) == 1 &&
                 EVP_MAC_final(ctx.get(), again.data(), &written, again.size()) == 1 && first &&
                 *first == again,
             name + ": EVP_MAC_init(NULL key) reuses the key");
}

// xof switched on before the first update: the message is the unknown-length one.
void check_mac_switch(Report& report, const Member& member, const Algorithms& algorithms,
                      const std::string& cases_path) {
    const auto vectors = b2test::load_extended(cases_path);
    const auto objects = b2test::read_json_objects(cases_path);
    for (size_t index = 0; index < vectors.size(); ++index) {
        const Blake2bVector& vector = vectors[index];
        if (objects[index].string("hash") != member.hash || vector.key.empty() ||
            objects[index].string("mode") != "unknown") {
            continue;
        }
        b2test::MacCtxPtr ctx(EVP_MAC_CTX_new(algorithms.mac.get()));
        const XofParams fields("size", 5, &vector);
        int one = 1;
        OSSL_PARAM xof_on[] = {OSSL_PARAM_construct_int("xof", &one), OSSL_PARAM_construct_end()};
        Bytes out(vector.size);
        B2_CHECK(report,
                 EVP_MAC_init(ctx.get(), vector.key.data(), vector.key.size(), fields.get()) == 1 &&
                     EVP_MAC_CTX_set_params(ctx.get(), xof_on) == 1 &&
                     EVP_MAC_update(ctx.get(), vector.message.data(), vector.message.size()) == 1 &&
                     EVP_MAC_finalXOF(ctx.get(), out.data(), out.size()) == 1 &&
                     out == vector.expected,
                 vector.name + ": xof 1 set after init, before any input");
        return;
    }
    B2_CHECK(report, false, std::string(member.hash) + ": no keyed unknown-length case");
}

// `cases_path` empty: --quick.
int run(const std::string& cases_path) {
    Report report("test_blake2x");
    const b2test::ProviderSession session(b2test::ProviderSession::Default::exclude);
    for (const Member& member : kMembers) {
        Algorithms algorithms{session.fetch_md(member.digest, b2test::kOurPropq),
                              session.fetch_mac(member.mac, b2test::kOurPropq)};
        B2_REQUIRE(algorithms.md && algorithms.mac,
                   std::string("fetching ") + member.digest + " and " + member.mac);
        b2test::MdCtxPtr ctx(EVP_MD_CTX_new());
        B2_REQUIRE(EVP_DigestInit_ex2(ctx.get(), algorithms.md.get(), nullptr) == 1, "init");
        const std::string kernel = b2test::served_kernel(ctx.get()).value_or("(unknown)");
        std::printf("kernel serving %s: %s\n", member.digest, kernel.c_str());
        // A kernel request binds the BLAKE2b kernel; one without a BLAKE2s form leaves BLAKE2Xs
        // on the automatic choice (as for BLAKE2S-256).
        if (&member == &kMembers[0]) {
            const b2test::KernelPolicy policy;
            if (policy.wants_skip(kernel)) {
                return b2test::kSkipExitCode;
            }
            policy.check(report, kernel, member.digest);
        }
        const bool quick = cases_path.empty();
        run_official(report, member, algorithms, quick);
        if (!quick) {
            run_cases(report, member, algorithms, cases_path);
            check_mac_switch(report, member, algorithms, cases_path);
        }
        check_digest_lengths(report, member, algorithms.md.get());
        check_digest_final(report, member, algorithms.md.get());
        check_squeeze(report, member, algorithms.md.get());
        check_mac_rules(report, member, algorithms.mac.get());
    }
    return report.finish();
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr,
                     "usage: %s CASES.json (from vectors/gen_blake2x.py --cases) | --quick\n",
                     argv[0]);
        return 2;
    }
    try {
        return run(std::strcmp(argv[1], "--quick") == 0 ? std::string() : argv[1]);
    } catch (const std::exception& error) {
        std::fprintf(stderr, "FATAL: %s\n", error.what());
        return 1;
    }
}
