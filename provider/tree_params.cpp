// Parameter validation for the tree modes: fixed full-size output, no salt, no personalization.
// SPDX-License-Identifier: Apache-2.0
#include "tree_params.hpp"
#include "baseline_guard.hpp"

#include <openssl/core_names.h>

#include "ossl_param.hpp"
#include "tree_engine.hpp"

namespace blake2simd {

template <class Family>
bool parse_tree_params(const OSSL_PARAM params[], KeyPolicy key_policy, KeyArgument& key,
                       Reason& failure) noexcept {
    using Reasons = ParamReasons<Family>;
    key = KeyArgument{};
    if (params == nullptr) {
        return true;
    }
    const OSSL_PARAM* p = nullptr;
    size_t size = 0;
    if ((p = param::locate(params, OSSL_MAC_PARAM_SIZE)) != nullptr &&
        !parse_size_param(p, kTreeDigestBytes<Family>, kTreeDigestBytes<Family>,
                          Reasons::tree_output_size, size, failure)) {
        return false;
    }
    // Even an empty salt or custom is refused: accepting it would suggest the other lengths work.
    if (param::locate(params, OSSL_MAC_PARAM_SALT) != nullptr) {
        failure = Reasons::tree_salt;
        return false;
    }
    if (param::locate(params, OSSL_MAC_PARAM_CUSTOM) != nullptr) {
        failure = Reasons::tree_custom;
        return false;
    }
    if (key_policy == KeyPolicy::accept &&
        (p = param::locate(params, OSSL_MAC_PARAM_KEY)) != nullptr) {
        return parse_key_param<Family>(p, key, failure);
    }
    return true;
}

template bool parse_tree_params<Blake2bFamily>(const OSSL_PARAM[], KeyPolicy, KeyArgument&,
                                               Reason&) noexcept;
template bool parse_tree_params<Blake2sFamily>(const OSSL_PARAM[], KeyPolicy, KeyArgument&,
                                               Reason&) noexcept;

}  // namespace blake2simd
