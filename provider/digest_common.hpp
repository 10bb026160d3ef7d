// What the BLAKE2B-512 and BLAKE2BP-512 digests share: their fixed params and ctx param tables.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/core.h>

#include <cstddef>

namespace blake2simd {

// Fills block size, `digest_size`, and the XOF and algorithm-id flags both digests share; a
// param that cannot take its value fails the call, with a reason raised.
bool get_digest_params(OSSL_PARAM params[], size_t digest_size) noexcept;

extern const OSSL_PARAM kDigestGettableParams[];

// Both digests list salt and custom: BLAKE2b applies them, and BLAKE2bp's callers reach its
// refusal (with its reason) instead of a generic "unknown parameter".
extern const OSSL_PARAM kDigestSettableCtxParams[];

extern const OSSL_PARAM kDigestGettableCtxParams[];

}  // namespace blake2simd
