// copyctx and the serialized state through EVP, on whatever core runs the test.
//   --copy (provider.evp_copy): EVP_MD_CTX_copy_ex of every digest at generated split points
//     (and BLAKE2X squeezing) into a context of the same fetched digest: both go on to the
//     one-shot output; from OpenSSL 3.5 (copyctx) the copy allocates nothing. PBKDF2-HMAC over
//     our BLAKE2B-512 and BLAKE2S-256 (a copy per block) equals the default provider's.
//   --state (provider.evp_state; OpenSSL 4.0 cores only, else 77): EVP_MD_CTX_serialize /
//     deserialize of every digest at generated split points, saved in one library context (one
//     kernel) and resumed in a fresh context of another (the next kernel), and in another
//     process: the one-shot output; the size query; what OpenSSL's own test
//     (its test/evp_extra_test2.c, the serialize test) checks: a finished context neither
//     serializes nor deserializes; a truncated blob is refused and the context goes on.
//   --resume NAME FILE (internal): the other process, printing the output in hex.
// SPDX-License-Identifier: Apache-2.0
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/opensslv.h>
#include <openssl/params.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "b2test/check.hpp"
#include "b2test/evp.hpp"
#include "b2test/hex.hpp"
#include "cpu_features.hpp"
#include "forms.hpp"
#include "registry.hpp"

namespace {

using Bytes = std::vector<uint8_t>;

// Allocations through libcrypto, counted (set before libcrypto allocates anything).
std::atomic<long> g_allocations{0};
void* counting_malloc(size_t size, const char*, int) {
    ++g_allocations;
    return std::malloc(size);
}
void* counting_realloc(void* memory, size_t size, const char*, int) {
    ++g_allocations;
    return std::realloc(memory, size);
}
void counting_free(void* memory, const char*, int) {
    std::free(memory);
}

struct Algorithm {
    const char* name;
    size_t block;
    bool xof;
};
const Algorithm kAlgorithms[] = {
    {"BLAKE2B-512", 128, false}, {"BLAKE2S-256", 64, false},  {"BLAKE2B-160", 128, false},
    {"BLAKE2B-256", 128, false}, {"BLAKE2B-384", 128, false}, {"BLAKE2S-128", 64, false},
    {"BLAKE2S-160", 64, false},  {"BLAKE2S-224", 64, false},  {"BLAKE2BP-512", 128, false},
    {"BLAKE2SP-256", 64, false}, {"BLAKE2XB", 128, true},     {"BLAKE2XS", 64, true},
};
constexpr size_t kXofOutput = 200;

Bytes message_of(size_t length) {
    Bytes message(length);
    for (size_t i = 0; i < length; ++i) {
        message[i] = static_cast<uint8_t>(i * 131 + 17);
    }
    return message;
}

bool init(EVP_MD_CTX* ctx, const EVP_MD* md, const Algorithm& algorithm) {
    size_t xoflen = kXofOutput;
    OSSL_PARAM params[] = {OSSL_PARAM_construct_size_t(OSSL_DIGEST_PARAM_XOFLEN, &xoflen),
                           OSSL_PARAM_construct_end()};
    return EVP_DigestInit_ex2(ctx, md, algorithm.xof ? params : nullptr) == 1;
}

// The rest of the output: final, or an XOF's remaining bytes squeezed.
Bytes finish(EVP_MD_CTX* ctx, const Algorithm& algorithm, size_t squeezed) {
    Bytes out(algorithm.xof ? kXofOutput - squeezed : EVP_MAX_MD_SIZE);
    unsigned int outl = 0;
#if OPENSSL_VERSION_NUMBER >= 0x30300000L
    if (algorithm.xof) {
        return EVP_DigestSqueeze(ctx, out.data(), out.size()) == 1 ? out : Bytes{};
    }
#else
    if (algorithm.xof) {
        return EVP_DigestFinalXOF(ctx, out.data(), out.size()) == 1 ? out : Bytes{};
    }
#endif
    out.resize(EVP_DigestFinal_ex(ctx, out.data(), &outl) == 1 ? outl : 0);
    return out;
}

Bytes one_shot(const EVP_MD* md, const Algorithm& algorithm, const Bytes& message) {
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    Bytes out;
    if (init(ctx, md, algorithm) && EVP_DigestUpdate(ctx, message.data(), message.size()) == 1) {
        out = finish(ctx, algorithm, 0);
    }
    EVP_MD_CTX_free(ctx);
    return out;
}

std::vector<size_t> splits_of(size_t length, unsigned& seed) {
    seed = seed * 1103515245u + 12345u;
    std::vector<size_t> splits = {0, length / 2, length, length > 0 ? (seed >> 8) % length : 0};
    if (length > 0) {
        splits.push_back(1);
        splits.push_back(length - 1);
    }
    return splits;
}

std::vector<size_t> lengths_of(const Algorithm& algorithm) {
    return {0, 1, algorithm.block, algorithm.block + 1, 9 * algorithm.block + 5, 2500};
}

int check_copy() {
    b2test::Report checks("test_digest_state_evp --copy");
    const b2test::ProviderSession session(b2test::ProviderSession::Default::include);
    const bool copyctx_core = b2test::running_openssl_at_least(0x30500000L);
    unsigned seed = 29;
    for (const Algorithm& algorithm : kAlgorithms) {
        const b2test::MdPtr md = session.fetch_md(algorithm.name, b2test::kOurPropq);
        B2_REQUIRE(md != nullptr, algorithm.name);
        for (size_t length : lengths_of(algorithm)) {
            const Bytes message = message_of(length);
            const Bytes expected = one_shot(md.get(), algorithm, message);
            for (size_t split : splits_of(length, seed)) {
                const std::string where = std::string(algorithm.name) + " length " +
                                          std::to_string(length) + " split " +
                                          std::to_string(split);
                EVP_MD_CTX* source = EVP_MD_CTX_new();
                EVP_MD_CTX* target = EVP_MD_CTX_new();
                init(source, md.get(), algorithm);
                EVP_DigestUpdate(source, message.data(), split);
                init(target, md.get(), algorithm);
                const Bytes other = message_of(3 * algorithm.block + 1);
                EVP_DigestUpdate(target, other.data(), other.size());
                const long allocations = g_allocations;
                B2_CHECK(checks, EVP_MD_CTX_copy_ex(target, source) == 1, "copy_ex: " + where);
                B2_CHECK(checks, !copyctx_core || g_allocations == allocations,
                         "copyctx (3.5+) allocates nothing: " + where);
                for (EVP_MD_CTX* ctx : {target, source}) {
                    EVP_DigestUpdate(ctx, message.data() + split, length - split);
                    B2_CHECK(checks, finish(ctx, algorithm, 0) == expected,
                             "copy and source go on to the one-shot output: " + where);
                }
                EVP_MD_CTX_free(source);
                EVP_MD_CTX_free(target);
            }
        }
    }
    // PBKDF2-HMAC copies a digest context per block: ours and the default provider's agree.
    for (const char* name : {"BLAKE2B-512", "BLAKE2S-256"}) {
        const b2test::MdPtr ours = session.fetch_md(name, b2test::kOurPropq);
        const b2test::MdPtr theirs = session.fetch_md(name, b2test::kDefaultPropq);
        unsigned char ours_out[100], theirs_out[100];
        B2_CHECK(
            checks,
            PKCS5_PBKDF2_HMAC("password", 8, reinterpret_cast<const unsigned char*>("salt"), 4,
                              1000, ours.get(), sizeof ours_out, ours_out) == 1 &&
                PKCS5_PBKDF2_HMAC("password", 8, reinterpret_cast<const unsigned char*>("salt"), 4,
                                  1000, theirs.get(), sizeof theirs_out, theirs_out) == 1 &&
                std::memcmp(ours_out, theirs_out, sizeof ours_out) == 0,
            std::string("PBKDF2-HMAC-") + name + " equals the default provider's");
    }
    return checks.finish();
}

#if OPENSSL_VERSION_NUMBER >= 0x40000000L

const Algorithm* find(const std::string& name) {
    for (const Algorithm& algorithm : kAlgorithms) {
        if (name == algorithm.name) {
            return &algorithm;
        }
    }
    return nullptr;
}

// One library context per kernel this CPU runs, each with its own provider instance.
struct KernelSession {
    std::string kernel;
    std::unique_ptr<b2test::ProviderSession> session;
};

std::vector<KernelSession> kernel_sessions() {
    std::vector<KernelSession> sessions;
    const auto& features = blake2simd::cpu::detected_features();
    for (const auto& row : blake2simd::registry::kKernelRows) {
        if (row.built && blake2simd::dispatch::cpu_can_run(row.id, features)) {
            setenv("BLAKE2SIMD_KERNEL", row.name, 1);
            sessions.push_back({row.name, std::make_unique<b2test::ProviderSession>(
                                              b2test::ProviderSession::Default::exclude)});
        }
    }
    unsetenv("BLAKE2SIMD_KERNEL");
    return sessions;
}

Bytes serialize(EVP_MD_CTX* ctx) {
    size_t size = 0;
    if (EVP_MD_CTX_serialize(ctx, nullptr, &size) != 1) {
        return {};
    }
    Bytes blob(size);
    return EVP_MD_CTX_serialize(ctx, blob.data(), &size) == 1 && size == blob.size() ? blob
                                                                                     : Bytes{};
}

// The output of `blob` resumed in another process, with the rest of `message` from `split`.
Bytes resume_elsewhere(const char* self, const Algorithm& algorithm, const Bytes& blob,
                       const Bytes& rest) {
    char path[] = "/tmp/b2-state-XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0) {
        return {};
    }
    close(fd);
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(blob.data()), static_cast<long>(blob.size()))
        .write(reinterpret_cast<const char*>(rest.data()), static_cast<long>(rest.size()));
    const std::string command = std::string(self) + " --resume " + algorithm.name + " " + path +
                                " " + std::to_string(blob.size());
    FILE* pipe = popen(command.c_str(), "r");
    std::string hex;
    char buffer[256];
    while (pipe != nullptr && std::fgets(buffer, sizeof buffer, pipe) != nullptr) {
        hex += buffer;
    }
    const int status = pipe != nullptr ? pclose(pipe) : -1;
    std::remove(path);
    while (!hex.empty() && (hex.back() == '\n' || hex.back() == '\r')) {
        hex.pop_back();
    }
    const auto bytes = b2test::from_hex(hex);
    return status == 0 && bytes ? *bytes : Bytes{};
}

int resume(const std::string& name, const char* path, size_t blob_size) {
    const Algorithm* algorithm = find(name);
    std::ifstream file(path, std::ios::binary);
    const Bytes input((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    const b2test::ProviderSession session(b2test::ProviderSession::Default::exclude);
    const b2test::MdPtr md = session.fetch_md(name.c_str(), b2test::kOurPropq);
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    if (algorithm == nullptr || md == nullptr || input.size() < blob_size ||
        !init(ctx, md.get(), *algorithm) ||
        EVP_MD_CTX_deserialize(ctx, input.data(), blob_size) != 1 ||
        EVP_DigestUpdate(ctx, input.data() + blob_size, input.size() - blob_size) != 1) {
        return 1;
    }
    std::printf("%s\n", b2test::to_hex(finish(ctx, *algorithm, 0)).c_str());
    EVP_MD_CTX_free(ctx);
    return 0;
}

int check_state(const char* self) {
    b2test::Report checks("test_digest_state_evp --state");
    const std::vector<KernelSession> sessions = kernel_sessions();
    unsigned seed = 4;
    for (const Algorithm& algorithm : kAlgorithms) {
        const b2test::MdPtr reference = sessions[0].session->fetch_md(algorithm.name, nullptr);
        for (size_t length : lengths_of(algorithm)) {
            const Bytes message = message_of(length);
            const Bytes expected = one_shot(reference.get(), algorithm, message);
            for (size_t split : splits_of(length, seed)) {
                for (size_t k = 0; k < sessions.size(); ++k) {
                    const std::string where = std::string(algorithm.name) + " length " +
                                              std::to_string(length) + " split " +
                                              std::to_string(split) + " from " + sessions[k].kernel;
                    const b2test::MdPtr save_md =
                        sessions[k].session->fetch_md(algorithm.name, nullptr);
                    const b2test::MdPtr load_md =
                        sessions[(k + 1) % sessions.size()].session->fetch_md(algorithm.name,
                                                                              nullptr);
                    EVP_MD_CTX* source = EVP_MD_CTX_new();
                    init(source, save_md.get(), algorithm);
                    EVP_DigestUpdate(source, message.data(), split);
                    const Bytes blob = serialize(source);
                    B2_CHECK(checks, !blob.empty(), "serialize: " + where);
                    EVP_MD_CTX* target = EVP_MD_CTX_new();
                    B2_CHECK(checks,
                             init(target, load_md.get(), algorithm) &&
                                 EVP_MD_CTX_deserialize(target, blob.data(), blob.size()) == 1,
                             "deserialize in another library context: " + where);
                    for (EVP_MD_CTX* ctx : {target, source}) {
                        EVP_DigestUpdate(ctx, message.data() + split, length - split);
                        B2_CHECK(checks, finish(ctx, algorithm, 0) == expected,
                                 "resumed and saved go on to the one-shot output: " + where);
                    }
                    if (!algorithm.xof) {  // a squeezing XOF is not finished
                        size_t size = 0;
                        B2_CHECK(
                            checks,
                            EVP_MD_CTX_serialize(source, nullptr, &size) == 0 &&
                                EVP_MD_CTX_deserialize(source, blob.data(), blob.size()) == 0,
                            "a finished context neither serializes nor deserializes: " + where);
                    }
                    EVP_MD_CTX* truncated = EVP_MD_CTX_new();
                    init(truncated, load_md.get(), algorithm);
                    EVP_DigestUpdate(truncated, message.data(), split);
                    B2_CHECK(checks,
                             EVP_MD_CTX_deserialize(truncated, blob.data(), blob.size() - 1) == 0,
                             "a truncated blob is refused: " + where);
                    EVP_DigestUpdate(truncated, message.data() + split, length - split);
                    B2_CHECK(checks, finish(truncated, algorithm, 0) == expected,
                             "and the context goes on: " + where);
                    if (split == length / 2 && k == 0) {
                        const Bytes rest(message.begin() + static_cast<long>(split), message.end());
                        B2_CHECK(checks, resume_elsewhere(self, algorithm, blob, rest) == expected,
                                 "resumed in another process: " + where);
                    }
                    EVP_MD_CTX_free(truncated);
                    EVP_MD_CTX_free(source);
                    EVP_MD_CTX_free(target);
                }
            }
        }
    }
    return checks.finish();
}

#else

int check_state(const char*) {
    std::printf("SKIP: EVP_MD_CTX_serialize needs OpenSSL 4.0 headers (built against %s)\n",
                OPENSSL_VERSION_TEXT);
    return b2test::kSkipExitCode;
}

int resume(const std::string&, const char*, size_t) {
    return b2test::kSkipExitCode;
}

#endif

}  // namespace

int main(int argc, char** argv) {
    if (CRYPTO_set_mem_functions(counting_malloc, counting_realloc, counting_free) != 1) {
        b2test::fatal("CRYPTO_set_mem_functions");
    }
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "--copy") {
        return check_copy();
    }
    if (mode == "--state") {
        return check_state(argv[0]);
    }
    if (mode == "--resume" && argc == 5) {
        return resume(argv[2], argv[3], std::strtoul(argv[4], nullptr, 10));
    }
    std::fprintf(stderr, "usage: %s --copy | --state\n", argv[0]);
    return 2;
}
