// What the MAC contexts of both families share: key handling and ctx params.
// SPDX-License-Identifier: Apache-2.0
#include "baseline_guard.hpp"
#include "context.hpp"

#include <openssl/core_names.h>
#include <openssl/params.h>

#include <cstring>

#include "names.hpp"

namespace blake2simd {

template <class Family>
bool select_key(KeyArgument init_key, const KeyArgument& param_key, KeyArgument& selected,
                Reason& failure) noexcept {
    if (init_key.bytes != nullptr && !is_valid_key_length<Family>(init_key.length)) {
        failure = ParamReasons<Family>::key_length;
        return false;
    }
    selected = init_key.bytes != nullptr ? init_key : param_key;
    return true;
}

template <class Family>
void store_key(MacKey<Family>& key, const KeyArgument& given) noexcept {
    std::memset(key.bytes, 0, sizeof key.bytes);
    std::memcpy(key.bytes, given.bytes, given.length);
    key.length = static_cast<uint8_t>(given.length);
}

template bool select_key<Blake2bFamily>(KeyArgument, const KeyArgument&, KeyArgument&,
                                        Reason&) noexcept;
template bool select_key<Blake2sFamily>(KeyArgument, const KeyArgument&, KeyArgument&,
                                        Reason&) noexcept;
template void store_key(MacKey<Blake2bFamily>&, const KeyArgument&) noexcept;
template void store_key(MacKey<Blake2sFamily>&, const KeyArgument&) noexcept;

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
