// Algorithm names and properties: the same name groups as OpenSSL's default provider, so
// both providers' rows map onto one name number.
// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace blake2simd::names {

inline constexpr char kProviderName[] = "blake2simd";
inline constexpr char kProperties[] = "provider=blake2simd";

inline constexpr char kDigestBlake2b512[] = "BLAKE2B-512:BLAKE2b512:1.3.6.1.4.1.1722.12.2.1.16";
inline constexpr char kMacBlake2b[] = "BLAKE2BMAC:1.3.6.1.4.1.1722.12.2.1";
inline constexpr char kDigestBlake2s256[] = "BLAKE2S-256:BLAKE2s256:1.3.6.1.4.1.1722.12.2.2.8";
inline constexpr char kMacBlake2s[] = "BLAKE2SMAC:1.3.6.1.4.1.1722.12.2.2";
// OpenSSL's default provider has no BLAKE2bp or BLAKE2sp: these names are ours alone.
inline constexpr char kDigestBlake2bp512[] = "BLAKE2BP-512";
inline constexpr char kMacBlake2bp[] = "BLAKE2BPMAC";
inline constexpr char kDigestBlake2sp256[] = "BLAKE2SP-256";
inline constexpr char kMacBlake2sp[] = "BLAKE2SPMAC";

// Parameter names of our own (no OpenSSL macro exists for them).
inline constexpr char kParamKernel[] = "kernel";

}  // namespace blake2simd::names
