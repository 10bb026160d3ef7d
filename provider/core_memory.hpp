// The core's allocator, taken from its dispatch table: the module links no libcrypto, and
// memory still goes where CRYPTO_set_mem_functions sends the application's.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/core_dispatch.h>

#include <cstddef>

namespace blake2simd {

struct CoreMemory {
    OSSL_FUNC_CRYPTO_malloc_fn* allocate = nullptr;
    OSSL_FUNC_CRYPTO_zalloc_fn* allocate_zeroed = nullptr;
    OSSL_FUNC_CRYPTO_free_fn* release = nullptr;

    // Every 3.x and 4.x core offers all three; without them the provider does not start.
    bool complete() const noexcept {
        return allocate != nullptr && allocate_zeroed != nullptr && release != nullptr;
    }
};

}  // namespace blake2simd
