// SPDX-License-Identifier: Apache-2.0
#include "evp_hash.hpp"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstring>

#include "module_trust.hpp"

namespace b2sum {
namespace {

constexpr char kProviderName[] = "blake2simd";
constexpr char kPropertyQuery[] = "provider=blake2simd";
constexpr char kKernelParam[] = "kernel";

std::string directory_of_executable() {
    char path[4096];
    const ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
    if (length <= 0) {
        return {};
    }
    std::string exe(path, static_cast<size_t>(length));
    return exe.substr(0, exe.rfind('/'));
}

bool same_directory(const std::string& a, const std::string& b) {
    struct stat sa {};
    struct stat sb {};
    return !a.empty() && stat(a.c_str(), &sa) == 0 && stat(b.c_str(), &sb) == 0 &&
           sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

// Only the program the build left in its own output directory probes the build tree: a copy
// installed anywhere else must never load a module from <its directory>/../ossl-modules, which
// whoever may write the install prefix could plant.
bool running_from_build_tree() {
    return same_directory(directory_of_executable(), B2_BUILD_TREE_PROGRAM_DIR);
}

bool module_exists(const std::string& directory) {
    const std::string module = directory + "/" + kProviderName + ".so";
    return access(module.c_str(), R_OK) == 0;
}

std::string kernel_from(bool (*get)(void*, OSSL_PARAM*), void* ctx) {
    char name[64] = {};
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(kKernelParam, name, sizeof name),
        OSSL_PARAM_construct_end(),
    };
    if (ctx == nullptr || !get(ctx, params)) {
        ERR_clear_error();
        return "unknown";
    }
    return name;
}

}  // namespace

std::string openssl_error_text() {
    const unsigned long code = ERR_get_error();
    ERR_clear_error();
    if (code == 0) {
        return {};
    }
    char text[256];
    ERR_error_string_n(code, text, sizeof text);
    return text;
}

std::vector<std::string> module_directories(const std::string& provider_path) {
    if (!provider_path.empty()) {
        return {provider_path};
    }
    std::vector<std::string> directories;
    if (running_from_build_tree() && module_exists(B2_BUILD_TREE_MODULE_DIR)) {
        directories.push_back(B2_BUILD_TREE_MODULE_DIR);
    }
    directories.push_back(B2_INSTALLED_MODULE_DIR);
    return directories;
}

std::unique_ptr<ProviderSession> ProviderSession::load(const std::string& directory,
                                                       std::string* error) {
    const std::string module = directory + "/" + kProviderName + ".so";
    if (geteuid() == 0) {
        const std::string why = why_others_could_replace(module);
        if (!why.empty()) {
            *error = "cannot load the blake2simd provider from " + directory +
                     ": as root, refusing " + module + ": " + why +
                     ", so someone other than root could replace it and run their code here";
            return nullptr;
        }
    }
    OSSL_LIB_CTX* library = OSSL_LIB_CTX_new();
    if (library == nullptr) {
        *error = "cannot create an OpenSSL library context";
        return nullptr;
    }
    OSSL_PROVIDER* provider = nullptr;
    if (OSSL_PROVIDER_set_default_search_path(library, directory.c_str()) == 1) {
        provider = OSSL_PROVIDER_load(library, kProviderName);
    }
    if (provider == nullptr || OSSL_PROVIDER_available(library, kProviderName) != 1) {
        const std::string reason = openssl_error_text();
        *error = "cannot load the blake2simd provider from " + directory +
                 (reason.empty() ? std::string() : " (" + reason + ")");
        OSSL_PROVIDER_unload(provider);
        OSSL_LIB_CTX_free(library);
        return nullptr;
    }
    return std::unique_ptr<ProviderSession>(new ProviderSession(library, provider));
}

ProviderSession::~ProviderSession() {
    OSSL_PROVIDER_unload(provider_);
    OSSL_LIB_CTX_free(library_);
}

Key::~Key() {
    OPENSSL_cleanse(bytes_, sizeof bytes_);
}

bool Key::load(const std::string& path, size_t max_bytes, std::string* error) {
    const int fd = open(path.c_str(), O_RDONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        *error = std::strerror(errno);
        return false;
    }
    struct stat st {};
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (st.st_mode & (S_IRWXG | S_IRWXO)) != 0) {
        *error = !S_ISREG(st.st_mode) ? "not a regular file"
                                      : "group or others may access it (chmod 600 it)";
        close(fd);
        return false;
    }
    // One byte more than the longest key tells a too long key from one of the maximum length.
    unsigned char buffer[sizeof bytes_ + 1];
    const size_t wanted = std::min(max_bytes, sizeof bytes_) + 1;
    size_t length = 0;
    ssize_t got = 1;
    while (length < wanted && got != 0) {
        got = read(fd, buffer + length, wanted - length);
        if (got < 0 && errno != EINTR) {
            break;
        }
        length += got > 0 ? static_cast<size_t>(got) : 0;
    }
    const int read_errno = errno;
    close(fd);
    if (got < 0) {
        *error = std::strerror(read_errno);
    } else if (length == 0) {
        *error = "the key file is empty";
    } else if (length >= wanted) {
        *error = "the key is longer than " + std::to_string(wanted - 1) + " bytes";
    } else {
        std::memcpy(bytes_, buffer, length);
        length_ = length;
    }
    OPENSSL_cleanse(buffer, sizeof buffer);
    return length_ != 0;
}

Fetched::Fetched(const ProviderSession& session, const Algorithm& algorithm, bool keyed) {
    if (keyed) {
        mac_ = EVP_MAC_fetch(session.library(), algorithm.mac, kPropertyQuery);
    } else {
        md_ = EVP_MD_fetch(session.library(), algorithm.digest, kPropertyQuery);
    }
}

Fetched::~Fetched() {
    EVP_MD_free(md_);
    EVP_MAC_free(mac_);
}

Hashing::~Hashing() {
    EVP_MD_CTX_free(md_ctx_);
    EVP_MAC_CTX_free(mac_ctx_);
}

bool Hashing::start(const Fetched& fetched, const HashSpec& spec) {
    size_t size = spec.bits / 8;
    OSSL_PARAM sized[] = {
        OSSL_PARAM_construct_size_t(OSSL_DIGEST_PARAM_SIZE, &size),
        OSSL_PARAM_construct_end(),
    };
    // The tree modes have one size and take no size parameter. For BLAKE2X, a size at init is
    // the known-length mode: the length goes into H0, as in the official vectors.
    OSSL_PARAM* params = spec.algorithm->variable_length ? sized : nullptr;
    keyed_ = spec.key != nullptr && !spec.key->empty();
    xof_ = spec.algorithm->xof;
    if (keyed_) {
        EVP_MAC_CTX_free(mac_ctx_);
        mac_ctx_ = EVP_MAC_CTX_new(fetched.mac());
        return mac_ctx_ != nullptr &&
               EVP_MAC_init(mac_ctx_, spec.key->data(), spec.key->size(), params) == 1;
    }
    if (md_ctx_ == nullptr) {
        md_ctx_ = EVP_MD_CTX_new();
    }
    return md_ctx_ != nullptr && EVP_DigestInit_ex2(md_ctx_, fetched.md(), params) == 1;
}

bool Hashing::update(const unsigned char* data, size_t length) {
    return keyed_ ? EVP_MAC_update(mac_ctx_, data, length) == 1
                  : EVP_DigestUpdate(md_ctx_, data, length) == 1;
}

bool Hashing::finish(unsigned char* out, size_t out_length) {
    if (xof_) {  // known-length mode: the length fixed at start, written straight to `out`
        size_t written = 0;
        return keyed_ ? EVP_MAC_final(mac_ctx_, out, &written, out_length) == 1 &&
                            written == out_length
                      : EVP_DigestFinalXOF(md_ctx_, out, out_length) == 1;
    }
    unsigned char full[EVP_MAX_MD_SIZE];
    if (keyed_) {
        size_t written = 0;
        if (EVP_MAC_final(mac_ctx_, full, &written, sizeof full) != 1 || written != out_length) {
            return false;
        }
    } else {
        unsigned int written = 0;
        if (EVP_DigestFinal_ex(md_ctx_, full, &written) != 1 || written != out_length) {
            return false;
        }
    }
    std::memcpy(out, full, out_length);
    OPENSSL_cleanse(full, sizeof full);
    return true;
}

std::string Hashing::kernel() const {
    if (keyed_) {
        return kernel_from(
            [](void* c, OSSL_PARAM* p) {
                return EVP_MAC_CTX_get_params(static_cast<EVP_MAC_CTX*>(c), p) == 1;
            },
            mac_ctx_);
    }
    return kernel_from(
        [](void* c, OSSL_PARAM* p) {
            return EVP_MD_CTX_get_params(static_cast<EVP_MD_CTX*>(c), p) == 1;
        },
        md_ctx_);
}

}  // namespace b2sum
