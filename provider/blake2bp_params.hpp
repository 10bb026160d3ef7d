// Parameter validation for BLAKE2bp: fixed 64-byte output, no salt, no personalization.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/core.h>

#include "errors.hpp"
#include "params.hpp"

namespace blake2simd {

// Checks every recognised parameter; nothing is applied here, so a failing call changes
// nothing. "size" is accepted only as 64; "salt" and "custom" are refused outright (BLAKE2bp
// defines neither); "key" is parsed into `key` only under KeyPolicy::accept. Unknown parameters
// are ignored, as everywhere in OpenSSL.
bool parse_blake2bp_params(const OSSL_PARAM params[], KeyPolicy key_policy, KeyArgument& key,
                           Reason& failure) noexcept;

}  // namespace blake2simd
