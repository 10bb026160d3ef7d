// The core's allocator, taken from its dispatch table: the module links no libcrypto, and
// memory still goes where CRYPTO_set_mem_functions sends the application's.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/core_dispatch.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>

namespace blake2simd {

namespace libc_memory {
inline void* allocate(size_t size, const char*, int) noexcept {
    return std::malloc(size);
}
inline void* allocate_zeroed(size_t size, const char*, int) noexcept {
    return std::calloc(1, size);
}
inline void release(void* memory, const char*, int) noexcept {
    std::free(memory);
}
}  // namespace libc_memory

// Every 3.x and 4.x core offers all three; a core of its own that offers none (a test
// harness driving the dispatch functions directly) gets libc's, which nothing else shares.
struct CoreMemory {
    OSSL_FUNC_CRYPTO_malloc_fn* allocate = &libc_memory::allocate;
    OSSL_FUNC_CRYPTO_zalloc_fn* allocate_zeroed = &libc_memory::allocate_zeroed;
    OSSL_FUNC_CRYPTO_free_fn* release = &libc_memory::release;
};

// Clearing secrets with stores the compiler may not drop, from libc: the module links no
// libcrypto. Contexts are freed at every EVP_DigestInit_ex2 on OpenSSL 3.0 and MACs re-key per
// message: glibc's explicit_bzero is a vectorized memset, where OPENSSL_cleanse clears 8 bytes
// a step.

inline void cleanse(void* memory, size_t size) noexcept {
    explicit_bzero(memory, size);
}

}  // namespace blake2simd
