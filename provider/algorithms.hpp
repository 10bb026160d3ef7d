// Dispatch tables of the algorithms this provider offers.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/core.h>

namespace blake2simd {

extern const OSSL_DISPATCH kDigestBlake2b512Functions[];
extern const OSSL_DISPATCH kMacBlake2bFunctions[];
extern const OSSL_DISPATCH kDigestBlake2bp512Functions[];
extern const OSSL_DISPATCH kMacBlake2bpFunctions[];
extern const OSSL_DISPATCH kDigestBlake2s256Functions[];
extern const OSSL_DISPATCH kMacBlake2sFunctions[];
extern const OSSL_DISPATCH kDigestBlake2sp256Functions[];
// The fixed RFC 7693 sizes (names::kDigestBlake2b160 ...).
extern const OSSL_DISPATCH kDigestBlake2b160Functions[];
extern const OSSL_DISPATCH kDigestBlake2b256Functions[];
extern const OSSL_DISPATCH kDigestBlake2b384Functions[];
extern const OSSL_DISPATCH kDigestBlake2s128Functions[];
extern const OSSL_DISPATCH kDigestBlake2s160Functions[];
extern const OSSL_DISPATCH kDigestBlake2s224Functions[];
extern const OSSL_DISPATCH kDigestBlake2xbFunctions[];
extern const OSSL_DISPATCH kDigestBlake2xsFunctions[];
extern const OSSL_DISPATCH kMacBlake2xbFunctions[];
extern const OSSL_DISPATCH kMacBlake2xsFunctions[];
extern const OSSL_DISPATCH kMacBlake2spFunctions[];

}  // namespace blake2simd
