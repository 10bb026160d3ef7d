// What the digests of both families share: their fixed params and ctx param tables.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/core.h>

#include <cstddef>

namespace blake2simd {

// Fills `block_size`, `digest_size`, and the XOF and algorithm-id flags every digest shares; a
// param that cannot take its value fails the call, with a reason raised.
bool get_digest_params(OSSL_PARAM params[], size_t block_size, size_t digest_size) noexcept;

extern const OSSL_PARAM kDigestGettableParams[];

// Every digest lists salt and custom: BLAKE2b and BLAKE2s apply them, and the tree modes'
// callers reach their refusal (with its reason) instead of a generic "unknown parameter".
extern const OSSL_PARAM kDigestSettableCtxParams[];

extern const OSSL_PARAM kDigestGettableCtxParams[];

}  // namespace blake2simd
