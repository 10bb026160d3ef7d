// blake2simd_bench --xof: BLAKE2XB / BLAKE2XS absorbing (input MB/s, a 1 MiB message, one
// output block, the length fixed at init) and squeezing (output MB/s, 1 MiB of output of a
// 64-byte message; the unknown-length mode, since BLAKE2Xs cannot fix 1 MiB) through EVP,
// beside OpenSSL's default SHAKE128 / SHAKE256 and our BLAKE2B-512; then the output blocks alone
// (provider/blake2x.cpp's write_xof_output, compiled in) with each native lanes form on and with
// the single-lane kernel alone (the lanes forms "forced off"), which EVP cannot select.
// SPDX-License-Identifier: Apache-2.0
#include "xof_bench.hpp"

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "blake2x.hpp"
#include "forms.hpp"
#include "implementations.hpp"
#include "stopwatch.hpp"

namespace blake2simd::bench {
namespace {

constexpr size_t kMiB = size_t{1} << 20;
constexpr size_t kSqueezeInput = 64;

enum class Kind { absorb, squeeze, output_blocks };

struct XofRow {
    std::string label;
    std::string kernel;
    Kind kind;
    size_t bytes;                  // input (absorb) or output bytes per call
    std::function<void()> run;     // one call
    std::vector<uint8_t>* output;  // what it wrote, to compare rows that must agree
    std::vector<double> ns;        // per repetition
    uint64_t calls = 1;
};

OSSL_LIB_CTX* load(const std::string& module_dir, const char* provider, const char* kernel) {
    OSSL_LIB_CTX* libctx = OSSL_LIB_CTX_new();
    if (libctx == nullptr || (!module_dir.empty() && OSSL_PROVIDER_set_default_search_path(
                                                         libctx, module_dir.c_str()) != 1)) {
        fail("OSSL_LIB_CTX_new / search path");
    }
    if (kernel != nullptr) {
        setenv("BLAKE2SIMD_KERNEL", kernel, 1);
    }
    OSSL_PROVIDER* loaded = OSSL_PROVIDER_load(libctx, provider);
    unsetenv("BLAKE2SIMD_KERNEL");
    if (loaded == nullptr) {
        fail(std::string("cannot load provider ") + provider);
    }
    return libctx;
}

// Init (with the XOF length fixed in H0 when `xof_length` is not 0), one update, final of
// `out.size()` bytes: XOF rows with EVP_DigestFinalXOF, BLAKE2B-512 with EVP_DigestFinal_ex.
struct EvpCall {
    EVP_MD* md;
    EVP_MD_CTX* ctx;
    size_t xof_length;
    bool is_xof;
    const std::vector<uint8_t>* input;
    std::vector<uint8_t> out;

    void operator()() {
        size_t length = xof_length;
        OSSL_PARAM params[] = {OSSL_PARAM_construct_size_t(OSSL_DIGEST_PARAM_XOFLEN, &length),
                               OSSL_PARAM_construct_end()};
        unsigned int written = 0;
        const bool ok = EVP_DigestInit_ex2(ctx, md, xof_length != 0 ? params : nullptr) == 1 &&
                        EVP_DigestUpdate(ctx, input->data(), input->size()) == 1 &&
                        (is_xof ? EVP_DigestFinalXOF(ctx, out.data(), out.size()) == 1
                                : EVP_DigestFinal_ex(ctx, out.data(), &written) == 1);
        if (!ok) {
            fail("EVP call of " + std::string(EVP_MD_get0_name(md)));
        }
    }
};

struct Rows {
    std::vector<XofRow> rows;
    std::vector<std::unique_ptr<EvpCall>> calls;
};

void add_evp(Rows& rows, OSSL_LIB_CTX* libctx, const char* name, const char* propq,
             const std::string& label, const std::string& kernel, Kind kind,
             const std::vector<uint8_t>& input, size_t out_bytes, bool fix_length) {
    EVP_MD* md = EVP_MD_fetch(libctx, name, propq);
    if (md == nullptr) {
        fail(std::string("EVP_MD_fetch ") + name);
    }
    const bool is_xof = (EVP_MD_get_flags(md) & EVP_MD_FLAG_XOF) != 0;
    auto call = std::make_unique<EvpCall>(EvpCall{md, EVP_MD_CTX_new(), fix_length ? out_bytes : 0,
                                                  is_xof, &input, std::vector<uint8_t>(out_bytes)});
    EvpCall* raw = call.get();
    rows.rows.push_back({label,
                         kernel,
                         kind,
                         kind == Kind::absorb ? input.size() : out_bytes,
                         [raw] { (*raw)(); },
                         &raw->out,
                         {}});
    rows.calls.push_back(std::move(call));
}

// The output blocks of one H0 on one kernel pair, with the lanes form or (nullptr) without.
template <class Family>
void add_blocks(Rows& rows, const std::string& label, const std::string& kernel,
                typename Family::Compress single, typename Family::CompressLanes lanes) {
    auto* root = new XofRoot<Family>{};  // lives as long as the process: a bench
    for (size_t i = 0; i < sizeof root->h0; ++i) {
        root->h0[i] = static_cast<uint8_t>(i * 29 + 1);
    }
    root->xof_length = XofLimits<Family>::kUnknownLength;  // as the squeeze rows
    auto* out = new std::vector<uint8_t>(kMiB);
    rows.rows.push_back(
        {label,
         kernel,
         Kind::output_blocks,
         kMiB,
         [=] { write_xof_output<Family>(single, lanes, *root, 0, out->data(), kMiB); },
         out,
         {}});
}

// A form's usable native candidate of that registry row (not lane by lane), or nullptr.
const dispatch::Candidate* usable(dispatch::Form form, const char* name) {
    const auto candidates = dispatch::candidates(form);
    const auto facts = dispatch::facts(form);
    for (size_t i = 0; i < candidates.size(); ++i) {
        if (facts[i].usable && !candidates[i].lane_by_lane &&
            std::strcmp(registry::row_of(candidates[i].id).name, name) == 0) {
            return &candidates[i];
        }
    }
    return nullptr;
}

// For each native lanes kernel (avx2, avx512): on, and off with the row's own single-lane
// kernel, or where the row has no BLAKE2s one (avx2) the best an AVX2 CPU has (avx).
template <class Family>
void add_block_rows(Rows& rows, const char* name, dispatch::Form single_form,
                    dispatch::Form lanes_form) {
    for (const char* isa : {"avx2", "avx512"}) {
        const dispatch::Candidate* lanes = usable(lanes_form, isa);
        const dispatch::Candidate* single = usable(single_form, isa);
        if (single == nullptr) {
            single = usable(single_form, "avx");
        }
        if (lanes == nullptr || single == nullptr) {
            std::printf("%s output blocks on %s: not runnable here, skipped\n", name, isa);
            continue;
        }
        const auto single_fn = single->entry.*Family::kSingleEntry;
        const std::string single_name = registry::row_of(single->id).name;
        add_blocks<Family>(rows, std::string(name) + " blocks, lanes on", isa, single_fn,
                           lanes->entry.*Family::kLanesEntry);
        add_blocks<Family>(rows, std::string(name) + " blocks, lanes off", single_name, single_fn,
                           nullptr);
    }
}

double time_calls(XofRow& row, uint64_t calls) {
    const double start = thread_cpu_ns();
    for (uint64_t i = 0; i < calls; ++i) {
        row.run();
    }
    return thread_cpu_ns() - start;
}

// Interleaved: each repetition times every row once for about target_ms, in an order rotated per
// repetition, so load and clock changes hit all rows alike.
void measure(std::vector<XofRow>& rows, unsigned repetitions, double target_ms) {
    for (XofRow& row : rows) {
        row.run();  // warm
        const double once = std::max(1.0, time_calls(row, 1));
        row.calls = std::max<uint64_t>(1, static_cast<uint64_t>(target_ms * 1e6 / once));
    }
    for (unsigned rep = 0; rep < repetitions; ++rep) {
        for (size_t k = 0; k < rows.size(); ++k) {
            XofRow& row = rows[(k + rep) % rows.size()];
            row.ns.push_back(time_calls(row, row.calls) / static_cast<double>(row.calls));
        }
    }
}

double median_mbps(const XofRow& row) {
    std::vector<double> ns = row.ns;
    std::sort(ns.begin(), ns.end());
    return static_cast<double>(row.bytes) * 1e3 / ns[ns.size() / 2];
}

const XofRow* find_row(const std::vector<XofRow>& rows, const std::string& label,
                       const std::string& kernel) {
    for (const XofRow& row : rows) {
        if (row.label == label && row.kernel == kernel) {
            return &row;
        }
    }
    return nullptr;
}

void print_target(const std::vector<XofRow>& rows, const char* what, const std::string& label,
                  const std::string& kernel, const std::string& base_label,
                  const std::string& base_kernel, double target) {
    const XofRow* row = find_row(rows, label, kernel);
    const XofRow* base = find_row(rows, base_label, base_kernel);
    if (row == nullptr || base == nullptr) {
        std::printf("| %s | not measured here | | |\n", what);
        return;
    }
    const double ratio = median_mbps(*row) / median_mbps(*base);
    std::printf("| %s | %.2fx | >= %.1fx | %s |\n", what, ratio, target,
                ratio >= target ? "holds" : "misses");
}

// Rows that compute the same bytes must agree before their speeds mean anything.
bool rows_agree(const std::vector<XofRow>& rows) {
    bool agree = true;
    for (const XofRow& a : rows) {
        for (const XofRow& b : rows) {
            if (&a < &b && a.label == b.label && *a.output != *b.output) {
                std::printf("MISMATCH %s: %s and %s differ\n", a.label.c_str(), a.kernel.c_str(),
                            b.kernel.c_str());
                agree = false;
            }
        }
    }
    return agree;
}

// Issue 21's targets, each a ratio of two rows of this run.
void print_targets(const std::vector<XofRow>& rows) {
    std::printf("\n| target (same run, medians) | ratio | target | |\n|---|---:|---:|---|\n");
    for (const char* kernel : {"auto", "avx2", "avx512"}) {
        print_target(rows, ("BLAKE2XB absorb / SHAKE256 absorb, " + std::string(kernel)).c_str(),
                     "BLAKE2XB absorb", kernel, "SHAKE256 absorb", "default", 3.0);
        print_target(rows, ("BLAKE2XB squeeze / SHAKE256 squeeze, " + std::string(kernel)).c_str(),
                     "BLAKE2XB squeeze", kernel, "SHAKE256 squeeze", "default", 2.0);
    }
    for (const auto& [isa, off_xs] : {std::pair{"avx2", "avx"}, std::pair{"avx512", "avx512"}}) {
        const std::string on(isa);
        print_target(rows, ("BLAKE2XS output, " + on + " 8-lane / single lane").c_str(),
                     "BLAKE2XS blocks, lanes on", on, "BLAKE2XS blocks, lanes off", off_xs, 2.5);
        print_target(rows, ("BLAKE2XB output, " + on + " 4-lane / single lane").c_str(),
                     "BLAKE2XB blocks, lanes on", on, "BLAKE2XB blocks, lanes off", on, 1.6);
    }
}

}  // namespace

int run_xof_bench(const std::string& module_dir, unsigned repetitions, double target_ms) {
    std::vector<uint8_t> message(kMiB);
    for (size_t i = 0; i < message.size(); ++i) {
        message[i] = static_cast<uint8_t>(i * 131 + (i >> 11));
    }
    const std::vector<uint8_t> short_message(message.begin(), message.begin() + kSqueezeInput);
    Rows rows;
    OSSL_LIB_CTX* openssl = load(module_dir, "default", nullptr);
    for (const char* shake : {"SHAKE128", "SHAKE256"}) {
        add_evp(rows, openssl, shake, "provider=default", std::string(shake) + " absorb", "default",
                Kind::absorb, message, 32, false);
        add_evp(rows, openssl, shake, "provider=default", std::string(shake) + " squeeze",
                "default", Kind::squeeze, short_message, kMiB, false);
    }
    for (const char* kernel : {"auto", "avx2", "avx512"}) {
        const bool automatic = std::strcmp(kernel, "auto") == 0;
        OSSL_LIB_CTX* ours = load(module_dir, "blake2simd", automatic ? nullptr : kernel);
        add_evp(rows, ours, "BLAKE2B-512", "provider=blake2simd", "BLAKE2B-512 absorb", kernel,
                Kind::absorb, message, 64, false);
        for (const auto& [name, block] : {std::pair{"BLAKE2XB", 64}, std::pair{"BLAKE2XS", 32}}) {
            add_evp(rows, ours, name, "provider=blake2simd", std::string(name) + " absorb", kernel,
                    Kind::absorb, message, block, true);
            add_evp(rows, ours, name, "provider=blake2simd", std::string(name) + " squeeze", kernel,
                    Kind::squeeze, short_message, kMiB, false);
        }
    }
    add_block_rows<Blake2bFamily>(rows, "BLAKE2XB", dispatch::Form::blake2b,
                                  dispatch::Form::blake2bp);
    add_block_rows<Blake2sFamily>(rows, "BLAKE2XS", dispatch::Form::blake2s,
                                  dispatch::Form::blake2sp);
    for (XofRow& row : rows.rows) {
        row.run();
    }
    if (!rows_agree(rows.rows)) {
        return 1;
    }
    std::fprintf(stderr, "timing %zu XOF rows, %u interleaved repetitions of ~%.0f ms...\n",
                 rows.rows.size(), repetitions, target_ms);
    measure(rows.rows, repetitions, target_ms);
    std::printf("\n| row | kernel | MB/s (median of %u, thread CPU time) |\n|---|---|---:|\n",
                repetitions);
    for (const XofRow& row : rows.rows) {
        std::printf("| %s | %s | %.0f |\n", row.label.c_str(), row.kernel.c_str(),
                    median_mbps(row));
    }
    print_targets(rows.rows);
    return 0;
}

}  // namespace blake2simd::bench
