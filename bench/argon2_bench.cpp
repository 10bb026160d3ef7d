// blake2simd_argon2_bench: Argon2 (RFC 9106) of this provider against OpenSSL's default provider
// (where the core has Argon2: 3.2+), libsodium's crypto_pwhash and libargon2, rows interleaved
// (each repetition runs every row once, the order rotating), medians of the calling thread's
// CPU time (wall time for the rows on two threads). A tool, not a test.
// SPDX-License-Identifier: Apache-2.0
//
// blake2simd_argon2_bench [--reps N] [--big] [--module-dir DIR]
// Rows: ARGON2ID t=3, one lane, 64 MiB (ours automatic and per kernel, OpenSSL's default,
// libsodium argon2id13, libargon2), 8 MiB (the same), with --big 1 GiB; lanes 2 threads 2 at
// 64 MiB against two independent one-lane 32 MiB hashes run at once (the same blocks, the
// machine's two cores); memcpy's bandwidth over the same memory, the physical limit once the
// blocks outgrow the caches. Every row first reproduces libargon2's answer.
#include <argon2.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include <sodium.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "registry.hpp"
#include "stopwatch.hpp"

namespace {

using Bytes = std::vector<uint8_t>;
using blake2simd::bench::thread_cpu_ns;
using blake2simd::bench::wall_ns;

struct Params {
    uint32_t memcost;  // KiB
    uint32_t iter = 3;
    uint32_t lanes = 1;
    uint32_t threads = 1;
};

const Bytes kPass = {'c', 'o', 'r', 'r', 'e', 'c', 't', ' ', 'h', 'o', 'r', 's', 'e'};
const Bytes kSalt = {'s', 'a', 'l', 't', 's', 'a', 'l', 't',
                     's', 'a', 'l', 't', '1', '2', '3', '4'};
constexpr size_t kOut = 32;

Bytes reference(const Params& p) {
    Bytes out(kOut);
    argon2_context c{};
    c.out = out.data();
    c.outlen = kOut;
    c.pwd = const_cast<uint8_t*>(kPass.data());
    c.pwdlen = static_cast<uint32_t>(kPass.size());
    c.salt = const_cast<uint8_t*>(kSalt.data());
    c.saltlen = static_cast<uint32_t>(kSalt.size());
    c.t_cost = p.iter;
    c.m_cost = p.memcost;
    c.lanes = p.lanes;
    c.threads = p.threads;
    c.version = ARGON2_VERSION_13;
    if (argon2_ctx(&c, Argon2_id) != ARGON2_OK) {
        std::fprintf(stderr, "libargon2 failed\n");
        std::exit(1);
    }
    return out;
}

Bytes sodium(const Params& p) {
    Bytes out(kOut);
    if (crypto_pwhash(out.data(), out.size(), reinterpret_cast<const char*>(kPass.data()),
                      kPass.size(), kSalt.data(), p.iter, size_t{p.memcost} * 1024,
                      crypto_pwhash_ALG_ARGON2ID13) != 0) {
        std::fprintf(stderr, "crypto_pwhash failed\n");
        std::exit(1);
    }
    return out;
}

Bytes evp(EVP_KDF* kdf, const Params& p) {
    Params copy = p;
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_octet_string("pass", const_cast<uint8_t*>(kPass.data()), kPass.size()),
        OSSL_PARAM_construct_octet_string("salt", const_cast<uint8_t*>(kSalt.data()), kSalt.size()),
        OSSL_PARAM_construct_uint32("iter", &copy.iter),
        OSSL_PARAM_construct_uint32("memcost", &copy.memcost),
        OSSL_PARAM_construct_uint32("lanes", &copy.lanes),
        OSSL_PARAM_construct_uint32("threads", &copy.threads),
        OSSL_PARAM_construct_end()};
    EVP_KDF_CTX* ctx = EVP_KDF_CTX_new(kdf);
    Bytes out(kOut);
    const bool ok = ctx != nullptr && EVP_KDF_derive(ctx, out.data(), out.size(), params) == 1;
    EVP_KDF_CTX_free(ctx);
    if (!ok) {
        ERR_print_errors_fp(stderr);
        std::exit(1);
    }
    return out;
}

struct Row {
    std::string label;
    std::function<Bytes()> run;
    Bytes expected;
    double block_bytes;  // block traffic per call: read previous and reference, write the block
    std::vector<double> samples;
    bool wall = false;  // timed by the wall clock (rows on two threads), else the thread's CPU time
};

// A library context with our module loaded, BLAKE2SIMD_KERNEL = `kernel` (nullptr: automatic).
EVP_KDF* our_argon2id(const std::string& module_dir, const char* kernel, std::string& served) {
    OSSL_LIB_CTX* libctx = OSSL_LIB_CTX_new();
    OSSL_PROVIDER_set_default_search_path(libctx, module_dir.c_str());
    if (kernel != nullptr) {
        setenv("BLAKE2SIMD_KERNEL", kernel, 1);
    }
    OSSL_PROVIDER* provider = OSSL_PROVIDER_load(libctx, "blake2simd");
    EVP_KDF* kdf =
        provider != nullptr ? EVP_KDF_fetch(libctx, "ARGON2ID", "provider=blake2simd") : nullptr;
    if (kdf != nullptr) {
        EVP_KDF_CTX* ctx = EVP_KDF_CTX_new(kdf);
        char name[32] = {};
        OSSL_PARAM get[] = {OSSL_PARAM_construct_utf8_string("kernel", name, sizeof name),
                            OSSL_PARAM_construct_end()};
        EVP_KDF_CTX_get_params(ctx, get);
        EVP_KDF_CTX_free(ctx);
        served = name;
    }
    unsetenv("BLAKE2SIMD_KERNEL");
    return kdf;
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

// Block traffic of one hash: each block compressed reads two blocks and writes one.
double traffic(const Params& p) {
    return 3.0 * 1024.0 * p.memcost * p.iter;
}

}  // namespace

int main(int argc, char** argv) {
    int reps = 7;
    bool big = false;
    std::string module_dir = B2_BENCH_MODULE_DIR;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (flag == "--reps" && i + 1 < argc) {
            reps = std::max(3, std::atoi(argv[++i]));
        } else if (flag == "--big") {
            big = true;
        } else if (flag == "--module-dir" && i + 1 < argc) {
            module_dir = argv[++i];
        }
    }
    if (sodium_init() < 0) {
        return 1;
    }
    std::printf("# %s; libsodium %s; %u hardware threads\n", OpenSSL_version(OPENSSL_VERSION),
                sodium_version_string(), std::thread::hardware_concurrency());
    EVP_KDF* openssl = EVP_KDF_fetch(nullptr, "ARGON2ID", "provider=default");
    ERR_clear_error();
    std::vector<std::pair<std::string, EVP_KDF*>> ours;
    std::string served;
    if (EVP_KDF* automatic = our_argon2id(module_dir, nullptr, served)) {
        ours.emplace_back("blake2simd auto (" + served + ")", automatic);
    }
    for (const auto& row : blake2simd::registry::kKernelRows) {
        if (!row.blamka.has_single || !row.built) {
            continue;
        }
        EVP_KDF* kdf = our_argon2id(module_dir, row.name, served);
        if (kdf != nullptr && served == row.name) {
            ours.emplace_back(std::string("blake2simd ") + row.name, kdf);
        }
    }
    if (ours.empty()) {
        std::fprintf(stderr, "cannot load blake2simd from %s\n", module_dir.c_str());
        return 1;
    }
    std::vector<Params> sizes = {{8 * 1024}, {64 * 1024}};
    if (big) {
        sizes.push_back({1024 * 1024});
    }
    std::vector<Row> rows;
    for (const Params& p : sizes) {
        const std::string size = std::to_string(p.memcost / 1024) + " MiB t=3 p=1: ";
        const Bytes expected = reference(p);
        for (const auto& [label, kdf] : ours) {
            rows.push_back(
                {size + label, [kdf = kdf, p] { return evp(kdf, p); }, expected, traffic(p), {}});
        }
        if (openssl != nullptr) {
            rows.push_back({size + "OpenSSL default",
                            [openssl, p] { return evp(openssl, p); },
                            expected,
                            traffic(p),
                            {}});
        }
        rows.push_back(
            {size + "libsodium argon2id13", [p] { return sodium(p); }, expected, traffic(p), {}});
        rows.push_back(
            {size + "libargon2", [p] { return reference(p); }, expected, traffic(p), {}});
        // memcpy over the same memory, as many bytes as the hash moves: the bandwidth bound.
        auto area = std::make_shared<Bytes>(size_t{p.memcost} * 1024 * 2);
        rows.push_back({size + "memcpy bound (same bytes moved)",
                        [area, p] {
                            const size_t half = area->size() / 2;
                            for (uint32_t pass = 0; pass < p.iter; ++pass) {
                                std::memcpy(area->data() + (pass & 1) * half,
                                            area->data() + (~pass & 1) * half, half);
                            }
                            return Bytes();
                        },
                        Bytes(),
                        2.0 * 1024.0 * p.memcost * p.iter,
                        {}});
    }
    // Two lanes on two threads against two independent one-lane hashes of half the memory each.
    const Params two_lanes{64 * 1024, 3, 2, 2};
    const Params half{32 * 1024, 3, 1, 1};
    EVP_KDF* auto_kdf = ours.front().second;
    rows.push_back({"64 MiB t=3 lanes 2 threads 2: " + ours.front().first,
                    [auto_kdf, two_lanes] { return evp(auto_kdf, two_lanes); },
                    reference(two_lanes),
                    traffic(two_lanes),
                    {},
                    true});
    const Bytes half_expected = reference(half);
    rows.push_back({"2 x 32 MiB t=3 p=1 at once: " + ours.front().first,
                    [auto_kdf, half, half_expected] {
                        Bytes other;
                        std::thread second([&] { other = evp(auto_kdf, half); });
                        Bytes first = evp(auto_kdf, half);
                        second.join();
                        return first == other ? first : Bytes();
                    },
                    half_expected,
                    2 * traffic(half),
                    {},
                    true});
    for (Row& row : rows) {
        if (row.run() != row.expected) {
            std::fprintf(stderr, "%s: does not reproduce libargon2's answer\n", row.label.c_str());
            return 1;
        }
    }
    // The order rotates from one repetition to the next, as in blake2simd_bench, and runs
    // backwards every other repetition: a row that always followed the same one would always
    // find the machine in the state that row left. The two-thread rows, the one comparison of
    // two rows the targets make, run as one unit, back to back, each first in every other
    // repetition: in a fixed order lanes 2 always came after a one-thread row (the second CPU
    // idle for tens of milliseconds) and the two hashes at once after lanes 2, 2.5-4 ms apart.
    std::vector<std::vector<size_t>> units;
    for (size_t i = 0; i < rows.size(); ++i) {
        if (rows[i].wall && i + 1 < rows.size() && rows[i + 1].wall) {
            units.push_back({i, i + 1});
            ++i;
        } else {
            units.push_back({i});
        }
    }
    const size_t count = units.size();
    for (int rep = 0; rep < reps; ++rep) {
        const size_t shift = static_cast<size_t>(rep / 2);
        for (size_t i = 0; i < count; ++i) {
            const size_t position = rep % 2 == 0 ? i : count - 1 - i;
            std::vector<size_t> unit = units[(position + shift) % count];
            if ((rep / 2) % 2 == 1) {
                std::reverse(unit.begin(), unit.end());
            }
            for (const size_t index : unit) {
                Row& row = rows[index];
                const auto now = row.wall ? &wall_ns : &thread_cpu_ns;
                const double start = now();
                row.run();
                row.samples.push_back(now() - start);
            }
        }
    }
    std::printf("| row | median ms | min ms | block traffic GB/s | vs libsodium | vs OpenSSL |\n");
    std::printf("|---|---|---|---|---|---|\n");
    for (const Row& row : rows) {
        const double ms = median(row.samples) / 1e6;
        const std::string size = row.label.substr(0, row.label.find(':'));
        double sodium_ms = 0;
        double openssl_ms = 0;
        for (const Row& other : rows) {
            if (other.label.rfind(size + ":", 0) == 0) {
                if (other.label.find("libsodium") != std::string::npos) {
                    sodium_ms = median(other.samples) / 1e6;
                } else if (other.label.find("OpenSSL default") != std::string::npos) {
                    openssl_ms = median(other.samples) / 1e6;
                }
            }
        }
        char vs_sodium[16] = "-";
        char vs_openssl[16] = "-";
        if (sodium_ms > 0) {
            std::snprintf(vs_sodium, sizeof vs_sodium, "%.2fx", sodium_ms / ms);
        }
        if (openssl_ms > 0) {
            std::snprintf(vs_openssl, sizeof vs_openssl, "%.2fx", openssl_ms / ms);
        }
        std::printf("| %s | %.1f | %.1f | %.1f | %s | %s |\n", row.label.c_str(), ms,
                    *std::min_element(row.samples.begin(), row.samples.end()) / 1e6,
                    row.block_bytes / (ms * 1e6), vs_sodium, vs_openssl);
    }
    std::printf(
        "# %d interleaved repetitions per row, medians of the calling thread's CPU time (a\n"
        "# shared machine's other load is not counted); the two-thread rows: wall time\n",
        reps);
    const Row& two_lanes_row = rows[rows.size() - 2];
    const Row& at_once_row = rows.back();
    std::printf(
        "# lanes 2 threads 2 against two one-lane hashes at once: %.2fx the time (target: "
        "at most 1.15x)\n",
        median(two_lanes_row.samples) / median(at_once_row.samples));
    return 0;
}
