// Parameter validation for the tree modes (BLAKE2bp, BLAKE2sp): fixed full-size output, no salt,
// no personalization.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/core.h>

#include "errors.hpp"
#include "params.hpp"

namespace blake2simd {

// Checks every recognised parameter; nothing is applied here, so a failing call changes
// nothing. "size" is accepted only as the tree's digest size (64 for BLAKE2bp, 32 for
// BLAKE2sp); "salt" and "custom" are refused outright (the tree modes define neither); "key" is
// parsed into `key` only under KeyPolicy::accept. Unknown parameters are ignored, as everywhere
// in OpenSSL.
template <class Family>
bool parse_tree_params(const OSSL_PARAM params[], KeyPolicy key_policy, KeyArgument& key,
                       Reason& failure) noexcept;

}  // namespace blake2simd
