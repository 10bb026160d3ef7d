// Parameter validation for BLAKE2bp: fixed 64-byte output, no salt, no personalization.
// SPDX-License-Identifier: Apache-2.0
#include "blake2bp_params.hpp"
#include "baseline_guard.hpp"

#include <openssl/core_names.h>
#include <openssl/params.h>

#include "blake2bp_engine.hpp"

namespace blake2simd {
namespace {

// A param whose data pointer is NULL is malformed: refused, never read (OpenSSL 3.0's
// OSSL_PARAM getters would dereference it).
bool check_output_size(const OSSL_PARAM* p, Reason& failure) noexcept {
    if ((p->data_type != OSSL_PARAM_INTEGER && p->data_type != OSSL_PARAM_UNSIGNED_INTEGER) ||
        p->data == nullptr) {
        failure = Reason::wrong_param_type;
        return false;
    }
    size_t size = 0;
    if (!OSSL_PARAM_get_size_t(p, &size) || size != kBlake2bpDigestBytes) {
        failure = Reason::blake2bp_output_size;
        return false;
    }
    return true;
}

bool parse_key(const OSSL_PARAM* p, KeyArgument& key, Reason& failure) noexcept {
    if (p->data_type != OSSL_PARAM_OCTET_STRING || (p->data == nullptr && p->data_size > 0)) {
        failure = Reason::wrong_param_type;
        return false;
    }
    if (!is_valid_key_length(p->data_size)) {
        failure = Reason::invalid_key_length;
        return false;
    }
    key.bytes = static_cast<const uint8_t*>(p->data);
    key.length = p->data_size;
    return true;
}

}  // namespace

bool parse_blake2bp_params(const OSSL_PARAM params[], KeyPolicy key_policy, KeyArgument& key,
                           Reason& failure) noexcept {
    key = KeyArgument{};
    if (params == nullptr) {
        return true;
    }
    const OSSL_PARAM* p = nullptr;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_MAC_PARAM_SIZE)) != nullptr &&
        !check_output_size(p, failure)) {
        return false;
    }
    // Even an empty salt or custom is refused: accepting it would suggest the other lengths work.
    if (OSSL_PARAM_locate_const(params, OSSL_MAC_PARAM_SALT) != nullptr) {
        failure = Reason::blake2bp_salt;
        return false;
    }
    if (OSSL_PARAM_locate_const(params, OSSL_MAC_PARAM_CUSTOM) != nullptr) {
        failure = Reason::blake2bp_custom;
        return false;
    }
    if (key_policy == KeyPolicy::accept &&
        (p = OSSL_PARAM_locate_const(params, OSSL_MAC_PARAM_KEY)) != nullptr) {
        return parse_key(p, key, failure);
    }
    return true;
}

}  // namespace blake2simd
