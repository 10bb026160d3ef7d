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

// What a row computes; every row's speed is compared with OpenSSL's default provider doing the
// same operation with BLAKE2b-512 (OpenSSL has no BLAKE2bp), the project's stated target.
enum class Operation {
    digest,         // unkeyed, 64-byte output
    keyed_new_key,  // keyed, the key handed over again for every message
    keyed_same_key  // keyed, the key set once and the context re-initialised
};

// The hash a row computes, which decides whose answer its results must reproduce.
enum class Algorithm {
    blake2b,  // checked against OpenSSL's default provider
    blake2bp  // checked against the official KAT and, when built in, libb2's blake2bp
};

const char* operation_name(Operation operation) noexcept;
const char* algorithm_name(Algorithm algorithm) noexcept;

class Implementation {
  public:
    Implementation(std::string label, std::string kernel, Operation operation,
                   Algorithm algorithm = Algorithm::blake2b)
        : label_(std::move(label)),
          kernel_(std::move(kernel)),
          operation_(operation),
          algorithm_(algorithm) {}
    virtual ~Implementation() = default;
    Implementation(const Implementation&) = delete;
    Implementation& operator=(const Implementation&) = delete;

    // Hashes `message` into `out` (kDigestSize bytes). Aborts the process on a library error,
    // because a benchmark that silently skips failed calls would report fantasy figures.
    virtual void hash(std::span<const uint8_t> message, uint8_t* out) = 0;

    // Keyed rows: use `key` from now on (it must outlive its use), so that a known-answer test
    // with its own key can be run through the very object that is timed.
    virtual void set_key(std::span<const uint8_t> key);

    const std::string& label() const noexcept { return label_; }
    // The code path that actually served the row ("-" when the library does not say).
    const std::string& kernel() const noexcept { return kernel_; }
    Operation operation() const noexcept { return operation_; }
    Algorithm algorithm() const noexcept { return algorithm_; }
    bool is_keyed() const noexcept { return operation_ != Operation::digest; }
    bool is_openssl_default() const noexcept { return is_openssl_default_; }
    // True when the library computes on other threads too: the row is then timed with the
    // process CPU clock (every thread's CPU time) instead of this thread's.
    virtual bool uses_other_threads() const noexcept { return false; }
    // libb2's blake2bp: once it has passed the official KAT, it is the independent answer the
    // provider's BLAKE2bp rows must reproduce at every benchmarked size.
    bool is_blake2bp_reference() const noexcept { return is_blake2bp_reference_; }

    void set_kernel(std::string kernel) { kernel_ = std::move(kernel); }
    void mark_openssl_default() noexcept { is_openssl_default_ = true; }
    void mark_blake2bp_reference() noexcept { is_blake2bp_reference_ = true; }

  private:
    std::string label_;
    std::string kernel_;
    Operation operation_;
    Algorithm algorithm_;
    bool is_openssl_default_ = false;
    bool is_blake2bp_reference_ = false;
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
// provider: automatic kernel and every kernel the host runs, for the BLAKE2b and BLAKE2bp
// digests; the automatic kernel for both forms of BLAKE2BMAC and BLAKE2BPMAC. Requests that fell
// back to an already listed kernel are dropped (and noted).
void add_openssl_implementations(const OpenSslOptions& options, ImplementationList& rows,
                                 Environment& environment);

// libsodium crypto_generichash, libb2 blake2b and libb2 blake2bp, unkeyed and keyed, when built
// in. libb2's blake2bp rows are marked as the BLAKE2bp reference.
void add_external_implementations(std::span<const uint8_t> key, ImplementationList& rows,
                                  Environment& environment);

[[noreturn]] void fail(const std::string& what);

}  // namespace blake2simd::bench
