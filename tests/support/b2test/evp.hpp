// EVP-level helpers: a private library context with our provider, fetch/ctx RAII, the serving
// kernel, and one-call digest/MAC runs with chosen update splits.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "check.hpp"
#include "openssl_errors.hpp"
#include "vectors.hpp"

#ifndef B2_MODULE_DIR
#error "B2_MODULE_DIR must name the directory holding blake2simd.so (set by b2_add_evp_test)"
#endif

namespace b2test {

inline constexpr const char* kOurProvider = "blake2simd";
inline constexpr const char* kOurPropq = "provider=blake2simd";
inline constexpr const char* kDefaultPropq = "provider=default";
inline constexpr const char* kDigestName = "BLAKE2B-512";
inline constexpr const char* kMacName = "BLAKE2BMAC";

struct MdFree {
    void operator()(EVP_MD* md) const noexcept { EVP_MD_free(md); }
};
struct MdCtxFree {
    void operator()(EVP_MD_CTX* ctx) const noexcept { EVP_MD_CTX_free(ctx); }
};
struct MacFree {
    void operator()(EVP_MAC* mac) const noexcept { EVP_MAC_free(mac); }
};
struct MacCtxFree {
    void operator()(EVP_MAC_CTX* ctx) const noexcept { EVP_MAC_CTX_free(ctx); }
};
using MdPtr = std::unique_ptr<EVP_MD, MdFree>;
using MdCtxPtr = std::unique_ptr<EVP_MD_CTX, MdCtxFree>;
using MacPtr = std::unique_ptr<EVP_MAC, MacFree>;
using MacCtxPtr = std::unique_ptr<EVP_MAC_CTX, MacCtxFree>;
struct KdfFree {
    void operator()(EVP_KDF* kdf) const noexcept { EVP_KDF_free(kdf); }
};
struct KdfCtxFree {
    void operator()(EVP_KDF_CTX* ctx) const noexcept { EVP_KDF_CTX_free(ctx); }
};
using KdfPtr = std::unique_ptr<EVP_KDF, KdfFree>;
using KdfCtxPtr = std::unique_ptr<EVP_KDF_CTX, KdfCtxFree>;

// The running libcrypto's version decides what EVP itself does; tests built against one
// version's headers may run on another.
inline bool running_openssl_at_least(unsigned long version) noexcept {
    return OpenSSL_version_num() >= version;
}

// From OpenSSL 3.5, EVP_DigestUpdate and EVP_DigestFinal_ex refuse a finished digest context
// themselves ("update error", "final error") and never call the provider; before, the
// provider refuses with its own reason. Either way the call fails with a reason.
inline const char* finished_digest_update_reason() noexcept {
    return running_openssl_at_least(0x30500000L) ? "update error" : "update after final";
}
inline const char* finished_digest_final_reason() noexcept {
    return running_openssl_at_least(0x30500000L) ? "final error" : "final already called";
}

// The build-tree module directory, unless B2_MODULE_DIR in the environment points elsewhere
// (e.g. to test an installed module).
inline std::string module_dir() {
    const char* override_dir = std::getenv("B2_MODULE_DIR");
    return (override_dir != nullptr && *override_dir != '\0') ? override_dir : B2_MODULE_DIR;
}

// A fresh OSSL_LIB_CTX with blake2simd (and optionally default) loaded, so nothing from the
// process-wide configuration can serve our fetches by accident.
class ProviderSession final {
  public:
    enum class Default { exclude, include };

    explicit ProviderSession(Default with_default) {
        m_libctx = OSSL_LIB_CTX_new();
        B2_REQUIRE(m_libctx != nullptr, "OSSL_LIB_CTX_new");
        const std::string directory = module_dir();
        B2_REQUIRE(OSSL_PROVIDER_set_default_search_path(m_libctx, directory.c_str()) == 1,
                   "set_default_search_path " + directory);
        m_ours = OSSL_PROVIDER_load(m_libctx, kOurProvider);
        B2_REQUIRE(m_ours != nullptr,
                   std::string("OSSL_PROVIDER_load blake2simd from ") + directory);
        if (with_default == Default::include) {
            m_default = OSSL_PROVIDER_load(m_libctx, "default");
            B2_REQUIRE(m_default != nullptr, "OSSL_PROVIDER_load default");
        }
    }
    ~ProviderSession() {
        if (m_default != nullptr) {
            OSSL_PROVIDER_unload(m_default);
        }
        OSSL_PROVIDER_unload(m_ours);
        OSSL_LIB_CTX_free(m_libctx);
    }
    ProviderSession(const ProviderSession&) = delete;
    ProviderSession& operator=(const ProviderSession&) = delete;

    [[nodiscard]] OSSL_LIB_CTX* libctx() const noexcept { return m_libctx; }

    [[nodiscard]] MdPtr fetch_md(const char* name, const char* propq) const {
        return MdPtr(EVP_MD_fetch(m_libctx, name, propq));
    }
    [[nodiscard]] MacPtr fetch_mac(const char* name, const char* propq) const {
        return MacPtr(EVP_MAC_fetch(m_libctx, name, propq));
    }

  private:
    OSSL_LIB_CTX* m_libctx = nullptr;
    OSSL_PROVIDER* m_ours = nullptr;
    OSSL_PROVIDER* m_default = nullptr;
};

inline std::string provider_name(const EVP_MD* md) {
    const OSSL_PROVIDER* provider = md != nullptr ? EVP_MD_get0_provider(md) : nullptr;
    return provider != nullptr ? OSSL_PROVIDER_get0_name(provider) : "(none)";
}
inline std::string provider_name(const EVP_MAC* mac) {
    const OSSL_PROVIDER* provider = mac != nullptr ? EVP_MAC_get0_provider(mac) : nullptr;
    return provider != nullptr ? OSSL_PROVIDER_get0_name(provider) : "(none)";
}

// The error a digest raises without a provider context: EVP_MD_get_params asking for the block
// size as a UTF-8 string (the digest answers a size_t). The newest error code on the queue
// (queue emptied), or 0 when the call raised none or did not fail. Allocates nothing once the
// thread's error state exists (the fork tests call it in children).
inline unsigned long wrong_type_get_params_error(const EVP_MD* md) noexcept {
    char text[16] = {};
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_DIGEST_PARAM_BLOCK_SIZE, text, sizeof text),
        OSSL_PARAM_construct_end()};
    const int result = EVP_MD_get_params(md, params);
    unsigned long last = 0;
    for (unsigned long code = ERR_get_error(); code != 0; code = ERR_get_error()) {
        last = code;
    }
    return result == 0 ? last : 0;
}

// The gettable ctx param "kernel" (UTF-8 string) of our provider; nullopt if not answered.
inline std::optional<std::string> served_kernel(EVP_MD_CTX* ctx) {
    char name[64] = {};
    OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string("kernel", name, sizeof name),
                           OSSL_PARAM_construct_end()};
    if (EVP_MD_CTX_get_params(ctx, params) != 1 || !OSSL_PARAM_modified(&params[0])) {
        return std::nullopt;
    }
    return std::string(name);
}
inline std::optional<std::string> served_kernel(EVP_MAC_CTX* ctx) {
    char name[64] = {};
    OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string("kernel", name, sizeof name),
                           OSSL_PARAM_construct_end()};
    if (EVP_MAC_CTX_get_params(ctx, params) != 1 || !OSSL_PARAM_modified(&params[0])) {
        return std::nullopt;
    }
    return std::string(name);
}

// Environment knobs for the dispatch and emulator runs:
//   B2_EXPECT_KERNEL=name       the serving kernel must be exactly this one
//   B2_ALLOWED_KERNELS=a,b,c    the serving kernel must be one of these
//   B2_SKIP_UNLESS_KERNEL=name  exit 77 (skip) if another kernel serves (the host lacks it)
class KernelPolicy final {
  public:
    KernelPolicy() {
        m_expect = env("B2_EXPECT_KERNEL");
        m_allowed = env("B2_ALLOWED_KERNELS");
        m_skip_unless = env("B2_SKIP_UNLESS_KERNEL");
    }

    // True if the test should exit with kSkipExitCode.
    [[nodiscard]] bool wants_skip(const std::string& served) const {
        if (!m_skip_unless.empty() && served != m_skip_unless) {
            std::printf("SKIP: kernel %s serves, B2_SKIP_UNLESS_KERNEL=%s (host lacks it?)\n",
                        served.c_str(), m_skip_unless.c_str());
            return true;
        }
        return false;
    }

    void check(Report& report, const std::string& served, std::string_view where) const {
        if (!m_expect.empty()) {
            B2_CHECK(report, served == m_expect,
                     std::string(where) + ": kernel " + served + ", B2_EXPECT_KERNEL=" + m_expect);
        }
        check_allowed(report, served, where);
    }

    // B2_ALLOWED_KERNELS alone: for a kernel that may differ from the one requested (another
    // family's falls back to the automatic choice), but must still run on the CPU model.
    void check_allowed(Report& report, const std::string& served, std::string_view where) const {
        if (!m_allowed.empty()) {
            B2_CHECK(report, is_allowed(served),
                     std::string(where) + ": kernel " + served +
                         " not in B2_ALLOWED_KERNELS=" + m_allowed);
        }
    }

  private:
    static std::string env(const char* name) {
        const char* value = std::getenv(name);
        return value != nullptr ? value : "";
    }

    [[nodiscard]] bool is_allowed(const std::string& served) const {
        std::istringstream list(m_allowed);
        std::string item;
        while (std::getline(list, item, ',')) {
            if (item == served) {
                return true;
            }
        }
        return false;
    }

    std::string m_expect;
    std::string m_allowed;
    std::string m_skip_unless;
};

// Owns the storage an OSSL_PARAM array points into; build() after setting the wanted fields.
// Neither copyable nor movable because the array holds pointers to the members.
class Blake2bParams final {
  public:
    enum class Face { digest, mac };

    Blake2bParams() = default;
    Blake2bParams(const Blake2bParams&) = delete;
    Blake2bParams& operator=(const Blake2bParams&) = delete;

    void set_size(size_t size) noexcept { m_size = size; }
    void set_salt(std::span<const uint8_t> salt) noexcept { m_salt = salt; }
    void set_custom(std::span<const uint8_t> custom) noexcept { m_custom = custom; }
    void set_tree(const TreeFields& fields) noexcept { m_tree = fields; }

    // The digest takes "size" as unsigned int (OpenSSL's later BLAKE2 digest API), the MAC as
    // size_t (EVP_MAC documentation); OpenSSL's getters convert either way.
    const OSSL_PARAM* build(Face face) {
        size_t count = 0;
        if (m_size) {
            if (face == Face::digest) {
                m_size_uint = static_cast<unsigned int>(*m_size);
                m_params[count++] = OSSL_PARAM_construct_uint("size", &m_size_uint);
            } else {
                m_size_value = *m_size;
                m_params[count++] = OSSL_PARAM_construct_size_t("size", &m_size_value);
            }
        }
        if (m_salt) {
            m_params[count++] = octets("salt", *m_salt);
        }
        if (m_custom) {
            m_params[count++] = octets("custom", *m_custom);
        }
        if (m_tree) {
            // Integers of three widths: any width up to 8 bytes is taken.
            m_params[count++] = OSSL_PARAM_construct_uint("fanout", &m_tree->fanout);
            m_params[count++] = OSSL_PARAM_construct_uint("depth", &m_tree->depth);
            m_params[count++] = OSSL_PARAM_construct_uint32("leaf-size", &m_tree->leaf_size);
            m_params[count++] = OSSL_PARAM_construct_uint64("node-offset", &m_tree->node_offset);
            m_params[count++] = OSSL_PARAM_construct_uint("node-depth", &m_tree->node_depth);
            m_params[count++] = OSSL_PARAM_construct_uint("inner-size", &m_tree->inner_size);
            m_params[count++] = OSSL_PARAM_construct_uint("last-node", &m_tree->last_node);
        }
        m_params[count] = OSSL_PARAM_construct_end();
        return m_params;
    }

  private:
    static OSSL_PARAM octets(const char* key, std::span<const uint8_t> bytes) {
        // Empty fields still get a valid pointer: implementations may memcpy from it.
        static const uint8_t kEmpty[1] = {0};
        const uint8_t* data = bytes.empty() ? kEmpty : bytes.data();
        // OpenSSL never writes through a settable param; the cast only satisfies the C API.
        return OSSL_PARAM_construct_octet_string(key, const_cast<uint8_t*>(data), bytes.size());
    }

    std::optional<size_t> m_size;
    std::optional<std::span<const uint8_t>> m_salt;
    std::optional<std::span<const uint8_t>> m_custom;
    std::optional<TreeFields> m_tree;
    unsigned int m_size_uint = 0;
    size_t m_size_value = 0;
    OSSL_PARAM m_params[11] = {};
};

// Feeds `message` in pieces of the given lengths (zero allowed), then the rest in one piece.
template <class UpdateFn>
bool feed_in_pieces(std::span<const uint8_t> message, std::span<const size_t> pieces,
                    UpdateFn update) {
    size_t offset = 0;
    for (const size_t piece : pieces) {
        const size_t length = piece < message.size() - offset ? piece : message.size() - offset;
        if (!update(message.data() + offset, length)) {
            return false;
        }
        offset += length;
    }
    return update(message.data() + offset, message.size() - offset);
}

// Init (with params) + pieces + final on a reusable ctx; nullopt if any step fails.
inline std::optional<std::vector<uint8_t>> run_digest(EVP_MD_CTX* ctx, const EVP_MD* md,
                                                      const OSSL_PARAM* params,
                                                      std::span<const uint8_t> message,
                                                      std::span<const size_t> pieces = {}) {
    if (EVP_DigestInit_ex2(ctx, md, params) != 1) {
        return std::nullopt;
    }
    const bool fed = feed_in_pieces(message, pieces, [ctx](const uint8_t* data, size_t length) {
        return EVP_DigestUpdate(ctx, data, length) == 1;
    });
    if (!fed) {
        return std::nullopt;
    }
    std::vector<uint8_t> out(EVP_MAX_MD_SIZE);
    unsigned int out_length = 0;
    if (EVP_DigestFinal_ex(ctx, out.data(), &out_length) != 1) {
        return std::nullopt;
    }
    out.resize(out_length);
    return out;
}

// EVP_MAC_final alone; empty if it fails (a successful BLAKE2 MAC is never empty).
inline std::vector<uint8_t> mac_final(EVP_MAC_CTX* ctx) {
    std::vector<uint8_t> out(EVP_MAX_MD_SIZE);
    size_t length = 0;
    if (EVP_MAC_final(ctx, out.data(), &length, out.size()) != 1) {
        return {};
    }
    out.resize(length);
    return out;
}

// EVP_MAC_init with `key` (pointer kept even when empty, so a zero-length key is "given")
// + params + pieces + final; nullopt if any step fails.
inline std::optional<std::vector<uint8_t>> run_mac(EVP_MAC_CTX* ctx, std::span<const uint8_t> key,
                                                   const OSSL_PARAM* params,
                                                   std::span<const uint8_t> message,
                                                   std::span<const size_t> pieces = {}) {
    static const uint8_t kNoKeyBytes[1] = {0};
    const uint8_t* key_data = key.data() != nullptr ? key.data() : kNoKeyBytes;
    if (EVP_MAC_init(ctx, key_data, key.size(), params) != 1) {
        return std::nullopt;
    }
    const bool fed = feed_in_pieces(message, pieces, [ctx](const uint8_t* data, size_t length) {
        return EVP_MAC_update(ctx, data, length) == 1;
    });
    if (!fed) {
        return std::nullopt;
    }
    std::vector<uint8_t> out(EVP_MAX_MD_SIZE);
    size_t out_length = 0;
    if (EVP_MAC_final(ctx, out.data(), &out_length, out.size()) != 1) {
        return std::nullopt;
    }
    out.resize(out_length);
    return out;
}

}  // namespace b2test
