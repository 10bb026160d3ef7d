// Benchmark rows served through OpenSSL's EVP API: the default provider and blake2simd.
// SPDX-License-Identifier: Apache-2.0
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "implementations.hpp"
#include "registry.hpp"

namespace blake2simd::bench {
namespace {

// The algorithm names each Algorithm is fetched by.
struct AlgorithmNames {
    const char* digest;
    const char* mac;
};

AlgorithmNames names_of(Algorithm algorithm) noexcept {
    switch (algorithm) {
        case Algorithm::blake2b:
            break;
        case Algorithm::blake2bp:
            return {"BLAKE2BP-512", "BLAKE2BPMAC"};
        case Algorithm::blake2s:
            return {"BLAKE2S-256", "BLAKE2SMAC"};
        case Algorithm::blake2sp:
            return {"BLAKE2SP-256", "BLAKE2SPMAC"};
    }
    return {"BLAKE2B-512", "BLAKE2BMAC"};
}

// The name of an algorithm's part in the provider's buildinfo string ("...; kernel avx2 (...);
// blake2bp ... (...); blake2s ... (...); blake2sp ... (...)").
const char* buildinfo_name_of(Algorithm algorithm) noexcept {
    switch (algorithm) {
        case Algorithm::blake2b:
            break;
        case Algorithm::blake2bp:
            return "blake2bp";
        case Algorithm::blake2s:
            return "blake2s";
        case Algorithm::blake2sp:
            return "blake2sp";
    }
    return "kernel";
}

Algorithm tree_form(Algorithm serial) noexcept {
    return serial == Algorithm::blake2s ? Algorithm::blake2sp : Algorithm::blake2bp;
}

constexpr Algorithm kSerialAlgorithms[] = {Algorithm::blake2b, Algorithm::blake2s};

constexpr const char* kOurPropq = "provider=blake2simd";
constexpr const char* kDefaultPropq = "provider=default";
constexpr const char* kKernelEnv = "BLAKE2SIMD_KERNEL";

std::string drain_openssl_errors() {
    std::string text;
    unsigned long code = 0;
    while ((code = ERR_get_error()) != 0) {
        char line[256];
        ERR_error_string_n(code, line, sizeof line);
        if (!text.empty()) {
            text += "; ";
        }
        text += line;
    }
    return text.empty() ? std::string("no OpenSSL error queued") : text;
}

[[noreturn]] void fail_openssl(const char* call) {
    fail(std::string(call) + " failed: " + drain_openssl_errors());
}

// Reads a text parameter whichever way the callee publishes it (copied string or pointer).
std::string get_text_param(const char* key, const std::function<int(OSSL_PARAM*)>& getter) {
    char copied[256] = {};
    OSSL_PARAM as_string[] = {OSSL_PARAM_construct_utf8_string(key, copied, sizeof copied),
                              OSSL_PARAM_construct_end()};
    if (getter(as_string) == 1 && OSSL_PARAM_modified(as_string)) {
        return copied;
    }
    ERR_clear_error();
    char* pointed = nullptr;
    OSSL_PARAM as_pointer[] = {OSSL_PARAM_construct_utf8_ptr(key, &pointed, 0),
                               OSSL_PARAM_construct_end()};
    if (getter(as_pointer) == 1 && OSSL_PARAM_modified(as_pointer) && pointed != nullptr) {
        return pointed;
    }
    ERR_clear_error();
    return {};
}

// One library context with one provider loaded into it; rows share it through shared_ptr so that
// the context outlives every EVP object fetched from it.
class LoadedProvider {
  public:
    LoadedProvider(OSSL_LIB_CTX* libctx, OSSL_PROVIDER* provider) noexcept
        : libctx_(libctx), provider_(provider) {}
    ~LoadedProvider() {
        OSSL_PROVIDER_unload(provider_);
        OSSL_LIB_CTX_free(libctx_);
    }
    LoadedProvider(const LoadedProvider&) = delete;
    LoadedProvider& operator=(const LoadedProvider&) = delete;

    OSSL_LIB_CTX* libctx() const noexcept { return libctx_; }

    std::string param(const char* key) const {
        return get_text_param(key, [this](OSSL_PARAM* params) {
            return OSSL_PROVIDER_get_params(provider_, params);
        });
    }

  private:
    OSSL_LIB_CTX* libctx_;
    OSSL_PROVIDER* provider_;
};

using SharedProvider = std::shared_ptr<LoadedProvider>;

// Loads `name` into a fresh library context; `forced_kernel` (may be null) is put into the
// environment only while the provider initialises, which is when it reads it.
SharedProvider load_provider(const char* name, const std::string& module_dir,
                             const char* forced_kernel, std::string& error) {
    OSSL_LIB_CTX* libctx = OSSL_LIB_CTX_new();
    if (libctx == nullptr) {
        fail_openssl("OSSL_LIB_CTX_new");
    }
    if (!module_dir.empty() &&
        OSSL_PROVIDER_set_default_search_path(libctx, module_dir.c_str()) != 1) {
        fail_openssl("OSSL_PROVIDER_set_default_search_path");
    }
    if (forced_kernel != nullptr) {
        setenv(kKernelEnv, forced_kernel, 1);
    }
    OSSL_PROVIDER* provider = OSSL_PROVIDER_load(libctx, name);
    if (forced_kernel != nullptr) {
        unsetenv(kKernelEnv);
    }
    if (provider == nullptr) {
        error = drain_openssl_errors();
        OSSL_LIB_CTX_free(libctx);
        return nullptr;
    }
    return std::make_shared<LoadedProvider>(libctx, provider);
}

class EvpDigest final : public Implementation {
  public:
    // Returns nullptr (with `error`) when the provider does not offer the digest.
    static std::unique_ptr<EvpDigest> create(std::string label, SharedProvider provider,
                                             const char* propq, std::string& error,
                                             Algorithm algorithm = Algorithm::blake2b) {
        EVP_MD* md = EVP_MD_fetch(provider->libctx(), names_of(algorithm).digest, propq);
        if (md == nullptr) {
            error = drain_openssl_errors();
            return nullptr;
        }
        std::unique_ptr<EvpDigest> row(
            new EvpDigest(std::move(label), std::move(provider), md, algorithm));
        if (EVP_DigestInit_ex2(row->ctx_, row->md_, nullptr) != 1) {
            fail_openssl("EVP_DigestInit_ex2");
        }
        const std::string kernel = get_text_param("kernel", [&row](OSSL_PARAM* params) {
            return EVP_MD_CTX_get_params(row->ctx_, params);
        });
        row->set_kernel(kernel.empty() ? "-" : kernel);
        return row;
    }

    ~EvpDigest() override {
        EVP_MD_CTX_free(ctx_);
        EVP_MD_free(md_);
    }

    void hash(std::span<const uint8_t> message, uint8_t* out) override {
        unsigned int written = 0;
        if (EVP_DigestInit_ex2(ctx_, md_, nullptr) != 1) {
            fail_openssl("EVP_DigestInit_ex2");
        }
        if (EVP_DigestUpdate(ctx_, message.data(), message.size()) != 1) {
            fail_openssl("EVP_DigestUpdate");
        }
        if (EVP_DigestFinal_ex(ctx_, out, &written) != 1 || written != digest_size()) {
            fail_openssl("EVP_DigestFinal_ex");
        }
    }

  private:
    EvpDigest(std::string label, SharedProvider provider, EVP_MD* md, Algorithm algorithm)
        : Implementation(std::move(label), "-", Operation::digest, algorithm),
          provider_(std::move(provider)),
          md_(md),
          ctx_(EVP_MD_CTX_new()) {
        if (ctx_ == nullptr) {
            fail_openssl("EVP_MD_CTX_new");
        }
    }

    SharedProvider provider_;  // declared first: destroyed after the EVP objects below
    EVP_MD* md_;
    EVP_MD_CTX* ctx_;
};

class EvpMac final : public Implementation {
  public:
    static std::unique_ptr<EvpMac> create(std::string label, SharedProvider provider,
                                          const char* propq, Operation operation,
                                          std::span<const uint8_t> key, std::string& error,
                                          Algorithm algorithm = Algorithm::blake2b) {
        EVP_MAC* mac = EVP_MAC_fetch(provider->libctx(), names_of(algorithm).mac, propq);
        if (mac == nullptr) {
            error = drain_openssl_errors();
            return nullptr;
        }
        std::unique_ptr<EvpMac> row(
            new EvpMac(std::move(label), std::move(provider), mac, operation, key, algorithm));
        if (EVP_MAC_init(row->ctx_, key.data(), key.size(), nullptr) != 1) {
            fail_openssl("EVP_MAC_init");
        }
        const std::string kernel = get_text_param("kernel", [&row](OSSL_PARAM* params) {
            return EVP_MAC_CTX_get_params(row->ctx_, params);
        });
        row->set_kernel(kernel.empty() ? "-" : kernel);
        return row;
    }

    ~EvpMac() override {
        EVP_MAC_CTX_free(ctx_);
        EVP_MAC_free(mac_);
    }

    void hash(std::span<const uint8_t> message, uint8_t* out) override {
        // Same key: a null key re-initialises with the key already set on the context.
        const bool new_key = operation() == Operation::keyed_new_key;
        if (EVP_MAC_init(ctx_, new_key ? key_.data() : nullptr, new_key ? key_.size() : 0,
                         nullptr) != 1) {
            fail_openssl("EVP_MAC_init");
        }
        if (EVP_MAC_update(ctx_, message.data(), message.size()) != 1) {
            fail_openssl("EVP_MAC_update");
        }
        size_t written = 0;
        if (EVP_MAC_final(ctx_, out, &written, digest_size()) != 1 || written != digest_size()) {
            fail_openssl("EVP_MAC_final");
        }
    }

    void set_key(std::span<const uint8_t> key) override {
        key_ = key;
        // The same-key form keeps the key of the last init, so it is set here, once.
        if (EVP_MAC_init(ctx_, key_.data(), key_.size(), nullptr) != 1) {
            fail_openssl("EVP_MAC_init");
        }
    }

  private:
    EvpMac(std::string label, SharedProvider provider, EVP_MAC* mac, Operation operation,
           std::span<const uint8_t> key, Algorithm algorithm)
        : Implementation(std::move(label), "-", operation, algorithm),
          provider_(std::move(provider)),
          mac_(mac),
          ctx_(EVP_MAC_CTX_new(mac)),
          key_(key) {
        if (ctx_ == nullptr) {
            fail_openssl("EVP_MAC_CTX_new");
        }
    }

    SharedProvider provider_;  // declared first: destroyed after the EVP objects below
    EVP_MAC* mac_;
    EVP_MAC_CTX* ctx_;
    std::span<const uint8_t> key_;
};

void add_default_provider_rows(const OpenSslOptions& options, ImplementationList& rows,
                               Environment& environment) {
    std::string error;
    SharedProvider provider = load_provider("default", {}, nullptr, error);
    if (provider == nullptr) {
        fail("cannot load OpenSSL's default provider: " + error);
    }
    environment.lines.push_back("OpenSSL: " + std::string(OpenSSL_version(OPENSSL_VERSION)) +
                                " (default provider " + provider->param("version") + ")");
    for (Algorithm algorithm : kSerialAlgorithms) {
        const AlgorithmNames names = names_of(algorithm);
        const std::string mac_label = std::string("OpenSSL default ") + names.mac;
        auto digest = EvpDigest::create(std::string("OpenSSL default ") + names.digest, provider,
                                        kDefaultPropq, error, algorithm);
        auto mac_new = EvpMac::create(mac_label, provider, kDefaultPropq, Operation::keyed_new_key,
                                      options.key, error, algorithm);
        auto mac_same = EvpMac::create(mac_label, provider, kDefaultPropq,
                                       Operation::keyed_same_key, options.key, error, algorithm);
        if (!digest || !mac_new || !mac_same) {
            fail(std::string("OpenSSL's default provider lacks ") + names.digest + " or " +
                 names.mac + ": " + error);
        }
        digest->mark_openssl_default();
        mac_new->mark_openssl_default();
        mac_same->mark_openssl_default();
        rows.push_back(std::move(digest));
        rows.push_back(std::move(mac_new));
        rows.push_back(std::move(mac_same));
    }
}

// One algorithm's part of a buildinfo string: which kernel serves it, and why.
std::string buildinfo_part_of(const std::string& buildinfo, Algorithm algorithm) {
    const std::string marker = std::string("; ") + buildinfo_name_of(algorithm) + " ";
    const size_t at = buildinfo.find(marker);
    if (at == std::string::npos) {
        return "(not in buildinfo)";
    }
    const size_t from = at + marker.size();
    const size_t next = buildinfo.find("; blake2", from);
    return buildinfo.substr(from, next == std::string::npos ? next : next - from);
}

// This provider's automatic rows of one algorithm: the digest and both forms of the MAC. Returns
// false, adding none, when one of them cannot be fetched (noted).
bool add_automatic_rows(const OpenSslOptions& options, const std::string& who,
                        const SharedProvider& provider, Algorithm algorithm,
                        ImplementationList& rows, Environment& environment) {
    std::string error;
    const AlgorithmNames names = names_of(algorithm);
    const std::string mac_label = who + " " + names.mac + ", auto";
    auto digest = EvpDigest::create(who + " " + names.digest + ", auto", provider, kOurPropq, error,
                                    algorithm);
    auto mac_new = EvpMac::create(mac_label, provider, kOurPropq, Operation::keyed_new_key,
                                  options.key, error, algorithm);
    auto mac_same = EvpMac::create(mac_label, provider, kOurPropq, Operation::keyed_same_key,
                                   options.key, error, algorithm);
    if (!digest || !mac_new || !mac_same) {
        environment.lines.push_back(who + " loaded but " + names.digest + " or " + names.mac +
                                    " cannot be fetched: " + error + " (their rows are missing)");
        return false;
    }
    rows.push_back(std::move(digest));
    rows.push_back(std::move(mac_new));
    rows.push_back(std::move(mac_same));
    return true;
}

// A forced kernel's digest row of one algorithm, kept only if the provider reports that very
// kernel for it: a fallback would only repeat the row of the kernel that served it. Returns
// whether the row was kept.
bool add_forced_row(const std::string& who, const char* requested, const SharedProvider& provider,
                    Algorithm algorithm, ImplementationList& rows, Environment& environment) {
    const char* name = names_of(algorithm).digest;
    const std::string about = who + " kernel " + requested + ": " + name;
    std::string error;
    auto digest = EvpDigest::create(who + " " + name + ", forced " + requested, provider, kOurPropq,
                                    error, algorithm);
    if (digest == nullptr) {
        environment.lines.push_back(about + " fetch failed: " + error);
        return false;
    }
    if (digest->kernel() != requested) {
        const char* why = algorithm == Algorithm::blake2b
                              ? " (not compiled in or not runnable here); rows dropped"
                              : "; row dropped";
        environment.lines.push_back(about + " reports kernel " + digest->kernel() + why);
        return false;
    }
    rows.push_back(std::move(digest));
    return true;
}

// Every kernel the provider accepts by name (every row of the kernel registry, built here or
// not: the module says which it has), for each served algorithm that has a form of it.
void add_forced_kernel_rows(const std::string& who, const std::string& module_dir,
                            const std::vector<Algorithm>& served, ImplementationList& rows,
                            Environment& environment) {
    for (const blake2simd::registry::KernelRow& row : blake2simd::registry::kKernelRows) {
        const char* requested = row.name;
        std::string error;
        SharedProvider provider = load_provider("blake2simd", module_dir, requested, error);
        if (provider == nullptr) {
            environment.lines.push_back(who + " kernel " + requested +
                                        ": provider failed to load: " + error);
            continue;
        }
        // A request BLAKE2b cannot honour is a kernel this build or CPU lacks altogether.
        if (!add_forced_row(who, requested, provider, Algorithm::blake2b, rows, environment)) {
            continue;
        }
        const std::string buildinfo = provider->param("buildinfo");
        for (Algorithm algorithm : served) {
            if (algorithm == Algorithm::blake2b) {
                continue;
            }
            environment.lines.push_back(who + " kernel " + requested + " forced, " +
                                        buildinfo_name_of(algorithm) + ": " +
                                        buildinfo_part_of(buildinfo, algorithm));
            add_forced_row(who, requested, provider, algorithm, rows, environment);
        }
    }
}

// One module's rows, each label beginning with `who`: the automatic kernel for the four digests
// and their MACs, then every kernel it accepts by name.
void add_module_rows(const OpenSslOptions& options, const std::string& who,
                     const std::string& module_dir, ImplementationList& rows,
                     Environment& environment) {
    std::string error;
    SharedProvider automatic = load_provider("blake2simd", module_dir, nullptr, error);
    if (automatic == nullptr) {
        environment.lines.push_back(who + " provider NOT loaded from " + module_dir + ": " + error +
                                    " (its rows are missing)");
        return;
    }
    environment.lines.push_back(who + ": module dir " + module_dir + ", version " +
                                automatic->param("version") + ", kernel (provider param) " +
                                automatic->param("kernel"));
    environment.lines.push_back(who + " buildinfo: " + automatic->param("buildinfo"));

    // The algorithms this build serves; forced rows only for those.
    std::vector<Algorithm> served;
    for (Algorithm serial : kSerialAlgorithms) {
        for (Algorithm algorithm : {serial, tree_form(serial)}) {
            if (add_automatic_rows(options, who, automatic, algorithm, rows, environment)) {
                served.push_back(algorithm);
            }
        }
    }
    if (served.empty() || served.front() != Algorithm::blake2b) {
        return;
    }
    add_forced_kernel_rows(who, module_dir, served, rows, environment);
}

}  // namespace

void add_openssl_implementations(const OpenSslOptions& options, ImplementationList& rows,
                                 Environment& environment) {
    if (const char* inherited = std::getenv(kKernelEnv); inherited != nullptr) {
        environment.lines.push_back(std::string("note: ignoring inherited ") + kKernelEnv + "=" +
                                    inherited + " so that the auto row is automatic");
        unsetenv(kKernelEnv);
    }
    add_default_provider_rows(options, rows, environment);

    add_module_rows(options, "blake2simd", options.module_dir, rows, environment);
    if (!options.compared_module_dir.empty()) {
        add_module_rows(options, "compared blake2simd", options.compared_module_dir, rows,
                        environment);
    }
}

}  // namespace blake2simd::bench
