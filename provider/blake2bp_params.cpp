// Parameter validation for BLAKE2bp: fixed 64-byte output, no salt, no personalization.
// SPDX-License-Identifier: Apache-2.0
#include "blake2bp_params.hpp"
#include "baseline_guard.hpp"

#include <openssl/core_names.h>

#include "blake2bp_engine.hpp"
#include "ossl_param.hpp"

namespace blake2simd {

bool parse_blake2bp_params(const OSSL_PARAM params[], KeyPolicy key_policy, KeyArgument& key,
                           Reason& failure) noexcept {
    key = KeyArgument{};
    if (params == nullptr) {
        return true;
    }
    const OSSL_PARAM* p = nullptr;
    size_t size = 0;
    if ((p = param::locate(params, OSSL_MAC_PARAM_SIZE)) != nullptr &&
        !parse_size_param(p, kBlake2bpDigestBytes, kBlake2bpDigestBytes,
                          Reason::blake2bp_output_size, size, failure)) {
        return false;
    }
    // Even an empty salt or custom is refused: accepting it would suggest the other lengths work.
    if (param::locate(params, OSSL_MAC_PARAM_SALT) != nullptr) {
        failure = Reason::blake2bp_salt;
        return false;
    }
    if (param::locate(params, OSSL_MAC_PARAM_CUSTOM) != nullptr) {
        failure = Reason::blake2bp_custom;
        return false;
    }
    if (key_policy == KeyPolicy::accept &&
        (p = param::locate(params, OSSL_MAC_PARAM_KEY)) != nullptr) {
        return parse_key_param(p, key, failure);
    }
    return true;
}

}  // namespace blake2simd
