// Algorithm names and properties: the same name groups as OpenSSL's default provider, so
// both providers' rows map onto one name number.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/core.h>

namespace blake2simd::names {

inline constexpr char kProviderName[] = "blake2simd";
inline constexpr char kProperties[] = "provider=blake2simd";

inline constexpr char kDigestBlake2b512[] = "BLAKE2B-512:BLAKE2b512:1.3.6.1.4.1.1722.12.2.1.16";
inline constexpr char kMacBlake2b[] = "BLAKE2BMAC:1.3.6.1.4.1.1722.12.2.1";
inline constexpr char kDigestBlake2s256[] = "BLAKE2S-256:BLAKE2s256:1.3.6.1.4.1.1722.12.2.2.8";
inline constexpr char kMacBlake2s[] = "BLAKE2SMAC:1.3.6.1.4.1.1722.12.2.2";
// The other RFC 7693 sizes (section 4): BLAKE2 with that digest length in the parameter block,
// named for programs that take a digest name only. The default provider has none of them.
inline constexpr char kDigestBlake2b160[] = "BLAKE2B-160:BLAKE2b160:1.3.6.1.4.1.1722.12.2.1.5";
inline constexpr char kDigestBlake2b256[] = "BLAKE2B-256:BLAKE2b256:1.3.6.1.4.1.1722.12.2.1.8";
inline constexpr char kDigestBlake2b384[] = "BLAKE2B-384:BLAKE2b384:1.3.6.1.4.1.1722.12.2.1.12";
inline constexpr char kDigestBlake2s128[] = "BLAKE2S-128:BLAKE2s128:1.3.6.1.4.1.1722.12.2.2.4";
inline constexpr char kDigestBlake2s160[] = "BLAKE2S-160:BLAKE2s160:1.3.6.1.4.1.1722.12.2.2.5";
inline constexpr char kDigestBlake2s224[] = "BLAKE2S-224:BLAKE2s224:1.3.6.1.4.1.1722.12.2.2.7";
// OpenSSL's default provider has no BLAKE2bp or BLAKE2sp: these names are ours alone.
inline constexpr char kDigestBlake2bp512[] = "BLAKE2BP-512";
inline constexpr char kMacBlake2bp[] = "BLAKE2BPMAC";
inline constexpr char kDigestBlake2sp256[] = "BLAKE2SP-256";
inline constexpr char kMacBlake2sp[] = "BLAKE2SPMAC";

// The BLAKE2X extendable-output functions (the BLAKE2X paper); no OIDs are assigned to them.
inline constexpr char kDigestBlake2xb[] = "BLAKE2XB";
inline constexpr char kDigestBlake2xs[] = "BLAKE2XS";
inline constexpr char kMacBlake2xb[] = "BLAKE2XBMAC";
inline constexpr char kMacBlake2xs[] = "BLAKE2XSMAC";

// Argon2 (RFC 9106), the names OpenSSL 3.2+'s default provider gives them.
inline constexpr char kKdfArgon2i[] = "ARGON2I";
inline constexpr char kKdfArgon2d[] = "ARGON2D";
inline constexpr char kKdfArgon2id[] = "ARGON2ID";

// Parameter names of our own (no OpenSSL macro exists for them); those of settable params are
// declared with their rows (algorithm_params.hpp).
inline constexpr char kParamKernel[] = "kernel";

// Argon2's parameters that OpenSSL 3.0's headers, which we build against, do not name yet
// (<openssl/core_names.h> of 3.2+: OSSL_KDF_PARAM_ARGON2_AD, ...).
inline constexpr char kParamArgon2Ad[] = "ad";
inline constexpr char kParamArgon2Lanes[] = "lanes";
inline constexpr char kParamArgon2Memcost[] = "memcost";
inline constexpr char kParamArgon2Version[] = "version";
inline constexpr char kParamThreads[] = "threads";
inline constexpr char kParamEarlyClean[] = "early_clean";

}  // namespace blake2simd::names

// Dispatch tables of the algorithms this provider offers.
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
extern const OSSL_DISPATCH kKdfArgon2iFunctions[];
extern const OSSL_DISPATCH kKdfArgon2dFunctions[];
extern const OSSL_DISPATCH kKdfArgon2idFunctions[];

}  // namespace blake2simd
