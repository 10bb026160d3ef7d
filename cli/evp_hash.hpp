// The provider in a library context of its own, and hashing through EVP with it.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/types.h>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms.hpp"

namespace b2sum {

// An OSSL_LIB_CTX holding only blake2simd: openssl.cnf is never read into it, no other
// provider is loaded, and every fetch asks for provider=blake2simd.
class ProviderSession {
  public:
    // Loads from `directory` (one of module_directories()). Empty result and `*error` set
    // when the module is missing or refuses to start, or, as root, when anyone but root could
    // replace it (module_trust.hpp).
    static std::unique_ptr<ProviderSession> load(const std::string& directory, std::string* error);
    ~ProviderSession();
    ProviderSession(const ProviderSession&) = delete;
    ProviderSession& operator=(const ProviderSession&) = delete;

    OSSL_LIB_CTX* library() const { return library_; }

  private:
    ProviderSession(OSSL_LIB_CTX* library, OSSL_PROVIDER* provider)
        : library_(library), provider_(provider) {}
    OSSL_LIB_CTX* library_;
    OSSL_PROVIDER* provider_;
};

// The directories to try, in order: --provider-path alone when given; else the build tree's
// module directory when this program runs from the build's own output directory (never for an
// installed copy), then the installed one.
std::vector<std::string> module_directories(const std::string& provider_path);

// A key read from a file, wiped when dropped.
class Key {
  public:
    Key() = default;
    ~Key();
    Key(const Key&) = delete;
    Key& operator=(const Key&) = delete;
    // Refuses (with `*error`) anything but a non-empty regular file of at most `max_bytes`
    // that neither group nor others may read or write.
    bool load(const std::string& path, size_t max_bytes, std::string* error);
    bool empty() const { return length_ == 0; }
    const unsigned char* data() const { return bytes_; }
    size_t size() const { return length_; }

  private:
    unsigned char bytes_[64] = {};
    size_t length_ = 0;
};

// What to compute: algorithm, output length and, for a MAC, the key.
struct HashSpec {
    const Algorithm* algorithm;
    unsigned bits;
    const Key* key;                         // nullptr or empty: the plain digest
    std::string_view required_kernel = {};  // --kernel: any other kernel serving is an error
};

// One algorithm fetched from the session; cheap to share between threads.
class Fetched {
  public:
    Fetched(const ProviderSession& session, const Algorithm& algorithm, bool keyed);
    ~Fetched();
    Fetched(const Fetched&) = delete;
    Fetched& operator=(const Fetched&) = delete;
    bool ok() const { return md_ != nullptr || mac_ != nullptr; }
    EVP_MD* md() const { return md_; }
    EVP_MAC* mac() const { return mac_; }

  private:
    EVP_MD* md_ = nullptr;
    EVP_MAC* mac_ = nullptr;
};

// One message at a time, reusable; one per thread.
class Hashing {
  public:
    Hashing() = default;
    ~Hashing();
    Hashing(const Hashing&) = delete;
    Hashing& operator=(const Hashing&) = delete;
    bool start(const Fetched& fetched, const HashSpec& spec);
    bool update(const unsigned char* data, size_t length);
    // Writes spec.bits / 8 bytes.
    bool finish(unsigned char* out, size_t out_length);
    std::string kernel() const;  // the kernel serving the current message

  private:
    EVP_MD_CTX* md_ctx_ = nullptr;
    EVP_MAC_CTX* mac_ctx_ = nullptr;
    bool keyed_ = false;
    bool xof_ = false;
};

// The first error OpenSSL queued, as text ("" when none); clears the queue.
std::string openssl_error_text();

}  // namespace b2sum
