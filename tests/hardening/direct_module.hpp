// blake2simd.so driven without libcrypto's provider machinery: dlopen it and initialise provider
// instances with a minimal core of our own, which answers the `kernel` config param. Used by
// tests whose result libcrypto's frames or locks would blur (fork during first use, the dead
// stack after a keyed init).
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <dlfcn.h>
#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/params.h>

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <string>

#include "b2test/digest_slots.hpp"

#ifndef B2_MODULE_DIR
#error "B2_MODULE_DIR must name the directory holding blake2simd.so"
#endif

namespace direct_module {

// The `kernel` config value the next provider instance reads ("" asks for none).
inline const char* g_kernel_request = "";

inline int core_get_params(const OSSL_CORE_HANDLE*, OSSL_PARAM params[]) noexcept {
    for (OSSL_PARAM* p = params; p != nullptr && p->key != nullptr; ++p) {
        if (std::strcmp(p->key, "kernel") == 0 && *g_kernel_request != '\0') {
            OSSL_PARAM_set_utf8_ptr(p, g_kernel_request);
        }
    }
    return 1;
}
inline void core_new_error(const OSSL_CORE_HANDLE*) noexcept {}
inline void core_set_error_debug(const OSSL_CORE_HANDLE*, const char*, int, const char*) noexcept {}
inline void core_vset_error(const OSSL_CORE_HANDLE*, uint32_t, const char*, va_list) noexcept {}

inline const OSSL_DISPATCH kCore[] = {
    {OSSL_FUNC_CORE_GET_PARAMS, reinterpret_cast<void (*)(void)>(&core_get_params)},
    {OSSL_FUNC_CORE_NEW_ERROR, reinterpret_cast<void (*)(void)>(&core_new_error)},
    {OSSL_FUNC_CORE_SET_ERROR_DEBUG, reinterpret_cast<void (*)(void)>(&core_set_error_debug)},
    {OSSL_FUNC_CORE_VSET_ERROR, reinterpret_cast<void (*)(void)>(&core_vset_error)},
    {0, nullptr},
};

// A core allocator that takes no lock: a bump allocator over a static arena that never reuses
// memory. fork() while another thread is inside malloc leaves the allocator's lock held in the
// child, and GCC 12's AddressSanitizer allocator, unlike glibc's, does not guard against that;
// a test of our own fork safety (test_fork) has its module allocate from here, so that a child
// that hangs hangs in our code.
namespace arena {
alignas(16) inline unsigned char g_bytes[4u << 20];
inline std::atomic<size_t> g_used{0};

inline void* allocate(size_t size, const char*, int) noexcept {
    const size_t rounded = (size + 15) & ~size_t{15};
    const size_t at = g_used.fetch_add(rounded, std::memory_order_relaxed);
    return at + rounded <= sizeof g_bytes ? g_bytes + at : nullptr;
}
inline void* allocate_zeroed(size_t size, const char* file, int line) noexcept {
    void* memory = allocate(size, file, line);
    if (memory != nullptr) {
        std::memset(memory, 0, size);
    }
    return memory;
}
inline void release(void*, const char*, int) noexcept {}
}  // namespace arena

inline const OSSL_DISPATCH kCoreWithArena[] = {
    {OSSL_FUNC_CORE_GET_PARAMS, reinterpret_cast<void (*)(void)>(&core_get_params)},
    {OSSL_FUNC_CORE_NEW_ERROR, reinterpret_cast<void (*)(void)>(&core_new_error)},
    {OSSL_FUNC_CORE_SET_ERROR_DEBUG, reinterpret_cast<void (*)(void)>(&core_set_error_debug)},
    {OSSL_FUNC_CORE_VSET_ERROR, reinterpret_cast<void (*)(void)>(&core_vset_error)},
    {OSSL_FUNC_CRYPTO_MALLOC, reinterpret_cast<void (*)(void)>(&arena::allocate)},
    {OSSL_FUNC_CRYPTO_ZALLOC, reinterpret_cast<void (*)(void)>(&arena::allocate_zeroed)},
    {OSSL_FUNC_CRYPTO_FREE, reinterpret_cast<void (*)(void)>(&arena::release)},
    {0, nullptr},
};

template <class Fn>
Fn* find_function(const OSSL_DISPATCH* table, int id) {
    for (; table != nullptr && table->function_id != 0; ++table) {
        if (table->function_id == id) {
            return reinterpret_cast<Fn*>(table->function);
        }
    }
    return nullptr;
}

using DigestFns = b2test::DigestSlots;

struct MacFns {
    OSSL_FUNC_mac_newctx_fn* newctx = nullptr;
    OSSL_FUNC_mac_freectx_fn* freectx = nullptr;
    OSSL_FUNC_mac_init_fn* init = nullptr;
    OSSL_FUNC_mac_update_fn* update = nullptr;
    OSSL_FUNC_mac_final_fn* final = nullptr;
    OSSL_FUNC_mac_set_ctx_params_fn* set_ctx_params = nullptr;
};

// Where blake2simd.so is loaded from: the build tree, unless a test points elsewhere (the
// setuid test runs as nobody, who may not be able to read a build tree under /root).
inline const char* g_module_dir = B2_MODULE_DIR;

// One provider instance of the (once) dlopen'd module.
class Instance {
  public:
    // Empty `kernel_request`: the automatic choice. `core`: kCore, or kCoreWithArena.
    bool open(const char* kernel_request = "", const OSSL_DISPATCH* core = kCore) {
        static void* handle = nullptr;
        if (handle == nullptr) {
            const std::string path = std::string(g_module_dir) + "/blake2simd.so";
            handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
            if (handle == nullptr) {
                std::fprintf(stderr, "dlopen %s: %s\n", path.c_str(), dlerror());
                return false;
            }
        }
        auto* init = reinterpret_cast<OSSL_provider_init_fn*>(dlsym(handle, "OSSL_provider_init"));
        g_kernel_request = kernel_request;
        const bool ok = init != nullptr && init(reinterpret_cast<const OSSL_CORE_HANDLE*>(this),
                                                core, &m_provider, &m_provctx) == 1;
        g_kernel_request = "";
        return ok;
    }

    void close() {
        auto* teardown =
            find_function<OSSL_FUNC_provider_teardown_fn>(m_provider, OSSL_FUNC_PROVIDER_TEARDOWN);
        if (teardown != nullptr && m_provctx != nullptr) {
            teardown(m_provctx);
        }
        m_provctx = nullptr;
    }

    void* provctx() const { return m_provctx; }

    // The implementation registered under a name containing `name` ("BLAKE2BP-512").
    const OSSL_DISPATCH* implementation(int operation, const char* name) const {
        auto* query = find_function<OSSL_FUNC_provider_query_operation_fn>(
            m_provider, OSSL_FUNC_PROVIDER_QUERY_OPERATION);
        int no_cache = -1;
        const OSSL_ALGORITHM* algorithm =
            query != nullptr ? query(m_provctx, operation, &no_cache) : nullptr;
        for (; algorithm != nullptr && algorithm->algorithm_names != nullptr; ++algorithm) {
            const std::string names = std::string(algorithm->algorithm_names) + ":";
            if (names.find(std::string(name) + ":") == 0) {
                return algorithm->implementation;
            }
        }
        return nullptr;
    }

    DigestFns digest(const char* name) const {
        return b2test::digest_slots(implementation(OSSL_OP_DIGEST, name));
    }

    MacFns mac(const char* name) const {
        const OSSL_DISPATCH* t = implementation(OSSL_OP_MAC, name);
        MacFns m;
        m.newctx = find_function<OSSL_FUNC_mac_newctx_fn>(t, OSSL_FUNC_MAC_NEWCTX);
        m.freectx = find_function<OSSL_FUNC_mac_freectx_fn>(t, OSSL_FUNC_MAC_FREECTX);
        m.init = find_function<OSSL_FUNC_mac_init_fn>(t, OSSL_FUNC_MAC_INIT);
        m.update = find_function<OSSL_FUNC_mac_update_fn>(t, OSSL_FUNC_MAC_UPDATE);
        m.final = find_function<OSSL_FUNC_mac_final_fn>(t, OSSL_FUNC_MAC_FINAL);
        m.set_ctx_params =
            find_function<OSSL_FUNC_mac_set_ctx_params_fn>(t, OSSL_FUNC_MAC_SET_CTX_PARAMS);
        return m;
    }

    // A UTF-8 provider parameter ("kernel", "buildinfo"); "" when absent.
    std::string param(const char* name) const {
        auto* get = find_function<OSSL_FUNC_provider_get_params_fn>(m_provider,
                                                                    OSSL_FUNC_PROVIDER_GET_PARAMS);
        const char* value = nullptr;
        OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_ptr(name, const_cast<char**>(&value), 0),
                               OSSL_PARAM_construct_end()};
        if (get == nullptr || get(m_provctx, params) != 1 || value == nullptr) {
            return "";
        }
        return value;
    }

  private:
    const OSSL_DISPATCH* m_provider = nullptr;
    void* m_provctx = nullptr;
};

}  // namespace direct_module
