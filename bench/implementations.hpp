// The implementations the benchmark compares, behind one "hash this message" interface.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace blake2simd::bench {

inline constexpr size_t kDigestSize = 64;
inline constexpr size_t kKeySize = 32;

// What a row computes; rows are compared with OpenSSL's default provider doing the same work.
enum class Operation {
    digest,         // unkeyed BLAKE2b-512
    keyed_new_key,  // keyed BLAKE2b-512, the key handed over again for every message
    keyed_same_key  // keyed BLAKE2b-512, the key set once and the context re-initialised
};

const char* operation_name(Operation operation) noexcept;

class Implementation {
  public:
    Implementation(std::string label, std::string kernel, Operation operation)
        : label_(std::move(label)), kernel_(std::move(kernel)), operation_(operation) {}
    virtual ~Implementation() = default;
    Implementation(const Implementation&) = delete;
    Implementation& operator=(const Implementation&) = delete;

    // Hashes `message` into `out` (kDigestSize bytes). Aborts the process on a library error,
    // because a benchmark that silently skips failed calls would report fantasy figures.
    virtual void hash(std::span<const uint8_t> message, uint8_t* out) = 0;

    const std::string& label() const noexcept { return label_; }
    // The code path that actually served the row ("-" when the library does not say).
    const std::string& kernel() const noexcept { return kernel_; }
    Operation operation() const noexcept { return operation_; }
    bool is_openssl_default() const noexcept { return is_openssl_default_; }

    void set_kernel(std::string kernel) { kernel_ = std::move(kernel); }
    void mark_openssl_default() noexcept { is_openssl_default_ = true; }

  private:
    std::string label_;
    std::string kernel_;
    Operation operation_;
    bool is_openssl_default_ = false;
};

using ImplementationList = std::vector<std::unique_ptr<Implementation>>;

// Facts printed in the report header: library versions, module path, the provider's buildinfo.
struct Environment {
    std::vector<std::string> lines;
};

struct OpenSslOptions {
    std::string module_dir;  // where blake2simd.so lives
    std::span<const uint8_t> key;
};

// OpenSSL's default provider (digest, MAC with a new key, MAC with the same key), then this
// provider: automatic kernel and every kernel the host runs, for the digest; the automatic kernel
// for both MAC forms. Requests that fell back to an already listed kernel are dropped (and noted).
void add_openssl_implementations(const OpenSslOptions& options, ImplementationList& rows,
                                 Environment& environment);

// libsodium crypto_generichash and libb2 blake2b, unkeyed and keyed, when built in.
void add_external_implementations(std::span<const uint8_t> key, ImplementationList& rows,
                                  Environment& environment);

[[noreturn]] void fail(const std::string& what);

}  // namespace blake2simd::bench
