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

// The largest output of any row (BLAKE2b's); BLAKE2s rows write 32 bytes.
inline constexpr size_t kMaxDigestSize = 64;
// Valid for every algorithm (BLAKE2s keys are at most 32 bytes).
inline constexpr size_t kKeySize = 32;

// What a row computes; every row's speed is compared with OpenSSL's default provider doing the
// same operation with the serial form of the row's algorithm (OpenSSL has no BLAKE2bp/BLAKE2sp),
// the project's stated targets.
enum class Operation {
    digest,         // unkeyed, full-length output
    keyed_new_key,  // keyed, the key handed over again for every message
    keyed_same_key  // keyed, the key set once and the context re-initialised
};

// The hash a row computes, which decides whose answer its results must reproduce.
enum class Algorithm {
    blake2b,   // checked against OpenSSL's default provider
    blake2bp,  // checked against the official KAT and, when built in, libb2's blake2bp
    blake2s,   // as blake2b
    blake2sp   // as blake2bp, with libb2's blake2sp
};

const char* operation_name(Operation operation) noexcept;
const char* algorithm_name(Algorithm algorithm) noexcept;
// 64 for BLAKE2b and BLAKE2bp, 32 for BLAKE2s and BLAKE2sp.
size_t digest_size(Algorithm algorithm) noexcept;
// The parallel tree modes have no OpenSSL counterpart to check or compare with.
bool is_tree_mode(Algorithm algorithm) noexcept;
// The algorithm whose OpenSSL default rows a row is compared with: BLAKE2b for BLAKE2b and
// BLAKE2bp, BLAKE2s for BLAKE2s and BLAKE2sp.
Algorithm serial_form(Algorithm algorithm) noexcept;

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

    // Hashes `message` into `out` (digest_size() bytes). Aborts the process on a library error,
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
    size_t digest_size() const noexcept { return bench::digest_size(algorithm_); }
    bool is_keyed() const noexcept { return operation_ != Operation::digest; }
    bool is_openssl_default() const noexcept { return is_openssl_default_; }
    // True when the library computes on other threads too: the row is then timed with the
    // process CPU clock (every thread's CPU time) instead of this thread's.
    virtual bool uses_other_threads() const noexcept { return false; }
    // libb2's blake2bp and blake2sp: once one has passed the official KAT, it is the independent
    // answer the provider's rows of its tree mode must reproduce at every benchmarked size.
    bool is_tree_reference() const noexcept { return is_tree_reference_; }

    void set_kernel(std::string kernel) { kernel_ = std::move(kernel); }
    void mark_openssl_default() noexcept { is_openssl_default_ = true; }
    void mark_tree_reference() noexcept { is_tree_reference_ = true; }

  private:
    std::string label_;
    std::string kernel_;
    Operation operation_;
    Algorithm algorithm_;
    bool is_openssl_default_ = false;
    bool is_tree_reference_ = false;
};

using ImplementationList = std::vector<std::unique_ptr<Implementation>>;

// Facts printed in the report header: library versions, module path, the provider's buildinfo.
struct Environment {
    std::vector<std::string> lines;
};

struct OpenSslOptions {
    std::string module_dir;  // where blake2simd.so lives
    // Another build's blake2simd.so (say, of an earlier commit), whose rows are timed beside
    // this one's, labelled "compared blake2simd ..." (empty: none).
    std::string compared_module_dir;
    std::span<const uint8_t> key;
};

// OpenSSL's default provider (digest, MAC with a new key, MAC with the same key; BLAKE2b and
// BLAKE2s), then this provider: automatic kernel and every kernel the host runs, for the BLAKE2b,
// BLAKE2bp, BLAKE2s and BLAKE2sp digests; the automatic kernel for both forms of each MAC.
// Requests that fell back to an already listed kernel are dropped (and noted). The same again
// for the compared module, if any.
void add_openssl_implementations(const OpenSslOptions& options, ImplementationList& rows,
                                 Environment& environment);

// libsodium crypto_generichash, libb2 blake2b, blake2bp, blake2s and blake2sp, unkeyed and
// keyed, when built in. libb2's blake2bp and blake2sp rows are marked as their tree's reference.
void add_external_implementations(std::span<const uint8_t> key, ImplementationList& rows,
                                  Environment& environment);

[[noreturn]] void fail(const std::string& what);

}  // namespace blake2simd::bench
