// What the BLAKE2BMAC and BLAKE2BPMAC contexts share: key handling and ctx params.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/core.h>

#include <cstddef>
#include <cstdint>

#include "errors.hpp"
#include "params.hpp"
#include "provider_context.hpp"

namespace blake2simd {

// Kept inside the (OpenSSL-allocated, cleansed on free) context until the next key replaces it.
struct MacKey {
    uint8_t bytes[kMaxKeyBytes];
    uint8_t length;  // 0 until a key is set
};

// The key given to init wins over a "key" param given with it; an init key of invalid length
// is refused. `selected.bytes` is nullptr when neither gives a key.
bool select_key(KeyArgument init_key, const KeyArgument& param_key, KeyArgument& selected,
                Reason& failure) noexcept;

// Zero-fills the unused tail, so the stored bytes never depend on an earlier, longer key.
void store_key(MacKey& key, const KeyArgument& given) noexcept;

// Init needs a key, given now or at an earlier init or set_ctx_params.
bool require_key(const ProviderContext* provider, const MacKey& key) noexcept;

// Fills block size, `output_size` and the serving kernel's name; a failure is raised.
bool get_mac_ctx_params(const ProviderContext* provider, OSSL_PARAM params[], size_t output_size,
                        const char* kernel_name) noexcept;

// Both MACs list salt and custom: BLAKE2b applies them, and BLAKE2bp's callers reach its
// refusal (with its reason) instead of a generic "unknown parameter".
extern const OSSL_PARAM kMacSettableCtxParams[];

extern const OSSL_PARAM kMacGettableCtxParams[];

}  // namespace blake2simd
