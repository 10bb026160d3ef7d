// Sized tree modes: BLAKE2BP-512 / BLAKE2BPMAC with "size" 1..64 and BLAKE2SP-256 / BLAKE2SPMAC
// with 1..32 through EVP, every size against libb2's blake2bp() / blake2sp() (the reference
// code's definition: every node's digest length is the size, the leaves output their full inner
// length), unkeyed and with keys of 1, half and the longest length, messages across the leaves'
// block edges fed in random pieces. libb2 itself must first reproduce the official keyed and
// unkeyed KAT (vectors/<mode>-kat.json) at the full size; a libb2 that does not (one held to
// one OpenMP thread hashes leaf 0 only) or a build without libb2 skips (77).
// SPDX-License-Identifier: Apache-2.0
//
// B2_SEED=<n> reproduces the splits; BLAKE2SIMD_KERNEL and B2_SKIP_UNLESS_KERNEL (evp.hpp)
// bind the run to one kernel, whose 4- and 8-lane forms (native or lane by lane) serve.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "b2test.hpp"
#include "b2test/algorithms.hpp"

#if defined(B2_HAVE_LIBB2)
#include <blake2.h>
#endif

namespace {

using Bytes = std::vector<uint8_t>;

#if defined(B2_HAVE_LIBB2)

using Libb2Tree = int (*)(uint8_t* out, const void* in, const void* key, size_t outlen,
                          size_t inlen, size_t keylen);

struct Mode {
    const b2test::Blake2Algorithm& algorithm;
    Libb2Tree libb2;
    size_t lanes;
};

Bytes pattern(size_t length, uint8_t seed) {
    Bytes bytes(length);
    for (size_t i = 0; i < length; ++i) {
        bytes[i] = static_cast<uint8_t>(seed + i * 13);
    }
    return bytes;
}

Bytes libb2_hash(const Mode& mode, size_t size, const Bytes& key, const Bytes& message) {
    Bytes out(size);
    const int status = mode.libb2(out.data(), message.data(), key.empty() ? nullptr : key.data(),
                                  size, message.size(), key.size());
    return status == 0 ? out : Bytes{};
}

// libb2 against the official answers at the full size: false (skip) when it differs.
bool libb2_matches_official(const Mode& mode) {
    const std::string label = mode.algorithm.label;
    const auto official =
        b2test::load_official_kat(b2test::vectors_path(label + "-kat.json"), label);
    B2_REQUIRE(official.size() == 512, label + "-kat.json: 512 entries");
    for (const b2test::Blake2bVector& v : official) {
        if (libb2_hash(mode, v.expected.size(), v.key, v.message) != v.expected) {
            std::printf("SKIP: libb2's %s fails the official KAT (%s; OMP_NUM_THREADS=1?)\n",
                        label.c_str(), v.name.c_str());
            return false;
        }
    }
    return true;
}

std::vector<size_t> random_pieces(std::mt19937_64& rng, size_t length) {
    std::vector<size_t> pieces;
    size_t remaining = length;
    while (remaining > 0 && rng() % 4 != 0) {
        const size_t piece = static_cast<size_t>(rng() % (remaining + 1));
        pieces.push_back(piece);
        remaining -= piece;
    }
    return pieces;
}

// Every size, every key class, every message length: ours (EVP) against libb2.
void check_mode(b2test::Report& report, const b2test::ProviderSession& session, const Mode& mode,
                std::mt19937_64& rng) {
    const b2test::Blake2Algorithm& algorithm = mode.algorithm;
    const b2test::MdPtr md = session.fetch_md(algorithm.digest, b2test::kOurPropq);
    const b2test::MacPtr mac = session.fetch_mac(algorithm.mac, b2test::kOurPropq);
    B2_REQUIRE(md && mac, std::string("fetch ") + algorithm.digest + ", " + algorithm.mac);
    const b2test::MdCtxPtr md_ctx(EVP_MD_CTX_new());
    const b2test::MacCtxPtr mac_ctx(EVP_MAC_CTX_new(mac.get()));
    const size_t block = algorithm.block_bytes;
    const size_t group = mode.lanes * block;
    const size_t lengths[] = {0,     1,         block - 1,     block,         block + 1, group - 1,
                              group, group + 1, 2 * group + 7, 3 * group - 1, 5000};
    const size_t key_lengths[] = {0, 1, algorithm.max_key / 2, algorithm.max_key};
    long cases = 0;
    for (size_t size = 1; size <= algorithm.max_size; ++size) {
        for (const size_t key_length : key_lengths) {
            const Bytes key = pattern(key_length, static_cast<uint8_t>(size));
            for (const size_t length : lengths) {
                const Bytes message = pattern(length, static_cast<uint8_t>(key_length + 7));
                const Bytes expected = libb2_hash(mode, size, key, message);
                const std::vector<size_t> pieces = random_pieces(rng, length);
                b2test::Blake2bParams params;
                params.set_size(size);
                std::optional<Bytes> got;
                if (key.empty()) {
                    got = b2test::run_digest(md_ctx.get(), md.get(),
                                             params.build(b2test::Blake2bParams::Face::digest),
                                             message, pieces);
                } else {
                    got = b2test::run_mac(mac_ctx.get(), key,
                                          params.build(b2test::Blake2bParams::Face::mac), message,
                                          pieces);
                }
                ++cases;
                B2_CHECK(report, !expected.empty() && got == expected,
                         std::string(key.empty() ? algorithm.digest : algorithm.mac) + " size " +
                             std::to_string(size) + ", key " + std::to_string(key_length) +
                             ", message " + std::to_string(length) + ": got " +
                             (got ? b2test::to_hex(*got) : "failure") + ", libb2 " +
                             b2test::to_hex(expected));
            }
        }
    }
    std::printf("%s/%s: %ld cases, sizes 1..%zu, against libb2\n", algorithm.digest, algorithm.mac,
                cases, algorithm.max_size);
}

// The kernel serving the BLAKE2bp form, as the context reports it.
std::string serving_kernel(const b2test::ProviderSession& session) {
    const b2test::MdPtr md = session.fetch_md(b2test::kBlake2bp.digest, b2test::kOurPropq);
    const b2test::MdCtxPtr ctx(EVP_MD_CTX_new());
    B2_REQUIRE(md && EVP_DigestInit_ex2(ctx.get(), md.get(), nullptr) == 1, "BLAKE2BP-512 init");
    const auto kernel = b2test::served_kernel(ctx.get());
    B2_REQUIRE(kernel.has_value(), "ctx param kernel");
    return *kernel;
}

int run() {
    b2test::Report report("test_tree_sizes");
    const b2test::ProviderSession session(b2test::ProviderSession::Default::exclude);
    const std::string kernel = serving_kernel(session);
    const b2test::KernelPolicy policy;
    if (policy.wants_skip(kernel)) {
        return b2test::kSkipExitCode;
    }
    policy.check(report, kernel, "BLAKE2bp");
    const char* text = std::getenv("B2_SEED");
    const uint64_t seed =
        text != nullptr && *text != '\0' ? std::strtoull(text, nullptr, 0) : std::random_device{}();
    std::printf("seed %" PRIu64 " (reproduce with B2_SEED=%" PRIu64 "), BLAKE2bp kernel %s\n", seed,
                seed, kernel.c_str());
    std::mt19937_64 rng(seed);
    const Mode modes[] = {{b2test::kBlake2bp, &blake2bp, 4}, {b2test::kBlake2sp, &blake2sp, 8}};
    for (const Mode& mode : modes) {
        if (!libb2_matches_official(mode)) {
            return b2test::kSkipExitCode;
        }
        check_mode(report, session, mode, rng);
    }
    return report.finish();
}

#else

int run() {
    std::printf("SKIP: built without libb2 (apt install libb2-dev, then reconfigure)\n");
    return b2test::kSkipExitCode;
}

#endif

}  // namespace

int main() {
    try {
        return run();
    } catch (const std::exception& error) {
        std::fprintf(stderr, "FATAL: %s\n", error.what());
        return 1;
    }
}
