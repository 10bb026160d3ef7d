// What the BLAKE2BMAC and BLAKE2BPMAC contexts share: key handling and ctx params.
// SPDX-License-Identifier: Apache-2.0
#include "mac_common.hpp"
#include "baseline_guard.hpp"

#include <openssl/core_names.h>
#include <openssl/params.h>

#include <cstring>

#include "names.hpp"

namespace blake2simd {

bool select_key(KeyArgument init_key, const KeyArgument& param_key, KeyArgument& selected,
                Reason& failure) noexcept {
    if (init_key.bytes != nullptr && !is_valid_key_length(init_key.length)) {
        failure = Reason::invalid_key_length;
        return false;
    }
    selected = init_key.bytes != nullptr ? init_key : param_key;
    return true;
}

void store_key(MacKey& key, const KeyArgument& given) noexcept {
    std::memset(key.bytes, 0, sizeof key.bytes);
    std::memcpy(key.bytes, given.bytes, given.length);
    key.length = static_cast<uint8_t>(given.length);
}

bool require_key(const ProviderContext* provider, const MacKey& key) noexcept {
    if (key.length == 0) {
        B2_RAISE(provider, Reason::no_key_set);
        return false;
    }
    return true;
}

bool get_mac_ctx_params(const ProviderContext* provider, OSSL_PARAM params[], size_t output_size,
                        const char* kernel_name) noexcept {
    return get_common_ctx_params(provider, params, output_size, kernel_name, kBlockBytes);
}

const OSSL_PARAM kMacSettableCtxParams[] = {
    OSSL_PARAM_octet_string(OSSL_MAC_PARAM_CUSTOM, nullptr, 0),
    OSSL_PARAM_octet_string(OSSL_MAC_PARAM_KEY, nullptr, 0),
    OSSL_PARAM_octet_string(OSSL_MAC_PARAM_SALT, nullptr, 0),
    OSSL_PARAM_size_t(OSSL_MAC_PARAM_SIZE, nullptr),
    OSSL_PARAM_END,
};

const OSSL_PARAM kMacGettableCtxParams[] = {
    OSSL_PARAM_size_t(OSSL_MAC_PARAM_SIZE, nullptr),
    OSSL_PARAM_size_t(OSSL_MAC_PARAM_BLOCK_SIZE, nullptr),
    OSSL_PARAM_utf8_ptr(names::kParamKernel, nullptr, 0),
    OSSL_PARAM_END,
};

}  // namespace blake2simd
